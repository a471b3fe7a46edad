"""The evidence view of any explanation: every family's view module registers its views with
:func:`rendering.view.evidence_view` when imported here, so a caller needs only this module."""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.explanation import Explanation
from rendering import evidence_edits, evidence_lcs, evidence_meteor, evidence_ngrams, evidence_rouge
from rendering.parts import Part
from rendering.view import ViewOptions, evidence_view, has_view, order_labels

# The modules above register views as they are imported; naming them keeps that import explicit.
VIEW_MODULES = (evidence_edits, evidence_lcs, evidence_meteor, evidence_ngrams, evidence_rouge)


def explanation_parts(
    explanation: Explanation, hyp: str, refs: Sequence[str], *, order: int = 1, reference: int | None = None
) -> list[Part]:
    """The view of one segment's explanation (``order``: 1-based n-gram order; ``reference``: the reference to
    show, None for the one the score used)."""
    return evidence_view(explanation, hyp, refs, ViewOptions(order, reference))


__all__ = ["ViewOptions", "explanation_parts", "has_view", "order_labels"]
