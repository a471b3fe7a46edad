"""The meta-evaluation statistics on hand-computed cases: each expected number is worked out in the comment beside
it, so an implementation that counts ties, orients pairs or averages groups differently fails."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.meta import (
    Grouping,
    KendallVariant,
    MetaInput,
    MetaSettings,
    PairOutcome,
    Statistic,
    assign_ranks,
    compare_metrics,
    meta_evaluate,
)
from metrics.meta.evidence import segment_pair_errors, system_pair_errors
from metrics.meta.segment import (
    acc_eq_chance,
    calibrate_ties,
    kendall_grouped,
    kendall_value,
    pearson_grouped,
    tau_counts,
)
from metrics.meta.system import (
    accuracy_chance,
    bootstrap_counts,
    kendall_b,
    pairwise_accuracy,
    pairwise_p_values,
    pearson,
    soft_pairwise_accuracy,
    spa_chance,
)


def test_pairwise_accuracy_counts_a_human_tie_as_right_only_when_the_metric_ties_it() -> None:
    # pairs (0,1) (0,2) (1,2): reversed, right, right
    assert pairwise_accuracy(np.array([3.0, 2.0, 1.0]), np.array([1.0, 2.0, 0.0])) == pytest.approx(2 / 3)
    # human tie (0,1): the metric orders it -> wrong; ties it -> right
    assert pairwise_accuracy(np.array([1.0, 1.0, 0.0]), np.array([2.0, 1.0, 0.0])) == pytest.approx(2 / 3)
    assert pairwise_accuracy(np.array([1.0, 1.0, 0.0]), np.array([1.0, 1.0, 0.0])) == 1.0
    # chance: the two ordered pairs are right half the time, the tied one never
    assert accuracy_chance(np.array([1.0, 1.0, 0.0])) == pytest.approx(1 / 3)


def test_system_correlations() -> None:
    # C = 5, D = 1 of 6 pairs, no ties
    assert kendall_b(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0, 4.0])) == pytest.approx(4 / 6)
    # one tie each side: (C − D) / √5 / √5 with C = 4 ... pairs: (0,1)+ (0,2)+ (0,3)+ (1,2)T_h (1,3)+ (2,3)T_m
    assert kendall_b(np.array([1.0, 2.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0, 3.0])) == pytest.approx(4 / 5)
    assert pearson(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 7.0])) == pytest.approx(0.9933992677987828)
    assert np.isnan(pearson(np.array([1.0, 2.0, 3.0]), np.array([5.0, 5.0, 5.0])))


def test_pairwise_p_values_and_spa() -> None:
    base = np.linspace(0.0, 1.0, 20)
    scores = np.stack([base + 1.0, base, base])
    p = pairwise_p_values(scores, 1000, 4)
    # row 0 beats row 1 on every segment: only the all-plus flip (2^-20) reaches the observed sum
    assert p[0, 1] == 0.0
    # identical rows: every flipped sum is 0 >= 0
    assert p[1, 2] == 1.0
    assert np.isnan(p[1, 0]) and np.isnan(p[0, 0])
    assert soft_pairwise_accuracy(p, p) == 1.0
    other = p.copy()
    other[0, 1] = 0.5  # one of three pairs off by 0.5
    assert soft_pairwise_accuracy(p, other) == pytest.approx(1 - 0.5 / 3)
    # chance: E|p − U| = (p² + (1 − p)²)/2 = 1/2 for p in {0, 1}
    assert spa_chance(p) == pytest.approx(0.5)
    # the float32 product is taken in C order whatever the caller's layout (its rounding depends on the layout)
    noisy = np.random.default_rng(0).normal(size=(5, 300))
    np.testing.assert_array_equal(pairwise_p_values(np.asfortranarray(noisy)), pairwise_p_values(noisy))


def test_tau_counts_and_variants() -> None:
    h = np.array([1.0, 2.0, 3.0, 3.0])
    m = np.array([1.0, 3.0, 2.0, 2.0])
    # (0,1) (0,2) (0,3) concordant; (1,2) (1,3) discordant; (2,3) tied on both sides
    c = tau_counts(h, m)
    assert (c.con, c.dis, c.ties_human, c.ties_metric, c.ties_both) == (3, 2, 0, 0, 1)
    assert kendall_value(c, KendallVariant.ACC_23) == pytest.approx(4 / 6)
    assert kendall_value(c, KendallVariant.TAU_23) == pytest.approx(2 / 6)
    assert kendall_value(c, KendallVariant.B) == pytest.approx(1 / 5)
    # τ-c: 2(C − D) / (n² (m − 1)/m), m = min(3 distinct, 3 distinct) = 3
    assert kendall_value(c, KendallVariant.C) == pytest.approx(2 * 1 / (16 * 2 / 3))
    # ε = 1: every metric difference but (0,1)'s 2 becomes a tie
    e = tau_counts(h, m, 1.0)
    assert (e.con, e.dis, e.ties_human, e.ties_metric, e.ties_both) == (1, 0, 0, 4, 1)


def test_fast_counts_equal_the_pairwise_definition() -> None:
    rng = np.random.default_rng(1)
    h = rng.integers(0, 5, 700).astype(float)
    m = rng.integers(0, 7, 700).astype(float)
    fast = tau_counts(h, m)  # the sorted path of ε = 0
    i, j = np.triu_indices(700, 1)
    dh, dm = h[i] - h[j], m[i] - m[j]
    assert fast.ties_both == int(((dh == 0) & (dm == 0)).sum())
    assert fast.ties_human == int(((dh == 0) & (dm != 0)).sum())
    assert fast.ties_metric == int(((dh != 0) & (dm == 0)).sum())
    assert fast.con == int((dh * dm > 0).sum())
    assert fast.dis == int((dh * dm < 0).sum())


def _matrix() -> tuple[np.ndarray, np.ndarray]:
    # 3 systems × 2 segments
    human = np.array([[0.0, 1.0], [0.0, 2.0], [1.0, 3.0]])
    metric = np.array([[0.25, 3.0], [0.5, 2.0], [2.0, 1.0]])
    return human, metric


def test_groupings() -> None:
    human, metric = _matrix()
    # by item: segment 0 has acc23 pairs (0,1) human tie / metric apart, (0,2) and (1,2) concordant -> 2/3;
    # segment 1 is fully reversed -> 0; mean 1/3
    assert kendall_grouped(human, metric, KendallVariant.ACC_23, Grouping.ITEM).value == pytest.approx(1 / 3)
    # by system: each row of 2 segments; rows 0 and 1 concordant, row 2 concordant (1 < 3, 2 > 1 -> discordant!)
    # row 0: h 0<1, m .25<3 con; row 1: h 0<2, m .5<2 con; row 2: h 1<3, m 2>1 dis -> acc23 (1 + 1 + 0)/3
    assert kendall_grouped(human, metric, KendallVariant.ACC_23, Grouping.SYSTEM).value == pytest.approx(2 / 3)
    # items given: both segments form one item of 6 cells
    one = kendall_grouped(human, metric, KendallVariant.ACC_23, Grouping.ITEM, np.array([0, 0]))
    pooled = kendall_grouped(human, metric, KendallVariant.ACC_23, Grouping.NONE)
    assert one.value == pooled.value and one.n_groups == 1
    # Pearson by item: segment 0 r(h, m) and segment 1 r = −1, averaged
    r0 = pearson(human[:, 0], metric[:, 0])
    assert pearson_grouped(human, metric, Grouping.ITEM)[0] == pytest.approx((r0 - 1.0) / 2)
    # an unrated cell drops out of its group: segment 1 keeps (0,2) only, discordant
    gap = human.copy()
    gap[1, 1] = np.nan
    assert kendall_grouped(gap, metric, KendallVariant.ACC_23, Grouping.ITEM).value == pytest.approx((2 / 3 + 0) / 2)


def test_tie_calibration_curve() -> None:
    human = np.array([[0.0], [0.0], [1.0]])
    metric = np.array([[0.25], [0.5], [2.0]])
    cal = calibrate_ties(human, metric)
    # differences 0.25 (human tie), 1.5 and 1.75 (concordant): tying the first gains it, the others lose them
    assert cal.thresholds.tolist() == [0.0, 0.25, 1.5, 1.75]
    assert cal.values == pytest.approx([2 / 3, 1.0, 2 / 3, 1 / 3])
    assert (cal.threshold, cal.value) == (0.25, 1.0)
    # τ23: (C + T_both − D − T_h − T_m)/P: 1/3 at 0, 1 at 0.25, then −1/3 per concordant pair tied
    tau = calibrate_ties(human, metric, KendallVariant.TAU_23)
    assert tau.values == pytest.approx([1 / 3, 1.0, 1 / 3, -1 / 3])


def test_acc_eq_chance() -> None:
    # one item, 4 systems, 3 of 6 pairs tied by the humans: tie everything -> 1/2, nothing -> 1/4
    assert acc_eq_chance(np.array([[0.0], [0.0], [0.0], [1.0]])) == pytest.approx(0.5)
    # no human ties: 1/2 of the pairs right at random
    assert acc_eq_chance(np.array([[0.0], [1.0], [2.0]])) == pytest.approx(0.5)


def test_assign_ranks() -> None:
    p = np.full((3, 3), np.nan)
    p[0, 1], p[0, 2], p[1, 2] = 0.3, 0.01, 0.2
    # metric 2 is beaten by metric 0 of the current cluster -> a new cluster
    assert assign_ranks(p) == (1, 1, 2)
    p[0, 2] = 0.06
    assert assign_ranks(p) == (1, 1, 1)


def _data(seed: int = 0) -> MetaInput:
    rng = np.random.default_rng(seed)
    quality = np.linspace(0, 3, 10)[:, None] + rng.normal(0, 1, (10, 80))
    human = np.round(quality * 2) / 2  # ties, as MQM has
    human[:, :10] = np.nan
    return MetaInput(
        tuple(f"sys{i}" for i in range(10)),
        human,
        {
            "good": quality + rng.normal(0, 0.3, quality.shape),
            "noise": rng.normal(0, 1, quality.shape),
            "fair": quality + rng.normal(0, 1.5, quality.shape),
        },
    )


def test_compare_metrics_is_seeded_and_separates_a_good_metric_from_noise() -> None:
    data = _data()
    settings = MetaSettings(k=200, seed=7)
    for statistic in (Statistic.PAIRWISE_ACCURACY, Statistic.SEGMENT_PEARSON, Statistic.SEGMENT_ACC_EQ):
        a = compare_metrics(data, statistic, settings)
        b = compare_metrics(data, statistic, settings)
        assert a.metrics[-1] == "noise" and "good" in a.clusters[0]
        np.testing.assert_array_equal(a.p_values, b.p_values)
        assert a.p_values[0, 2] < 0.05 and a.ranks[0] < a.ranks[-1]
    none = compare_metrics(data, Statistic.SEGMENT_PEARSON, MetaSettings(seed=None))
    assert none.ranks == (1, 2, 3) and np.isnan(none.p_values).all()


def test_permutation_draws_are_numpys_binomial() -> None:
    # compare.py draws binomial(1, ½) as random_sample() > ½ (one double per draw), the stream np.random.seed gives
    legacy = np.random.RandomState(29)
    drawn = np.concatenate([legacy.binomial(1, 0.5, (4, 4)).ravel(), legacy.binomial(1, 0.5, 7)])
    np.testing.assert_array_equal(drawn, np.random.RandomState(29).random_sample(23) > 0.5)


def test_evidence() -> None:
    human = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    metric = np.array([[1.0, 1.0], [3.0, 3.0], [2.0, 2.0]])  # systems 1 and 2 swapped
    data = MetaInput(("a", "b", "c"), human, {"m": metric})
    counts = bootstrap_counts(data, MetaSettings(n_bootstrap=50))
    hp = pairwise_p_values(human, 100)
    mp = pairwise_p_values(metric, 100)
    (error,) = system_pair_errors(data, "m", hp, mp, counts)
    assert (error.better, error.worse, error.outcome) == ("c", "b", PairOutcome.DISCORDANT)
    assert (error.human_delta, error.metric_delta) == (1.0, -1.0)
    pairs, total = segment_pair_errors(data, "m", 0.0)
    assert total == 2 and {p.segment for p in pairs} == {0, 1}
    assert all((p.system_a, p.system_b, p.human_a, p.metric_a) == ("b", "c", 2.0, 3.0) for p in pairs)
    # at threshold 1 the metric ties b-c and a-c (|differences| 1, ordered by the humans); a-b (2) stays right
    tied, total = segment_pair_errors(data, "m", 1.0)
    assert total == 4 and {p.outcome for p in tied} == {PairOutcome.FALSE_TIE}
    assert {(p.system_a, p.system_b) for p in tied} == {("a", "c"), ("b", "c")}


def test_meta_input_checks_and_copies() -> None:
    human = np.array([[1.0, np.nan], [2.0, 3.0]])
    metric = np.array([[0.1, 0.2], [0.3, 0.4]])
    data = MetaInput(("a", "b"), human, {"m": metric}, {"m": np.array([5.0, 6.0])})
    metric[0, 0] = 9.0  # the input keeps its own copy
    assert data.metrics["m"][0, 0] == 0.1 and not data.metrics["m"].flags.writeable
    np.testing.assert_array_equal(data.human_system_scores(), [1.0, 2.5])
    np.testing.assert_array_equal(data.metric_system_scores("m"), [5.0, 6.0])
    sub = data.subset([1])
    assert sub.system_scores == {} and sub.metric_system_scores("m").tolist() == [0.2, 0.4]
    with pytest.raises(ValueError, match="finite"):
        MetaInput(("a", "b"), human, {"m": np.array([[np.nan, 0.0], [0.0, 0.0]])})
    with pytest.raises(ValueError, match="shape"):
        MetaInput(("a", "b"), human, {"m": np.zeros((2, 3))})
    with pytest.raises(ValueError, match="two systems"):
        MetaInput(("a",), human[:1], {"m": metric[:1]})


def test_meta_evaluate_report() -> None:
    report = meta_evaluate(_data(), MetaSettings(k=100, n_bootstrap=100, spa_permutations=200))
    good = report.metrics["good"]
    assert good.system.accuracy.lo <= good.system.accuracy.value <= good.system.accuracy.hi
    assert good.system.spa.value > report.metrics["noise"].system.spa.value
    assert good.segment.acc_eq.value > good.segment.acc_eq.chance
    assert len(good.segment.kendall) == len(Grouping) * len(KendallVariant)
    assert report.n_rated == 10 * 70 and set(report.comparisons) == {
        Statistic.SOFT_PAIRWISE_ACCURACY,
        Statistic.PAIRWISE_ACCURACY,
        Statistic.SEGMENT_ACC_EQ,
    }
    assert good.n_segment_errors >= len(good.segment_errors)
