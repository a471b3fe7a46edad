"""The evidence view of any explanation: every module of :mod:`rendering.views` registers its views with
:func:`rendering.view.evidence_view` when imported, and this module imports them all, so a caller needs only it."""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.explanation import Explanation
from rendering import views
from rendering.discovery import import_submodules
from rendering.parts import Part
from rendering.view import ViewOptions, evidence_view, has_view, order_labels

import_submodules(views)


def explanation_parts(
    explanation: Explanation, hyp: str, refs: Sequence[str], *, order: int = 1, reference: int | None = None
) -> list[Part]:
    """The view of one segment's explanation (``order``: 1-based n-gram order; ``reference``: the reference to
    show, None for the one the score used)."""
    return evidence_view(explanation, hyp, refs, ViewOptions(order, reference))


__all__ = ["ViewOptions", "explanation_parts", "has_view", "order_labels"]
