"""Human scores as a plain table (WMT's ``system  segment  score`` with ``null``): values land on the right line,
unrated segments are NaN, systems not loaded are named in a note, and every problem names the file and line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from metrics.io.inputs import InputError
from metrics.stats.human_table import parse_human_table, read_human
from tests.support.paths import DATA

META = DATA / "wmt23-he-en-meta"
SYSTEMS = ["GPT4-5shot", "ONLINE-A", "ZengHuiMT"]


def test_wmt_file_reads_scores_by_segment_and_leaves_unrated_nan():
    read = read_human(META / "mqm.seg.tsv", 40, SYSTEMS)
    human = read.human
    assert human.systems == tuple(SYSTEMS)
    rows = [line.split("\t") for line in (META / "mqm.seg.tsv").read_text().splitlines()[1:]]
    for system, segment, score in rows:
        if system in SYSTEMS:
            value = human.scores[system][int(segment)]
            assert np.isnan(value) if score == "null" else value == float(score)
    assert len(human.judged("GPT4-5shot")) == 20  # 20 of lines 1–40 were MQM-rated in WMT23 he-en
    left_out = read.notes[0].split("not loaded: ")[1].split(", ")
    assert sorted(left_out) == sorted({s for s, _, _ in rows} - set(SYSTEMS))  # refA among them: rated, not loaded


def test_one_based_csv_missing_rows_and_null_spellings():
    text = "score,segment,system,rater\n1.5,1,a,x\nNone,2,a,x\n-2,3,b,x\n,1,b,x\n"
    read = parse_human_table(text, 3, ["a", "b", "c"], delimiter=",", one_based=True, source="h.csv")
    assert list(read.human.scores["a"][:1]) == [1.5] and np.isnan(read.human.scores["a"][1:]).all()
    assert np.isnan(read.human.scores["b"][:2]).all() and read.human.scores["b"][2] == -2.0
    assert "c" not in read.human.scores and read.notes == ("h.csv: no human score of c",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("system\tscore\na\t1\n", r"^h\.tsv, line 1: no column segment"),
        ("system\tsegment\tscore\na\t3\t1\n", r"^h\.tsv, line 2: segment 3 is out of range.*numbered from 0"),
        ("system\tsegment\tscore\na\tx\t1\n", r"^h\.tsv, line 2: segment 'x' is not a whole number"),
        ("system\tsegment\tscore\na\t0\t1\na\t0\t2\n", r"^h\.tsv, line 3: a second score of system 'a', segment 0"),
        ("system\tsegment\tscore\na\t0\tgood\n", r"^h\.tsv, line 2: score 'good' is not a number"),
        ("system\tsegment\tscore\na\t0\tinf\n", r"^h\.tsv, line 2: score 'inf' is not finite"),
        ("system\tsegment\tscore\na\t0\t1\textra\n", r"^h\.tsv, line 2: row has 4 fields"),
        ("system\tsegment\tscore\nz\t0\t1\n", r"^h\.tsv: no human score of a loaded system \(a\); the file rates: z"),
        ("system\tsegment\tscore\na\t0\tnull\n", r"^h\.tsv: no human score of a loaded system"),
    ],
)
def test_problems_name_file_and_line(text, message):
    with pytest.raises(InputError, match=message):
        parse_human_table(text, 3, ["a"], source="h.tsv")


def test_json_lines_keep_loaded_systems_and_refuse_table_options(tmp_path):
    path = tmp_path / "h.jsonl"
    records = [{"SYS": s, "seg_id": str(i), "human_score": float(i)} for s in ("a", "z") for i in (1, 2)]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    read = read_human(path, 2, ["a", "b"])
    assert list(read.human.scores["a"]) == [1.0, 2.0] and read.human.systems == ("a",)
    assert read.notes == (f"{path}: left out the scores of systems that are not loaded: z",)
    with pytest.raises(InputError, match="one-based numbering is for a table"):
        read_human(path, 2, ["a"], one_based=True)
    table = tmp_path / "h.tsv"
    table.write_text("system\tsegment\tscore\na\t0\t1\n", encoding="utf-8")
    with pytest.raises(InputError, match="segment ids map the ids of JSON-lines"):
        read_human(table, 2, ["a"], segment_ids=["x", "y"])
