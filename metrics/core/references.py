"""Error rates scored against each reference alone, the lowest kept: how CharacTER's and EED's reference
implementations (rwth-i6) take several references. A row holds that one sentence score; the corpus score is their
mean, as both references average sentence scores."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

import numpy as np

from metrics.core.base import ConfigT, ExplanationT, Metric


class ReferenceScore(Protocol):
    """What a one-reference result offers: its sentence score and notes on how it was computed."""

    @property
    def score(self) -> float: ...

    @property
    def notes(self) -> tuple[str, ...]: ...


ResultT = TypeVar("ResultT", bound=ReferenceScore)


class LowestOverReferences(Metric[ConfigT, ExplanationT], Generic[ConfigT, ExplanationT, ResultT]):
    """A sentence-level error rate: :meth:`one_reference` scores a pair; a segment keeps its lowest score over the
    references (the first of equal minima). ``detail`` asks for what :meth:`explain` shows (alignments, traces),
    which the rows do not need."""

    aggregate = "mean"
    higher_is_better = False

    @abstractmethod
    def one_reference(self, hyp: str, ref: str, detail: bool) -> ResultT:
        """The hypothesis against one reference."""

    def against_references(self, hyp: str, refs: Sequence[str], detail: bool) -> tuple[list[ResultT], int]:
        """Every reference's result and the index of the lowest."""
        if not refs:
            raise ValueError(f"{self.id}: a segment needs at least one reference")
        results = [self.one_reference(hyp, ref, detail) for ref in refs]
        best = min(range(len(results)), key=lambda k: results[k].score)
        return results, best

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        results, best = self.against_references(hyp, refs, detail=False)
        return np.array([results[best].score], dtype=np.float64)

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., 0]


def reference_notes(results: Sequence[ReferenceScore]) -> tuple[str, ...]:
    """Each result's notes, prefixed by its reference's number."""
    return tuple(f"reference {k + 1}: {note}" for k, r in enumerate(results) for note in r.notes)
