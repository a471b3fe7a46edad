"""One call for the whole meta-evaluation of a set of metrics against human scores."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.meta.compare import compare_metrics
from metrics.meta.data import MetaInput
from metrics.meta.evidence import segment_pair_errors, system_pair_errors
from metrics.meta.results import DEFAULT_SETTINGS, Grouping, MetaReport, MetaSettings, MetricMeta, Statistic
from metrics.meta.segment import segment_level, segment_pairs
from metrics.meta.system import bootstrap_counts, human_p_values, metric_p_values, system_level

WMT_STATISTICS = (Statistic.SOFT_PAIRWISE_ACCURACY, Statistic.PAIRWISE_ACCURACY, Statistic.SEGMENT_ACC_EQ)


def meta_evaluate(
    data: MetaInput,
    settings: MetaSettings = DEFAULT_SETTINGS,
    statistics: Sequence[Statistic] = WMT_STATISTICS,
) -> MetaReport:
    """Per metric: system and segment level (:mod:`metrics.meta.system`, :mod:`metrics.meta.segment`) and the
    evidence (:mod:`metrics.meta.evidence`); the metrics compared on each of ``statistics``
    (:func:`metrics.meta.compare.compare_metrics`). For a bucket or slice, pass ``data.subset(segments)``."""
    counts = bootstrap_counts(data, settings)
    human_p = human_p_values(data, settings)
    pairs = segment_pairs(data.human, Grouping.ITEM, data.items)
    per_metric = {}
    for name in data.metrics:
        system = system_level(data, name, settings, counts, human_p)
        segment = segment_level(data, name, settings, pairs, counts)
        seg_errors, n_seg_errors = segment_pair_errors(
            data, name, segment.calibration.threshold, settings.max_segment_pairs
        )
        sys_errors = system_pair_errors(
            data, name, human_p, metric_p_values(data, name, settings), counts, settings.confidence
        )
        per_metric[name] = MetricMeta(name, system, segment, sys_errors, seg_errors, n_seg_errors)
    comparisons = {s: compare_metrics(data, s, settings) for s in dict.fromkeys(statistics)}
    return MetaReport(
        data.systems,
        data.n_segments,
        int((~np.isnan(data.human)).sum()),
        per_metric,
        comparisons,
        settings,
    )
