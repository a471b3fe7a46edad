"""Parquet input (``--table``): the column convention, reading by row range, errors naming file, column and row."""

from __future__ import annotations

import pytest

from metrics.io.inputs import InputError
from metrics.io.parquet import read_rows, read_table, table_layout

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _table(path, columns, row_group=None):
    pq.write_table(pa.table(columns), path, row_group_size=row_group)
    return str(path)


def test_columns_are_references_systems_or_ignored(tmp_path):
    path = _table(
        tmp_path / "t.parquet",
        {"_id": ["a", "b", "c"], "sysA": ["x", "y", "z"], "ref": ["r", "s", "t"], "ref.B": ["u", None, "w"]},
    )
    layout = table_layout(path)
    assert (layout.refs, layout.systems, layout.rows) == (("ref", "ref.B"), ("sysA",), 3)
    rows = read_table(path)
    assert rows.systems == {"sysA": ("x", "y", "z")}
    assert rows.refs == (("r", "s", "t"), ("u", None, "w"))


def test_a_row_range_reads_only_its_rows_across_row_groups(tmp_path):
    texts = [f"segment {i}" for i in range(23)]
    path = _table(tmp_path / "t.parquet", {"ref": texts, "sys": texts[::-1]}, row_group=5)
    layout = table_layout(path)
    assert len(layout.group_starts) == 5
    for start, stop in [(0, 23), (3, 4), (4, 11), (10, 15), (22, 23)]:
        rows = read_rows(layout, start, stop)
        assert rows.refs == (tuple(texts[start:stop]),) and rows.systems["sys"] == tuple(texts[::-1][start:stop])
    assert read_rows(layout, 5, 9, systems=False).systems == {}


@pytest.mark.parametrize(
    "columns,message",
    [
        ({"ref": ["a"]}, "no system column"),
        ({"ref": ["a"], "sys": [1]}, "column 'sys' holds int64, not text"),
        ({"ref": ["a", "b"], "sys": ["a", None]}, "system column 'sys' has no text \\(null\\) in row 2"),
    ],
)
def test_a_table_that_does_not_follow_the_convention_is_refused(tmp_path, columns, message):
    path = _table(tmp_path / "bad.parquet", columns)
    with pytest.raises(InputError, match=f"bad.parquet: {message}"):
        read_table(path)


def test_a_table_without_references_reads_and_its_source_is_the_column_named(tmp_path):
    path = _table(tmp_path / "t.parquet", {"_src": ["q", "r"], "sys": ["a", "b"], "_id": ["1", "2"]})
    rows = read_table(path, "_src")
    assert (rows.refs, rows.systems, rows.source) == ((), {"sys": ("a", "b")}, ("q", "r"))
    assert read_table(path).source is None  # unnamed, _src is skipped as before
    with pytest.raises(InputError, match="t.parquet: no source column 'src'"):
        read_table(path, "src")
    nulls = _table(tmp_path / "n.parquet", {"_src": ["q", None], "sys": ["a", "b"]})
    with pytest.raises(InputError, match="source column '_src' has no text \\(null\\) in row 2"):
        read_table(nulls, "_src")


def test_a_file_that_is_not_parquet_names_itself(tmp_path):
    path = tmp_path / "notes.parquet"
    path.write_text("hello")
    with pytest.raises(InputError, match="notes.parquet: not a Parquet file"):
        read_table(str(path))
