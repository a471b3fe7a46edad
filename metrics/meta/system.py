"""System-level statistics: Pearson, Kendall τ-b, pairwise accuracy and soft pairwise accuracy (SPA).

As mt-metrics-eval computes them: Pearson and τ-b of the system scores (``scipy.stats.pearsonr``/``kendalltau``),
pairwise accuracy as ``stats.Agreement`` (the share of system pairs where ``sign(Δhuman) == sign(Δmetric)``; a pair
tied by the humans counts as agreed only when the metric ties it too), SPA as ``pce.py`` (Thompson et al., WMT24):
``1 − mean |p_human − p_metric|`` over the system pairs, each ``p`` the paired-permutation p-value of "row ``i`` >
row ``j``" from that side's segment scores, with the same float32 draws (``default_rng(seed).random`` rounded to ±1).
"""

from __future__ import annotations

import functools

import numpy as np

from metrics.meta.data import MetaInput
from metrics.meta.results import DEFAULT_SETTINGS, Estimate, MetaSettings, SystemLevel
from metrics.stats.resampling import bootstrap_indices, resample_counts


def interval(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    """Order-statistic interval of the finite bootstrap values (NaN when there are none)."""
    kept = np.sort(samples[np.isfinite(samples)])
    if kept.size == 0:
        return float("nan"), float("nan")
    cut = int(np.floor(kept.size * (1 - confidence) / 2))
    return float(kept[cut]), float(kept[kept.size - 1 - cut])


def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r of every row pair of ``x`` and ``y`` (either may be one vector, broadcast against the other's
    rows); NaN where a side is constant, as mt-metrics-eval (which turns scipy's answer for a constant input into
    NaN)."""
    x2 = np.atleast_2d(np.asarray(x, dtype=np.float64))
    y2 = np.atleast_2d(np.asarray(y, dtype=np.float64))
    dx = x2 - x2.mean(axis=1, keepdims=True)
    dy = y2 - y2.mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (dx * dy).sum(axis=1) / (np.linalg.norm(dx, axis=1) * np.linalg.norm(dy, axis=1))
    constant = (x2 == x2[:, :1]).all(axis=1) | (y2 == y2[:, :1]).all(axis=1)
    return np.where(constant | (x2.shape[1] < 2), np.nan, np.clip(r, -1.0, 1.0))


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r; NaN when either side is constant or has fewer than two values."""
    return float(pearson_rows(x, y)[0])


def _signs(values: np.ndarray) -> np.ndarray:
    v = np.atleast_2d(np.asarray(values, dtype=np.float64))
    i, j = _upper(v.shape[1])
    return np.sign(v[:, i] - v[:, j])


def accuracy_rows(human: np.ndarray, metric: np.ndarray) -> np.ndarray:
    """Pairwise accuracy of every row pair: the share of pairs ``i < j`` with ``sign(human_i − human_j) ==
    sign(metric_i − metric_j)`` (a pair the humans tie is right only when the metric ties it too)."""
    sh, sm = _signs(human), _signs(metric)
    return (sh == sm).sum(axis=1) / sh.shape[1]


def pairwise_accuracy(human: np.ndarray, metric: np.ndarray) -> float:
    """Pairwise accuracy of two vectors (:func:`accuracy_rows`); NaN with fewer than two values."""
    return float(accuracy_rows(human, metric)[0]) if np.size(human) > 1 else float("nan")


def kendall_b_rows(human: np.ndarray, metric: np.ndarray) -> np.ndarray:
    """Kendall's τ-b of every row pair, with scipy's arithmetic (``(C − D) / √(P − T_human) / √(P − T_metric)``,
    clipped to [−1, 1]); NaN where a side is constant."""
    sh, sm = _signs(human), _signs(metric)
    tot = sh.shape[1]
    th = (sh == 0).sum(axis=1)
    tm = (sm == 0).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = (sh * sm).sum(axis=1) / np.sqrt(tot - th) / np.sqrt(tot - tm)
    return np.where((th == tot) | (tm == tot), np.nan, np.minimum(1.0, np.maximum(-1.0, tau)))


def kendall_b(human: np.ndarray, metric: np.ndarray) -> float:
    """Kendall's τ-b of two short vectors (system level); NaN when either side is constant."""
    return float(kendall_b_rows(human, metric)[0])


@functools.lru_cache(maxsize=64)
def _upper(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``i < j`` of ``n`` values, row-major (read-only, cached)."""
    i, j = np.triu_indices(n, 1)
    i.setflags(write=False)
    j.setflags(write=False)
    return i, j


def accuracy_chance(human: np.ndarray) -> float:
    """Expected pairwise accuracy of a metric whose scores are random and never tied: each pair the humans order is
    right with probability ½, a pair they tie is never right."""
    human = np.asarray(human, dtype=np.float64)
    i, j = _upper(human.size)
    return float(np.mean(human[i] != human[j]) / 2) if i.size else float("nan")


def pairwise_p_values(segment_scores: np.ndarray, n_permutations: int = 1000, seed: int = 4) -> np.ndarray:
    """``p[i, j]`` (``i < j``; NaN elsewhere): the paired-permutation p-value of "system ``i`` > system ``j``" from
    ``segment_scores`` (systems × segments, no NaN): the share of the ``n_permutations`` sign flips ``m`` of the
    segments (the same flips for every pair) with ``Σ m·(a − b) ≥ Σ (a − b)``, in float32 as ``pce.py``."""
    scores = np.asarray(segment_scores)
    if scores.ndim != 2 or np.isnan(scores).any():
        raise ValueError("segment scores must be a systems × segments matrix without NaN")
    signs = _signs_of_flips(n_permutations, scores.shape[1], seed)
    # C order, as mtme's SPA passes the matrix: the float32 product's rounding depends on the memory layout
    single = np.ascontiguousarray(scores, dtype=np.float32)
    totals = single.sum(axis=1)
    partial = signs @ single.T
    n = scores.shape[0]
    out = np.full((n, n), np.nan)
    for i in range(n):
        null = partial[:, i : i + 1] - partial[:, i + 1 :]
        observed = totals[i] - totals[i + 1 :]
        out[i, i + 1 :] = (null >= observed).sum(axis=0) / n_permutations
    return out


@functools.lru_cache(maxsize=8)
def _signs_of_flips(n_permutations: int, n_segments: int, seed: int) -> np.ndarray:
    """The ±1 flips of :func:`pairwise_p_values` (float32, read-only), cached: a permutation test of SPA needs them
    for every draw, and drawing them costs more than the product."""
    signs = np.random.default_rng(seed).random(size=(n_permutations, n_segments), dtype=np.float32)
    np.rint(signs, out=signs)
    signs *= 2.0
    signs -= 1.0
    signs.setflags(write=False)
    return signs


def soft_pairwise_accuracy(human_p: np.ndarray, metric_p: np.ndarray) -> float:
    """SPA: ``1 − mean |human_p − metric_p|`` over the upper triangle of the two p-value matrices."""
    upper = np.triu_indices(human_p.shape[0], 1)
    return float(1.0 - np.mean(np.abs(human_p - metric_p)[upper]))


def spa_chance(human_p: np.ndarray) -> float:
    """Expected SPA of a metric whose p-values are uniform on [0, 1] and independent of the humans' (a metric that
    cannot tell the systems apart): ``E|p − U| = (p² + (1 − p)²) / 2`` per pair."""
    p = human_p[np.triu_indices(human_p.shape[0], 1)]
    return float(1.0 - np.mean((p**2 + (1 - p) ** 2) / 2))


def common_rated(data: MetaInput) -> np.ndarray:
    """Segments rated for every system: SPA's p-values compare systems on the same segments."""
    return np.flatnonzero(~np.isnan(data.human).any(axis=0))


def _bootstrap_system_scores(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mean of each system's non-NaN segment scores on every resample: (resamples × systems)."""
    present = ~np.isnan(values)
    total = counts @ np.where(present, values, 0.0).T
    n = counts @ present.T.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return total / n


def bootstrap_counts(data: MetaInput, settings: MetaSettings = DEFAULT_SETTINGS) -> np.ndarray:
    """Segment counts of the bootstrap resamples (resamples × segments, float64), shared by every metric."""
    index = bootstrap_indices(data.n_segments, settings.n_bootstrap, settings.bootstrap_seed)
    return resample_counts(index, data.n_segments).astype(np.float64)


def resampled_system_scores(data: MetaInput, metric: str | None, counts: np.ndarray) -> np.ndarray:
    """System scores on every resample (resamples × systems): the humans' (``metric`` None) or the metric's. A
    metric's own corpus scores cannot be recomputed from segments, so they stay fixed on every resample (the interval
    then reflects the sampling of the human judgments only)."""
    if metric is None:
        return _bootstrap_system_scores(data.human, counts)
    own = data.system_scores.get(metric)
    if own is not None:
        return np.broadcast_to(own, (counts.shape[0], own.size))
    return _bootstrap_system_scores(data.metrics[metric], counts)


def _estimate(value: float, samples: np.ndarray, chance: float, confidence: float) -> Estimate:
    lo, hi = interval(samples, confidence)
    return Estimate(value, lo, hi, chance)


def human_p_values(data: MetaInput, settings: MetaSettings = DEFAULT_SETTINGS) -> np.ndarray:
    """SPA's p-value matrix of the humans, from the segments rated for every system."""
    return pairwise_p_values(data.human[:, common_rated(data)], settings.spa_permutations, settings.spa_seed)


def metric_p_values(data: MetaInput, metric: str, settings: MetaSettings = DEFAULT_SETTINGS) -> np.ndarray:
    """SPA's p-value matrix of a metric, on the same segments as the humans'."""
    return pairwise_p_values(data.metrics[metric][:, common_rated(data)], settings.spa_permutations, settings.spa_seed)


def system_level(
    data: MetaInput,
    metric: str,
    settings: MetaSettings = DEFAULT_SETTINGS,
    counts: np.ndarray | None = None,
    human_p: np.ndarray | None = None,
) -> SystemLevel:
    """Pearson, τ-b, pairwise accuracy (with bootstrap intervals over segments) and SPA of ``metric``. ``counts``
    (:func:`bootstrap_counts`) and ``human_p`` (:func:`human_p_values`) may be passed to share them across metrics."""
    counts = bootstrap_counts(data, settings) if counts is None else counts
    human_p = human_p_values(data, settings) if human_p is None else human_p
    h = data.human_system_scores()
    m = data.metric_system_scores(metric)
    keep = ~np.isnan(h)
    h, m = h[keep], m[keep]
    hs = resampled_system_scores(data, None, counts)[:, keep]
    ms = resampled_system_scores(data, metric, counts)[:, keep]
    spa = soft_pairwise_accuracy(human_p, metric_p_values(data, metric, settings))
    return SystemLevel(
        _estimate(pearson(h, m), pearson_rows(hs, ms), 0.0, settings.confidence),
        _estimate(kendall_b(h, m), kendall_b_rows(hs, ms), 0.0, settings.confidence),
        _estimate(pairwise_accuracy(h, m), accuracy_rows(hs, ms), accuracy_chance(h), settings.confidence),
        Estimate(spa, float("nan"), float("nan"), spa_chance(human_p)),
        int(h.size),
        int(h.size * (h.size - 1) // 2),
    )
