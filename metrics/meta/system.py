"""System-level statistics: Pearson, Kendall τ-b, pairwise accuracy and soft pairwise accuracy (SPA).

As mt-metrics-eval computes them: Pearson and τ-b of the system scores (``scipy.stats.pearsonr``/``kendalltau``),
pairwise accuracy as ``stats.Agreement`` (the share of system pairs where ``sign(Δhuman) == sign(Δmetric)``; a pair
tied by the humans counts as agreed only when the metric ties it too), SPA as ``pce.py`` (Thompson et al., WMT24):
``1 − mean |p_human − p_metric|`` over the system pairs, each ``p`` the paired-permutation p-value of "row ``i`` >
row ``j``" from that side's segment scores, with the same float32 draws (``default_rng(seed).random`` rounded to ±1).
"""

from __future__ import annotations

import numpy as np

from metrics.meta.data import MetaInput
from metrics.meta.results import DEFAULT_SETTINGS, MetaSettings, SystemLevel


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r; NaN when either side is constant or has fewer than two values."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.size < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan")
    dx = x - x.mean()
    dy = y - y.mean()
    r = float(np.dot(dx, dy) / (np.linalg.norm(dx) * np.linalg.norm(dy)))
    return max(-1.0, min(1.0, r))


def pairwise_accuracy(human: np.ndarray, metric: np.ndarray) -> float:
    """Share of pairs ``i < j`` with ``sign(human_i − human_j) == sign(metric_i − metric_j)``."""
    agree, pairs = _agreement(np.asarray(human, dtype=np.float64), np.asarray(metric, dtype=np.float64))
    return agree / pairs if pairs else float("nan")


def _agreement(human: np.ndarray, metric: np.ndarray) -> tuple[int, int]:
    i, j = np.triu_indices(human.size, 1)
    same = np.sign(human[i] - human[j]) == np.sign(metric[i] - metric[j])
    return int(same.sum()), int(i.size)


def accuracy_chance(human: np.ndarray) -> float:
    """Expected pairwise accuracy of a metric whose scores are random and never tied: each pair the humans order is
    right with probability ½, a pair they tie is never right."""
    human = np.asarray(human, dtype=np.float64)
    i, j = np.triu_indices(human.size, 1)
    return float(np.mean(human[i] != human[j]) / 2) if i.size else float("nan")


def pairwise_p_values(segment_scores: np.ndarray, n_permutations: int = 1000, seed: int = 4) -> np.ndarray:
    """``p[i, j]`` (``i < j``; NaN elsewhere): the paired-permutation p-value of "system ``i`` > system ``j``" from
    ``segment_scores`` (systems × segments, no NaN): the share of the ``n_permutations`` sign flips ``m`` of the
    segments (the same flips for every pair) with ``Σ m·(a − b) ≥ Σ (a − b)``, in float32 as ``pce.py``."""
    scores = np.asarray(segment_scores)
    if scores.ndim != 2 or np.isnan(scores).any():
        raise ValueError("segment scores must be a systems × segments matrix without NaN")
    signs = np.random.default_rng(seed).random(size=(n_permutations, scores.shape[1]), dtype=np.float32)
    np.rint(signs, out=signs)
    signs *= 2.0
    signs -= 1.0
    single = scores.astype(np.float32)
    totals = single.sum(axis=1)
    partial = signs @ single.T
    n = scores.shape[0]
    out = np.full((n, n), np.nan)
    for i in range(n):
        null = partial[:, i : i + 1] - partial[:, i + 1 :]
        observed = totals[i] - totals[i + 1 :]
        out[i, i + 1 :] = (null >= observed).sum(axis=0) / n_permutations
    return out


def soft_pairwise_accuracy(human_p: np.ndarray, metric_p: np.ndarray) -> float:
    """SPA: ``1 − mean |human_p − metric_p|`` over the upper triangle of the two p-value matrices."""
    upper = np.triu_indices(human_p.shape[0], 1)
    return float(1.0 - np.mean(np.abs(human_p - metric_p)[upper]))


def spa_chance(human_p: np.ndarray) -> float:
    """Expected SPA of a metric whose p-values are uniform on [0, 1] and independent of the humans' (a metric that
    cannot tell the systems apart): ``E|p − U| = (p² + (1 − p)²) / 2`` per pair."""
    p = human_p[np.triu_indices(human_p.shape[0], 1)]
    return float(1.0 - np.mean((p**2 + (1 - p) ** 2) / 2))


def kendall_b(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's τ-b of two short vectors (system level); NaN when either side is constant."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    i, j = np.triu_indices(x.size, 1)
    sx = np.sign(x[i] - x[j])
    sy = np.sign(y[i] - y[j])
    tot = i.size
    tx = int((sx == 0).sum())
    ty = int((sy == 0).sum())
    if tx == tot or ty == tot:
        return float("nan")
    return float((sx * sy).sum() / np.sqrt(tot - tx) / np.sqrt(tot - ty))


def common_rated(data: MetaInput) -> np.ndarray:
    """Segments rated for every system: SPA's p-values compare systems on the same segments."""
    return np.flatnonzero(~np.isnan(data.human).any(axis=0))


def system_level(data: MetaInput, metric: str, settings: MetaSettings = DEFAULT_SETTINGS) -> SystemLevel:
    """Pearson, τ-b, pairwise accuracy (with bootstrap intervals over segments) and SPA of ``metric``."""
    raise NotImplementedError
