"""Bootstrap intervals and paired tests: bit-for-bit sacrebleu 2.6.0 on real WMT22 data, plus what sacrebleu lacks."""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.significance import PairedTest

from metrics.core.base import Metric, SegmentStats
from metrics.core.registry import create
from metrics.families.bleu.metric import BLEU
from metrics.families.chrf.metric import CHRF
from metrics.families.ter.metric import TER
from metrics.stats.resampling import (
    Resamples,
    bootstrap_indices,
    randomization_draws,
    randomized_scores,
    resample_counts,
    resampled_scores,
)
from metrics.stats.significance import (
    Interval,
    PairResult,
    all_pairs,
    confidence_interval,
    confidence_intervals,
    holm,
    n_pairs,
    paired_test,
    resamples_for,
    tied_groups,
)
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.parity import rel_close


@pytest.fixture(scope="module")
def wmt():
    return slice_corpus("wmt22-de-en")


@pytest.fixture(scope="module")
def ours(wmt):
    """Our metrics and their cached statistics for every system of the slice."""
    metrics = {"BLEU": BLEU(), "chrF2": CHRF()}
    return metrics, {m: {n: metric.stats(h, wmt.refs) for n, h in wmt.systems.items()} for m, metric in metrics.items()}


def _sacrebleu_metrics():
    return {"BLEU": SacreBLEU(), "chrF2": SacreCHRF()}


def _check_against_sacrebleu(scores, reports, names, with_intervals):
    """Every score, mean, half-width and p-value equal to sacrebleu's (1e-9 relative; p-values exactly)."""
    compared = 0
    for metric_name, results in scores.items():
        if metric_name == "System":
            continue
        report = reports[metric_name]
        for k, theirs in enumerate(results):
            interval = report.intervals[names[k]]
            if with_intervals:
                assert rel_close(theirs.score, interval.score)
                assert rel_close(float(theirs.mean), interval.mean), (metric_name, names[k])
                assert rel_close(float(theirs.ci), interval.half_width), (metric_name, names[k])
                compared += 2
            else:
                assert interval is None
            if k:
                pair = report.pairs[k - 1]
                assert (pair.baseline, pair.system) == (names[0], names[k])
                assert pair.p_value == theirs.p_value, (metric_name, names[k])
                compared += 1
    return compared


def test_paired_bootstrap_equals_sacrebleu(wmt, ours):
    metrics, stats = ours
    names = list(wmt.systems)[:3]
    _, scores = PairedTest([(n, wmt.systems[n]) for n in names], _sacrebleu_metrics(), wmt.refs, test_type="bs")()
    reports = {m: paired_test(metrics[m], {n: stats[m][n] for n in names}, method="bs") for m in metrics}
    assert _check_against_sacrebleu(scores, reports, names, True) == 2 * (6 + 2)
    # real differences exist on this data: one system is clearly worse than the baseline, one is not
    assert reports["BLEU"].pairs[0].p_value == pytest.approx(1 / 1001)
    assert reports["BLEU"].pairs[1].p_value > 0.05


def test_paired_randomization_equals_sacrebleu_with_its_confidence(wmt, ours):
    metrics, stats = ours
    names = list(wmt.systems)[1:3]
    _, scores = PairedTest(
        [(n, wmt.systems[n]) for n in names], _sacrebleu_metrics(), wmt.refs, test_type="ar", n_ar_confidence=1000
    )()
    reports = {
        m: paired_test(metrics[m], {n: stats[m][n] for n in names}, method="ar", n_confidence=1000) for m in metrics
    }
    assert reports["BLEU"].pairs[0].n_samples == 10000
    assert _check_against_sacrebleu(scores, reports, names, True) == 2 * (4 + 1)


def test_randomization_without_confidence_has_no_intervals(wmt, ours):
    metrics, stats = ours
    names = list(wmt.systems)[:2]
    report = paired_test(metrics["BLEU"], {n: stats["BLEU"][n] for n in names}, method="ar", n_samples=500)
    assert all(v is None for v in report.intervals.values())
    assert report.pairs[0].n_samples == 500


@pytest.mark.parametrize("metric_name", ["BLEU", "chrF2"])
def test_confidence_equals_corpus_score_n_bootstrap(wmt, ours, metric_name):
    metrics, stats = ours
    name = "LT22"
    theirs = _sacrebleu_metrics()[metric_name].corpus_score(wmt.systems[name], wmt.refs, n_bootstrap=1000)
    mine = confidence_interval(metrics[metric_name], stats[metric_name][name])
    assert rel_close(theirs.score, mine.score)
    assert rel_close(float(theirs._mean), mine.mean)
    assert rel_close(float(theirs._ci), mine.half_width)
    assert mine.lo < mine.mean < mine.hi and mine.n_samples == 1000
    assert mine.half_width == pytest.approx((mine.hi - mine.lo) / 2, rel=1e-6)


def test_ter_resamples_equal_sacrebleu(wmt):
    """TER's statistics are floats (average reference length): summed in float32 in order, as sacrebleu does."""
    names = list(wmt.systems)[:3]
    hyps = {n: wmt.systems[n][:60] for n in names}
    refs = [r[:60] for r in wmt.refs]
    _, scores = PairedTest([(n, hyps[n]) for n in names], {"TER": SacreTER()}, refs, test_type="bs")()
    metric = TER()
    report = paired_test(metric, {n: metric.stats(hyps[n], refs) for n in names}, method="bs")
    assert _check_against_sacrebleu(scores, {"TER": report}, names, True) == 6 + 2
    # three references make the average length a non-dyadic float: exercised through the float32 gather path
    thirds = [refs[0], refs[1], refs[0]]
    theirs = SacreTER().corpus_score(hyps[names[0]], thirds, n_bootstrap=1000)
    mine = confidence_interval(metric, metric.stats(hyps[names[0]], thirds))
    assert rel_close(float(theirs._mean), mine.mean) and rel_close(float(theirs._ci), mine.half_width)


def test_seed_is_sacrebleus_environment_seed(wmt, ours, monkeypatch):
    metrics, stats = ours
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    theirs = SacreBLEU().corpus_score(wmt.systems["PROMT"], wmt.refs, n_bootstrap=200)
    mine = confidence_interval(metrics["BLEU"], stats["BLEU"]["PROMT"], n_samples=200, seed=7)
    default = confidence_interval(metrics["BLEU"], stats["BLEU"]["PROMT"], n_samples=200)
    assert rel_close(theirs._mean, mine.mean) and rel_close(theirs._ci, mine.half_width)
    assert default.mean != mine.mean


def test_float32_replay_is_what_makes_it_exact(wmt, ours):
    """Plain float64 arithmetic misses sacrebleu's chrF means by more than the 1e-9 contract (so the replay matters)."""
    metrics, stats = ours
    name = "JDExploreAcademy"
    theirs = SacreCHRF().corpus_score(wmt.systems[name], wmt.refs, n_bootstrap=1000)
    plain = confidence_interval(metrics["chrF2"], stats["chrF2"][name], arithmetic="float64")
    exact = confidence_interval(metrics["chrF2"], stats["chrF2"][name])
    assert rel_close(float(theirs._mean), exact.mean)
    assert not rel_close(float(theirs._mean), plain.mean)
    assert abs(plain.mean - exact.mean) < 1e-5 * exact.mean


def test_bootstrap_indices_are_sacrebleus_draws():
    expected = np.random.default_rng(12345).choice(37, size=(50, 37), replace=True)
    assert np.array_equal(bootstrap_indices(37, 50), expected)
    assert not np.array_equal(bootstrap_indices(37, 50, seed=1), expected)
    rng = np.random.default_rng(3)
    mask, index = randomization_draws(20, 30, seed=3, n_confidence=5)
    assert np.array_equal(mask, rng.integers(2, size=(30, 20), dtype=bool))
    assert np.array_equal(index, rng.choice(20, size=(5, 20), replace=True))


def test_no_global_random_state_is_touched(ours):
    metrics, stats = ours
    np.random.seed(99)
    before = np.random.get_state()[1].copy()
    confidence_interval(metrics["BLEU"], stats["BLEU"]["LT22"], n_samples=50)
    paired_test(metrics["BLEU"], stats["BLEU"], method="ar", n_samples=50)
    assert np.array_equal(np.random.get_state()[1], before)


def test_count_matrix_product_equals_row_gathering(ours):
    """The fast path (counts @ rows) gives the scores of the literal resamples ``rows[index]``."""
    metrics, stats = ours
    systems = list(stats["BLEU"].values())
    index = bootstrap_indices(len(systems[0]), 300, seed=5)
    for metric_name in ("BLEU", "chrF2"):
        metric = metrics[metric_name]
        fast = resampled_scores(
            metric, list(stats[metric_name].values()), Resamples.from_index(index, len(index[0])), "float64"
        )
        for s, sys_stats in enumerate(stats[metric_name].values()):
            literal = metric.score_pooled(sys_stats.pooled(index))
            assert np.array_equal(fast.values[s], literal)


class _MeanOfColumn(Metric):
    """A minimal "mean" metric (corpus score = 100 × mean of column 0), standing in for ROUGE-like metrics."""

    id = "meanstub"
    aggregate = "mean"
    Config = dict

    def __init__(self) -> None:
        self.config = {}

    name = "Stub"  # type: ignore[assignment]
    columns = ("f", "p")  # type: ignore[assignment]

    def _segment_row(self, hyp, refs):  # pragma: no cover - statistics are built directly
        raise NotImplementedError

    def score_pooled(self, pooled):
        return 100.0 * np.asarray(pooled)[..., 0]

    def signature(self):
        return "stub"

    def _explain(self, hyp, refs):  # pragma: no cover
        raise NotImplementedError


def _stub_stats(seed: int, n: int = 120) -> SegmentStats:
    rows = np.random.default_rng(seed).random((n, 2))
    return SegmentStats("meanstub", ("f", "p"), rows, "mean")


def test_mean_aggregate_resamples_segment_rows():
    metric = _MeanOfColumn()
    a, b = _stub_stats(1), _stub_stats(2)
    index = bootstrap_indices(len(a), 200)
    boot = resampled_scores(metric, [a, b], Resamples.from_index(index, len(a)))
    assert not boot.exact_sacrebleu
    assert np.allclose(boot.values[0], 100 * a.rows[index, 0].mean(axis=1), rtol=1e-12)
    mask, _ = randomization_draws(len(a), 400)
    ra, rb = randomized_scores(metric, [a, b], [(0, 1)], mask)
    expected_a = 100 * np.where(mask, a.rows[:, 0], b.rows[:, 0]).mean(axis=1)
    expected_b = 100 * np.where(mask, b.rows[:, 0], a.rows[:, 0]).mean(axis=1)
    assert np.allclose(ra[0], expected_a, rtol=1e-12) and np.allclose(rb[0], expected_b, rtol=1e-12)
    report = paired_test(metric, {"a": a, "b": b})
    assert report.intervals["a"].score == pytest.approx(100 * a.rows[:, 0].mean(), rel=1e-12)


def test_cider_resampling_keeps_document_frequencies():
    """CIDEr-D rows carry the full corpus' document frequencies; a resample only re-weights them."""
    corpus = slice_corpus("coco")
    metric = create("cider")
    names = list(corpus.systems)[:2]
    stats = {n: metric.stats(corpus.systems[n], corpus.refs) for n in names}
    interval = confidence_interval(metric, stats[names[0]], n_samples=200)
    index = bootstrap_indices(len(stats[names[0]]), 200)
    manual = np.sort(metric.score_pooled(stats[names[0]].pooled(index)))
    assert rel_close(interval.lo, manual[5]) and rel_close(interval.hi, manual[194])
    assert rel_close(interval.score, metric.corpus_score(stats[names[0]]))


def test_diff_and_its_interval(ours):
    metrics, stats = ours
    report = paired_test(metrics["BLEU"], stats["BLEU"], baseline="LT22", arithmetic="float64")
    assert report.baseline == "LT22" and [p.system for p in report.pairs] == [n for n in stats["BLEU"] if n != "LT22"]
    index = bootstrap_indices(len(stats["BLEU"]["LT22"]), 1000)
    metric = metrics["BLEU"]
    base = metric.score_pooled(stats["BLEU"]["LT22"].pooled(index))
    for pair in report.pairs:
        other = stats["BLEU"][pair.system]
        assert pair.diff == pytest.approx(metric.corpus_score(other) - metric.corpus_score(stats["BLEU"]["LT22"]))
        diffs = np.sort(metric.score_pooled(other.pooled(index)) - base)
        assert pair.diff_ci == (diffs[25], diffs[974])
        assert pair.diff_ci[0] < pair.diff < pair.diff_ci[1]


def test_all_pairs_agree_with_baseline_runs_and_are_holm_adjusted(ours):
    metrics, stats = ours
    report = all_pairs(metrics["chrF2"], stats["chrF2"])
    names = list(stats["chrF2"])
    assert len(report.pairs) == len(names) * (len(names) - 1) // 2
    for baseline in names[:2]:
        single = paired_test(metrics["chrF2"], stats["chrF2"], baseline=baseline)
        for pair in single.pairs:
            match = [p for p in report.pairs if {p.baseline, p.system} == {pair.baseline, pair.system}]
            assert len(match) == 1 and match[0].p_value == pair.p_value
    adjusted = holm([p.p_value for p in report.pairs])
    assert [p.p_corrected for p in report.pairs] == list(adjusted)
    assert all(p.p_corrected >= p.p_value for p in report.pairs)
    # LT22 is far behind every other system on this slice; the others are not separable with 400 segments
    assert report.groups == (("JDExploreAcademy", "Lan-Bridge", "Online-B", "PROMT"), ("LT22",))
    assert set(report.intervals) == set(names)


def test_all_pairs_randomization_and_lower_is_better(wmt):
    names = list(wmt.systems)[:3]
    hyps = {n: wmt.systems[n][:80] for n in names}
    refs = [r[:80] for r in wmt.refs]
    metric = TER()
    stats = {n: metric.stats(hyps[n], refs) for n in names}
    report = all_pairs(metric, stats, method="ar", n_samples=2000, n_bootstrap=300)
    assert {p.method for p in report.pairs} == {"ar"} and report.pairs[0].n_samples == 2000
    best = min(names, key=lambda n: metric.corpus_score(stats[n]))
    assert report.groups[0][0] == best  # TER: the lowest score ranks first


def test_holm_worked_example():
    assert np.allclose(holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    assert np.allclose(holm([0.5, 0.9]), [1.0, 1.0])
    assert holm([]).shape == (0,)
    with pytest.raises(ValueError, match="p-values"):
        holm([0.5, 1.5])


def _pair(a: str, b: str, p: float, corrected: float | None = None) -> PairResult:
    return PairResult("m", a, b, "bs", p, 0.0, (0.0, 0.0), 1000, corrected)


def test_tied_groups_rule():
    scores = {"A": 10.0, "B": 9.0, "C": 8.0, "D": 5.0}
    p = {("A", "B"): 0.3, ("A", "C"): 0.01, ("A", "D"): 0.001, ("B", "C"): 0.2, ("B", "D"): 0.01, ("C", "D"): 0.5}
    pairs = [_pair(a, b, v, v) for (a, b), v in p.items()]
    # C is significantly worse than A (the group's top) although not worse than B: it opens a new group
    assert tied_groups(scores, pairs) == (("A", "B"), ("C", "D"))
    assert tied_groups(scores, pairs, alpha=0.001) == (("A", "B", "C", "D"),)
    assert tied_groups({k: -v for k, v in scores.items()}, pairs, higher_is_better=False) == (("A", "B"), ("C", "D"))
    with pytest.raises(ValueError, match="p_corrected"):
        tied_groups(scores, [_pair(a, b, v) for (a, b), v in p.items()])
    assert tied_groups(scores, [_pair(a, b, v) for (a, b), v in p.items()], corrected=False)[0] == ("A", "B")
    with pytest.raises(ValueError, match="no comparison"):
        tied_groups(scores, pairs[:2])


def test_equal_scores_are_never_ranked_apart():
    """A system whose score equals the previous one joins its group, even when its own test against the group's top
    came out significant (a zero difference is no evidence)."""
    scores = {"A": 10.0, "B": 8.0, "C": 8.0}
    p = {("A", "B"): 0.2, ("A", "C"): 0.01, ("B", "C"): 0.9}
    pairs = [_pair(a, b, v, v) for (a, b), v in p.items()]
    assert tied_groups(scores, pairs) == (("A", "B", "C"),)


def test_resamples_for_lets_the_smallest_corrected_p_fall_below_alpha():
    assert n_pairs(15) == 105 and n_pairs(2) == 1
    assert resamples_for(n_pairs(15)) == 21000  # 105 / 21001 ≤ 0.05 / 10
    assert resamples_for(1) == 1000  # two systems: sacrebleu's default already suffices
    for m in (1, 3, 10, 45, 105, 190, 4950):
        for alpha in (0.05, 0.01):
            n = resamples_for(m, alpha)
            assert m / (n + 1) <= alpha / 10 and n % 1000 == 0 and n >= 1000
            assert n == 1000 or m / (n - 1000 + 1) > alpha / 10  # the smallest such multiple of 1000
    with pytest.raises(ValueError, match="alpha"):
        resamples_for(3, 1.5)


def _fifteen_en_zh() -> tuple[CHRF, dict[str, SegmentStats]]:
    """15 English→Chinese systems on the 200-segment WMT22 slice: the two real ones, a byte-identical copy of one,
    ten blends of the two, one lightly and one heavily truncated Lan-Bridge (chrF ≈ 53.8 and ≈ 21.1)."""
    corpus = slice_corpus("wmt22-en-zh")
    good, other = corpus.systems["Online-B"], corpus.systems["Lan-Bridge"]
    systems = {"Online-B": good, "Online-B (copy)": list(good), "Lan-Bridge": other}
    for k in range(1, 11):
        systems[f"blend {k}"] = [
            g if (7 * i + k) % 11 < k else o for i, (g, o) in enumerate(zip(good, other, strict=True))
        ]
    systems["Lan-Bridge 96.7%"] = [t[: max(1, round(len(t) * 0.967))] for t in other]
    systems["Lan-Bridge 35.6%"] = [t[: max(1, round(len(t) * 0.356))] for t in other]
    metric = CHRF()
    return metric, {name: metric.stats(hyps, corpus.refs) for name, hyps in systems.items()}


def test_fifteen_systems_separate_with_enough_resamples_and_copies_stay_tied():
    metric, stats = _fifteen_en_zh()
    scores = {name: metric.corpus_score(s) for name, s in stats.items()}
    assert round(scores["Lan-Bridge 96.7%"], 1) == 53.8 and round(scores["Lan-Bridge 35.6%"], 1) == 21.1
    # sacrebleu's 1000 resamples: the smallest corrected p is 105/1001 > 0.05, so all 15 form one group
    floor = all_pairs(metric, stats, n_samples=1000)
    assert len(floor.groups) == 1
    n = resamples_for(n_pairs(len(stats)))
    report = all_pairs(metric, stats, n_samples=n)
    group_of = {name: k for k, group in enumerate(report.groups) for name in group}
    assert group_of["Lan-Bridge 96.7%"] != group_of["Lan-Bridge 35.6%"]
    assert report.groups[-1] == ("Lan-Bridge 35.6%",)
    assert group_of["Online-B"] == group_of["Online-B (copy)"] == 0
    copy = next(p for p in report.pairs if {p.baseline, p.system} == {"Online-B", "Online-B (copy)"})
    # sacrebleu's value for two identical systems is its floor 1/(n+1); corrections and groups count it as 1
    assert copy.identical and copy.p_value == 1 / (n + 1) and copy.p_corrected == 1.0 and copy.diff == 0.0
    assert sum(p.identical for p in report.pairs) == 1


def test_identical_systems_keep_sacrebleus_p_value_in_the_paired_test(wmt):
    hyps = wmt.systems["PROMT"][:80]
    refs = [r[:80] for r in wmt.refs]
    _, theirs = PairedTest([("A", hyps), ("B", list(hyps))], {"chrF2": SacreCHRF()}, refs, test_type="bs")()
    metric = CHRF()
    report = paired_test(metric, {"A": metric.stats(hyps, refs), "B": metric.stats(list(hyps), refs)})
    assert theirs["chrF2"][1].p_value == report.pairs[0].p_value == 1 / 1001
    assert report.pairs[0].identical
    groups = tied_groups({"A": 1.0, "B": 1.0}, report.pairs, corrected=False)
    assert groups == (("A", "B"),)


def test_many_resamples_are_pooled_in_blocks_without_changing_a_draw(ours, monkeypatch):
    """Tens of thousands of resamples are drawn and pooled block by block: the same draws, counts and scores as
    one block, with sacrebleu's generator stream."""
    import metrics.stats.resampling as resampling

    metrics, stats = ours
    systems = list(stats["chrF2"].values())
    whole = resampled_scores(metrics["chrF2"], systems, resampling.bootstrap_resamples(400, 300, 9))
    monkeypatch.setattr(resampling, "_BLOCK_CELLS", 400 * 7)  # blocks of 7 resamples, a last one of 6
    resampling.bootstrap_resamples.cache_clear()
    blocked = resampling.bootstrap_resamples(400, 300, 9)
    assert np.array_equal(blocked.index, np.random.default_rng(9).choice(400, size=(300, 400), replace=True))
    assert np.array_equal(resampled_scores(metrics["chrF2"], systems, blocked).values, whole.values)
    assert blocked.compact.dtype == np.uint8 and blocked.compact.nbytes == 300 * 400
    resampling.bootstrap_resamples.cache_clear()


def test_results_are_plain_json(ours):
    """sacrebleu's --paired-bs -f json dies on a numpy float32; every field here is a Python float."""
    metrics, stats = ours
    report = paired_test(metrics["chrF2"], stats["chrF2"])
    text = json.dumps([asdict(p) for p in report.pairs] + [asdict(i) for i in report.intervals.values()])
    assert "p_value" in text
    assert all(type(v) is float for i in report.intervals.values() for v in (i.mean, i.half_width, i.lo, i.hi))
    assert isinstance(report.intervals["LT22"], Interval)


def test_bad_arguments(ours):
    metrics, stats = ours
    bleu, systems = metrics["BLEU"], stats["BLEU"]
    with pytest.raises(ValueError, match="baseline"):
        paired_test(bleu, systems, baseline="nobody")
    with pytest.raises(ValueError, match="method"):
        paired_test(bleu, systems, method="t-test")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed"):
        paired_test(bleu, systems, seed=-1)
    with pytest.raises(ValueError, match="n_samples"):
        confidence_interval(bleu, systems["LT22"], n_samples=0)
    with pytest.raises(ValueError, match="arithmetic"):
        confidence_interval(bleu, systems["LT22"], arithmetic="float16")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least two"):
        paired_test(bleu, {"LT22": systems["LT22"]})
    short = SegmentStats("bleu", systems["LT22"].columns, systems["LT22"].rows[:10], "sum")
    with pytest.raises(ValueError, match="same segments"):
        paired_test(bleu, {"a": systems["LT22"], "b": short})
    with pytest.raises(ValueError, match="indices"):
        resample_counts(np.array([[0, 5]]), 3)
    with pytest.raises(TypeError, match="SegmentStats"):
        confidence_intervals(bleu, {"a": [1, 2]})  # type: ignore[dict-item]


@pytest.mark.sweep
def test_sweep_full_wmt22_de_en_equals_sacrebleu():
    corpus = shared_corpus("wmt22/de-en", ["ref.A.txt", "ref.B.txt"])
    names = list(corpus.systems)
    metrics = {"BLEU": BLEU(), "chrF2": CHRF(), "chrF2++": CHRF(word_order=2)}
    theirs = {"BLEU": SacreBLEU(), "chrF2": SacreCHRF(), "chrF2++": SacreCHRF(word_order=2)}
    stats = {m: {n: metric.stats(corpus.systems[n], corpus.refs) for n in names} for m, metric in metrics.items()}
    for test in ("bs", "ar"):
        _, scores = PairedTest(
            [(n, corpus.systems[n]) for n in names], theirs, corpus.refs, test_type=test, n_ar_confidence=1000
        )()
        reports = {m: paired_test(metrics[m], stats[m], method=test, n_confidence=1000) for m in metrics}
        _check_against_sacrebleu(scores, reports, names, True)
