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
    Estimate,
    Grouping,
    KendallResult,
    KendallVariant,
    MetaSettings,
    SegmentLevel,
    TieCalibration,
)
from metrics.meta.system import _upper, interval, pearson, pearson_rows
from metrics.stats.resampling import bootstrap_indices, resample_counts

_CHUNK_CELLS = 4_000_000  # pair comparisons per step of the pooled (ungrouped) counts
MAX_CALIBRATION_PAIRS = 20_000_000
_SMALL_GROUP = 64  # groups up to this size are counted together, as (groups × pairs) arrays  # tie calibration holds every pair in memory


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
    distinct = (len(np.unique(h)), len(np.unique(m)))
    if epsilon == 0.0:
        return TauCounts(*_exact_counts(h, m), h.size, *distinct)
    con = dis = th = tm = tb = 0
    n = h.size
    step = max(1, _CHUNK_CELLS // max(n, 1))
    for start in range(0, n, step):
        rows = np.arange(start, min(n, start + step))
        dh = h[None, :] - h[rows, None]
        dm = m[None, :] - m[rows, None]
        upper = np.arange(n)[None, :] > rows[:, None]
        htie = dh == 0.0
        mtie = np.abs(dm) <= epsilon
        same = ((dh > 0) & (dm > 0)) | ((dh < 0) & (dm < 0))
        con += int((same & ~mtie & upper).sum())
        tb += int((htie & mtie & upper).sum())
        th += int((htie & ~mtie & upper).sum())
        tm += int((~htie & mtie & upper).sum())
        dis += int((~htie & ~mtie & ~same & upper).sum())
    return TauCounts(con, dis, th, tm, tb, n, *distinct)


def _tied_pairs(*columns: np.ndarray) -> int:
    """Pairs equal in every one of ``columns``."""
    order = np.lexsort(columns)
    ordered = [c[order] for c in columns]
    change = np.zeros(order.size, dtype=bool)
    change[0] = True
    for c in ordered:
        change[1:] |= c[1:] != c[:-1]
    counts = np.diff(np.r_[np.flatnonzero(change), order.size])
    return int((counts * (counts - 1) // 2).sum())


def _exact_counts(h: np.ndarray, m: np.ndarray) -> tuple[int, int, int, int, int]:
    """(con, dis, ties_human, ties_metric, ties_both) with exact metric ties, in O(n log n) memory and about
    ``n² / block · log block`` time: discordant pairs are the strict inversions of ``m`` in (h, m) order, counted
    block against later elements with ``searchsorted``."""
    n = h.size
    both = _tied_pairs(h, m)
    th = _tied_pairs(h) - both
    tm = _tied_pairs(m) - both
    order = np.lexsort((m, h))
    seq = m[order]
    dis = 0
    block = 512
    for start in range(0, n, block):
        part = seq[start : start + block]
        k = part.size
        iu = np.triu_indices(k, 1)
        dis += int((part[iu[0]] > part[iu[1]]).sum())
        later = seq[start + block :]
        if later.size:
            dis += int((k - np.searchsorted(np.sort(part), later, side="right")).sum())
    total = n * (n - 1) // 2
    return total - dis - th - tm - both, dis, th, tm, both


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
    elif items is None:
        out = [flat[:, i][rated[:, i]] for i in range(n_seg)]
    else:
        order = np.argsort(items, kind="stable")
        bounds = np.flatnonzero(np.diff(items[order])) + 1
        out = [flat[:, cols][rated[:, cols]] for cols in np.split(order, bounds)]
    return [g for g in out if g.size]


def grouped_counts(
    human: np.ndarray,
    metric: np.ndarray,
    grouping: Grouping,
    items: np.ndarray | None = None,
    epsilon: float = 0.0,
) -> list[TauCounts]:
    """Sufficient statistics of every group of at least two rated cells."""
    h, m = human.ravel(), metric.ravel()
    cells = [g for g in groups(human, grouping, items) if g.size > 1]
    out: list[TauCounts | None] = [None] * len(cells)
    by_size: dict[int, list[int]] = {}
    for index, g in enumerate(cells):
        if g.size <= _SMALL_GROUP:
            by_size.setdefault(g.size, []).append(index)
        else:
            out[index] = tau_counts(h[g], m[g], epsilon)
    for members in by_size.values():
        cols = np.stack([cells[i] for i in members])
        for index, counts in zip(members, _small_counts(h[cols], m[cols], epsilon), strict=True):
            out[index] = counts
    return [c for c in out if c is not None]


def _small_counts(h: np.ndarray, m: np.ndarray, epsilon: float) -> list[TauCounts]:
    """Sufficient statistics of many groups of one small size at once (rows of ``h``, ``m``)."""
    i, j = _upper(h.shape[1])
    dh = h[:, i] - h[:, j]
    dm = m[:, i] - m[:, j]
    htie = dh == 0.0
    mtie = np.abs(dm) <= epsilon
    same = ~htie & ~mtie & (np.sign(dh) == np.sign(dm))
    columns = (
        same.sum(axis=1),
        (~htie & ~mtie & ~same).sum(axis=1),
        (htie & ~mtie).sum(axis=1),
        (~htie & mtie).sum(axis=1),
        (htie & mtie).sum(axis=1),
    )
    distinct_h = 1 + (np.diff(np.sort(h, axis=1), axis=1) != 0).sum(axis=1)
    distinct_m = 1 + (np.diff(np.sort(m, axis=1), axis=1) != 0).sum(axis=1)
    n = h.shape[1]
    con, dis, th, tm, tb = (c.tolist() for c in columns)
    return [
        TauCounts(con[r], dis[r], th[r], tm[r], tb[r], n, int(distinct_h[r]), int(distinct_m[r]))
        for r in range(h.shape[0])
    ]


def average_kendall(counts: list[TauCounts], variant: KendallVariant, grouping: Grouping) -> KendallResult:
    """The mean of ``variant`` over the groups where it is defined (0 when it is nowhere, as mt-metrics-eval)."""
    values = [kendall_value(c, variant) for c in counts]
    kept = [v for v in values if not np.isnan(v)]
    return KendallResult(variant, grouping, float(np.mean(kept)) if kept else 0.0, len(kept))


def kendall_grouped(
    human: np.ndarray,
    metric: np.ndarray,
    variant: KendallVariant = KendallVariant.B,
    grouping: Grouping = Grouping.NONE,
    items: np.ndarray | None = None,
    epsilon: float = 0.0,
) -> KendallResult:
    """A Kendall variant averaged over the groups of ``grouping`` (module docstring)."""
    if epsilon > 0 and variant is KendallVariant.C:
        raise ValueError("τ-c has no tie threshold")
    return average_kendall(grouped_counts(human, metric, grouping, items, epsilon), variant, grouping)


def pearson_grouped(
    human: np.ndarray, metric: np.ndarray, grouping: Grouping = Grouping.NONE, items: np.ndarray | None = None
) -> tuple[float, int]:
    """Pearson's r averaged over the groups where it is defined (not constant on either side), and their count."""
    h, m = human.ravel(), metric.ravel()
    cells = [g for g in groups(human, grouping, items) if g.size > 1]
    values = np.full(len(cells), np.nan)
    by_size: dict[int, list[int]] = {}
    for index, g in enumerate(cells):
        by_size.setdefault(g.size, []).append(index)
    for members in by_size.values():
        cols = np.stack([cells[i] for i in members])
        values[members] = pearson_rows(h[cols], m[cols])
    kept = values[~np.isnan(values)].tolist()
    return (float(np.mean(kept)) if kept else 0.0), len(kept)


@dataclass(frozen=True)
class SegmentPairs:
    """Every pair of rated cells within a group, in mt-metrics-eval's order (groups in order, ``i < j`` row-major
    within a group): flat cell indices ``a``, ``b`` and the group (0-based among groups with pairs)."""

    a: np.ndarray
    b: np.ndarray
    group: np.ndarray
    n_groups: int


def segment_pairs(
    human: np.ndarray, grouping: Grouping = Grouping.ITEM, items: np.ndarray | None = None
) -> SegmentPairs:
    """The pairs of cells the segment-level pairwise statistics count."""
    a, b, g = [], [], []
    kept = [cells for cells in groups(human, grouping, items) if cells.size > 1]
    for index, cells in enumerate(kept):
        i, j = _upper(cells.size)
        a.append(cells[i])
        b.append(cells[j])
        g.append(np.full(i.size, index))
    total = sum(x.size for x in a)
    if total > MAX_CALIBRATION_PAIRS:
        raise ValueError(f"{total:,} segment pairs, more than the {MAX_CALIBRATION_PAIRS:,} tie calibration handles")
    empty = np.zeros(0, dtype=np.intp)
    return SegmentPairs(
        np.concatenate(a) if a else empty,
        np.concatenate(b) if b else empty,
        np.concatenate(g) if g else empty,
        len(kept),
    )


def pair_terms(dh: np.ndarray, dm: np.ndarray, variant: KendallVariant, epsilon: float = 0.0) -> np.ndarray:
    """Per pair (human difference ``dh``, metric difference ``dm``): its term in the numerator of ``variant``."""
    return _numerators(dh, dm, variant, epsilon)[0]


def _numerators(
    dh: np.ndarray, dm: np.ndarray, variant: KendallVariant, epsilon: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair: its term in the variant's numerator at threshold ``epsilon``, and the change when the metric ties it."""
    htie = dh == 0.0
    mtie = np.abs(dm) <= epsilon
    con = ~htie & ~mtie & (np.sign(dh) == np.sign(dm))
    if variant is KendallVariant.ACC_23:
        term = (con | (htie & mtie)).astype(np.int64)
        change = (htie & ~mtie).astype(np.int64) - con
    elif variant is KendallVariant.TAU_23:
        term = np.where(con | (htie & mtie), 1, -1)
        change = 2 * ((htie & ~mtie).astype(np.int64) - con)
    else:
        raise ValueError("only the 23 and acc23 variants have a tie threshold")
    return term, change


def calibrate_ties(
    human: np.ndarray,
    metric: np.ndarray,
    variant: KendallVariant = KendallVariant.ACC_23,
    grouping: Grouping = Grouping.ITEM,
    items: np.ndarray | None = None,
    pairs: SegmentPairs | None = None,
) -> TieCalibration:
    """The tie threshold that maximises the average ``variant`` (acc23 or 23) over the groups (module docstring).
    ``pairs``: :func:`segment_pairs` of ``human``, to share across metrics."""
    pairs = segment_pairs(human, grouping, items) if pairs is None else pairs
    h, m = human.ravel(), metric.ravel()
    dh = h[pairs.a] - h[pairs.b]
    dm = m[pairs.a] - m[pairs.b]
    term, change = _numerators(dh, dm, variant)
    if pairs.n_groups == 0:
        raise ValueError("no group has two rated cells: nothing to calibrate")
    num = np.bincount(pairs.group, weights=term, minlength=pairs.n_groups).astype(np.int64).tolist()
    size = np.bincount(pairs.group, minlength=pairs.n_groups).tolist()
    rows = pairs.n_groups
    total = sum(n / p for n, p in zip(num, size, strict=True))
    thresholds = [0.0]
    values = [total / rows]
    diff = np.abs(dm)
    order = np.argsort(diff, kind="stable")
    # The running total is updated as tau_optimization does (one subtraction and one addition per pair, even when
    # the pair's term does not change), so ties between thresholds break the same way up to the last bit.
    for g, c, d in zip(pairs.group[order].tolist(), change[order].tolist(), diff[order].tolist(), strict=True):
        total -= num[g] / size[g]
        num[g] += c
        total += num[g] / size[g]
        if thresholds[-1] == d:
            values[-1] = total / rows
        else:
            thresholds.append(d)
            values.append(total / rows)
    curve = np.array(values)
    best = int(np.nanargmax(curve))
    grid = np.array(thresholds)
    grid.setflags(write=False)
    curve.setflags(write=False)
    return TieCalibration(variant, float(grid[best]), float(curve[best]), grid, curve)


def group_values(
    human: np.ndarray, metric: np.ndarray, pairs: SegmentPairs, variant: KendallVariant, epsilon: float
) -> np.ndarray:
    """The variant (acc23 or 23) of every group at tie threshold ``epsilon``."""
    h, m = human.ravel(), metric.ravel()
    term, _ = _numerators(h[pairs.a] - h[pairs.b], m[pairs.a] - m[pairs.b], variant, epsilon)
    num = np.bincount(pairs.group, weights=term, minlength=pairs.n_groups)
    return num / np.bincount(pairs.group, minlength=pairs.n_groups)


def acc_eq_chance(
    human: np.ndarray,
    grouping: Grouping = Grouping.ITEM,
    items: np.ndarray | None = None,
    pairs: SegmentPairs | None = None,
) -> float:
    """Expected calibrated acc_eq of a metric with random scores: with a share ``q`` of its pairs tied at random it
    scores ``q·t + (1 − q)(1 − t)/2`` per group (``t``: the group's share of human ties), linear in ``q``, so the
    best threshold ties all pairs or none: ``max(mean t, mean (1 − t)/2)``."""
    pairs = segment_pairs(human, grouping, items) if pairs is None else pairs
    if pairs.n_groups == 0:
        return float("nan")
    h = human.ravel()
    ties = np.bincount(pairs.group, weights=h[pairs.a] == h[pairs.b], minlength=pairs.n_groups)
    share = ties / np.bincount(pairs.group, minlength=pairs.n_groups)
    return float(max(share.mean(), ((1 - share) / 2).mean()))


def _pooled_pearson_samples(human: np.ndarray, metric: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Pooled Pearson of the rated cells on every segment resample (``counts``: resamples × segments)."""
    rated = ~np.isnan(human)
    h = np.where(rated, human, 0.0)
    m = np.where(rated, metric, 0.0)
    w = rated.astype(np.float64)
    sums = np.stack([w, h, m, h * h, m * m, h * m]).sum(axis=1)  # 6 × segments
    s = counts @ sums.T  # resamples × 6
    n, sh, sm, shh, smm, shm = s.T
    with np.errstate(divide="ignore", invalid="ignore"):
        cov = shm - sh * sm / n
        r = cov / np.sqrt((shh - sh * sh / n) * (smm - sm * sm / n))
    return np.clip(r, -1.0, 1.0)


def segment_level(
    data: MetaInput,
    metric: str,
    settings: MetaSettings = DEFAULT_SETTINGS,
    pairs: SegmentPairs | None = None,
    counts: np.ndarray | None = None,
) -> SegmentLevel:
    """Calibrated acc_eq by item (with a bootstrap interval over items at the calibrated threshold), Pearson pooled
    (interval over segments) and by item, and every Kendall variant under every grouping. ``pairs`` (the by-item
    :func:`segment_pairs`) and ``counts`` (:func:`metrics.meta.system.bootstrap_counts`) may be shared."""
    human, scores, items = data.human, data.metrics[metric], data.items
    pairs = segment_pairs(human, Grouping.ITEM, items) if pairs is None else pairs
    calibration = calibrate_ties(human, scores, KendallVariant.ACC_23, Grouping.ITEM, items, pairs)
    per_group = group_values(human, scores, pairs, KendallVariant.ACC_23, calibration.threshold)
    draws = bootstrap_indices(pairs.n_groups, settings.n_bootstrap, settings.bootstrap_seed)
    acc_lo, acc_hi = interval(per_group[draws].mean(axis=1), settings.confidence)
    acc_eq = Estimate(calibration.value, acc_lo, acc_hi, acc_eq_chance(human, Grouping.ITEM, items, pairs))
    rated = ~np.isnan(human)
    value = pearson(human[rated], scores[rated])
    if counts is None:
        index = bootstrap_indices(data.n_segments, settings.n_bootstrap, settings.bootstrap_seed)
        counts = resample_counts(index, data.n_segments).astype(np.float64)
    lo, hi = interval(_pooled_pearson_samples(human, scores, counts), settings.confidence)
    by_item, _ = pearson_grouped(human, scores, Grouping.ITEM, items)
    kendall: list[KendallResult] = []
    for grouping in Grouping:
        counts_g = grouped_counts(human, scores, grouping, items)
        kendall.extend(average_kendall(counts_g, variant, grouping) for variant in KendallVariant)
    return SegmentLevel(
        acc_eq,
        calibration,
        Estimate(value, lo, hi, 0.0),
        by_item,
        tuple(kendall),
        pairs.n_groups,
        int(pairs.a.size),
    )
