"""Segment metadata: one row per segment with named columns (domain, document id, genre, annotator…), read from
a TSV or CSV file with a header row, or a JSON-lines file of objects.

Every problem is an :class:`~metrics.io.inputs.InputError` naming the file and, where it applies, the line: a row
count that does not match the segments, a row with the wrong number of fields, a line that is not a JSON object, a
field missing from one object, a column asked for that the file does not have. Values are kept as text (a JSON
number is written as JSON writes it; ``null`` is the empty string).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from metrics.io.inputs import MAX_FILE_BYTES, InputError, _lines, decode_text, json_line, table_rows

SUFFIXES = (".tsv", ".csv", ".jsonl", ".ndjson")


@dataclass(frozen=True)
class Metadata:
    """Columns of per-segment values: ``values[column][i]`` belongs to segment ``i``."""

    source: str
    columns: tuple[str, ...]
    values: Mapping[str, tuple[str, ...]]
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.values[self.columns[0]]) if self.columns else 0

    def column(self, name: str) -> tuple[str, ...]:
        if name not in self.values:
            raise InputError(self.source, f"no column {name!r}; the file has: {', '.join(self.columns)}")
        return self.values[name]


def _table(text: str, source: str, delimiter: str) -> tuple[list[str], list[list[str]]]:
    rows = table_rows(text, source, delimiter)
    if not rows:
        raise InputError(source, "the table is empty")
    header = rows[0]
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise InputError(source, f"row has {len(row)} fields but the header has {len(header)}", number)
    return header, rows[1:]


def _text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _objects(text: str, source: str) -> tuple[list[str], list[list[str]]]:
    header: list[str] = []
    records = []
    for number, line in enumerate(_lines(text), start=1):
        value = json_line(line, source, number)
        if not isinstance(value, dict):
            raise InputError(
                source, f"expected a JSON object with one field per column, got {type(value).__name__}", number
            )
        if not header:
            header = list(value)
        missing = [c for c in header if c not in value]
        if missing or len(value) != len(header):
            extra = [c for c in value if c not in header]
            detail = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"extra {', '.join(extra)}" if extra else "",
                )
                if part
            )
            raise InputError(source, f"fields differ from the first line's ({detail})", number)
        records.append([_text(value[c]) for c in header])
    return header, records


def parse_metadata(data: bytes, source: str, n_segments: int) -> Metadata:
    """Read ``data`` (the bytes of file ``source``, type by suffix) as metadata for ``n_segments`` segments."""
    suffix = Path(source).suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(
            source, f"metadata must be a {', '.join(SUFFIXES)} file with a header (or keys), one row per segment"
        )
    if len(data) > MAX_FILE_BYTES:
        raise InputError(source, f"file has {len(data):,} bytes, more than the limit of {MAX_FILE_BYTES:,}")
    if not data:
        raise InputError(source, "file is empty")
    notes: list[str] = []
    text = decode_text(data, source, notes)
    if suffix in (".tsv", ".csv"):
        header, rows = _table(text, source, "\t" if suffix == ".tsv" else ",")
    else:
        header, rows = _objects(text, source)
    if not header or not all(name.strip() for name in header):
        raise InputError(source, "every column needs a name in the header", 1)
    if len(set(header)) != len(header):
        raise InputError(source, f"two columns share a name in the header ({', '.join(header)})", 1)
    if len(rows) != n_segments:
        raise InputError(
            source, f"has {len(rows)} rows of metadata but the data has {n_segments} segments (one row per segment)"
        )
    values = {name: tuple(row[k] for row in rows) for k, name in enumerate(header)}
    return Metadata(source, tuple(header), values, tuple(notes))


def read_metadata(path: str | Path, n_segments: int) -> Metadata:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(str(path), f"cannot read file ({err.strerror or err})") from None
    return parse_metadata(data, str(path), n_segments)
