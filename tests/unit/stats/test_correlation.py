"""Correlation with human judgments (THumB 1.0 on COCO): equal to scipy, exact on bootstrap resamples."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.stats

from metrics.families.bleu.metric import BLEU
from metrics.families.chrf.metric import CHRF
from metrics.io.inputs import InputError
from metrics.stats.correlation import _rows, _weighted, correlate, kendall_tau_b, pearson, rankdata, spearman
from metrics.stats.human import HumanScores, parse_human_scores, read_human_scores
from metrics.stats.resampling import bootstrap_resamples
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA

COCO = DATA / "coco"
SCIPY = {"pearson": scipy.stats.pearsonr, "spearman": scipy.stats.spearmanr, "kendall": scipy.stats.kendalltau}


@pytest.fixture(scope="module")
def coco():
    corpus = slice_corpus("coco")
    human = read_human_scores(COCO / "human_scores.jsonl", 500, COCO / "image_ids.txt")
    metrics = {"bleu": BLEU(), "chrf": CHRF()}
    stats = {m: {n: metric.stats(h, corpus.refs) for n, h in corpus.systems.items()} for m, metric in metrics.items()}
    return corpus, human, metrics, stats


def test_human_file_is_aligned_by_image_ids(coco):
    corpus, human, _, _ = coco
    assert set(human.systems) == set(corpus.systems)
    ids = (COCO / "image_ids.txt").read_text().split()
    first = json.loads((COCO / "human_scores.jsonl").read_text().split("\n")[0])
    assert human.scores[first["SYS"]][ids.index(first["seg_id"])] == first["human_score"]
    assert all(len(human.judged(n)) == 500 for n in human.systems)


@pytest.mark.parametrize("metric_id", ["bleu", "chrf"])
def test_correlations_equal_scipy_on_thumb(coco, metric_id):
    corpus, human, metrics, stats = coco
    metric = metrics[metric_id]
    results = {(c.level, c.method): c for c in correlate(metric, stats[metric_id], human, n_samples=200)}
    names = list(corpus.systems)
    seg_x = np.concatenate([metric.segment_scores(stats[metric_id][n]) for n in names])
    seg_y = np.concatenate([human.scores[n] for n in names])
    sys_x = [metric.corpus_score(stats[metric_id][n]) for n in names]
    sys_y = [human.scores[n].mean() for n in names]
    for method, reference in SCIPY.items():
        seg = results[("segment", method)]
        assert seg.n == 2500 and rel_close(seg.value, reference(seg_x, seg_y)[0])
        assert seg.lo < seg.value < seg.hi
        system = results[("system", method)]
        assert system.n == 5 and rel_close(system.value, reference(sys_x, sys_y)[0])
    assert results[("segment", "pearson")].value > 0.1  # metrics do track THumB judgments at segment level


def test_bootstrap_values_equal_scipy_on_the_resampled_data(coco):
    """A segment drawn k times is a point of weight k: same coefficients as scipy on the materialized resample."""
    corpus, human, metrics, stats = coco
    names = list(corpus.systems)
    metric = metrics["chrf"]
    x = np.concatenate([metric.segment_scores(stats["chrf"][n]) for n in names])
    y = np.concatenate([human.scores[n] for n in names])
    segment_of = np.tile(np.arange(500), len(names))
    counts = bootstrap_resamples(500, 1000, 12345).counts[:3]
    for method, reference in SCIPY.items():
        values = _weighted(method, x, y, counts, segment_of)
        for b in range(len(counts)):
            drawn = np.repeat(np.arange(len(x)), counts[b, segment_of].astype(int))
            assert rel_close(values[b], reference(x[drawn], y[drawn])[0])
    # ungrouped points go through the blockwise path
    counts = bootstrap_resamples(300, 20, 4).counts[:2]
    for method, reference in SCIPY.items():
        values = _weighted(method, x[:300], y[:300], counts, np.arange(300))
        drawn = np.repeat(np.arange(300), counts[1].astype(int))
        assert rel_close(values[1], reference(x[drawn], y[drawn])[0])


def test_system_level_rows_equal_scipy():
    rng = np.random.default_rng(8)
    x = rng.integers(0, 4, size=(6, 7)).astype(float)
    y = rng.integers(0, 3, size=(6, 7)).astype(float)
    for method, reference in SCIPY.items():
        values = _rows(method, x, y)
        for b in range(len(x)):
            expected = reference(x[b], y[b])[0]
            assert (np.isnan(values[b]) and np.isnan(expected)) or rel_close(values[b], expected)


def test_intervals_are_seeded(coco):
    _, human, metrics, stats = coco
    a = correlate(metrics["bleu"], stats["bleu"], human, n_samples=100, methods=("pearson",), levels=("segment",))
    b = correlate(metrics["bleu"], stats["bleu"], human, n_samples=100, methods=("pearson",), levels=("segment",))
    c = correlate(
        metrics["bleu"], stats["bleu"], human, n_samples=100, seed=1, methods=("pearson",), levels=("segment",)
    )
    assert a == b and a[0].value == c[0].value and (a[0].lo, a[0].hi) != (c[0].lo, c[0].hi)


def test_rank_correlations_with_ties_equal_scipy():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 6, size=200).astype(float)
    y = x + rng.integers(-2, 3, size=200)
    assert np.array_equal(rankdata(x), scipy.stats.rankdata(x))
    grid = rng.integers(0, 4, size=(5, 9))
    assert np.array_equal(rankdata(grid), scipy.stats.rankdata(grid, axis=1))
    assert rel_close(pearson(x, y), scipy.stats.pearsonr(x, y)[0])
    assert rel_close(spearman(x, y), scipy.stats.spearmanr(x, y)[0])
    assert rel_close(kendall_tau_b(x, y), scipy.stats.kendalltau(x, y)[0])  # τ-b, scipy's default variant
    tau_c = scipy.stats.kendalltau(x, y, variant="c")[0]
    assert not rel_close(kendall_tau_b(x, y), tau_c)
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0
    assert np.isnan(pearson([1, 1, 1], [1, 2, 3])) and np.isnan(kendall_tau_b([1, 2, 3], [5, 5, 5]))


def test_partially_judged_systems():
    """System level uses the judged segments of each system; segment level pools the judged pairs."""
    corpus = slice_corpus("coco")
    metric = BLEU()
    names = list(corpus.systems)[:3]
    stats = {n: metric.stats(corpus.systems[n][:40], [r[:40] for r in corpus.refs]) for n in names}
    rng = np.random.default_rng(2)
    scores = {n: np.where(rng.random(40) < 0.7, rng.integers(1, 6, 40).astype(float), np.nan) for n in names}
    human = HumanScores(scores)
    results = {(c.level, c.method): c for c in correlate(metric, stats, human, n_samples=50)}
    judged = {n: human.judged(n) for n in names}
    x = np.concatenate([metric.segment_scores(stats[n])[judged[n]] for n in names])
    y = np.concatenate([scores[n][judged[n]] for n in names])
    assert results[("segment", "kendall")].n == len(x)
    assert rel_close(results[("segment", "kendall")].value, scipy.stats.kendalltau(x, y)[0])
    sys_x = [float(metric.score_pooled(stats[n].rows[judged[n]].sum(axis=0))) for n in names]
    sys_y = [scores[n][judged[n]].mean() for n in names]
    assert rel_close(results[("system", "pearson")].value, scipy.stats.pearsonr(sys_x, sys_y)[0])


def test_human_file_errors(tmp_path):
    good = '{"SYS": "A", "seg_id": "2", "human_score": 4.5}'
    assert parse_human_scores([good], 3).scores["A"][1] == 4.5
    assert parse_human_scores([good], 2, ["x", "2"]).scores["A"][1] == 4.5
    cases = [
        (["{not json"], None, "line 1.*JSON"),
        (['{"SYS": "A", "seg_id": "1"}'], None, "expected an object"),
        ([good, good], None, "line 2.*second judgment"),
        (['{"SYS": "A", "seg_id": "9", "human_score": 1}'], None, "line number 1..3"),
        (['{"SYS": "A", "seg_id": "q", "human_score": 1}'], ["a", "b", "c"], "not among"),
        (['{"SYS": "A", "seg_id": "1", "human_score": "high"}'], None, "finite number"),
        ([""], None, "no human judgments"),
    ]
    for lines, ids, message in cases:
        with pytest.raises(InputError, match=message):
            parse_human_scores(lines, 3, ids)
    with pytest.raises(InputError, match="cannot read"):
        read_human_scores(tmp_path / "missing.jsonl", 3)


def test_bad_requests(coco):
    _, human, metrics, stats = coco
    with pytest.raises(ValueError, match="unknown correlation"):
        correlate(metrics["bleu"], stats["bleu"], human, methods=("tau-a",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no system has human scores"):
        correlate(metrics["bleu"], {"other": stats["bleu"]["Human"]}, human)
    with pytest.raises(ValueError, match="at least two systems"):
        correlate(metrics["bleu"], {"Human": stats["bleu"]["Human"]}, human, levels=("system",))
    with pytest.raises(ValueError, match="at least two points"):
        pearson([1.0], [2.0])
