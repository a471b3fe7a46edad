"""Which metrics are significantly better than which: mt-metrics-eval's paired permutation tests and its ranked
significance clusters (``data.CompareMetrics*``, ``stats.PermutationSigDiff``, ``stats.PairwisePermutationSigDiff``,
``data.AssignRanks``).

Metrics are sorted by decreasing value (name breaks ties). For every pair ``i < j`` the test asks whether
``metrics[j]`` is at least as good as ``metrics[i]``: ``k`` times, each (system, segment) score (``SCORES``: z-scored
per metric over the rated cells, PERM-BOTH of Deutsch et al. 2021) or each segment pair's comparison (``PAIRS``, for
calibrated acc_eq: every metric keeps its own tie threshold) is swapped between the two metrics with probability ½,
and the p-value is the share of draws where ``value(j-hybrid) − value(i-hybrid) ≥ value(j) − value(i)``. Every
``block_size`` draws the test stops early when p < ``early_min`` or p > ``early_max`` (for ``PAIRS`` only at a
block end right after a draw that counted, as mt-metrics-eval does).

The draws: one legacy NumPy generator (``np.random.RandomState(seed)``, the state ``np.random.seed(seed)`` gives
mt-metrics-eval's global draws) serves all pairs of one statistic in order ``(0, 1), (0, 2), …``; a draw of
``binomial(1, ½)`` is ``random_sample() > ½``, one double per draw, so the numbers equal mt-metrics-eval's run with
``np.random.seed(seed)`` before its ``ComputeSigMatrix``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.meta.data import MetaInput
from metrics.meta.results import (
    DEFAULT_SETTINGS,
    Comparison,
    Grouping,
    KendallVariant,
    MetaSettings,
    PermutationTest,
    Statistic,
)
from metrics.meta.segment import SegmentPairs, calibrate_ties, groups, pair_terms, segment_pairs
from metrics.meta.system import (
    accuracy_rows,
    common_rated,
    human_p_values,
    kendall_b_rows,
    metric_p_values,
    pairwise_p_values,
    pearson_rows,
    soft_pairwise_accuracy,
)

TESTS: dict[Statistic, PermutationTest] = {
    Statistic.SYSTEM_PEARSON: PermutationTest.SCORES,
    Statistic.SYSTEM_KENDALL: PermutationTest.SCORES,
    Statistic.PAIRWISE_ACCURACY: PermutationTest.SCORES,
    Statistic.SOFT_PAIRWISE_ACCURACY: PermutationTest.SCORES,
    Statistic.SEGMENT_PEARSON: PermutationTest.SCORES,
    Statistic.SEGMENT_ACC_EQ: PermutationTest.PAIRS,
}


def assign_ranks(p_values: np.ndarray, alpha: float = 0.05) -> tuple[int, ...]:
    """Significance clusters of metrics sorted best first (``AssignRanks``): metric ``i`` opens a new rank when a
    metric of the current rank (from its first member up to ``i − 1``) is better with ``p ≤ alpha``."""
    n = p_values.shape[0]
    ranks: list[int] = []
    rank, start = 1, 0
    for i in range(n):
        if np.any(p_values[start:i, i] <= alpha):
            rank += 1
            start = i
        ranks.append(rank)
    return tuple(ranks)


def statistic_value(
    data: MetaInput, metric: str, statistic: Statistic, settings: MetaSettings = DEFAULT_SETTINGS
) -> float:
    """The value of ``statistic`` for one metric (the number the metrics are sorted by)."""
    if statistic is Statistic.SEGMENT_ACC_EQ:
        return calibrate_ties(data.human, data.metrics[metric], KendallVariant.ACC_23, Grouping.ITEM, data.items).value
    if statistic is Statistic.SOFT_PAIRWISE_ACCURACY:
        return soft_pairwise_accuracy(human_p_values(data, settings), metric_p_values(data, metric, settings))
    gold, scores = _vectors(data, metric, statistic)
    return float(_values(statistic, gold, scores[None, :], data, settings)[0])


def _vectors(data: MetaInput, metric: str, statistic: Statistic) -> tuple[np.ndarray, np.ndarray]:
    """The gold and metric vectors a statistic is computed on: system scores of the systems with human scores, or
    the rated cells (system-major, as mt-metrics-eval flattens them); for SPA the cells of the common segments."""
    if statistic in (Statistic.SYSTEM_PEARSON, Statistic.SYSTEM_KENDALL, Statistic.PAIRWISE_ACCURACY):
        h = data.human_system_scores()
        keep = ~np.isnan(h)
        return h[keep], data.metric_system_scores(metric)[keep]
    if statistic is Statistic.SOFT_PAIRWISE_ACCURACY:
        cols = common_rated(data)
        return data.human[:, cols].ravel(), data.metrics[metric][:, cols].ravel()
    rated = ~np.isnan(data.human)
    return data.human[rated], data.metrics[metric][rated]


def _zscore(values: np.ndarray) -> np.ndarray:
    return (values - values.mean()) / values.std()


def _values(
    statistic: Statistic, gold: np.ndarray, rows: np.ndarray, data: MetaInput, settings: MetaSettings
) -> np.ndarray:
    """``statistic`` of every row of metric scores against ``gold``; an undefined value counts as 0, as
    mt-metrics-eval's averaging of an empty list of defined values."""
    if statistic is Statistic.SOFT_PAIRWISE_ACCURACY:
        n_sys = len(data.systems)
        human_p = pairwise_p_values(gold.reshape(n_sys, -1), settings.spa_permutations, settings.spa_seed)
        out = np.array(
            [
                soft_pairwise_accuracy(
                    human_p, pairwise_p_values(r.reshape(n_sys, -1), settings.spa_permutations, settings.spa_seed)
                )
                for r in rows
            ]
        )
    elif statistic in (Statistic.SYSTEM_PEARSON, Statistic.SEGMENT_PEARSON):
        out = pearson_rows(gold, rows)
    elif statistic is Statistic.PAIRWISE_ACCURACY:
        out = accuracy_rows(gold, rows)
    else:
        out = kendall_b_rows(gold, rows)
    return np.where(np.isnan(out), 0.0, out)


def _scores_test(
    statistic: Statistic,
    gold: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    data: MetaInput,
    settings: MetaSettings,
    rng: np.random.RandomState,
) -> tuple[float, int]:
    """PERM-BOTH: p-value that ``second`` is at least as good as ``first``, and the draws used."""
    s1, s2 = _zscore(first), _zscore(second)
    pair = _values(statistic, gold, np.stack([s2, s1]), data, settings)
    delta = pair[0] - pair[1]
    count, used = 0, 0
    while used < settings.k:
        size = min(settings.block_size - used % settings.block_size, settings.k - used)
        swap = rng.random_sample((size, s1.size)) > 0.5  # binomial(1, ½): one double per draw
        h1 = np.where(swap, s1, s2)
        h2 = np.where(swap, s2, s1)
        c = _values(statistic, gold, np.concatenate([h1, h2]), data, settings)
        count += int((c[size:] - c[:size] >= delta).sum())
        used += size
        if used % settings.block_size == 0 and not settings.early_min <= count / used <= settings.early_max:
            break
    return count / used, used


@dataclass(frozen=True)
class _PairTerms:
    """Per segment pair: a metric's acc23 term at its calibrated threshold; the draw layout of the pairs test."""

    pairs: SegmentPairs
    draw_width: int  # doubles drawn per resample: Σ n² over the items with a rated cell
    positions: np.ndarray  # where each pair's draw sits among them
    starts: np.ndarray  # first pair of each group
    sizes: np.ndarray  # pairs per group


def _pair_layout(data: MetaInput) -> _PairTerms:
    cells = groups(data.human, Grouping.ITEM, data.items)
    pairs = segment_pairs(data.human, Grouping.ITEM, data.items)
    offset, positions = 0, []
    for g in cells:
        n = g.size
        if n > 1:
            i, j = np.triu_indices(n, 1)
            positions.append(offset + i * n + j)
        offset += n * n
    sizes = np.bincount(pairs.group, minlength=pairs.n_groups)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    return _PairTerms(pairs, offset, np.concatenate(positions), starts, sizes)


def _pair_values(terms: np.ndarray, layout: _PairTerms) -> np.ndarray:
    """acc23 averaged over the groups, for every row of per-pair terms."""
    counts = np.add.reduceat(terms, layout.starts, axis=1)
    return np.ascontiguousarray(counts / layout.sizes).mean(axis=1)


def _pairs_test(
    a1: np.ndarray, a2: np.ndarray, layout: _PairTerms, settings: MetaSettings, rng: np.random.RandomState
) -> tuple[float, int]:
    """The pairs test: each segment pair's comparison comes from one metric or the other with probability ½."""
    base = _pair_values(np.stack([a2, a1]), layout)
    delta = base[0] - base[1]
    count, used = 0, 0
    chunk = max(1, min(settings.block_size, _DRAW_DOUBLES // max(layout.draw_width, 1)))
    while used < settings.k:
        block = min(settings.block_size - used % settings.block_size, settings.k - used, chunk)
        swap = rng.random_sample((block, layout.draw_width))[:, layout.positions] > 0.5
        c1 = _pair_values(np.where(swap, a1, a2), layout)
        c2 = _pair_values(np.where(swap, a2, a1), layout)
        hits = c2 - c1 >= delta
        count += int(hits.sum())
        used += block
        # mt-metrics-eval checks for early stopping only right after a draw that counted
        if (
            used % settings.block_size == 0
            and hits[-1]
            and not settings.early_min <= count / used <= settings.early_max
        ):
            break
    return count / used, used


_DRAW_DOUBLES = 4_000_000


def compare_metrics(
    data: MetaInput,
    statistic: Statistic,
    settings: MetaSettings = DEFAULT_SETTINGS,
    metrics: Sequence[str] | None = None,
) -> Comparison:
    """Sort ``metrics`` (default: all of ``data``'s) by ``statistic`` and test every pair (module docstring). With
    ``settings.seed`` None or ``settings.k`` 0 no test is run: p-values NaN and ranks the positions, as
    mt-metrics-eval's ``k=0``."""
    names = list(data.metrics) if metrics is None else list(metrics)
    unknown = [m for m in names if m not in data.metrics]
    if unknown or len(set(names)) != len(names) or not names:
        raise ValueError(f"metrics must be distinct names of the input's metrics; unknown: {unknown}")
    value = {m: statistic_value(data, m, statistic, settings) for m in names}
    order = sorted(names, key=lambda m: (-value[m], m))
    n = len(order)
    p_values = np.full((n, n), np.nan)
    k_used = np.zeros((n, n), dtype=np.int64)
    test = TESTS[statistic]
    if settings.seed is None or settings.k == 0:
        ranks = tuple(range(1, n + 1))
    else:
        rng = np.random.RandomState(settings.seed)
        if test is PermutationTest.PAIRS:
            layout = _pair_layout(data)
            h = data.human.ravel()
            dh = h[layout.pairs.a] - h[layout.pairs.b]
            terms = {}
            for m in order:
                scores = data.metrics[m].ravel()
                eps = calibrate_ties(data.human, data.metrics[m], KendallVariant.ACC_23, Grouping.ITEM, data.items)
                dm = scores[layout.pairs.a] - scores[layout.pairs.b]
                terms[m] = pair_terms(dh, dm, KendallVariant.ACC_23, eps.threshold)
        for i in range(n):
            for j in range(i + 1, n):
                if test is PermutationTest.PAIRS:
                    p, used = _pairs_test(terms[order[j]], terms[order[i]], layout, settings, rng)
                else:
                    gold, first = _vectors(data, order[j], statistic)
                    _, second = _vectors(data, order[i], statistic)
                    p, used = _scores_test(statistic, gold, first, second, data, settings, rng)
                p_values[i, j] = p
                k_used[i, j] = used
        ranks = assign_ranks(np.nan_to_num(p_values, nan=1.0), settings.p_value)
    p_values.setflags(write=False)
    k_used.setflags(write=False)
    return Comparison(
        statistic, test, tuple(order), tuple(value[m] for m in order), p_values, k_used, ranks, settings.seed
    )
