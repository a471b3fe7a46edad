"""rouge-score's ``BootstrapAggregator``: low, mid and high of precision, recall and F over bootstrap resamples of the
segments, with its resampling semantics and a seed.

rouge-score 0.1.2 (``scoring.BootstrapAggregator(confidence_interval, n_samples).aggregate()``), per ROUGE type in
the order its scores were added: ``n_samples`` times, draw the row indices
``np.random.choice(np.arange(n), size=n)`` and take the column means of the drawn (precision, recall, F) rows;
then ``np.percentile`` (linear) of those means at ``100·(1 − c)/2``, 50 and ``100·(1 + c)/2``: ``low``, ``mid``
and ``high``. ``mid`` is the *median of the bootstrap means*, not the mean of the segment scores (the corpus
score): the two differ slightly.

rouge-score draws from NumPy's global random state and never seeds it, so its intervals change from run to run.
Here the draws come from ``np.random.RandomState(seed)``, the same generator, so they are reproducible, and they
are rouge-score's own numbers for that seed: ``np.random.seed(seed)`` right before ``aggregator.aggregate()``, with
the scores of ``RougeScorer(types)`` added segment by segment, gives exactly :func:`bootstrap_aggregate` of the
same types in the same order (rouge-score draws the types one after another from the one global stream, and so
does this function). :mod:`metrics.stats.significance` is the other bootstrap (sacrebleu's, of the corpus score).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from metrics.core.base import Metric, SegmentStats
from metrics.stats.defaults import DEFAULT_CONFIDENCE
from metrics.stats.resampling import DEFAULT_SEED, check_count, check_seed

DEFAULT_SAMPLES = 1000  # rouge-score's n_samples
MEASURES = ("precision", "recall", "fmeasure")


@dataclass(frozen=True)
class PRF:
    """rouge-score's ``Score``: precision, recall, F."""

    precision: float
    recall: float
    fmeasure: float


@dataclass(frozen=True)
class AggregateScore:
    """rouge-score's ``AggregateScore``: the low, mid (median) and high percentiles of the bootstrap means."""

    low: PRF
    mid: PRF
    high: PRF


@dataclass(frozen=True)
class RougeBootstrapSettings:
    """What :func:`bootstrap_aggregate` needs to be reproduced (rouge-score's ``confidence_interval`` and
    ``n_samples``, and the seed of its global random state)."""

    confidence: float = DEFAULT_CONFIDENCE
    n_samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        if not 0 <= self.confidence <= 1:
            raise ValueError(f"the confidence level must lie in [0, 1], not {self.confidence!r} (rouge-score's rule)")
        check_count("number of bootstrap samples", self.n_samples)
        check_seed(self.seed)


def aggregates(metric: Metric[Any, Any]) -> bool:
    """Whether ``metric`` is one of rouge-score's (ROUGE-N, -L, -Lsum), whose rows carry precision, recall and F."""
    from metrics.families.rouge.metric import (
        RougeExplanation,
    )  # here: the results schema imports this module at start-up

    return issubclass(metric.explanation_type, RougeExplanation)


def bootstrap_aggregate(
    stats: Mapping[str, SegmentStats], settings: RougeBootstrapSettings | None = None
) -> dict[str, AggregateScore]:
    """rouge-score's ``BootstrapAggregator`` of one system, per ROUGE type: ``stats`` maps each type (any label) to
    its statistics, in the order rouge-score's scorer lists them; one seeded stream serves them in that order."""
    settings = settings or RougeBootstrapSettings()
    state = np.random.RandomState(settings.seed)
    delta = (1 - settings.confidence) / 2
    q = 100 * np.array([delta, 0.5, 1 - delta])
    result = {}
    for label, segment_stats in stats.items():
        missing = [m for m in MEASURES if m not in segment_stats.columns]
        if missing:
            raise ValueError(f"{label}: statistics without {', '.join(missing)}; only rouge-score's ROUGE aggregates")
        matrix = segment_stats.rows[:, [segment_stats.columns.index(m) for m in MEASURES]]
        n = check_count(f"{label}: number of segments", len(matrix))
        means = np.zeros((settings.n_samples, len(MEASURES)))
        population = np.arange(n)
        for i in range(settings.n_samples):  # one draw and one mean per sample, in rouge-score's arithmetic
            means[i, :] = np.mean(matrix[state.choice(population, size=n), :], axis=0)
        low, mid, high = (PRF(*map(float, row)) for row in np.percentile(means, q, axis=0))
        result[label] = AggregateScore(low, mid, high)
    return result
