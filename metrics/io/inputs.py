"""Reading segment files: one segment per line (``.txt``), or one JSON object per line (``.jsonl``).

Every problem is reported as an :class:`InputError` naming the file and, where it applies, the line. Nothing is
dropped or cut silently: a byte-order mark and Windows line endings are handled and reported as notes, and so are
segments that are empty or only whitespace (kept: an empty output is a legitimate output, but often a mistake).

Text is UTF-8; a file that starts with a UTF-16 byte-order mark (what some Windows editors save) is read as UTF-16
(little- or big-endian, as the mark says), with a note. A NUL byte anywhere else means a binary file.

Line breaks are ``\n`` alone, as sacrebleu reads files (``open(…, newline="\n")``): a Windows ``\r\n`` ending
becomes ``\n``, and a bare carriage return inside a line stays in the segment as a character, where every tokenizer
that splits on whitespace treats it as a space (sacrebleu's regression test expects ``"you \r doing"`` to score as
``"you doing"``); the character metrics (CER, chrF with ``whitespace=true``) count it, as their references would.
One exception: a file with no ``\n`` at all that ends with a carriage return or has more than one has old Mac OS
line ends, and each carriage return is read as a line break. A single carriage return inside the only line of a file
(sacrebleu's "control character" regression case) stays a character. All of these are reported as notes. In a CSV/TSV table, where a bare
carriage return would end a row, it must be inside a quoted field.

JSON is bounded before it is parsed: a value nested deeper than :data:`MAX_JSON_DEPTH` would exhaust Python's
recursion limit inside the parser, so it is refused naming the file and line.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from json.scanner import make_scanner
from pathlib import Path
from typing import Any, BinaryIO, cast

from metrics.kernels import in_threads, kernel, processors

MAX_FILE_BYTES = 200 * 1024 * 1024
MAX_LINE_CHARS = 1_000_000
# Far deeper than any file ScoreLens reads (segments, scores, metadata and workspaces nest at most 4 deep) and far
# below Python's recursion limit (1,000 frames), of which the app's own stack takes about 100.
MAX_JSON_DEPTH = 64
_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = {b"\xff\xfe": "UTF-16 little-endian", b"\xfe\xff": "UTF-16 big-endian"}


class InputError(ValueError):
    """A file that cannot be read as segments; the message names the file and line."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        self.source = source
        self.message = message
        self.line = line
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str, int | None]]:
        # Rebuilt from its parts, so the error keeps its type when it crosses processes (a Dask worker's).
        return (type(self), (self.source, self.message, self.line))


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


def decode_text(data: bytes, source: str, notes: list[str], first_line: int = 1) -> str:
    """The text of ``data`` (file ``source``; a run of its lines from ``first_line`` on), with ``\n`` line breaks:
    UTF-8, or UTF-16 after its byte-order mark; what was converted is added to ``notes`` (module docstring)."""
    bom = data[:2] if first_line == 1 else b""
    if bom in UTF16_BOMS:
        text = _decode_utf16(data, source, UTF16_BOMS[bom])
        notes.append(f"{source}: read as {UTF16_BOMS[bom]} (the file starts with its byte-order mark)")
        if "\x00" in text:
            at = text.index("\x00")
            raise InputError(source, "contains a NUL character; expected text", text.count("\n", 0, at) + first_line)
        return _line_breaks(text, source, notes, first_line)
    if b"\x00" in data:
        at = data.index(b"\x00")
        line = data.count(b"\n", 0, at) + first_line
        raise InputError(
            source,
            "looks like a binary file (it contains NUL bytes); expected UTF-8 text (UTF-16 is read when the file starts "
            "with its byte-order mark; else re-save the file as UTF-8)",
            line,
        )
    if first_line == 1 and data.startswith(_BOM):
        data = data[3:]
        notes.append(f"{source}: removed a UTF-8 byte-order mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + first_line
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(
            source,
            f"bytes {data[err.start : err.start + 4]!r} at column {column} are not valid UTF-8 "
            "(UTF-16 is read when the file starts with its byte-order mark); re-save the file as UTF-8",
            line,
        ) from None
    return _line_breaks(text, source, notes, first_line)


def _decode_utf16(data: bytes, source: str, encoding: str) -> str:
    try:
        return data.decode("utf-16")  # the byte-order mark chooses the byte order and is dropped
    except UnicodeDecodeError as err:
        line = data[: err.start - err.start % 2].decode("utf-16").count("\n") + 1
        raise InputError(
            source,
            f"starts with a {encoding} byte-order mark but is not valid UTF-16 (an odd number of bytes, or a lone "
            "surrogate); re-save the file as UTF-8",
            line,
        ) from None


def old_mac_line_ends(text: str) -> bool:
    """Whether ``text``, a whole file, has old Mac OS line ends: no LF, and a CR that ends it or more than one (a
    single CR inside the only line stays a character, as sacrebleu reads it)."""
    return "\n" not in text and (text.endswith("\r") or text.count("\r") > 1)


def _line_breaks(text: str, source: str, notes: list[str], first_line: int) -> str:
    if "\r" not in text:  # one character is looked for much faster than two: most files have no CR at all
        return text
    if first_line == 1 and old_mac_line_ends(text):
        notes.append(
            f"{source}: read carriage returns (CR) as line breaks: the file has no LF, so it has old Mac OS line ends"
        )
        return text.replace("\r", "\n")
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
        notes.append(f"{source}: converted Windows (CRLF) line endings")
    if "\r" in text:
        lines = [number for number, line in enumerate(text.split("\n"), start=first_line) if "\r" in line]
        more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
        notes.append(
            f"{source}: line {lines[0]}{more} has a bare carriage return (CR) inside it; it is kept as a character, as "
            "sacrebleu reads files, and tokenizers that split on whitespace treat it as a space"
        )
    return text


# A JSON string (its closing quote optional, so that an unterminated one ends the match in one pass) or a bracket.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)


def check_json_nesting(text: str, source: str, first_line: int = 1, start: int = 0, stop: int | None = None) -> None:
    """Refuse JSON ``text[start:stop]`` (which starts on line ``first_line`` of ``source``) when it nests deeper
    than :data:`MAX_JSON_DEPTH`: json's parser recurses once per level and would fail deep in the stack. Brackets
    inside strings do not count; a text with fewer opening brackets than the limit is not scanned."""
    stop = len(text) if stop is None else stop
    if text.count("[", start, stop) + text.count("{", start, stop) <= MAX_JSON_DEPTH:
        return
    depth = 0
    for token in _JSON_TOKEN.finditer(text, start, stop):
        bracket = text[token.start()]  # a string's first character is its quote
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = first_line + text.count("\n", start, token.start())
                raise InputError(
                    source, f"JSON nested more than {MAX_JSON_DEPTH} levels deep; is this the right file?", line
                )
        elif bracket in ("]", "}"):
            depth -= 1


def json_line(line: str, source: str, number: int) -> Any:
    """Line ``number`` of JSON-lines file ``source`` as json decodes it, its length and nesting bounded first; an
    object naming a key twice is refused (json would keep the last silently)."""
    if len(line) > MAX_LINE_CHARS:
        raise InputError(
            source, f"line has {len(line):,} characters, more than the limit of {MAX_LINE_CHARS:,}", number
        )
    check_json_nesting(line, source, number)
    try:
        value = json.loads(line)
    except json.JSONDecodeError as err:
        raise InputError(source, f"not valid JSON ({err.msg} at column {err.colno})", number) from None
    if isinstance(value, dict) and line.count(":") > len(value):  # fewer keys than colons: maybe one twice
        json.loads(line, object_pairs_hook=lambda pairs: _unique_keys(pairs, source, number))
    return value


def _unique_keys(pairs: list[tuple[str, Any]], source: str, number: int) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) < len(pairs):
        twice = next(key for k, (key, _) in enumerate(pairs) if key in dict(pairs[:k]))
        raise InputError(source, f"the key {twice[:40]!r} appears twice in one object", number)
    return found


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line is not an extra empty segment
    return lines


def _check_line_lengths(texts: Sequence[str], source: str, first_line: int = 1) -> None:
    if max(map(len, texts), default=0) <= MAX_LINE_CHARS:  # in C: the loop below only finds the first offender
        return
    for number, line in enumerate(texts, start=first_line):
        if len(line) > MAX_LINE_CHARS:
            raise InputError(
                source,
                f"segment has {len(line):,} characters, more than the limit of {MAX_LINE_CHARS:,}; "
                "is this really one segment per line?",
                number,
            )


_DECODER = json.JSONDecoder()
_DECODE = _DECODER.decode  # json.loads without its per-call checks
# json's C scanner: the value that starts exactly at an index of a text and the index where it ends, without the
# whitespace skipping and end check of decode() and without cutting the text into lines first.
_SCAN = make_scanner(_DECODER)  # type: ignore[arg-type]  # typeshed wants a scanner; json passes its decoder


def _decode_line(line: str, source: str, number: int) -> Any:
    if not line or line.isspace():
        raise InputError(source, "empty line in a JSON-lines file (every line must be one JSON value)", number)
    check_json_nesting(line, source, number)
    try:
        return _DECODE(line)
    except json.JSONDecodeError as err:
        raise InputError(source, f"not valid JSON ({err.msg} at column {err.colno})", number) from None


def _segment_text(value: Any, key: str, source: str, number: int) -> str:
    if isinstance(value, dict):
        if key not in value:
            raise InputError(source, f"object has no {key!r} field (fields: {', '.join(value) or 'none'})", number)
        value = value[key]
    if isinstance(value, list):
        try:
            value = "\n".join(value)  # a list of sentences: sentence boundaries become newlines (ROUGE-Lsum)
        except TypeError:
            kinds = sorted({type(item).__name__ for item in value if not isinstance(item, str)})
            raise InputError(
                source, f"expected a string or a list of strings, got a list holding {', '.join(kinds)}", number
            ) from None
    if not isinstance(value, str):
        raise InputError(source, f"expected a string or a list of strings, got {type(value).__name__}", number)
    return value


def _parse_jsonl(text: str, source: str, key: str, first_line: int = 1) -> list[str]:
    """Each line's JSON value (as :func:`_decode_line` decodes the line alone) made a segment.

    The scanner reads the value that starts at the line's first character; when it ends exactly at the line's end,
    that is the value the line decodes to, found without cutting the text into lines (in 60 % of the time of
    decoding each line). Anything else — whitespace around the value, an empty line, a value that is not valid JSON, more
    after it, or one that runs on into the next line — is left to decoding the line alone, which gives the value
    or the error naming the line."""
    texts = []
    scan, size, start, number = _SCAN, len(text), 0, first_line
    while start < size:
        stop = text.find("\n", start)
        if stop < 0:
            stop = size
        check_json_nesting(text, source, number, start, stop)
        try:
            value, end = scan(text, start)
        except (StopIteration, ValueError):  # no value starts at the line's first character, or an invalid one
            end = -1
        except RecursionError:  # a value that runs on into lines nested deeper still: the line alone says why
            end = -1
        if end != stop:
            value = _decode_line(text[start:stop], source, number)
        texts.append(value if type(value) is str else _segment_text(value, key, source, number))
        start, number = stop + 1, number + 1
    return texts


def _compiled_jsonl(data: bytes, source: str, key: str, first_line: int) -> list[str] | None:
    """:func:`_parse_jsonl` of the decoded ``data``, by the compiled reader (see :mod:`metrics.kernels._jsonl`) and,
    for the lines it leaves, by decoding each of them alone. None when there is no compiled reader; when the file
    has what decoding it whole notes (a byte-order mark, a carriage return); when more than one line in eight is left
    (an object per line: Python reads the whole file faster); and when a line is in error, so that reading the whole file
    reports the first error as it always does."""
    compiled = kernel("jsonl")
    if compiled is None or b"\r" in data or data.startswith((_BOM, *UTF16_BOMS)):
        return None
    texts, left = compiled.segments(data)
    if len(left) * 8 > len(texts):
        return None
    try:
        for index, start, stop in left:
            number = first_line + index
            line = data[start:stop].decode("utf-8")
            texts[index] = _segment_text(_decode_line(line, source, number), key, source, number)
    except (InputError, UnicodeDecodeError):
        return None
    return cast(list[str], texts)


# The csv module refuses a field over 131,072 characters by default: a segment may have up to MAX_LINE_CHARS.
csv.field_size_limit(max(csv.field_size_limit(), MAX_FILE_BYTES))


def table_rows(text: str, source: str, delimiter: str, newline: str = "") -> list[list[str]]:
    """The rows of a CSV/TSV ``text``; a row the csv module cannot read is an error naming the line. With
    ``newline="\n"`` rows end at ``\n`` only: a carriage return is data inside a quoted field and an error outside
    one, where the csv module would otherwise start a new row at it."""
    reader = csv.reader(io.StringIO(text, newline=newline), delimiter=delimiter)
    try:
        return list(reader)
    except csv.Error as err:
        if "new-line character" in str(err):
            why = "a carriage return (CR) outside quotes would end the row; put that field in quotes"
        else:
            why = f"not a readable {'TSV' if delimiter == chr(9) else 'CSV'} row ({err})"
        raise InputError(source, why, reader.line_num) from None


def _parse_table(text: str, source: str, column: str | None, delimiter: str) -> list[str]:
    rows = table_rows(text, source, delimiter, newline="\n")
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
    text = decode_text(data, source, [])
    first = text.split("\n", 1)[0]
    delimiter = "\t" if source.lower().endswith(".tsv") else ","
    return next(csv.reader([first], delimiter=delimiter), [])


def _blank_note(texts: Sequence[str], source: str, where: str, first: int) -> list[str]:
    """A note on segments that are empty or only whitespace (kept: an empty output is legitimate, but often a
    mistake); segment k is on ``where`` k + ``first`` − 1."""
    blank = [k for k, segment in enumerate(texts) if not segment or segment.isspace()]  # strip() would copy each
    if not blank:
        return []
    shown = ", ".join(str(k + first) for k in blank[:20]) + (" …" if len(blank) > 20 else "")
    return [
        f"{source}: {len(blank)} segment(s) empty or only whitespace ({where}{'s' * (len(blank) > 1)} {shown}); "
        "each is scored as an empty output"
    ]


TABLE_SUFFIXES = (".tsv", ".csv")
JSONL_SUFFIXES = (".jsonl", ".ndjson")


def parse_segments(data: bytes, source: str, *, column: str | None = None, json_key: str = "text") -> Segments:
    """Read ``data`` (the bytes of file ``source``) as segments; the file type follows ``source``'s suffix."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError(source, f"file has {len(data):,} bytes, more than the limit of {MAX_FILE_BYTES:,}")
    if not data:
        raise InputError(source, "file is empty")
    suffix = Path(source).suffix.lower()
    if suffix in TABLE_SUFFIXES:
        notes: list[str] = []
        texts = _parse_table(decode_text(data, source, notes), source, column, "\t" if suffix == ".tsv" else ",")
        _check_line_lengths(texts, source, 2)  # a table's segment k is on row k + 1, after the header
        notes += _blank_note(texts, source, "row", 2)  # a table's segment k is on row k + 1, after the header
        segments = Segments(display_name(source), tuple(texts), tuple(notes), source)
    else:
        segments = parse_lines(data, source, json_key=json_key)
    if not segments.texts:
        raise InputError(source, "file has no segments")
    return segments


def parse_lines(data: bytes, source: str, *, first_line: int = 1, json_key: str = "text") -> Segments:
    """Read whole lines of a one-segment-per-line file (plain text or JSON lines, not a CSV/TSV table) as
    segments: the whole file, or a run of its lines that starts at line ``first_line``, so that errors name the
    line of the file (a partitioned reader parses each partition alone). Only line 1 may start with a byte-order
    mark."""
    suffix = Path(source).suffix.lower()
    if suffix in TABLE_SUFFIXES:
        raise InputError(source, "a CSV/TSV record may span lines, so it is not read by lines; use .txt, .jsonl")
    notes: list[str] = []
    if suffix not in JSONL_SUFFIXES:
        texts = _lines(decode_text(data, source, notes, first_line))
    elif (compiled := _compiled_jsonl(data, source, json_key, first_line)) is not None:
        texts = compiled
    else:
        texts = _parse_jsonl(decode_text(data, source, notes, first_line), source, json_key, first_line)
    _check_line_lengths(texts, source, first_line)
    notes += _blank_note(texts, source, "line", first_line)
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


def read_bounded(path: str | Path) -> bytes:
    """The bytes of a side file (human scores, annotations), at most :data:`MAX_FILE_BYTES`; an
    :class:`InputError` naming the file says why it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise InputError(str(path), f"cannot read: {err.strerror or err}") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(str(path), f"file has {len(data):,} bytes, more than the limit of {MAX_FILE_BYTES:,}")
    return data


def read_all(paths: Sequence[str | Path]) -> list[Segments]:
    """:func:`read_segments` of every path, the files spread over a thread per processor (reading a file and the
    compiled JSON-lines reader's parsing run without the GIL). An error is the first failing path's, as reading
    them one by one gives."""
    parts = max(1, min(processors(), len(paths)))
    outcomes: list[Segments | Exception | None] = [None] * len(paths)

    def read(part: int) -> None:
        for k in range(part, len(paths), parts):
            try:
                outcomes[k] = read_segments(paths[k])
            except Exception as err:  # raised below, the first in path order
                outcomes[k] = err

    in_threads(read, parts)
    for outcome in outcomes:
        if isinstance(outcome, Exception):
            raise outcome
    return cast(list[Segments], outcomes)


def check_same_length(files: Sequence[Segments]) -> None:
    """All files must have the same number of segments; the error lists every file and its count."""
    check_same_counts({f.source or f.name: len(f) for f in files})


def check_same_counts(counts: Mapping[str, int]) -> None:
    """Every input (name → number of segments) must have the same number of segments."""
    if len(set(counts.values())) > 1:
        listing = ", ".join(f"{name}: {count} lines" for name, count in counts.items())
        raise InputError("inputs", f"files have different numbers of segments ({listing})")
