"""Meta-evaluation: how far metrics agree with human judgments, as WMT's metrics task measures it (system-level
Pearson, Kendall, pairwise accuracy and soft pairwise accuracy; segment-level acc_eq with tie calibration, Kendall
variants and Pearson under WMT's groupings), which metrics are significantly better than which, and the system and
segment pairs behind each metric's errors. Numbers equal google-research/mt-metrics-eval's on the same inputs
(``tests/parity/meta``). NumPy only."""

from metrics.meta.compare import assign_ranks, compare_metrics
from metrics.meta.data import MetaInput, meta_input
from metrics.meta.evaluate import meta_evaluate
from metrics.meta.results import (
    Comparison,
    Estimate,
    Grouping,
    KendallResult,
    KendallVariant,
    MetaReport,
    MetaSettings,
    MetricMeta,
    PairOutcome,
    PermutationTest,
    SegmentLevel,
    SegmentPairError,
    Statistic,
    SystemLevel,
    SystemPairError,
    TieCalibration,
)

__all__ = [
    "Comparison",
    "Estimate",
    "Grouping",
    "KendallResult",
    "KendallVariant",
    "MetaInput",
    "MetaReport",
    "MetaSettings",
    "MetricMeta",
    "PairOutcome",
    "PermutationTest",
    "SegmentLevel",
    "SegmentPairError",
    "Statistic",
    "SystemLevel",
    "SystemPairError",
    "TieCalibration",
    "assign_ranks",
    "compare_metrics",
    "meta_evaluate",
    "meta_input",
]
