"""Which metrics have a lesson, and building one: every other module of this package registers its lessons with
:func:`rendering.teach.lesson` when imported, and importing the package imports them all (discovered, so a new
lesson module needs no list to join). The explanation types without a lesson are declared with their reason next
to their family (``Family.no_lesson``) and registered here. A metric whose explanation type has neither is an
error (tests/contracts/test_contracts.py), never skipped; a type with both is refused on import."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from metrics.core.base import Metric, MissingInput, ReadsSource
from metrics.core.explanation import Explanation
from metrics.core.family import load
from metrics.core.registry import SPECS, families
from rendering.discovery import import_submodules
from rendering.teach import Context, Lesson, NoLesson, lesson, lesson_for, no_lesson


def _declare_absent_lessons() -> None:
    for family in families():
        for path, reason in family.no_lesson.items():
            explanation_type: type[Explanation] = load(path)
            if explanation_type in lesson.registry:
                raise TypeError(f"{path} has a lesson, and {family.name} declares it has none")
            no_lesson(explanation_type, reason)


import_submodules(sys.modules[__name__])
_declare_absent_lessons()


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


def build_lesson(
    metric: Metric[Any, Any],
    hyp: str,
    refs: Sequence[str],
    context: Context | None = None,
    *,
    source: str | None = None,
) -> Lesson:
    """The lesson of ``metric`` on one pair (with its ``source``, for a metric that reads one: the COMET family),
    from the metric's own explanation of it. A metric that reads no reference (CometKiwi) takes none."""
    if metric.traits.reads_references and not refs:
        raise ValueError("give at least one reference")
    if isinstance(metric, ReadsSource):
        if source is None or not source.strip():
            raise MissingInput(metric.name, "source")
        explanation = metric.explain_source(hyp, source, list(refs))
    else:
        explanation = metric.explain(hyp, list(refs))
    built = lesson(explanation, metric, hyp, list(refs), context or Context())
    return replace(built, explanation=explanation, config=metric.config)
