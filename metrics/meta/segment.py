"""Segment-level statistics: Kendall variants and Pearson under WMT's groupings, and acc_eq with tie calibration.

Groups (:class:`~metrics.meta.results.Grouping`) are formed from the rated cells only (human score not NaN), as
mt-metrics-eval's ``AverageCorrelation`` filters gold ``None``: ``NONE`` pools every rated (system, segment), ``ITEM``
takes each item's rated cells across systems, ``SYSTEM`` each system's rated segments. A coefficient is computed per
group with at least two cells, groups where it is undefined (NaN) are left out, and the rest are averaged.

Tie calibration (Deutsch, Foster and Freitag 2023, "Ties Matter", mt-metrics-eval's ``tau_optimization``): metric
differences ``|m_a − m_b| ≤ ε`` are counted as ties, and ε is chosen among 0 and every distinct metric difference
to maximise the average of the statistic over the groups. The sweep adds the pairs in ascending difference and keeps
the running total exactly as ``tau_optimization`` does (a float subtracted and re-added per pair), so the chosen ε
is the same even where several thresholds tie up to rounding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.meta.data import MetaInput
from metrics.meta.results import (
    DEFAULT_SETTINGS,
    Grouping,
    KendallResult,
    KendallVariant,
    MetaSettings,
    SegmentLevel,
    TieCalibration,
)

_CHUNK_CELLS = 4_000_000  # pair comparisons per step of the pooled (ungrouped) counts
MAX_CALIBRATION_PAIRS = 20_000_000  # tie calibration holds every pair in memory


@dataclass(frozen=True)
class TauCounts:
    """Kendall's sufficient statistics of one group: concordant, discordant, tied only in the humans, tied only in
    the metric, tied in both, and the group's size ``n`` and distinct values per side (for τ-c)."""

    con: int
    dis: int
    ties_human: int
    ties_metric: int
    ties_both: int
    n: int
    distinct_human: int
    distinct_metric: int

    @property
    def pairs(self) -> int:
        return self.con + self.dis + self.ties_human + self.ties_metric + self.ties_both


def tau_counts(human: np.ndarray, metric: np.ndarray, epsilon: float = 0.0) -> TauCounts:
    """Sufficient statistics of one group; metric differences ``≤ epsilon`` count as ties."""
    if epsilon < 0:
        raise ValueError("the tie threshold must be non-negative")
    h = np.asarray(human, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    n = h.size
    con = dis = th = tm = tb = 0
    step = max(1, _CHUNK_CELLS // max(n, 1))
    for start in range(0, n, step):
        rows = np.arange(start, min(n, start + step))
        dh = h[None, :] - h[rows, None]
        dm = m[None, :] - m[rows, None]
        upper = np.arange(n)[None, :] > rows[:, None]
        htie = dh == 0.0
        mtie = np.abs(dm) <= epsilon
        same = (dh > 0) & (dm > 0) | (dh < 0) & (dm < 0)
        con += int((same & ~mtie & upper).sum())
        tb += int((htie & mtie & upper).sum())
        th += int((htie & ~mtie & upper).sum())
        tm += int((~htie & mtie & upper).sum())
        dis += int((~htie & ~mtie & ~same & upper).sum())
    return TauCounts(con, dis, th, tm, tb, n, len(np.unique(h)), len(np.unique(m)))


def kendall_value(counts: TauCounts, variant: KendallVariant) -> float:
    """One variant from the sufficient statistics (mt-metrics-eval's ``KendallVariants`` formulas); NaN for τ-b/τ-c
    when one side is constant and for any variant of a group without pairs."""
    tot = counts.pairs
    xtie = counts.ties_metric + counts.ties_both
    ytie = counts.ties_human + counts.ties_both
    if tot == 0 or (variant in (KendallVariant.B, KendallVariant.C) and (xtie == tot or ytie == tot)):
        return float("nan")
    if variant is KendallVariant.B:
        return float((counts.con - counts.dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie))
    if variant is KendallVariant.C:
        classes = min(counts.distinct_human, counts.distinct_metric)
        return float(2 * (counts.con - counts.dis) / (counts.n**2 * (classes - 1) / classes))
    if variant is KendallVariant.TAU_23:
        return (counts.con + counts.ties_both - counts.dis - counts.ties_human - counts.ties_metric) / tot
    return (counts.con + counts.ties_both) / tot


def groups(human: np.ndarray, grouping: Grouping, items: np.ndarray | None = None) -> list[np.ndarray]:
    """Flat indices (into the systems × segments matrix) of the rated cells of every group, in mt-metrics-eval's
    order (items ascending, systems ascending); groups without a rated cell are left out."""
    n_sys, n_seg = human.shape
    rated = ~np.isnan(human)
    flat = np.arange(human.size).reshape(n_sys, n_seg)
    if grouping is Grouping.NONE:
        out = [flat[rated]]
    elif grouping is Grouping.SYSTEM:
        out = [flat[s][rated[s]] for s in range(n_sys)]
    else:
        ids = np.arange(n_seg) if items is None else np.asarray(items)
        out = []
        for item in np.unique(ids):
            cols = np.flatnonzero(ids == item)
            out.append(flat[:, cols][rated[:, cols]])
    return [g for g in out if g.size]


def kendall_grouped(
    human: np.ndarray,
    metric: np.ndarray,
    variant: KendallVariant = KendallVariant.B,
    grouping: Grouping = Grouping.NONE,
    items: np.ndarray | None = None,
    epsilon: float = 0.0,
) -> KendallResult:
    """A Kendall variant averaged over the groups of ``grouping`` (module docstring)."""
    h, m = human.ravel(), metric.ravel()
    values = [
        kendall_value(tau_counts(h[g], m[g], epsilon), variant) for g in groups(human, grouping, items) if g.size > 1
    ]
    kept = [v for v in values if not np.isnan(v)]
    return KendallResult(variant, grouping, float(np.mean(kept)) if kept else 0.0, len(kept))


def pearson_grouped(
    human: np.ndarray, metric: np.ndarray, grouping: Grouping = Grouping.NONE, items: np.ndarray | None = None
) -> tuple[float, int]:
    """Pearson's r averaged over the groups where it is defined (not constant on either side), and their count."""
    from metrics.meta.system import pearson

    h, m = human.ravel(), metric.ravel()
    values = [pearson(h[g], m[g]) for g in groups(human, grouping, items) if g.size > 1]
    kept = [v for v in values if not np.isnan(v)]
    return (float(np.mean(kept)) if kept else 0.0), len(kept)


def calibrate_ties(
    human: np.ndarray,
    metric: np.ndarray,
    variant: KendallVariant = KendallVariant.ACC_23,
    grouping: Grouping = Grouping.ITEM,
    items: np.ndarray | None = None,
) -> TieCalibration:
    """The tie threshold that maximises the average ``variant`` (acc23 or 23) over the groups (module docstring)."""
    raise NotImplementedError


def acc_eq_chance(human: np.ndarray, grouping: Grouping = Grouping.ITEM, items: np.ndarray | None = None) -> float:
    """Expected calibrated acc_eq of a metric with random scores: with a share ``q`` of its pairs tied at random it
    scores ``q·t + (1 − q)(1 − t)/2`` per group (``t``: the group's share of human ties), linear in ``q``, so the
    best threshold ties all pairs or none: ``max(mean t, mean (1 − t)/2)``."""
    raise NotImplementedError


def segment_level(data: MetaInput, metric: str, settings: MetaSettings = DEFAULT_SETTINGS) -> SegmentLevel:
    """Calibrated acc_eq by item (with a bootstrap interval over items at the calibrated threshold), Pearson pooled
    (interval over segments) and by item, and every Kendall variant under every grouping."""
    raise NotImplementedError
