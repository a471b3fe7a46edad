"""Vocabulary, settings and result records of the meta-evaluation (how far metrics agree with human judgments).

Every record is frozen; arrays in them are read-only. The definitions of the statistics are in
``docs/guide/meta-evaluation.md``; the defaults are WMT's (google-research/mt-metrics-eval's ``tasks.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

import numpy as np


class Grouping(Enum):
    """How (system, segment) scores are grouped before a segment-level coefficient is averaged over the groups."""

    NONE = "none"  # one pooled list of every rated (system, segment)
    ITEM = "item"  # one group per item (a segment, or the segments of a given item id), across systems
    SYSTEM = "sys"  # one group per system, across its segments


class KendallVariant(Enum):
    """Kendall's τ variants of mt-metrics-eval's ``KendallVariants`` (Deutsch et al. 2023 for 23 / acc23)."""

    B = "b"  # (C − D) / √((P − T_metric)(P − T_human)); NaN when one side is constant
    C = "c"  # Stuart's τ-c: 2(C − D) / (n² (m − 1) / m), m = min(distinct values of each side)
    TAU_23 = "23"  # (C + T_both − D − T_human − T_metric) / P
    ACC_23 = "acc23"  # (C + T_both) / P: pairwise accuracy where a tie is an outcome (acc_eq)


class Statistic(Enum):
    """The statistics metrics are ranked and compared by (:func:`metrics.meta.compare.compare_metrics`)."""

    SYSTEM_PEARSON = "sys_pearson"
    SYSTEM_KENDALL = "sys_kendall"  # τ-b
    PAIRWISE_ACCURACY = "sys_accuracy"  # WMT23's system-level pairwise accuracy
    SOFT_PAIRWISE_ACCURACY = "sys_spa"  # WMT24's SPA (1 − pairwise confidence error)
    SEGMENT_PEARSON = "seg_pearson"  # no grouping, as WMT23's segment-level Pearson
    SEGMENT_ACC_EQ = "seg_acc_eq"  # acc23 by item with the tie threshold calibrated, WMT23/24's segment level


class PermutationTest(Enum):
    """mt-metrics-eval's two paired permutation tests (``perm_test`` of its ``Task``)."""

    SCORES = "scores"  # PERM-BOTH: swap the two metrics' z-scored scores per (system, segment)
    PAIRS = "pairs"  # swap the two metrics' pairwise comparisons per segment pair (for calibrated acc_eq)


class PairOutcome(Enum):
    """How a metric orders a pair that the humans ordered (or tied)."""

    DISCORDANT = "discordant"  # both order the pair, in opposite directions
    FALSE_TIE = "false_tie"  # humans order it, the metric ties it (within its tie threshold)
    MISSED_TIE = "missed_tie"  # humans tie it, the metric orders it


@dataclass(frozen=True)
class MetaSettings:
    """Settings of one meta-evaluation; the defaults are WMT23/24's and mt-metrics-eval's.

    ``spa_permutations``/``spa_seed``: the paired permutations behind each system pair's p-value in SPA
    (``pce.compute_pairwise_p_values``: 1 000, seed 4). ``k``, ``block_size``, ``early_min``, ``early_max``: the
    permutation test comparing two metrics (``Task``: k = 1 000 resamples, checked every 100 for early stopping when
    p < 0.02 or p > 0.5). ``seed``: the legacy NumPy generator (``np.random.seed``) the test draws from, seeded once
    before the first metric pair; ``None`` skips the tests. ``p_value``: the level of the significance clusters.
    ``n_bootstrap``/``bootstrap_seed``/``confidence``: the segment bootstrap behind the intervals.
    ``max_segment_pairs``: how many segment pairs per metric are kept as evidence.
    """

    spa_permutations: int = 1000
    spa_seed: int = 4
    k: int = 1000
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.5
    seed: int | None = 0
    p_value: float = 0.05
    n_bootstrap: int = 1000
    bootstrap_seed: int = 12345
    confidence: float = 0.95
    max_segment_pairs: int = 200


DEFAULT_SETTINGS = MetaSettings()


@dataclass(frozen=True)
class Estimate:
    """A statistic with its bootstrap interval (NaN where none is computed) and its chance level: the expected value
    for a metric whose scores carry no information about the humans' (definitions in the docs page)."""

    value: float
    lo: float
    hi: float
    chance: float


@dataclass(frozen=True)
class TieCalibration:
    """The tie threshold ε (metric differences ``|m_a − m_b| ≤ ε`` count as ties) chosen to maximise the statistic,
    and the whole curve: ``values[i]`` is the statistic with threshold ``thresholds[i]`` (0 first, then every
    distinct metric difference, ascending)."""

    variant: KendallVariant
    threshold: float
    value: float
    thresholds: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class KendallResult:
    """One Kendall variant under one grouping, averaged over the groups where it is defined (``n_groups``)."""

    variant: KendallVariant
    grouping: Grouping
    value: float
    n_groups: int


@dataclass(frozen=True)
class SystemLevel:
    """System-level agreement of one metric with the humans over ``n_systems`` systems (``n_pairs`` pairs)."""

    pearson: Estimate
    kendall: Estimate
    accuracy: Estimate
    spa: Estimate
    n_systems: int
    n_pairs: int


@dataclass(frozen=True)
class SegmentLevel:
    """Segment-level agreement of one metric: calibrated acc_eq (by item), Pearson pooled and by item, and the
    Kendall variants under every grouping."""

    acc_eq: Estimate
    calibration: TieCalibration
    pearson: Estimate
    pearson_by_item: float
    kendall: tuple[KendallResult, ...]
    n_items: int
    n_pairs: int


@dataclass(frozen=True)
class SystemPairError:
    """A system pair the metric orders against the humans. ``better`` is better by the humans (or the first of a
    human tie); deltas are ``better − worse``, on each side's own scale, with bootstrap intervals; p-values are the
    SPA permutation p-values of "``better`` > ``worse``" from each side's segment scores."""

    better: str
    worse: str
    outcome: PairOutcome
    human_delta: float
    human_interval: tuple[float, float]
    metric_delta: float
    metric_interval: tuple[float, float]
    human_p: float
    metric_p: float


@dataclass(frozen=True)
class SegmentPairError:
    """A pair of outputs of one item that the metric orders against the humans (at its calibrated threshold).
    ``segment`` is the column index in the input (of ``system_a``'s output; ``other_segment`` that of ``system_b``'s
    when an item spans several segments); ``weight`` is ``|human_a − human_b|``, the order of the list."""

    segment: int
    system_a: str
    system_b: str
    outcome: PairOutcome
    human_a: float
    human_b: float
    metric_a: float
    metric_b: float
    weight: float
    other_segment: int | None = None


@dataclass(frozen=True)
class MetricMeta:
    """Everything about one metric: both levels and the evidence behind its errors."""

    metric: str
    system: SystemLevel
    segment: SegmentLevel
    system_errors: tuple[SystemPairError, ...]
    segment_errors: tuple[SegmentPairError, ...]
    n_segment_errors: int  # all segment pairs in error; ``segment_errors`` keeps the heaviest


@dataclass(frozen=True)
class Comparison:
    """Metrics compared on one statistic, as mt-metrics-eval's ``CompareMetrics`` does.

    ``metrics`` are ordered by decreasing value (name breaks ties); ``p_values[i, j]`` (``j > i``) is the
    permutation p-value of "``metrics[j]`` is at least as good as ``metrics[i]``" (small: ``i`` is significantly
    better), ``k_used[i, j]`` the resamples drawn before early stopping. ``ranks`` are the significance clusters
    (``AssignRanks``): a metric starts a new cluster when a metric of the current cluster is significantly better.
    """

    statistic: Statistic
    test: PermutationTest
    metrics: tuple[str, ...]
    values: tuple[float, ...]
    p_values: np.ndarray
    k_used: np.ndarray
    ranks: tuple[int, ...]
    seed: int | None

    @property
    def clusters(self) -> tuple[tuple[str, ...], ...]:
        """The metrics of each rank, best rank first."""
        out: dict[int, list[str]] = {}
        for metric, rank in zip(self.metrics, self.ranks, strict=True):
            out.setdefault(rank, []).append(metric)
        return tuple(tuple(v) for _, v in sorted(out.items()))


@dataclass(frozen=True)
class MetaReport:
    """A whole meta-evaluation: per metric results and the comparisons of the metrics on each statistic."""

    systems: tuple[str, ...]
    n_segments: int
    n_rated: int  # (system, segment) cells with a human score
    metrics: Mapping[str, MetricMeta]
    comparisons: Mapping[Statistic, Comparison]
    settings: MetaSettings = DEFAULT_SETTINGS
