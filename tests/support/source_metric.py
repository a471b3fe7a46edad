"""A small metric that reads the source and no references, standing in for CometKiwi in the tests of the source
stream's plumbing (engines, command line, app): its score is 100 × the shorter over the longer of the output's and
the source's character counts, pooled as sums, so a slice that lost or shifted a source line changes the numbers.
``LengthRatioWithRefs`` also reads the references (as COMET-22 does): it needs both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from metrics.core import registry
from metrics.core.base import Metric, Progress, ReadsSource, SegmentStats, check_corpus, check_source
from metrics.core.explanation import Explanation
from metrics.core.family import EVERY_SCRIPT, Family
from metrics.core.traits import Traits
from rendering.parts import Part, note
from rendering.teach import no_lesson
from rendering.view import ViewOptions, evidence_view


@dataclass(frozen=True)
class LengthRatioConfig:
    pass


@dataclass(frozen=True, kw_only=True)
class LengthRatioExplanation(Explanation):
    source: str


class LengthRatio(ReadsSource, Metric[LengthRatioConfig, LengthRatioExplanation]):
    id = "length-ratio"
    aggregate = "sum"
    Config = LengthRatioConfig
    explanation_type = LengthRatioExplanation

    @property
    def name(self) -> str:
        return "Length ratio"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("output", "source")

    @property
    def traits(self) -> Traits:
        return Traits(reads_references=False)

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> Sequence[float]:
        raise TypeError("length-ratio reads the source: use source_stats")

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        output, source = pooled[..., 0], pooled[..., 1]
        return np.asarray(100.0 * np.minimum(output, source) / np.maximum(np.maximum(output, source), 1.0))

    def signature(self) -> str:
        return "length-ratio|version:test"

    def _explain(self, hyp: str, refs: Sequence[str]) -> LengthRatioExplanation:
        raise TypeError("length-ratio reads the source: use explain_source")

    def source_stats(
        self,
        hyps: Sequence[str],
        sources: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        check_corpus(hyps, refs, self.id, references=self.traits.reads_references)
        check_source(sources, len(hyps))
        rows = np.array([[len(h), len(s)] for h, s in zip(hyps, sources, strict=True)], dtype=np.float64)
        if progress is not None:
            progress(len(hyps))
        return SegmentStats(self.id, self.columns, rows.reshape(len(hyps), 2), self.aggregate)

    def explain_source(self, hyp: str, source: str, refs: Sequence[str]) -> LengthRatioExplanation:
        row = (float(len(hyp)), float(len(source)))
        return LengthRatioExplanation(score=float(self.score_pooled(np.array(row))), row=row, source=source)


class LengthRatioWithRefs(LengthRatio):
    """The same score, declared as reading the references too (it needs both, as COMET-22 does)."""

    id = "length-ratio-refs"

    @property
    def traits(self) -> Traits:
        return Traits()


@evidence_view.register(LengthRatioExplanation)
def _view(ex: LengthRatioExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    del hyp, refs, options
    return [note(f"{ex.row[0]:g} output characters against {ex.row[1]:g} source characters")]


FAMILY = Family(
    name="length-ratio",
    title="Length ratio (test)",
    rank=98,
    metrics=(),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(),
    no_lesson={},  # declared above: the registry read the families' declarations before this module was imported
    text=EVERY_SCRIPT,
)


no_lesson(LengthRatioExplanation, "a test metric: nothing to teach")


def register(monkeypatch: pytest.MonkeyPatch) -> None:
    """Declare ``length-ratio`` and ``length-ratio-refs`` in the registry for one test, as a family would."""
    declared = registry._declared()
    for cls, label in ((LengthRatio, "Length ratio (test)"), (LengthRatioWithRefs, "Length ratio with refs (test)")):
        target = f"{cls.__module__}:{cls.__qualname__}"
        monkeypatch.setitem(declared.specs, cls.id, registry.MetricSpec(cls.id, target, FAMILY.name, label))
        monkeypatch.setitem(declared.homes, cls.id, FAMILY)
