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

import numpy as np

from metrics.meta.data import MetaInput
from metrics.meta.results import DEFAULT_SETTINGS, Comparison, MetaSettings, PermutationTest, Statistic

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
    raise NotImplementedError


def compare_metrics(
    data: MetaInput,
    statistic: Statistic,
    settings: MetaSettings = DEFAULT_SETTINGS,
    metrics: Sequence[str] | None = None,
) -> Comparison:
    """Sort ``metrics`` (default: all of ``data``'s) by ``statistic`` and test every pair (module docstring); with
    ``settings.seed`` None or ``settings.k`` 0 no test is run (p-values 1, every metric rank 1)."""
    raise NotImplementedError
