"""Reading a Parquet table of segments: one row per segment, one column per system, reference columns beside them.

The column convention (the README's "Parquet input" section):

- a column named ``ref``, or starting with ``ref.`` (``ref.A``, ``ref.B``), is a reference stream, in column order;
- a column whose name starts with ``_`` (``_id``, ``_src``) is ignored, so ids and sources can travel along;
- every other column is a system, named by its column.

Cells are strings. A null reference cell means the segment has no such reference (a ``None`` in the reference
streams); a null system cell is an error naming the file, the column and the row. Row ``i`` is segment ``i``.
Rows are read by range (:func:`read_rows`), touching only the row groups that hold them, so a table larger than
one process is read partition by partition. Needs ``pyarrow`` (``pip install 'scorelens[parquet]'``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from metrics.io.inputs import InputError

REF = "ref"
IGNORED_PREFIX = "_"


def is_reference(column: str) -> bool:
    return column == REF or column.startswith(REF + ".")


def _pyarrow(path: str) -> tuple[Any, Any]:
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise InputError(path, "reading Parquet needs pyarrow: pip install 'scorelens[parquet]'") from None
    return pa, pq


def _open(path: str) -> Any:
    pa, pq = _pyarrow(path)
    try:
        return pq.ParquetFile(path)
    except OSError as err:
        raise InputError(path, f"cannot read file ({err.strerror or err})") from None
    except pa.ArrowInvalid as err:
        raise InputError(path, f"not a Parquet file ({err})") from None


@dataclass(frozen=True)
class TableLayout:
    """A Parquet file's segments: how many, its reference and system columns, and where its row groups start."""

    path: str
    rows: int
    refs: tuple[str, ...]
    systems: tuple[str, ...]
    group_starts: tuple[int, ...]


def table_layout(path: str) -> TableLayout:
    """The layout of a Parquet file, refusing a table without references or systems or with non-text columns."""
    pa, _ = _pyarrow(path)
    handle = _open(path)
    schema = handle.schema_arrow
    refs: list[str] = []
    systems: list[str] = []
    repeated = sorted({name for name in schema.names if schema.names.count(name) > 1})
    if repeated:
        raise InputError(path, f"column name(s) {', '.join(map(repr, repeated))} appear more than once")
    for column in schema:
        if column.name.startswith(IGNORED_PREFIX):
            continue
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            raise InputError(path, f"column {column.name!r} holds {column.type}, not text (name it _… to skip it)")
        (refs if is_reference(column.name) else systems).append(column.name)
    if not refs:
        raise InputError(path, f"no reference column (named {REF!r} or {REF}.…); columns: {', '.join(schema.names)}")
    if not systems:
        raise InputError(path, f"no system column besides the references; columns: {', '.join(schema.names)}")
    metadata = handle.metadata
    if metadata.num_rows == 0:
        raise InputError(path, "the table has no rows")
    starts, at = [], 0
    for group in range(metadata.num_row_groups):
        starts.append(at)
        at += metadata.row_group(group).num_rows
    return TableLayout(path, metadata.num_rows, tuple(refs), tuple(systems), tuple(starts))


@dataclass(frozen=True)
class TableRows:
    """Segments ``start`` … of a table: system outputs by name and reference streams."""

    start: int
    systems: Mapping[str, tuple[str, ...]]
    refs: tuple[tuple[str | None, ...], ...]


def read_rows(layout: TableLayout, start: int, stop: int, *, systems: bool = True) -> TableRows:
    """Rows ``[start, stop)`` (0-based), reading only the row groups that hold them; ``systems=False`` reads the
    reference columns only."""
    if not 0 <= start < stop <= layout.rows:
        raise ValueError(f"{layout.path}: rows [{start}, {stop}) are not within its {layout.rows} rows")
    ends = (*layout.group_starts[1:], layout.rows)
    groups = [g for g, (a, b) in enumerate(zip(layout.group_starts, ends, strict=True)) if a < stop and b > start]
    columns = [*layout.refs, *(layout.systems if systems else ())]
    table = _open(layout.path).read_row_groups(groups, columns=columns)
    table = table.slice(start - layout.group_starts[groups[0]], stop - start)
    texts = {name: tuple(table.column(name).to_pylist()) for name in columns}
    for name in layout.systems if systems else ():
        if None in texts[name]:
            row = start + texts[name].index(None) + 1
            raise InputError(layout.path, f"system column {name!r} has no text (null) in row {row}")
    return TableRows(
        start,
        {name: texts[name] for name in layout.systems} if systems else {},
        tuple(texts[name] for name in layout.refs),
    )


def read_table(path: str) -> TableRows:
    """Every row of a Parquet file."""
    layout = table_layout(path)
    return read_rows(layout, 0, layout.rows)
