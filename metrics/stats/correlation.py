"""Correlation of metric scores with human judgments: Pearson, Spearman and Kendall τ-b, at segment and system
level, with seeded bootstrap intervals. NumPy only (scipy is used by the tests, never at run time).

* **Pearson** r: the usual product-moment coefficient (``scipy.stats.pearsonr``).
* **Spearman** ρ: Pearson's r of the ranks, ties getting their **average** rank (``scipy.stats.spearmanr``).
* **Kendall τ-b** (``scipy.stats.kendalltau``'s default ``variant="b"``):
  ``τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂))`` with ``C``/``D`` the concordant/discordant pairs, ``n₀ = n(n−1)/2`` and
  ``n₁``/``n₂`` the pairs tied in the metric / in the human scores (pairs tied in both count in both). It is the
  variant that corrects for ties, which human scores on a 1–5 scale have in abundance.

Levels (see :func:`correlate`):

* **segment**: all (system, segment) pairs that have a human score, pooled into one list (no grouping by item or
  by system); the metric side is ``metric.segment_scores`` (e.g. sentence BLEU).
* **system**: one point per system: the metric's corpus score over the segments that system has human scores for
  (pooled statistics of those rows, so for a fully judged set it is the corpus score) against the mean human
  score of those segments.

Bootstrap (``n_samples`` resamples, ``seed``): the *segments* (test items) are resampled with replacement, the
same draw for every system (indices exactly as :func:`metrics.stats.resampling.bootstrap_indices`), and both levels are
recomputed on each resample; the interval is the 2.5 % / 97.5 % order statistics (``n // 40`` and
``n − n // 40 − 1`` of the sorted values, as for score intervals). Resamples on which a coefficient is undefined
(a constant side) are left out. Segment-level coefficients on a resample are computed exactly, without building
the resample: a segment drawn ``k`` times is an observation of weight ``k`` (weighted means for Pearson, weighted
average ranks for Spearman, and for Kendall ``C − D = ½ wᵀSw`` with ``S_ij = sign(x_i − x_j)·sign(y_i − y_j)``
and tie counts from grouped weights). Kendall's pair term costs ``N²`` sign comparisons once plus, per resample,
``segments²`` operations (the points of one segment share a weight, so ``S`` is summed per segment pair first);
for THumB (N = 2 500 points, 500 segments, 1 000 resamples) all three coefficients at both levels take ~1 s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from metrics.core.base import SegmentStats
from metrics.stats.human import HumanScores
from metrics.stats.resampling import DEFAULT_SEED, bootstrap_resamples, check_count, check_seed

Method = Literal["pearson", "spearman", "kendall"]
Level = Literal["segment", "system"]
METHODS: tuple[str, ...] = ("pearson", "spearman", "kendall")
LEVELS: tuple[str, ...] = ("segment", "system")
_CHUNK_FLOATS = 4_000_000  # bounds the temporaries of one step (resamples × points, or a block of S)


@dataclass(frozen=True)
class Correlation:
    """One coefficient with its bootstrap interval. ``n``: points correlated ((system, segment) pairs or systems);
    ``n_samples``: resamples behind ``lo``/``hi`` (NaN when no resample gave a defined value)."""

    metric: str
    level: Level
    method: Method
    value: float
    lo: float
    hi: float
    n: int
    n_samples: int


def _check_pair(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if xs.ndim != 1 or xs.shape != ys.shape:
        raise ValueError(f"x and y must be 1-D of the same length, not {xs.shape} and {ys.shape}")
    if len(xs) < 2:
        raise ValueError("a correlation needs at least two points")
    if not (np.all(np.isfinite(xs)) and np.all(np.isfinite(ys))):
        raise ValueError("x and y must be finite (no NaN or infinity)")
    return xs, ys


def rankdata(values: Any) -> np.ndarray:
    """Average ranks (1-based; ties share the mean of their positions) along the last axis, as
    ``scipy.stats.rankdata(method="average")``; works on 2-D arrays row by row."""
    a = np.asarray(values, dtype=np.float64)
    if a.ndim == 0:
        raise ValueError("rankdata needs at least one dimension")
    n = a.shape[-1]
    order = np.argsort(a, axis=-1, kind="stable")
    ordered = np.take_along_axis(a, order, axis=-1)
    position = np.broadcast_to(np.arange(n), a.shape)
    starts = np.ones(a.shape, dtype=bool)
    starts[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
    ends = np.ones(a.shape, dtype=bool)
    ends[..., :-1] = starts[..., 1:]
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=-1)
    last = np.flip(np.minimum.accumulate(np.flip(np.where(ends, position, n - 1), axis=-1), axis=-1), axis=-1)
    ranks = np.empty(a.shape)
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=-1)
    return ranks


def _pearson_rows(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted Pearson r per row: ``x``, ``y`` of shape (N,) or (B, N), weights (B, N); two-pass (centred)."""
    total = w.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mx = (w * x).sum(axis=-1) / total
        my = (w * y).sum(axis=-1) / total
        dx = x - mx[:, None]
        dy = y - my[:, None]
        sxy = (w * dx * dy).sum(axis=-1)
        sxx = (w * dx * dx).sum(axis=-1)
        syy = (w * dy * dy).sum(axis=-1)
        r = sxy / np.sqrt(sxx * syy)
    return np.where((sxx > 0) & (syy > 0), np.clip(r, -1.0, 1.0), np.nan)


def _weighted_ranks(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Average rank of each point in the multiset where point ``i`` appears ``w[b, i]`` times (rows of ``w``)."""
    order = np.argsort(x, kind="stable")
    ordered = x[order]
    new_value = np.r_[True, ordered[1:] != ordered[:-1]]
    starts = np.flatnonzero(new_value)
    group = np.cumsum(new_value) - 1
    # points × resamples layout: the gathers below then pick contiguous rows
    cumulative = np.zeros((len(x) + 1, len(w)))
    np.cumsum(w.T[order], axis=0, out=cumulative[1:])
    below = cumulative[starts]
    within = cumulative[np.r_[starts[1:], len(x)]] - below
    ranks = np.empty((len(x), len(w)))
    ranks[order] = (below + (within + 1.0) / 2.0)[group]
    return ranks.T


def _tie_pairs(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Pairs of resampled points tied in ``x``: ``(Σ_groups (Σ_{i∈g} w_i)² − Σ w) / 2`` per row of ``w``."""
    order = np.argsort(x, kind="stable")
    ordered = x[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    grouped = np.add.reduceat(w[:, order], starts, axis=1)
    return ((grouped**2).sum(axis=1) - w.sum(axis=1)) / 2.0


def _pair_signs(x: np.ndarray, y: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Rows ``start:stop`` of ``S_ij = sign(x_i − x_j) · sign(y_i − y_j)`` as int8 (the entries are −1, 0, 1)."""
    xi, yi = x[start:stop, None], y[start:stop, None]
    sx = np.greater(xi, x).view(np.int8) - np.less(xi, x).view(np.int8)
    sy = np.greater(yi, y).view(np.int8) - np.less(yi, y).view(np.int8)
    return sx * sy


def _kendall_weighted(x: np.ndarray, y: np.ndarray, counts: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Kendall τ-b of the multisets in which point ``i`` appears ``counts[b, group[i]]`` times (rows ``b``).

    ``C − D = ½ wᵀ S w``. When points share weights (all systems' points of one segment), ``S`` is first summed
    over the points of each group, so the per-resample work is ``groups²`` instead of ``points²``.
    """
    n = len(x)
    n_groups = counts.shape[1]
    w = counts[:, group]
    total = w.sum(axis=1)
    block = max(1, _CHUNK_FLOATS // max(n, 1))
    if n_groups < n and n_groups * n_groups <= _CHUNK_FLOATS * 4:
        order = np.argsort(group, kind="stable")
        xs, ys, gs = x[order], y[order], group[order]
        starts = np.flatnonzero(np.r_[True, gs[1:] != gs[:-1]])
        present = gs[starts]
        folded = np.zeros((n, len(starts)))
        for start in range(0, n, block):
            stop = min(n, start + block)
            folded[start:stop] = np.add.reduceat(_pair_signs(xs, ys, start, stop), starts, axis=1, dtype=np.int32)
        pair_sums = np.add.reduceat(folded, starts, axis=0)  # groups × groups
        c = counts[:, present]
        quad = ((c @ pair_sums) * c).sum(axis=1)
    else:
        # integer weights and ±1/0 entries: the products are exact in float32 while sums stay below 2^24
        exact32 = bool(np.all(w == np.round(w)) and float(total.max()) < 2.0**24)
        wd = w.astype(np.float32 if exact32 else np.float64)
        quad = np.zeros(len(w))
        for start in range(0, n, block):
            stop = min(n, start + block)
            v = (wd @ _pair_signs(x, y, start, stop).T.astype(wd.dtype)).astype(np.float64)  # Σ_j w_j S_ij
            quad += (w[:, start:stop] * v).sum(axis=1)
    c_minus_d = quad / 2.0
    pairs = total * (total - 1.0) / 2.0
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = c_minus_d / np.sqrt(pairs - _tie_pairs(x, w)) / np.sqrt(pairs - _tie_pairs(y, w))
    return np.where(np.isfinite(tau), np.clip(tau, -1.0, 1.0), np.nan)


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall τ-b of each row pair of ``x``, ``y`` (B, K): all K(K−1)/2 pairs, for few points per row."""
    k = x.shape[1]
    upper = np.triu(np.ones((k, k), dtype=bool), 1)
    dx = np.sign(x[:, :, None] - x[:, None, :])[:, upper]
    dy = np.sign(y[:, :, None] - y[:, None, :])[:, upper]
    pairs = k * (k - 1) / 2.0
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = (dx * dy).sum(axis=1) / np.sqrt(pairs - (dx == 0).sum(axis=1)) / np.sqrt(pairs - (dy == 0).sum(axis=1))
    return np.where(np.isfinite(tau), np.clip(tau, -1.0, 1.0), np.nan)


def _weighted(method: str, x: np.ndarray, y: np.ndarray, counts: np.ndarray, group: np.ndarray) -> np.ndarray:
    """``method`` on the multisets in which point ``i`` of (x, y) appears ``counts[b, group[i]]`` times."""
    if method == "kendall":
        return _kendall_weighted(x, y, counts, group)
    out = np.empty(len(counts))
    step = max(1, _CHUNK_FLOATS // max(len(x), 1))
    for start in range(0, len(counts), step):
        part = counts[start : start + step, group]
        if method == "pearson":
            out[start : start + step] = _pearson_rows(x, y, part)
        else:
            out[start : start + step] = _pearson_rows(_weighted_ranks(x, part), _weighted_ranks(y, part), part)
    return out


def _rows(method: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``method`` on each row of ``x``, ``y`` (B × K), equal weights; NaN for rows with a NaN."""
    defined = np.isfinite(x).all(axis=1) & np.isfinite(y).all(axis=1)
    x, y = np.where(defined[:, None], x, 0.0), np.where(defined[:, None], y, 0.0)
    if method == "kendall":
        values = _kendall_rows(x, y)
    elif method == "spearman":
        values = _pearson_rows(rankdata(x), rankdata(y), np.ones(x.shape))
    else:
        values = _pearson_rows(x, y, np.ones(x.shape))
    return np.where(defined, values, np.nan)


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r (NaN when a side is constant)."""
    xs, ys = _check_pair(x, y)
    return float(_pearson_rows(xs, ys, np.ones((1, len(xs))))[0])


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's ρ with average ranks for ties (NaN when a side is constant)."""
    xs, ys = _check_pair(x, y)
    return float(_pearson_rows(rankdata(xs), rankdata(ys), np.ones((1, len(xs))))[0])


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b (NaN when a side is constant)."""
    xs, ys = _check_pair(x, y)
    return float(_kendall_weighted(xs, ys, np.ones((1, len(xs))), np.arange(len(xs)))[0])


def _interval(samples: np.ndarray) -> tuple[float, float]:
    valid = np.sort(samples[np.isfinite(samples)])
    if len(valid) == 0:
        return float("nan"), float("nan")
    lower = len(valid) // 40
    return float(valid[lower]), float(valid[len(valid) - lower - 1])


def _check_request(methods: Sequence[str], levels: Sequence[str]) -> None:
    for method in methods:
        if method not in METHODS:
            raise ValueError(f"unknown correlation {method!r}; valid: {', '.join(METHODS)}")
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; valid: {', '.join(LEVELS)}")


def correlate(
    metric: Any,
    systems: Mapping[str, SegmentStats],
    human: HumanScores,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    methods: Sequence[Method] = ("pearson", "spearman", "kendall"),
    levels: Sequence[Level] = ("segment", "system"),
    label: str | None = None,
) -> tuple[Correlation, ...]:
    """Correlations of ``metric`` with ``human`` (module docstring) over the systems present in both.

    Systems without human scores are left out; it is an error if fewer than two systems (system level) or no
    system (segment level) remain, or if the human scores cover a different number of segments.
    """
    _check_request(methods, levels)
    check_count("n_samples", n_samples)
    check_seed(seed)
    names = [name for name in systems if name in human.scores]
    if not names:
        raise ValueError(
            f"no system has human scores: systems {', '.join(systems)}; human scores for {', '.join(human.systems)}"
        )
    n = len(systems[names[0]])
    for name in names:
        if len(human.scores[name]) != len(systems[name]):
            raise ValueError(
                f"human scores cover {len(human.scores[name])} segments, system {name!r} has {len(systems[name])}"
            )
    judged = [human.judged(name) for name in names]
    counts = bootstrap_resamples(n, n_samples, seed).counts
    title = label if label is not None else str(metric.name)
    results: list[Correlation] = []
    if "segment" in levels:
        x = np.concatenate([metric.segment_scores(systems[name])[j] for name, j in zip(names, judged, strict=True)])
        y = np.concatenate([human.scores[name][j] for name, j in zip(names, judged, strict=True)])
        segment_of = np.concatenate(judged)
        if len(x) < 2:
            raise ValueError("fewer than two judged segments: no segment-level correlation")
        ones = np.ones((1, n))
        for method in methods:
            value = float(_weighted(method, x, y, ones, segment_of)[0])
            lo, hi = _interval(_weighted(method, x, y, counts, segment_of))
            results.append(Correlation(title, "segment", method, value, lo, hi, len(x), n_samples))
    if "system" in levels:
        if len(names) < 2:
            raise ValueError("system-level correlation needs at least two systems with human scores")
        full = np.ones((1, n))
        point_m, point_h = _system_points(metric, systems, human, names, judged, full)
        boot_m, boot_h = _system_points(metric, systems, human, names, judged, counts)
        for method in methods:
            value = float(_rows(method, point_m, point_h)[0])
            lo, hi = _interval(_rows(method, boot_m, boot_h))
            results.append(Correlation(title, "system", method, value, lo, hi, len(names), n_samples))
    return tuple(results)


def _system_points(
    metric: Any,
    systems: Mapping[str, SegmentStats],
    human: HumanScores,
    names: list[str],
    judged: list[np.ndarray],
    counts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Metric corpus scores and mean human scores of each system (columns) on each resample (rows) of its judged
    segments; NaN where a resample drew none of them."""
    metric_scores = np.empty((len(counts), len(names)))
    human_means = np.empty((len(counts), len(names)))
    for s, (name, rows) in enumerate(zip(names, judged, strict=True)):
        w = counts[:, rows]
        drawn = w.sum(axis=1)
        stats = systems[name]
        pooled = w @ stats.rows[rows]
        with np.errstate(divide="ignore", invalid="ignore"):
            if stats.aggregate == "mean":
                pooled = pooled / drawn[:, None]
            human_means[:, s] = np.where(drawn > 0, (w @ human.scores[name][rows]) / drawn, np.nan)
        scores = np.asarray(metric.score_pooled(pooled), dtype=np.float64)
        metric_scores[:, s] = np.where(drawn > 0, scores, np.nan)
    return metric_scores, human_means
