"""An external metric: segment scores made elsewhere, as a :class:`~metrics.core.base.Metric` whose rows are data.

ScoreLens does not compute these scores, so the metric has no options and nothing to derive; what it does is make
them first-class: one row per segment (the provided score), corpus score = the mean of the segment scores (as
COMET, BLEURT and MetricX report theirs), bootstrap intervals and paired tests resampling those rows like any
metric's, correlation with human judgements, the explorer's columns and the results schema. Its id is the name the
user gave; its direction and provenance are what the user declared, and the provenance leads the signature.

Rows are looked up by system name and segment, not computed from text, so :meth:`External.system_stats` and
:meth:`External.explain_segment` are its entry points; the text-only :meth:`External.stats` and
:meth:`External.explain` cannot know which system's scores are meant and refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from metrics.core.base import DeclaresFit, Metric, Progress, Rows, SegmentStats, SystemScored, check_corpus
from metrics.core.config import check_options
from metrics.core.explanation import Explanation
from metrics.core.family import Fit
from metrics.core.traits import Traits
from metrics.families.external.fits import external_fit
from metrics.families.external.scores import ExternalScores

VERSION = "scorelens-0.1.0"


@dataclass(frozen=True)
class ExternalConfig:
    """An external metric has no options: its scores were fixed where they were made."""

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True, kw_only=True)
class ExternalExplanation(Explanation):
    """The provided score of one segment and where it came from: ``line`` of ``source``, made as ``provenance``
    says. ``segment`` is 0-based; ``best_ref`` is None (ScoreLens does not know how the score used the references).
    """

    name: str
    system: str
    segment: int
    line: int
    source: str
    provenance: str
    higher_is_better: bool
    one_based: bool


class External(Metric[ExternalConfig, ExternalExplanation], SystemScored, DeclaresFit):
    """Segment scores read from a file (:class:`~metrics.families.external.scores.ExternalScores`)."""

    aggregate = "mean"
    Config = ExternalConfig
    explanation_type = ExternalExplanation

    def __init__(self, scores: ExternalScores) -> None:
        super().__init__(ExternalConfig())
        self.scores = scores
        # A computed metric's id and direction are constants of its class; these are the user's, per instance.
        vars(self).update(id=scores.name, higher_is_better=scores.higher_is_better)

    @property
    def name(self) -> str:
        return self.scores.name

    @property
    def columns(self) -> tuple[str, ...]:
        return ("score",)

    @property
    def traits(self) -> Traits:
        """The scores do not read the references; rows are looked up by system for the whole file, and a worker
        could not rebuild the scores, so partitions are not scored apart."""
        return Traits(reads_references=False, partitionable=False)

    def _refuse(self) -> ValueError:
        return ValueError(
            f"{self.id}: external scores belong to named systems; use system_stats(system, …) or "
            "explain_segment(system, index, …)"
        )

    def _system(self, system: str) -> tuple[float, ...]:
        if system not in self.scores.scores:
            raise ValueError(
                f"{self.id}: {Path(self.scores.source).name} has no scores for system {system!r} "
                f"(it scores {', '.join(self.scores.systems)}); load the scores again for the systems now loaded"
            )
        return self.scores.scores[system]

    def system_stats(
        self,
        system: str,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        check_corpus(hyps, refs, self.id, references=False)
        values = self._system(system)
        if len(values) != len(hyps):
            raise ValueError(f"{self.id}: {len(values)} scores for system {system!r}, which has {len(hyps)} segments")
        if progress is not None:
            progress(len(hyps))
        return SegmentStats(self.id, self.columns, np.array(values, dtype=np.float64)[:, None], self.aggregate)

    def explain_segment(self, system: str, index: int, hyp: str, refs: Sequence[str]) -> ExternalExplanation:
        del hyp, refs
        values = self._system(system)
        if not 0 <= index < len(values):
            raise ValueError(f"{self.id}: segment {index + 1} is outside 1–{len(values)}")
        score = values[index]
        return ExternalExplanation(
            score=score,
            row=(score,),
            name=self.scores.name,
            system=system,
            segment=index,
            line=self.scores.lines[system][index],
            source=self.scores.source,
            provenance=self.scores.provenance,
            higher_is_better=self.scores.higher_is_better,
            one_based=self.scores.one_based,
        )

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        raise self._refuse()

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        raise self._refuse()

    def _explain(self, hyp: str, refs: Sequence[str]) -> ExternalExplanation:
        raise self._refuse()

    def agreement_fit(self) -> Fit | None:
        """The fit the declaration names, or its name matches (:mod:`metrics.families.external.fits`)."""
        values = (v for scores in self.scores.scores.values() for v in scores)
        return external_fit(self.scores.name, self.scores.fit, values)

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., 0]

    def signature(self) -> str:
        provenance = self.scores.provenance or "unstated"
        file = Path(self.scores.source).name
        return f"provenance:{provenance}|file:{file}|sha256:{self.scores.digest}|corpus:mean|version:{VERSION}"
