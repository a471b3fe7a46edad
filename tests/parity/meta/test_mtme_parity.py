"""Parity with google-research/mt-metrics-eval on WMT23 he-en: every statistic equals what mtme's own code computes
(``scripts/build_meta_golden.py`` ran it and wrote ``tests/data/meta/golden.json``) on the same input slice
(``tests/data/meta/wmt23-he-en.npz``): deterministic ones to 1e-9, the permutation tests draw for draw (same seed,
same p-values, same number of draws before early stopping, same clusters)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from metrics.meta import Grouping, KendallVariant, MetaInput, MetaSettings, Statistic, compare_metrics
from metrics.meta.segment import calibrate_ties, kendall_grouped, pearson_grouped
from metrics.meta.system import (
    human_p_values,
    kendall_b,
    metric_p_values,
    pairwise_accuracy,
    pearson,
    soft_pairwise_accuracy,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "meta"
GOLDEN = json.loads((DATA / "golden.json").read_text("utf-8"))
TOL = 1e-9


@cache
def arrays() -> dict[str, np.ndarray]:
    with np.load(DATA / "wmt23-he-en.npz") as z:
        return {k: z[k] for k in z.files}


@cache
def whole() -> MetaInput:
    d = arrays()
    names = [str(m) for m in d["metrics"]]
    return MetaInput(
        tuple(str(s) for s in d["systems"]),
        d["human"],
        {m: d["seg"][i] for i, m in enumerate(names)},
        {m: d["sys"][i] for i, m in enumerate(names)},
    )


@cache
def domain() -> MetaInput:
    d = arrays()
    names = [str(m) for m in d["metrics"]]
    cols = np.flatnonzero(d["domains"] == GOLDEN["domain"]["name"])
    return whole().subset(cols, {m: d["domain_sys"][i] for i, m in enumerate(names)})


def _human_system(data: MetaInput, which: str) -> np.ndarray:
    d = arrays()
    return d["human_sys"] if which == "whole" else d["human_domain"]


CASES = [
    (which, m)
    for which in ("whole", "domain")
    for m in GOLDEN["compared"] + [m for m in GOLDEN["metrics"] if m not in GOLDEN["compared"]]
]


def _case(which: str, metric: str) -> tuple[MetaInput, dict]:
    if which == "whole":
        return whole(), GOLDEN["metrics"][metric]
    return domain(), GOLDEN["domain"]["metrics"][metric]


def test_the_slice_is_what_the_golden_was_built_from() -> None:
    d = arrays()
    assert [str(s) for s in d["systems"]] == GOLDEN["systems"]
    # the human system scores of the MQM file are the means of the rated segments (to the last bit here)
    np.testing.assert_allclose(whole().human_system_scores(), d["human_sys"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(domain().human_system_scores(), d["human_domain"], rtol=0, atol=1e-12)


@pytest.mark.parametrize(("which", "metric"), CASES)
def test_system_level(which: str, metric: str) -> None:
    data, gold = _case(which, metric)
    h = data.human_system_scores()
    m = data.metric_system_scores(metric)
    assert pearson(h, m) == pytest.approx(gold["sys_pearson"], abs=TOL)
    assert kendall_b(h, m) == pytest.approx(gold["sys_kendall"], abs=TOL)
    assert pairwise_accuracy(h, m) == pytest.approx(gold["sys_accuracy"], abs=TOL)
    spa = soft_pairwise_accuracy(human_p_values(data), metric_p_values(data, metric))
    assert spa == pytest.approx(gold["spa"], abs=TOL)
    mp = metric_p_values(data, metric)
    np.testing.assert_array_equal(np.nan_to_num(mp, nan=-1), np.nan_to_num(np.array(gold["metric_p"], float), nan=-1))


def test_human_p_values() -> None:
    got = human_p_values(whole())
    np.testing.assert_array_equal(np.nan_to_num(got, nan=-1), np.nan_to_num(np.array(GOLDEN["human_p"], float), nan=-1))


@pytest.mark.parametrize(("which", "metric"), CASES)
def test_tie_calibration(which: str, metric: str) -> None:
    data, gold = _case(which, metric)
    cal = calibrate_ties(data.human, data.metrics[metric])
    assert cal.value == pytest.approx(gold["acc_eq"], abs=TOL)
    assert cal.threshold == gold["acc_eq_threshold"]
    assert cal.values.size == gold["acc_eq_curve_len"]
    head = len(gold["acc_eq_curve_head"])
    np.testing.assert_allclose(cal.values[:head], gold["acc_eq_curve_head"], rtol=0, atol=TOL)
    np.testing.assert_array_equal(cal.thresholds[:head], gold["acc_eq_thresholds_head"])
    tau = calibrate_ties(data.human, data.metrics[metric], KendallVariant.TAU_23)
    assert (tau.value, tau.threshold) == (pytest.approx(gold["tau23"], abs=TOL), gold["tau23_threshold"])


@pytest.mark.parametrize(("which", "metric"), CASES)
def test_segment_correlations(which: str, metric: str) -> None:
    data, gold = _case(which, metric)
    h, m = data.human, data.metrics[metric]
    for grouping in Grouping:
        r, _ = pearson_grouped(h, m, grouping)
        assert r == pytest.approx(gold["seg_pearson"][grouping.value], abs=TOL), grouping
        b = kendall_grouped(h, m, KendallVariant.B, grouping).value
        assert b == pytest.approx(gold["seg_kendall_scipy_b"][grouping.value], abs=TOL), grouping
        for variant in KendallVariant:
            value = kendall_grouped(h, m, variant, grouping).value
            assert value == pytest.approx(gold["kendall"][variant.value][grouping.value], abs=TOL), (variant, grouping)
        eps = gold["acc_eq_threshold"]
        if grouping is Grouping.NONE:
            continue  # mtme's ε > 0 path needs a (cells × cells) matrix: not in the golden for the pooled cells
        for variant in (KendallVariant.B, KendallVariant.TAU_23, KendallVariant.ACC_23):
            value = kendall_grouped(h, m, variant, grouping, epsilon=eps).value
            expected = gold["kendall_at_acc_eq_threshold"][variant.value][grouping.value]
            assert value == pytest.approx(expected, abs=TOL), (variant, grouping, "epsilon")


STATISTICS = {
    "sys_pearson": Statistic.SYSTEM_PEARSON,
    "sys_kendall": Statistic.SYSTEM_KENDALL,
    "seg_pearson": Statistic.SEGMENT_PEARSON,
    "sys_accuracy": Statistic.PAIRWISE_ACCURACY,
    "sys_spa": Statistic.SOFT_PAIRWISE_ACCURACY,
    "seg_acc_eq": Statistic.SEGMENT_ACC_EQ,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(STATISTICS))
def test_metric_comparison_draw_for_draw(name: str) -> None:
    gold = GOLDEN["compare"][name]
    statistic = STATISTICS[name]
    k = GOLDEN["k"][name]
    got = compare_metrics(whole(), statistic, MetaSettings(k=k, seed=GOLDEN["seed"]), GOLDEN["compared"])
    assert list(got.metrics) == gold["order"]
    np.testing.assert_allclose(got.values, gold["values"], rtol=0, atol=TOL)
    n = len(got.metrics)
    upper = np.triu_indices(n, 1)
    np.testing.assert_array_equal(got.k_used[upper], np.array(gold["k_used"])[upper])
    np.testing.assert_array_equal(got.p_values[upper], np.array(gold["p_values"], float)[upper])
    assert list(got.ranks) == gold["ranks"]
