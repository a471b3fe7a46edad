"""Reading a Parquet table of segments: one row per segment, one column per system, reference columns beside them.

The column convention (the README's "Parquet input" section):

- a column named ``ref``, or starting with ``ref.`` (``ref.A``, ``ref.B``), is a reference stream, in column order;
- a column whose name starts with ``_`` (``_id``, ``_src``) is ignored, so ids and sources can travel along;
- every other column is a system, named by its column;
- the source, when a run asks for one, is the column it names (``_src`` by habit, so that other readers skip it).

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
    source: str | None = None


def table_layout(path: str, source: str | None = None) -> TableLayout:
    """The layout of a Parquet file, refusing a table without systems or with non-text columns; ``source`` names
    the column of the segments' source texts. A table without reference columns is read: only metrics that read
    no references can score it."""
    pa, _ = _pyarrow(path)
    handle = _open(path)
    schema = handle.schema_arrow
    refs: list[str] = []
    systems: list[str] = []
    repeated = sorted({name for name in schema.names if schema.names.count(name) > 1})
    if repeated:
        raise InputError(path, f"column name(s) {', '.join(map(repr, repeated))} appear more than once")
    if source is not None and source not in schema.names:
        raise InputError(path, f"no source column {source!r}; columns: {', '.join(schema.names)}")
    for column in schema:
        if column.name.startswith(IGNORED_PREFIX) and column.name != source:
            continue
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            raise InputError(path, f"column {column.name!r} holds {column.type}, not text (name it _… to skip it)")
        if column.name != source:
            (refs if is_reference(column.name) else systems).append(column.name)
    if not systems:
        raise InputError(path, f"no system column besides the references; columns: {', '.join(schema.names)}")
    metadata = handle.metadata
    if metadata.num_rows == 0:
        raise InputError(path, "the table has no rows")
    starts, at = [], 0
    for group in range(metadata.num_row_groups):
        starts.append(at)
        at += metadata.row_group(group).num_rows
    return TableLayout(path, metadata.num_rows, tuple(refs), tuple(systems), tuple(starts), source)


@dataclass(frozen=True)
class TableRows:
    """Segments ``start`` … of a table: system outputs by name, reference streams and the source (``None``: the
    layout names no source column)."""

    start: int
    systems: Mapping[str, tuple[str, ...]]
    refs: tuple[tuple[str | None, ...], ...]
    source: tuple[str, ...] | None = None


def read_rows(layout: TableLayout, start: int, stop: int, *, systems: bool = True) -> TableRows:
    """Rows ``[start, stop)`` (0-based), reading only the row groups that hold them; ``systems=False`` reads the
    reference columns only."""
    if not 0 <= start < stop <= layout.rows:
        raise ValueError(f"{layout.path}: rows [{start}, {stop}) are not within its {layout.rows} rows")
    ends = (*layout.group_starts[1:], layout.rows)
    groups = [g for g, (a, b) in enumerate(zip(layout.group_starts, ends, strict=True)) if a < stop and b > start]
    texts_of = [*layout.systems, *((layout.source,) if layout.source is not None else ())] if systems else []
    columns = [*layout.refs, *texts_of]
    table = _open(layout.path).read_row_groups(groups, columns=columns)
    table = table.slice(start - layout.group_starts[groups[0]], stop - start)
    texts = {name: tuple(table.column(name).to_pylist()) for name in columns}
    for name in texts_of:
        if None in texts[name]:
            row = start + texts[name].index(None) + 1
            what = "source" if name == layout.source else "system"
            raise InputError(layout.path, f"{what} column {name!r} has no text (null) in row {row}")
    return TableRows(
        start,
        {name: texts[name] for name in layout.systems} if systems else {},
        tuple(texts[name] for name in layout.refs),
        texts[layout.source] if systems and layout.source is not None else None,
    )


def read_table(path: str, source: str | None = None) -> TableRows:
    """Every row of a Parquet file (``source``: the column of the source texts)."""
    layout = table_layout(path, source)
    return read_rows(layout, 0, layout.rows)
