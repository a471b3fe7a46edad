"""One call for the whole meta-evaluation of a set of metrics against human scores."""

from __future__ import annotations

from collections.abc import Sequence

from metrics.meta.data import MetaInput
from metrics.meta.results import DEFAULT_SETTINGS, MetaReport, MetaSettings, Statistic


def meta_evaluate(
    data: MetaInput,
    settings: MetaSettings = DEFAULT_SETTINGS,
    statistics: Sequence[Statistic] = (
        Statistic.SOFT_PAIRWISE_ACCURACY,
        Statistic.PAIRWISE_ACCURACY,
        Statistic.SEGMENT_ACC_EQ,
    ),
) -> MetaReport:
    """Per metric: system and segment level (:mod:`metrics.meta.system`, :mod:`metrics.meta.segment`) and the
    evidence (:mod:`metrics.meta.evidence`); the metrics compared on each of ``statistics``
    (:func:`metrics.meta.compare.compare_metrics`). For a bucket or slice, pass ``data.subset(segments)``."""
    raise NotImplementedError
