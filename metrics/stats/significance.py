"""Confidence intervals, paired significance tests, all-pairs comparisons and tied groups of systems.

**sacrebleu-compatible part** (reproduces sacrebleu 2.6.0 exactly for the same seed and sample counts, see
:mod:`metrics.stats.resampling` for the random draws and :mod:`metrics.stats.sacrebleu_compat` for its float32 arithmetic):

* :func:`confidence_interval` — ``sacrebleu --confidence`` / ``BLEU().corpus_score(hyps, refs, n_bootstrap=1000)``.
  The 1000 resample scores are sorted; ``lo``/``hi`` are the order statistics at ``n // 40`` and
  ``n - n // 40 - 1`` (2.5 % and 97.5 % for 1000), sacrebleu's ``ci`` is the half-width ``0.5 · (hi − lo)`` and
  its ``mean`` the exact mean of the resample scores (``statistics.mean``, rounded to float32 for chrF/TER).
* :func:`paired_test` with ``method="bs"`` — ``sacrebleu --paired-bs`` (``PairedTest(test_type="bs")``): the same
  resamples for every system; each system's interval as above but with NumPy's mean of the sorted scores (which
  is what ``significance.estimate_ci`` takes); p-value of system S against baseline B: with
  ``d_b = |S_b − B_b|`` over resamples and the observed ``δ = |S − B|``, ``p = (#{b : d_b − mean(d) > δ} + 1) /
  (n + 1)`` (Koehn 2004 via Moses' ``bootstrap-hypothesis-difference-significance.pl``).
* :func:`paired_test` with ``method="ar"`` — ``sacrebleu --paired-ar``: 10 000 trials that swap each segment
  between the two systems with probability ½; ``p = (#{t : |A_t − B_t| > δ} + 1) / (n + 1)`` (Riezler and Maxwell
  2005, after multeval). Intervals only when ``n_confidence > 0`` (sacrebleu's ``n_ar_confidence``; its command
  line never sets it).

sacrebleu writes float32 values into its JSON output and then crashes (``--paired-bs -f json``); every field here
is a plain Python float.

**Beyond sacrebleu:**

* every result carries the signed difference ``diff = score(system) − score(baseline)`` and a 95 % bootstrap
  interval ``diff_ci`` on it: the same order statistics of ``S_b − B_b`` over the bootstrap resamples (for
  ``method="ar"`` too, from ``n_bootstrap`` resamples drawn with the same seed);
* :func:`all_pairs`: every pair of systems (the first of a pair plays the baseline; both tests are symmetric, so
  the p-value of (B, S) equals that of (S, B)), with Holm–Bonferroni adjusted p-values over the pairs of that
  metric (:func:`holm`);
* :func:`tied_groups` (WMT-style clusters), rule: rank the systems by corpus score, best first (equal scores
  keep their input order). The best system opens the first group and is its *top*. Walking down the ranking,
  a system joins the current group unless it is significantly worse than that group's top — adjusted p-value
  (or raw p-value, ``corrected=False``) below ``alpha`` — in which case it opens a new group and becomes its top.
  A system whose score equals the previous system's always joins that system's group: a zero difference is no
  evidence, so equal systems are never ranked apart. Otherwise no two systems in one group differ significantly
  from the group's top, while two members far apart in the ranking may differ from each other; every group's top
  differs significantly from the previous group's top;
* :func:`resamples_for`: enough resamples for ``m`` Holm-corrected comparisons to be able to reject. A test of
  ``n`` resamples cannot give a p-value below ``1/(n+1)``, and Holm multiplies the smallest by ``m``; with
  sacrebleu's 1000 resamples and 15 systems (105 pairs) the smallest reachable adjusted p-value is 0.105, so no
  difference, however large, could be significant at 0.05.

**Identical systems.** When two systems have identical segment statistics, every resampled difference is 0 and
sacrebleu's strict ``>`` (module ``_p_value``) counts none of them, so it reports the smallest possible p-value,
``1/(n+1)`` (0.001 for 1000 resamples) — "significant" for two copies of one output. :class:`PairResult` keeps
that value in ``p_value`` (parity with ``sacrebleu --paired-bs``) and marks the pair ``identical``; Holm's
correction (``p_corrected``) and the tied groups take such a pair's p-value as 1.

All functions are pure: they take :class:`~metrics.core.base.SegmentStats` and a :class:`~metrics.core.base.Metric`,
take a ``seed`` (default 12345, sacrebleu's) and never touch NumPy's global random state. Two sacrebleu quirks
are not copied: ``SACREBLEU_SEED=None`` (unseeded) has no equivalent, and sacrebleu's paired tests treat seed 0
as "no seed" (``seed if seed else None``) while we use 0 as a seed like any other.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from metrics.core.base import SegmentStats
from metrics.stats.defaults import DEFAULT_ALPHA, DEFAULT_SAMPLES
from metrics.stats.resampling import (
    DEFAULT_SEED,
    Arithmetic,
    Resamples,
    bootstrap_resamples,
    check_arithmetic,
    check_count,
    check_seed,
    randomization_draws,
    randomized_scores,
    resampled_scores,
)

Method = Literal["bs", "ar"]
METHODS: tuple[str, ...] = ("bs", "ar")


@dataclass(frozen=True)
class Interval:
    """A bootstrap estimate of one system's corpus score.

    ``score``: the corpus score of the full data; ``mean``: mean of the resample scores; ``lo``/``hi``: the
    2.5 % / 97.5 % order statistics of the sorted resample scores (indices ``n // 40`` and ``n - n // 40 - 1``);
    ``half_width``: sacrebleu's ``ci``, ``0.5 · (hi − lo)`` (computed in the resample scores' dtype, as sacrebleu
    does; sacrebleu prints ``μ = mean ± half_width``).
    """

    score: float
    mean: float
    lo: float
    hi: float
    half_width: float
    n_samples: int


@dataclass(frozen=True)
class PairResult:
    """One system compared with a baseline under one metric.

    ``diff`` is ``score(system) − score(baseline)`` (signed, on the metric's own scale: negative means worse for
    higher-is-better metrics and better for TER/WER); ``diff_ci`` its 95 % bootstrap interval; ``p_value`` the
    test's two-sided p-value (``n_samples`` resamples or trials), as sacrebleu computes it; ``p_corrected`` the
    Holm–Bonferroni adjusted p-value over all pairs of this metric (only from :func:`all_pairs`); ``identical``:
    both systems have the same segment statistics, so no test can tell them apart (sacrebleu's ``p_value`` is then
    its floor ``1/(n+1)``; see the module docstring), and corrections and groups count the pair as p = 1.
    """

    metric: str
    baseline: str
    system: str
    method: Method
    p_value: float
    diff: float
    diff_ci: tuple[float, float]
    n_samples: int
    p_corrected: float | None = None
    identical: bool = False

    @property
    def evidence(self) -> float:
        """The p-value groups and corrections use: ``p_value``, or 1 for identical systems."""
        return 1.0 if self.identical else self.p_value


@dataclass(frozen=True)
class PairedReport:
    """Everything one paired run produces for one metric: intervals (``None`` where the method gives none),
    pairwise results, and — for :func:`all_pairs` — the tied groups, best first."""

    metric: str
    method: Method
    baseline: str | None
    intervals: Mapping[str, Interval | None]
    pairs: tuple[PairResult, ...]
    groups: tuple[tuple[str, ...], ...] | None = None


def _bounds(n: int) -> tuple[int, int]:
    lower = n // 40  # sacrebleu: 95 %, i.e. 1/40 from each side
    return lower, n - lower - 1


def estimate_interval(score: float, samples: np.ndarray, mean: Literal["exact", "numpy"] = "numpy") -> Interval:
    """sacrebleu's interval from resample scores (kept in their own dtype: float32 or float64).

    ``mean="exact"`` is ``Score.estimate_ci`` (``statistics.mean``, behind ``--confidence``); ``"numpy"`` is
    ``significance.estimate_ci`` (``np.sort(scores).mean()``, behind the paired tests).
    """
    ordered = np.sort(np.asarray(samples))
    if len(ordered) < 1:
        raise ValueError("an interval needs at least one resample")
    lo_i, hi_i = _bounds(len(ordered))
    lower, upper = ordered[lo_i], ordered[hi_i]
    half = 0.5 * (upper - lower)
    if mean == "numpy":
        average = float(ordered.mean())
    else:
        # exact rational mean, rounded to float64 and then (as statistics.mean converts back) to the scores' dtype
        average = float(ordered.dtype.type(statistics.mean([float(x) for x in ordered])))
    return Interval(float(score), average, float(lower), float(upper), float(half), len(ordered))


def _diff_ci(system: np.ndarray, baseline: np.ndarray) -> tuple[float, float]:
    diffs = np.sort(system.astype(np.float64) - baseline.astype(np.float64))
    lo_i, hi_i = _bounds(len(diffs))
    return float(diffs[lo_i]), float(diffs[hi_i])


def _p_value(samples: np.ndarray, observed: float) -> float:
    """sacrebleu's ``_compute_p_value``: strict ``>`` (a zero difference is not attributed to chance), +1 smoothing."""
    count = np.sum(samples > observed).item()
    return (count + 1) / (len(samples) + 1)


def _check_systems(systems: Mapping[str, SegmentStats]) -> list[str]:
    if not isinstance(systems, Mapping) or not systems:
        raise ValueError("systems must be a non-empty mapping of system name → SegmentStats")
    for name, stats in systems.items():
        if not isinstance(stats, SegmentStats):
            raise TypeError(f"system {name!r}: expected SegmentStats, got {type(stats).__name__}")
    return list(systems)


def _label(metric: Any, label: str | None) -> str:
    return label if label is not None else str(metric.name)


def confidence_intervals(
    metric: Any,
    systems: Mapping[str, SegmentStats],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    arithmetic: Arithmetic = "sacrebleu",
) -> dict[str, Interval]:
    """``sacrebleu --confidence`` for each system on its own (the same resamples for each, as sacrebleu reseeds)."""
    names = _check_systems(systems)
    check_arithmetic(arithmetic)
    resamples = bootstrap_resamples(len(systems[names[0]]), check_count("n_samples", n_samples), check_seed(seed))
    stats = [systems[name] for name in names]
    scores = resampled_scores(metric, stats, resamples, arithmetic).values
    return {
        name: estimate_interval(metric.corpus_score(s), scores[i], mean="exact")
        for i, (name, s) in enumerate(zip(names, stats, strict=True))
    }


def confidence_interval(
    metric: Any,
    stats: SegmentStats,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    arithmetic: Arithmetic = "sacrebleu",
) -> Interval:
    """``sacrebleu --confidence``: ``metric.corpus_score(hyps, refs, n_bootstrap=n_samples)``'s mean and interval."""
    return confidence_intervals(metric, {"system": stats}, n_samples, seed, arithmetic)["system"]


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values (step-down; monotone; capped at 1), in the input order.

    With ``m`` p-values sorted ascending, ``p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j))``; rejecting
    ``p̃ < α`` controls the family-wise error rate at ``α``.
    """
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1 or np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must be a 1-D sequence of numbers in [0, 1]")
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    result = np.empty(m)
    result[order] = adjusted
    return result


def _resolve(
    systems: Mapping[str, SegmentStats], method: str, n_samples: int | None, seed: int, arithmetic: str
) -> tuple[list[str], int]:
    names = _check_systems(systems)
    if method not in METHODS:
        raise ValueError(f"method must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), not {method!r}")
    check_arithmetic(arithmetic)
    check_seed(seed)
    count = DEFAULT_SAMPLES[method] if n_samples is None else check_count("n_samples", n_samples)
    return names, count


def _compare(
    metric: Any,
    systems: Mapping[str, SegmentStats],
    names: list[str],
    pairs: list[tuple[int, int]],
    method: Method,
    n_samples: int,
    n_bootstrap: int,
    n_confidence: int,
    seed: int,
    arithmetic: Arithmetic,
    label: str,
    boot_intervals: bool = False,
) -> tuple[dict[str, Interval | None], list[PairResult]]:
    stats = [systems[name] for name in names]
    n = len(stats[0])
    scores = [metric.corpus_score(s) for s in stats]
    bs_count = n_samples if method == "bs" else n_bootstrap
    boot = resampled_scores(metric, stats, bootstrap_resamples(n, bs_count, seed), arithmetic).values
    intervals: dict[str, Interval | None] = dict.fromkeys(names)
    if method == "bs" or boot_intervals:
        intervals = {name: estimate_interval(scores[i], boot[i]) for i, name in enumerate(names)}
    if method == "bs":
        p_values = []
        for i, j in pairs:
            sample_diffs = np.abs(boot[j] - boot[i])
            p_values.append(_p_value(sample_diffs - sample_diffs.mean(), abs(scores[i] - scores[j])))
    else:
        mask, conf_index = randomization_draws(n, n_samples, seed, n_confidence)
        a, b = randomized_scores(metric, stats, pairs, mask)
        p_values = [_p_value(np.abs(a[k] - b[k]), abs(scores[i] - scores[j])) for k, (i, j) in enumerate(pairs)]
        if n_confidence > 0 and conf_index is not None:
            # sacrebleu: the baseline's interval from a fresh generator, the others' from the AR generator
            fresh = resampled_scores(metric, stats[:1], bootstrap_resamples(n, n_confidence, seed), arithmetic).values
            shared = resampled_scores(metric, stats, Resamples.from_index(conf_index, n), arithmetic).values
            intervals = {
                name: estimate_interval(scores[i], fresh[0] if i == 0 else shared[i]) for i, name in enumerate(names)
            }
    results = [
        PairResult(
            metric=label,
            baseline=names[i],
            system=names[j],
            method=method,
            p_value=float(p),
            diff=float(scores[j] - scores[i]),
            diff_ci=_diff_ci(boot[j], boot[i]),
            n_samples=n_samples,
            identical=bool(np.array_equal(stats[i].rows, stats[j].rows)),
        )
        for (i, j), p in zip(pairs, p_values, strict=True)
    ]
    return intervals, results


def paired_test(
    metric: Any,
    systems: Mapping[str, SegmentStats],
    baseline: str | None = None,
    method: Method = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    arithmetic: Arithmetic = "sacrebleu",
    n_bootstrap: int = 1000,
    n_confidence: int = 0,
    label: str | None = None,
) -> PairedReport:
    """``sacrebleu --paired-bs`` / ``--paired-ar``: every system against ``baseline`` (default: the first).

    ``n_samples``: resamples (bs, default 1000) or trials (ar, default 10 000). ``n_bootstrap``: resamples behind
    ``diff_ci`` for ``ar``. ``n_confidence``: sacrebleu's ``n_ar_confidence`` (intervals for ``ar``; 0 = none).
    """
    names, count = _resolve(systems, method, n_samples, seed, arithmetic)
    check_count("n_bootstrap", n_bootstrap)
    check_count("n_confidence", n_confidence, 0)
    base = names[0] if baseline is None else baseline
    if base not in systems:
        raise ValueError(f"baseline {base!r} is not one of the systems: {', '.join(names)}")
    names = [base, *(name for name in names if name != base)]
    if len(names) < 2:
        raise ValueError("a paired test needs at least two systems")
    pairs = [(0, j) for j in range(1, len(names))]
    intervals, results = _compare(
        metric, systems, names, pairs, method, count, n_bootstrap, n_confidence, seed, arithmetic, _label(metric, label)
    )
    return PairedReport(_label(metric, label), method, base, intervals, tuple(results))


def all_pairs(
    metric: Any,
    systems: Mapping[str, SegmentStats],
    method: Method = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    arithmetic: Arithmetic = "sacrebleu",
    n_bootstrap: int = 1000,
    alpha: float = DEFAULT_ALPHA,
    corrected: bool = True,
    label: str | None = None,
) -> PairedReport:
    """Every pair of systems (in input order: (s1, s2), (s1, s3), …, (s2, s3), …), Holm-adjusted over the pairs,
    plus the tied groups (see :func:`tied_groups`). Intervals: per system, as in the paired bootstrap."""
    names, count = _resolve(systems, method, n_samples, seed, arithmetic)
    check_count("n_bootstrap", n_bootstrap)
    if len(names) < 2:
        raise ValueError("comparing pairs needs at least two systems")
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    intervals, results = _compare(
        metric, systems, names, pairs, method, count, n_bootstrap, 0, seed, arithmetic, _label(metric, label), True
    )
    adjusted = holm([r.evidence for r in results])
    results = [replace(r, p_corrected=float(p)) for r, p in zip(results, adjusted, strict=True)]
    scores = {name: metric.corpus_score(systems[name]) for name in names}
    groups = tied_groups(scores, results, bool(metric.higher_is_better), alpha, corrected)
    return PairedReport(_label(metric, label), method, None, intervals, tuple(results), groups)


def tied_groups(
    scores: Mapping[str, float],
    pairs: Sequence[PairResult],
    higher_is_better: bool = True,
    alpha: float = DEFAULT_ALPHA,
    corrected: bool = True,
) -> tuple[tuple[str, ...], ...]:
    """Groups of systems not significantly different from their group's top, best first (rule in the module
    docstring). ``pairs`` must compare every system with every other (either order)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, not {alpha!r}")
    p_of: dict[frozenset[str], float] = {}
    for r in pairs:
        p = r.p_corrected if corrected else r.evidence
        if p is None:
            raise ValueError("corrected=True needs p_corrected on every pair (use all_pairs, or corrected=False)")
        p_of[frozenset((r.baseline, r.system))] = p
    names = list(scores)
    order = sorted(range(len(names)), key=lambda i: (-scores[names[i]] if higher_is_better else scores[names[i]], i))
    groups: list[list[str]] = []
    top = ""
    for i in order:
        name = names[i]
        if groups:
            key = frozenset((top, name))
            if key not in p_of:
                raise ValueError(f"no comparison of {top!r} with {name!r} among the pairs")
            if p_of[key] >= alpha or scores[name] == scores[groups[-1][-1]]:
                groups[-1].append(name)
                continue
        groups.append([name])
        top = name
    return tuple(tuple(g) for g in groups)


def resamples_for(
    n_comparisons: int, alpha: float = DEFAULT_ALPHA, margin: float = 10.0, minimum: int = DEFAULT_SAMPLES["bs"]
) -> int:
    """Resamples (or trials) for ``n_comparisons`` Holm-corrected tests at level ``alpha``: the smallest
    reachable adjusted p-value, ``n_comparisons / (n + 1)``, is at most ``alpha / margin``. At least ``minimum``
    (sacrebleu's 1000 resamples), rounded up to a multiple of 1000: 21,000 for 15 systems (105 pairs) at 0.05."""
    check_count("n_comparisons", n_comparisons)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, not {alpha!r}")
    if not margin >= 1:
        raise ValueError(f"margin must be at least 1, not {margin!r}")
    needed = math.ceil(margin * n_comparisons / alpha) - 1
    return max(minimum, -(-needed // 1000) * 1000)


def n_pairs(n_systems: int) -> int:
    """How many pairs :func:`all_pairs` compares for ``n_systems`` systems."""
    return n_systems * (n_systems - 1) // 2
