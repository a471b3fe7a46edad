"""MQM and ESA scores as metrics: rows that are data about named systems, as external scores are.

:class:`AnnotationMetric` makes the segment scores of some :class:`~metrics.annotations.model.Annotations` a
:class:`~metrics.core.base.Metric`, so that bootstrap intervals, paired tests, Holm groups, buckets, slices and the
results schema treat them like any metric's:

* **MQM** (:func:`~metrics.annotations.mqm.segment_mqm`): minus the mean over raters of each rater's sum of error
  weights; **higher is better** (0 = no error), as mt-metrics-eval stores it; the weights are in the signature.
* **ESA** (:func:`~metrics.annotations.esa.segment_esa`): the mean of the raters' 0–100 scores; higher is better.

**Unrated segments are left out, the same way everywhere.** A segment's row is ``(score, 1)`` when it is rated and
``(0, 0)`` when not; the corpus score is the ratio of the column sums — the mean over the rated segments, as WMT's
system MQM is — and a bootstrap resample or a paired test's permutation scores its own rated segments the same way.
A segment score of an unrated segment is NaN (``null`` in JSON, empty in CSV, in no bucket). A system with unrated
segments carries a note with its count of rated ones; the note on the input counts the ratings kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np

from metrics.annotations.esa import segment_esa
from metrics.annotations.model import Annotations, Rating
from metrics.annotations.mqm import WMT_WEIGHTS, MqmWeights, segment_mqm
from metrics.core.base import Metric, Progress, Rows, SegmentStats, StatsNote, SystemScored, check_corpus
from metrics.core.config import check_options
from metrics.core.traits import Traits
from metrics.families.external.metric import ExternalExplanation

VERSION = "scorelens-0.1.0"
RATED_NOTE = "human scores: only rated segments count (unrated ones are left out)"


class HumanScore(str, Enum):
    """Which score of the annotations a metric is: MQM from the errors, or the raters' own (ESA) scores."""

    MQM = "mqm"
    ESA = "esa"


@dataclass(frozen=True)
class AnnotationConfig:
    """No options: the weights are given with the annotations (:class:`AnnotationMetric`)."""

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True, kw_only=True)
class AnnotationExplanation(ExternalExplanation):
    """One segment's human score and the ratings behind it; ``score`` is NaN when nobody rated the segment.
    ``line`` is the file line of its first rating (0 if unrated); ``weights`` the MQM weights' signature ("" for
    ESA)."""

    kind: HumanScore
    ratings: tuple[Rating, ...]
    weights: str


class AnnotationMetric(Metric[AnnotationConfig, AnnotationExplanation], SystemScored):
    """The MQM or ESA scores of some annotations, under the id ``name`` (default ``mqm`` / ``esa``)."""

    aggregate = "sum"
    Config = AnnotationConfig
    explanation_type = AnnotationExplanation

    def __init__(
        self,
        annotations: Annotations,
        kind: HumanScore | str = HumanScore.MQM,
        weights: MqmWeights = WMT_WEIGHTS,
        name: str = "",
    ) -> None:
        super().__init__(AnnotationConfig())
        self.annotations = annotations
        self.kind = HumanScore(kind)
        self.weights = weights
        self._values = {
            system: np.array([self._segment(r) for r in rows], dtype=np.float64)
            for system, rows in annotations.ratings.items()
        }
        if not any(np.isfinite(v).any() for v in self._values.values()):
            raise ValueError(
                f"{Path(annotations.source).name}: no segment has "
                + ("a rating" if self.kind is HumanScore.MQM else "an ESA score")
            )
        # Ids and directions are class constants of computed metrics; here they are the user's, per instance.
        vars(self).update(id=name or self.kind.value, higher_is_better=True)

    def _segment(self, ratings: Sequence[Rating]) -> float:
        return segment_mqm(ratings, self.weights) if self.kind is HumanScore.MQM else segment_esa(ratings)

    @property
    def name(self) -> str:
        return self.kind.value.upper() if self.id == self.kind.value else self.id

    @property
    def columns(self) -> tuple[str, ...]:
        return ("score_sum", "rated")

    @property
    def traits(self) -> Traits:
        """Rows are looked up by system, not computed from text; a worker could not rebuild them."""
        return Traits(reads_references=False, partitionable=False)

    def values(self, system: str) -> np.ndarray:
        """The segment scores of ``system``: NaN where unrated."""
        if system not in self._values:
            raise ValueError(
                f"{self.id}: {Path(self.annotations.source).name} has no ratings for system {system!r} "
                f"(it rates {', '.join(self._values)})"
            )
        return self._values[system]

    def system_stats(
        self,
        system: str,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        check_corpus(hyps, refs, self.id, references=False)
        values = self.values(system)
        if len(values) != len(hyps):
            raise ValueError(f"{self.id}: {len(values)} rated segments for system {system!r}, which has {len(hyps)}")
        rated = np.isfinite(values)
        rows = np.column_stack([np.where(rated, values, 0.0), rated.astype(np.float64)])
        if progress is not None:
            progress(len(hyps))
        unrated = len(values) - int(rated.sum())
        notes = (StatsNote(RATED_NOTE, f"{len(values) - unrated} of {len(values)} segments rated"),) if unrated else ()
        return SegmentStats(self.id, self.columns, rows, self.aggregate, notes)

    def explain_segment(self, system: str, index: int, hyp: str, refs: Sequence[str]) -> AnnotationExplanation:
        del hyp, refs
        values = self.values(system)
        if not 0 <= index < len(values):
            raise ValueError(f"{self.id}: segment {index + 1} is outside 1–{len(values)}")
        ratings = self.annotations.ratings[system][index]
        score = float(values[index])
        return AnnotationExplanation(
            score=score,
            row=(0.0 if np.isnan(score) else score, float(not np.isnan(score))),
            name=self.id,
            system=system,
            segment=index,
            line=ratings[0].line if ratings else 0,
            source=self.annotations.source,
            provenance=f"{self.kind.value.upper()} human annotations",
            higher_is_better=True,
            one_based=False,
            kind=self.kind,
            ratings=ratings,
            weights=self.weights.signature() if self.kind is HumanScore.MQM else "",
        )

    def _refuse(self) -> ValueError:
        return ValueError(
            f"{self.id}: human scores belong to named systems; use system_stats(system, …) or "
            "explain_segment(system, index, …)"
        )

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        raise self._refuse()

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        raise self._refuse()

    def _explain(self, hyp: str, refs: Sequence[str]) -> AnnotationExplanation:
        raise self._refuse()

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        pooled = np.asarray(pooled, dtype=np.float64)
        total, rated = pooled[..., 0], pooled[..., 1]
        return np.divide(total, rated, out=np.full_like(total, np.nan), where=rated > 0)

    def signature(self) -> str:
        scheme = f"{self.kind.value}:{self.weights.signature()}" if self.kind is HumanScore.MQM else self.kind.value
        return (
            f"human:{scheme}|file:{Path(self.annotations.source).name}|sha256:{self.annotations.digest or 'none'}"
            f"|raters:{len(self.annotations.raters)}|corpus:mean of rated segments|version:{VERSION}"
        )
