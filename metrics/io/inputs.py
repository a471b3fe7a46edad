"""Reading segment files: one segment per line (``.txt``), or one JSON object per line (``.jsonl``).

Every problem is reported as an :class:`InputError` naming the file and, where it applies, the line. Nothing is
dropped or cut silently: a byte-order mark and Windows line endings are handled and reported as notes, and so are
segments that are empty or only whitespace (kept: an empty output is a legitimate output, but often a mistake).
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

MAX_FILE_BYTES = 200 * 1024 * 1024
MAX_LINE_CHARS = 1_000_000


class InputError(ValueError):
    """A file that cannot be read as segments; the message names the file and line."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        self.source = source
        self.line = line
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Segments:
    """The segments of one file, with notes on anything that was normalized while reading it."""

    name: str
    texts: tuple[str, ...]
    notes: tuple[str, ...] = field(default=())
    source: str = ""

    def __len__(self) -> int:
        return len(self.texts)


_SUFFIXES = (".sents.jsonl", ".jsonl", ".ndjson", ".txt", ".tsv", ".csv")


def display_name(source: str) -> str:
    """A file's name without its segment-file suffix: ``sys/baseline.sents.jsonl`` → ``baseline``."""
    name = Path(source).name
    for suffix in _SUFFIXES:
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return Path(source).stem or name


def _decode(data: bytes, source: str, notes: list[str]) -> str:
    if b"\x00" in data[:8192] or b"\x00" in data:
        at = data.index(b"\x00")
        line = data.count(b"\n", 0, at) + 1
        raise InputError(source, "looks like a binary file (it contains NUL bytes); expected UTF-8 text", line)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        notes.append(f"{source}: removed a UTF-8 byte-order mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(
            source,
            f"bytes {data[err.start : err.start + 4]!r} at column {column} are not valid UTF-8 "
            "(the only encoding tried); re-save the file as UTF-8",
            line,
        ) from None
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
        notes.append(f"{source}: converted Windows (CRLF) line endings")
    if "\r" in text:
        line = text.count("\n", 0, text.index("\r")) + 1
        raise InputError(source, "contains a bare carriage return (old Mac line ending) inside a line", line)
    return text


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line is not an extra empty segment
    return lines


def _check_line_lengths(texts: Sequence[str], source: str) -> None:
    for number, line in enumerate(texts, start=1):
        if len(line) > MAX_LINE_CHARS:
            raise InputError(
                source,
                f"segment has {len(line):,} characters, more than the limit of {MAX_LINE_CHARS:,}; "
                "is this really one segment per line?",
                number,
            )


def _parse_jsonl(text: str, source: str, key: str) -> list[str]:
    texts = []
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            raise InputError(source, "empty line in a JSON-lines file (every line must be one JSON value)", number)
        try:
            value = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(source, f"not valid JSON ({err.msg} at column {err.colno})", number) from None
        if isinstance(value, dict):
            if key not in value:
                raise InputError(source, f"object has no {key!r} field (fields: {', '.join(value) or 'none'})", number)
            value = value[key]
        if isinstance(value, list) and all(isinstance(s, str) for s in value):
            value = "\n".join(value)  # a list of sentences: sentence boundaries become newlines (ROUGE-Lsum)
        if not isinstance(value, str):
            raise InputError(source, f"expected a string or a list of strings, got {type(value).__name__}", number)
        texts.append(value)
    return texts


def _parse_table(text: str, source: str, column: str | None, delimiter: str) -> list[str]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = list(reader)
    if not rows:
        raise InputError(source, "the table is empty")
    header = rows[0]
    if column is None:
        raise InputError(source, f"choose a column; the header has: {', '.join(header)}")
    if column not in header:
        raise InputError(source, f"no column {column!r}; the header has: {', '.join(header)}", 1)
    index = header.index(column)
    texts = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise InputError(source, f"row has {len(row)} fields but the header has {len(header)}", number)
        texts.append(row[index])
    return texts


def table_columns(data: bytes, source: str) -> list[str]:
    """Header of a ``.csv``/``.tsv`` file, so a user can choose the text column."""
    text = _decode(data, source, [])
    first = text.split("\n", 1)[0]
    delimiter = "\t" if source.lower().endswith(".tsv") else ","
    return next(csv.reader([first], delimiter=delimiter), [])


def parse_segments(data: bytes, source: str, *, column: str | None = None, json_key: str = "text") -> Segments:
    """Read ``data`` (the bytes of file ``source``) as segments; the file type follows ``source``'s suffix."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError(source, f"file has {len(data):,} bytes, more than the limit of {MAX_FILE_BYTES:,}")
    if not data:
        raise InputError(source, "file is empty")
    notes: list[str] = []
    text = _decode(data, source, notes)
    suffix = Path(source).suffix.lower()
    if suffix in {".jsonl", ".ndjson"}:
        texts = _parse_jsonl(text, source, json_key)
    elif suffix in {".tsv", ".csv"}:
        texts = _parse_table(text, source, column, "\t" if suffix == ".tsv" else ",")
    else:
        texts = _lines(text)
    if not texts:
        raise InputError(source, "file has no segments")
    _check_line_lengths(texts, source)
    blank = [number for number, segment in enumerate(texts, start=1) if not segment.strip()]
    if blank:
        # A table's segment k is on row k + 1, after the header; elsewhere segment k is line k.
        where, first = ("row", 2) if suffix in {".tsv", ".csv"} else ("line", 1)
        shown = ", ".join(str(number + first - 1) for number in blank[:20]) + (" …" if len(blank) > 20 else "")
        notes.append(
            f"{source}: {len(blank)} segment(s) empty or only whitespace ({where}{'s' * (len(blank) > 1)} {shown}); "
            "each is scored as an empty output"
        )
    return Segments(display_name(source), tuple(texts), tuple(notes), source)


STDIN = "-"


def read_segments(
    path: str | Path, *, column: str | None = None, json_key: str = "text", stdin: BinaryIO | None = None
) -> Segments:
    """The segments of file ``path``; ``-`` reads standard input (``stdin``, default ``sys.stdin``'s bytes) as
    one segment per line, named ``stdin``."""
    if str(path) == STDIN:
        stream = stdin if stdin is not None else sys.stdin.buffer
        return parse_segments(stream.read(), "stdin", column=column, json_key=json_key)
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(str(path), f"cannot read file ({err.strerror or err})") from None
    return parse_segments(data, str(path), column=column, json_key=json_key)


def check_same_length(files: Sequence[Segments]) -> None:
    """All files must have the same number of segments; the error lists every file and its count."""
    counts = {f.source or f.name: len(f) for f in files}
    if len(set(counts.values())) > 1:
        listing = ", ".join(f"{name}: {count} lines" for name, count in counts.items())
        raise InputError("inputs", f"files have different numbers of segments ({listing})")
