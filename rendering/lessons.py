"""Which metrics have a lesson, and building one: every lesson module registers its lessons with
:func:`rendering.teach.lesson` when imported here, and the explanation types without a lesson are declared here with
their reason. A metric whose explanation type has neither is an error (tests/test_contracts.py), never skipped."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from metrics.core.base import Metric
from metrics.core.registry import SPECS
from metrics.families.bleu.variants import GoogleBLEUExplanation, NltkBLEUExplanation
from metrics.families.character.metric import CharacTERExplanation
from metrics.families.eed.metric import EEDExplanation
from metrics.families.external import ExternalExplanation
from metrics.families.perplexity.metric import PerplexityExplanation
from metrics.families.wer.metric import ErrorRateExplanation, WordMeasureExplanation
from rendering import (
    teach_bertscore,
    teach_bleu,
    teach_chrf,
    teach_cider,
    teach_meteor,
    teach_rouge,
    teach_rouge155,
    teach_ter,
)
from rendering.teach import Context, Lesson, NoLesson, lesson, lesson_for, no_lesson

# The modules above register lessons as they are imported; naming them keeps that import explicit.
LESSON_MODULES = (
    teach_bertscore,
    teach_bleu,
    teach_chrf,
    teach_cider,
    teach_meteor,
    teach_rouge,
    teach_rouge155,
    teach_ter,
)

no_lesson(
    GoogleBLEUExplanation,
    "the BLEU lesson derives sacrebleu's sentence BLEU; Google's compute_bleu has no smoothing or effective order",
)
no_lesson(NltkBLEUExplanation, "nltk's BLEU keeps only counts per order, no n-gram evidence to derive from")
no_lesson(ErrorRateExplanation, "one edit distance over the reference length; the Segment page shows the alignment")
no_lesson(
    WordMeasureExplanation, "one formula over WER's hit and edit counts; the Segment page shows it and the alignment"
)
no_lesson(CharacTERExplanation, "no lesson written yet; the Segment page shows its shifts and character alignment")
no_lesson(EEDExplanation, "no lesson written yet; the Segment page shows its alignment grid")
no_lesson(PerplexityExplanation, "no lesson written yet; the Segment page shows each token's surprisal")
no_lesson(ExternalExplanation, "an external metric's scores are read from a file, not computed: nothing to derive")


def lesson_status() -> tuple[tuple[str, ...], dict[str, str]]:
    """(metric ids with a lesson that can run here, in display order; {metric id: why it has none})."""
    ready: list[str] = []
    missing: dict[str, str] = {}
    for metric_id, spec in SPECS.items():
        found = lesson_for(spec.cls.explanation_type)
        if found is None:
            raise LookupError(f"{metric_id}: {spec.cls.explanation_type.__name__} has no lesson and no declaration")
        if isinstance(found, NoLesson):
            missing[metric_id] = found.reason
        elif not spec.available():
            missing[metric_id] = "; ".join(r.reason() for r in spec.requires if not r.met())
        else:
            ready.append(metric_id)
    return tuple(ready), missing


def build_lesson(metric: Metric[Any, Any], hyp: str, refs: Sequence[str], context: Context | None = None) -> Lesson:
    """The lesson of ``metric`` on one pair, from the metric's own explanation of it."""
    if not refs:
        raise ValueError("give at least one reference")
    explanation = metric.explain(hyp, list(refs))
    return lesson(explanation, metric, hyp, list(refs), context or Context())
