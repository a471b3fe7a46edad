"""Every bad annotation record is an InputError naming the file and the line; nothing is dropped silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.annotations.collect import read_system_map
from metrics.annotations.esa import read_esa_jsonl
from metrics.annotations.mqm import error_weights
from metrics.annotations.read import read_annotations
from metrics.annotations.spans_jsonl import read_spans_jsonl
from metrics.annotations.wmt import read_mqm_tsv
from metrics.cli.annotations import read_segment_ids
from metrics.io.inputs import InputError
from tests.unit.annotations.support import DATA, loaded

FOLDER = DATA / "en-de"
TSV = (FOLDER / "mqm.tsv").read_text(encoding="utf-8").split("\n")
ESA = (DATA / "esa.jsonl").read_text(encoding="utf-8").split("\n")


def tsv_with(tmp_path: Path, row: int, change: dict[int, str]) -> Path:
    """The slice's MQM TSV with columns of line ``row`` (1-based) replaced."""
    lines = list(TSV)
    fields = lines[row - 1].split("\t")
    for column, value in change.items():
        fields[column] = value
    lines[row - 1] = "\t".join(fields)
    path = tmp_path / "bad.tsv"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def first_row(predicate) -> int:
    return next(n for n, line in enumerate(TSV, start=1) if n > 1 and line and predicate(line.split("\t")))


ERROR_ROW = first_row(lambda f: "</v>" in f[6])
PLAIN = TSV[ERROR_ROW - 1].split("\t")[6].replace("<v>", "").replace("</v>", "")
NO_ERROR_ROW = first_row(lambda f: f[7] == "No-error")
TSV_CASES = {
    "target not loaded": (
        ERROR_ROW,
        {6: TSV[ERROR_ROW - 1].split("\t")[6].replace("e", "E", 1)},
        "does not match the loaded text",
    ),
    "unknown system": (ERROR_ROW, {0: "NoSuchSystem"}, "unknown system 'NoSuchSystem'"),
    "segment out of range": (ERROR_ROW, {3: "99999"}, "seg_id '99999' is not among the 29 segment ids"),
    "severity": (ERROR_ROW, {8: "Severe"}, "severity 'Severe' is not one of MQM's"),
    "both sides": (
        ERROR_ROW,
        {5: "<v>I</v>" + TSV[ERROR_ROW - 1].split("\t")[5][1:]},
        "both the source and the target",
    ),
    "two spans": (ERROR_ROW, {6: "<v>Ich</v> <v>möchte</v>" + PLAIN[10:]}, "2 <v> and 2 </v>"),
    "no-error with marks": (
        NO_ERROR_ROW,
        {6: "<v>" + TSV[NO_ERROR_ROW - 1].split("\t")[6] + "</v>"},
        "No-error row marks",
    ),
}


@pytest.mark.parametrize("case", TSV_CASES, ids=str)
def test_bad_mqm_rows_name_file_and_line(case: str, tmp_path: Path):
    row, change, message = TSV_CASES[case]
    path = tsv_with(tmp_path, row, change)
    with pytest.raises(InputError, match=message) as caught:
        read_mqm_tsv(path, loaded(FOLDER))
    assert caught.value.source == str(path) and caught.value.line == row
    assert f"{path}, line {row}:" in str(caught.value)


def test_malformed_tsv_rows_and_header(tmp_path: Path):
    short = tmp_path / "short.tsv"
    short.write_text("\n".join([*TSV[:3], "Nemo\ttalk.1\t1", *TSV[3:]]), encoding="utf-8")
    with pytest.raises(InputError, match="3 tab-separated columns where the header has 10") as caught:
        read_mqm_tsv(short, loaded(FOLDER))
    assert caught.value.line == 4
    header = tmp_path / "header.tsv"
    header.write_text("system\tseg\n", encoding="utf-8")
    with pytest.raises(InputError, match="no column 'seg_id'") as caught:
        read_mqm_tsv(header, loaded(FOLDER))
    assert caught.value.line == 1


def test_without_segment_ids_seg_id_is_a_line_number(tmp_path: Path):
    with pytest.raises(InputError, match=r"seg_id '314' is out of range: .* line number 1–29") as caught:
        read_mqm_tsv(FOLDER / "mqm.tsv", loaded(FOLDER, ids=False))
    assert caught.value.line == 126  # the first row whose upstream seg_id is past line 29


def test_systems_not_loaded_can_be_skipped_and_are_counted(tmp_path: Path):
    texts = loaded(FOLDER)
    fewer = type(texts)({s: t for s, t in texts.systems.items() if s != "Nemo"}, texts.source, texts.aliases,
                        texts.segment_ids, skip_unloaded=True)  # fmt: skip
    annotations = read_mqm_tsv(FOLDER / "mqm.tsv", fewer)
    rows = sum(1 for line in TSV[1:] if line.startswith("Nemo\t"))
    assert annotations.skipped == (("Nemo", rows),) and "Nemo" not in annotations.systems
    assert f"skipped {rows} records of systems not loaded (Nemo)" in annotations.summary()


def spans_file(tmp_path: Path, record: dict[str, object], at: int = 2) -> Path:
    good = {"system": "Nemo", "segment": 0, "rater": "r1"}
    path = tmp_path / "spans.jsonl"
    lines = [json.dumps(good)] * (at - 1) + [json.dumps(record)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


NEMO = (FOLDER / "sys" / "Nemo.txt").read_text(encoding="utf-8").split("\n")
SPAN_CASES = {
    "segment out of range": ({"segment": 29}, "segment 29 is out of range"),
    "segment not an int": ({"segment": "3"}, "segment must be a 0-based line number"),
    "unknown system": ({"system": "X"}, "unknown system 'X'"),
    "offset outside": ({"start": 5, "end": len(NEMO[0]) + 1}, r"span \[5, \d+\) is outside the loaded target"),
    "text differs": ({"start": 0, "end": 3, "text": "abc"}, "'text' 'abc' is not the loaded target's"),
    "severity": ({"start": 0, "end": 3, "severity": "fatal"}, "severity 'fatal' is not one of"),
    "side": ({"start": 0, "end": 3, "side": "reference"}, "side must be 'target' or 'source'"),
    "half located": ({"start": 0, "end": None}, "start and end must be integers"),
    "score": ({"score": "high"}, "'score' must be a finite number"),
    "rater": ({"rater": 3}, "'rater' must be a string"),
}


@pytest.mark.parametrize("case", SPAN_CASES, ids=str)
def test_bad_span_records_name_file_and_line(case: str, tmp_path: Path):
    change, message = SPAN_CASES[case]
    record = {"system": "Nemo", "segment": 0, "rater": "r1", "severity": "minor", **change}
    path = spans_file(tmp_path, record, at=3)
    with pytest.raises(InputError, match=message) as caught:
        read_spans_jsonl(path, loaded(FOLDER))
    assert caught.value.source == str(path) and caught.value.line == 3


def test_span_file_problems_spanning_lines(tmp_path: Path):
    path = tmp_path / "two.jsonl"
    records = [{"system": "Nemo", "segment": 1, "rater": "j", "score": 70}, {"system": "Nemo", "segment": 1,
               "rater": "j", "score": 60}]  # fmt: skip
    path.write_text("\n".join(map(json.dumps, records)), encoding="utf-8")
    with pytest.raises(InputError, match="a second score, 60 .line 1's rating has 70") as caught:
        read_spans_jsonl(path, loaded(FOLDER))
    assert caught.value.line == 2
    path.write_text('{"system": "Nemo"\n', encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON") as caught:
        read_spans_jsonl(path, loaded(FOLDER))
    assert caught.value.line == 1
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(InputError, match="no ratings"):
        read_spans_jsonl(path, loaded(FOLDER))


def test_source_spans_need_the_source_or_their_text(tmp_path: Path):
    record = {"system": "Nemo", "segment": 0, "rater": "r", "severity": "major", "side": "source", "start": 0, "end": 1}
    with pytest.raises(InputError, match="a source span needs the source loaded") as caught:
        read_spans_jsonl(spans_file(tmp_path, record), loaded(FOLDER, source=False))
    assert caught.value.line == 2
    annotations = read_spans_jsonl(spans_file(tmp_path, {**record, "text": "I"}), loaded(FOLDER, source=False))
    assert annotations.spans("Nemo", 0)[0].text == "I"


ESA_CASES = {
    "score out of range": (lambda r: {**r, "esa_score": 120}, "esa_score must be a number from 0 to 100"),
    "severity": (lambda r: {**r, "esa_spans": [{"start_i": 0, "end_i": 1, "severity": "grave"}]}, "ESA severity 'grave'"),
    "span outside": (lambda r: {**r, "esa_spans": [{"start_i": 0, "end_i": 999, "severity": "minor"}]}, r"span \[0, 999\) is outside"),
    "target differs": (lambda r: {**r, "tgt": r["tgt"] + "!"}, "does not match the loaded text"),
    "line out of range": (lambda r: {**r, "line_id": 29}, "line_id 29 is out of range"),
    "missing annotator": (lambda r: {k: v for k, v in r.items() if k != "annotator"}, "'annotator' must be a string"),
}  # fmt: skip


@pytest.mark.parametrize("case", ESA_CASES, ids=str)
def test_bad_esa_records_name_file_and_line(case: str, tmp_path: Path):
    change, message = ESA_CASES[case]
    lines = list(ESA)
    lines[1] = json.dumps(change(json.loads(lines[1])), ensure_ascii=False)
    path = tmp_path / "esa.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        read_esa_jsonl(path, loaded(FOLDER, ids=False))
    assert caught.value.source == str(path) and caught.value.line == 2


def test_unreadable_file_names_it(tmp_path: Path):
    with pytest.raises(InputError, match="cannot read") as caught:
        read_annotations(tmp_path / "absent.tsv", loaded(FOLDER))
    assert caught.value.source == str(tmp_path / "absent.tsv")


def test_non_translation_without_marks_is_the_whole_target(tmp_path: Path):
    plain = PLAIN
    path = tsv_with(tmp_path, ERROR_ROW, {6: plain, 7: "Non-translation!", 8: "Major"})
    annotations = read_mqm_tsv(path, loaded(FOLDER))
    error = next(e for rows in annotations.ratings.values() for r in rows for x in r for e in x.errors
                 if e.line == ERROR_ROW)  # fmt: skip
    assert error.span is not None and (error.span.start, error.span.end, error.span.text) == (0, len(plain), plain)
    assert error_weights([error]) == 25


def test_row_without_marks_is_kept_unlocated(tmp_path: Path):
    path = tsv_with(tmp_path, ERROR_ROW, {6: PLAIN})
    annotations = read_mqm_tsv(path, loaded(FOLDER))
    assert annotations.n_unlocated == 2  # the slice's own <v> without </v>, and this one
    reasons = {e.reason for rows in annotations.ratings.values() for r in rows for x in r for e in x.errors}
    assert "no <v>…</v> marks in the row" in reasons


def test_bad_system_map_and_id_column(tmp_path: Path):
    bad = tmp_path / "systems.tsv"
    bad.write_text("name\tfile\nref\tref.A.txt\n", encoding="utf-8")
    with pytest.raises(InputError, match="columns 'system' and 'text'") as caught:
        read_system_map(bad)
    assert caught.value.line == 1
    bad.write_text("system\ttext\nref\tref.A.txt\nref\tref.B.txt\n", encoding="utf-8")
    with pytest.raises(InputError, match="system 'ref' is mapped twice") as caught:
        read_system_map(bad)
    assert caught.value.line == 3
    with pytest.raises(InputError, match="no column 'segid'"):
        read_segment_ids(f"{FOLDER / 'meta.tsv'}:segid")
    assert read_segment_ids(f"{FOLDER / 'meta.tsv'}:seg_id")[:3] == ["1", "2", "3"]
