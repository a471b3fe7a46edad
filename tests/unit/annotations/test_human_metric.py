"""MQM and ESA as metrics: the corpus score is the mean over rated segments, in the evaluation, in every bootstrap
resample and paired test; unrated segments are NaN rows of no weight; weights are in the signature."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

from metrics.annotations.metric import RATED_NOTE, AnnotationExplanation, AnnotationMetric, HumanScore
from metrics.annotations.model import Annotations
from metrics.annotations.mqm import MqmWeights, segment_mqm
from metrics.annotations.read import read_annotations
from metrics.annotations.spans_jsonl import model_annotations, read_spans_jsonl, write_spans_jsonl
from metrics.core.base import explain_segment
from metrics.core.spans import ErrorSpan, Severity
from metrics.evaluate import evaluate
from metrics.reports.latex import to_latex
from metrics.reports.results import build_results, to_json
from metrics.stats.resampling import bootstrap_indices
from metrics.stats.significance import confidence_intervals, paired_test
from tests.unit.annotations.support import DATA, loaded

FOLDER = DATA / "en-de"
SYSTEMS = ("Facebook-AI", "Nemo", "metricsystem1")


def partly_rated() -> Annotations:
    """The slice's MQM with every third segment of Nemo and every fourth of Facebook-AI unrated."""
    full = read_annotations(FOLDER / "mqm.tsv", loaded(FOLDER))
    drop = {"Nemo": 3, "Facebook-AI": 4}
    ratings = {
        s: tuple(() if s in drop and i % drop[s] == 0 else r for i, r in enumerate(rows))
        for s, rows in full.ratings.items()
    }
    return replace(full, ratings=MappingProxyType(ratings))


def run(metric: AnnotationMetric):
    texts = loaded(FOLDER)
    return evaluate({s: texts.systems[s] for s in SYSTEMS}, [], {metric.id: metric})


def test_corpus_score_is_the_mean_over_rated_segments():
    annotations = partly_rated()
    metric = AnnotationMetric(annotations)
    evaluation = run(metric)
    for system in SYSTEMS:
        values = np.array([segment_mqm(r) for r in annotations.ratings[system]])
        result = evaluation.system(system)
        assert result.scores["mqm"] == pytest.approx(np.nanmean(values), abs=1e-12)
        assert np.array_equal(np.isnan(result.segment_scores["mqm"]), np.isnan(values))
        notes = result.stats["mqm"].notes
        rated = int(np.isfinite(values).sum())
        assert [str(n) for n in notes] == ([f"{RATED_NOTE} ({rated} of 29 segments rated)"] if rated < 29 else [])
    assert np.isnan(evaluation.system("Nemo").segment_scores["mqm"]).sum() == 10


def test_resamples_and_paired_tests_leave_unrated_segments_out():
    annotations = partly_rated()
    metric = AnnotationMetric(annotations)
    evaluation = run(metric)
    stats = {s: evaluation.system(s).stats["mqm"] for s in SYSTEMS}
    index = bootstrap_indices(29, 200, 7)
    values = np.array([segment_mqm(r) for r in annotations.ratings["Nemo"]])
    pooled = stats["Nemo"].rows[index].sum(axis=1)
    expected = np.array([np.nanmean(values[i]) if np.isfinite(values[i]).any() else np.nan for i in index])
    assert np.allclose(metric.score_pooled(pooled), expected, equal_nan=True, atol=1e-12)
    intervals = confidence_intervals(metric, stats, n_samples=200, seed=7)
    assert all(iv.lo <= evaluation.system(s).scores["mqm"] <= iv.hi for s, iv in intervals.items())
    report = paired_test(metric, stats, baseline="Facebook-AI", n_samples=200, seed=7)
    assert {r.system for r in report.pairs} == {"Nemo", "metricsystem1"}
    scores = {s: evaluation.system(s).scores["mqm"] for s in SYSTEMS}
    for pair in report.pairs:
        assert pair.diff == pytest.approx(scores[pair.system] - scores["Facebook-AI"], abs=1e-12)
        assert 0 < pair.p_value <= 1


def test_results_json_and_latex_carry_the_human_scores():
    metric = AnnotationMetric(partly_rated())
    evaluation = run(metric)
    results = build_results(evaluation, segments=True)
    document = json.loads(to_json(results))
    assert document["metrics"]["mqm"]["higher_is_better"] is True
    assert "major=5,minor=1,critical=10" in document["signatures"]["mqm"]
    nemo = next(s for s in document["systems"] if s["name"] == "Nemo")
    assert nemo["segments"]["mqm"][0] is None and nemo["segments"]["mqm"][1] is not None
    assert nemo["scores"]["mqm"] == pytest.approx(evaluation.system("Nemo").scores["mqm"])
    latex = to_latex(results)
    assert "MQM" in latex and f"{evaluation.system('Nemo').scores['mqm']:.2f}" in latex


def test_weights_change_the_score_and_the_signature():
    annotations = read_annotations(FOLDER / "mqm.tsv", loaded(FOLDER))
    wmt, heavy = AnnotationMetric(annotations), AnnotationMetric(annotations, weights=MqmWeights(major=10))
    a, b = run(wmt).system("Nemo").scores["mqm"], run(heavy).system("Nemo").scores["mqm"]
    majors = sum(e.severity is Severity.MAJOR for rows in annotations.ratings["Nemo"] for r in rows for e in r.errors)
    assert majors > 0 and b - a == pytest.approx(-5 * majors / 29, abs=1e-12)
    assert wmt.signature() != heavy.signature() and "major=10" in heavy.signature()


def test_explanation_carries_the_ratings():
    annotations = partly_rated()
    metric = AnnotationMetric(annotations)
    texts = loaded(FOLDER)
    explanation = explain_segment(metric, "Nemo", 1, texts.systems["Nemo"][1], [])
    assert isinstance(explanation, AnnotationExplanation)
    assert explanation.ratings == annotations.ratings["Nemo"][1] and explanation.line == explanation.ratings[0].line
    assert explanation.score == segment_mqm(explanation.ratings)
    unrated = explain_segment(metric, "Nemo", 0, texts.systems["Nemo"][0], [])
    assert math.isnan(unrated.score) and unrated.ratings == () and unrated.row == (0.0, 0.0)


def test_esa_metric_and_unknown_system():
    annotations = read_annotations(DATA / "esa.jsonl", loaded(FOLDER, ids=False))
    metric = AnnotationMetric(annotations, HumanScore.ESA)
    result = run(metric)
    assert result.system("Facebook-AI").scores["esa"] == pytest.approx((81.5 + 100) / 2)
    assert result.system("Nemo").scores["esa"] == pytest.approx((55 + 40.5) / 2)
    assert math.isnan(result.system("metricsystem1").scores["esa"])  # rated nowhere: no score, not 0
    with pytest.raises(ValueError, match="no ratings for system 'X'"):
        metric.values("X")


def test_model_spans_export_and_read_back(tmp_path: Path):
    """xCOMET-style spans (a model's, with confidences) written in the span format and read back as MQM."""
    texts = loaded(FOLDER)
    nemo = texts.systems["Nemo"]
    spans = [[ErrorSpan(0, 3, nemo[0][:3], Severity.MAJOR, confidence=0.75)], []] + [[] for _ in nemo[2:]]
    annotations = model_annotations({"Nemo": spans}, "xCOMET-XL", {"Nemo": [0.5] * len(nemo)})
    path = tmp_path / "xcomet.jsonl"
    assert write_spans_jsonl(annotations, path) == len(nemo)
    back = read_spans_jsonl(path, texts)
    (span,) = back.spans("Nemo", 0)
    assert span == ErrorSpan(0, 3, nemo[0][:3], Severity.MAJOR, origin="xCOMET-XL", confidence=0.75)
    assert back.rated("Nemo").all() and not back.rated("Facebook-AI").any()
    assert segment_mqm(back.ratings["Nemo"][0]) == -5.0 and back.ratings["Nemo"][3][0].score == 0.5
