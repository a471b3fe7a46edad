"""Segment scores written to a file per system (``--output-dir``): every segment once, in order, with its 0-based
index and 1-based line number; NaN as null."""

from __future__ import annotations

import json

import numpy as np
import pytest

from metrics.core.evaluation import Evaluation, SystemResult
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.reports import segment_files
from metrics.reports.segment_files import SegmentFormat, write_segment_scores
from tests.support.corpora import slice_corpus

pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(scope="module")
def evaluation() -> Evaluation:
    data = slice_corpus("wmt22-de-en")
    systems = {name: data.systems[name][:50] for name in ("LT22", "PROMT")}
    return evaluate(systems, [r[:50] for r in data.refs], {"bleu": create("bleu"), "ter": create("ter")})


def test_csv_and_parquet_hold_every_segment_score_in_order(evaluation, tmp_path, monkeypatch):
    monkeypatch.setattr(segment_files, "CHUNK_ROWS", 7)  # several chunks per file
    csv_paths = write_segment_scores(evaluation, tmp_path, SegmentFormat.CSV)
    parquet_paths = write_segment_scores(evaluation, tmp_path, SegmentFormat.PARQUET)
    assert [p.name for p in csv_paths] == ["LT22.segments.csv", "PROMT.segments.csv"]
    for system, csv_path, parquet_path in zip(evaluation.systems, csv_paths, parquet_paths, strict=True):
        lines = csv_path.read_text().splitlines()
        assert lines[0] == "segment,line,bleu,ter" and len(lines) == 51
        assert [line.split(",")[:2] for line in lines[1:3]] == [["0", "1"], ["1", "2"]]  # index, line number
        table = pq.read_table(parquet_path)
        assert table.column("segment").to_pylist() == list(range(50))
        assert table.column("line").to_pylist() == list(range(1, 51))
        for metric_id in ("bleu", "ter"):
            expected = system.segment_scores[metric_id].tolist()
            assert table.column(metric_id).to_pylist() == expected
            column = lines[0].split(",").index(metric_id)
            assert [float(line.split(",")[column]) for line in lines[1:]] == expected
        signatures = json.loads(table.schema.metadata[b"scorelens.signatures"])
        assert signatures == evaluation.segment_signatures != dict(evaluation.signatures)  # BLEU's eff:yes


def test_a_score_that_is_not_a_number_is_empty_or_null(evaluation, tmp_path):
    system = evaluation.systems[0]
    scores = dict(system.segment_scores)
    scores["bleu"] = np.where(np.arange(50) == 3, np.nan, scores["bleu"])
    odd = Evaluation(evaluation.metrics, evaluation.signatures, (SystemResult("x", system.stats, {}, scores),))
    (csv_path,) = write_segment_scores(odd, tmp_path, SegmentFormat.CSV)
    assert csv_path.read_text().splitlines()[4].split(",")[:3] == ["3", "4", ""]
    (parquet_path,) = write_segment_scores(odd, tmp_path, SegmentFormat.PARQUET)
    assert pq.read_table(parquet_path).column("bleu")[3].as_py() is None


def test_a_system_name_that_is_not_a_file_name_is_refused(evaluation, tmp_path):
    system = evaluation.systems[0]
    odd = Evaluation(evaluation.metrics, evaluation.signatures, (SystemResult("../up", system.stats, {}, {}),))
    with pytest.raises(ValueError, match="system name '../up' cannot name a file"):
        write_segment_scores(odd, tmp_path)
    assert not any(tmp_path.iterdir())
