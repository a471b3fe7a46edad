"""The evidence view of any explanation: every module of :mod:`rendering.views` registers its views with
:func:`rendering.view.evidence_view` when imported, and this module imports them all, so a caller needs only it."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from types import ModuleType

from metrics.core.explanation import Explanation
from rendering import views
from rendering.parts import Part
from rendering.view import ViewOptions, evidence_view, has_view, order_labels


def _import_views() -> tuple[ModuleType, ...]:
    return tuple(
        importlib.import_module(f"{views.__name__}.{info.name}") for info in pkgutil.iter_modules(views.__path__)
    )


# Importing a view module registers its views; the modules are discovered, so no list names them.
VIEW_MODULES = _import_views()


def explanation_parts(
    explanation: Explanation, hyp: str, refs: Sequence[str], *, order: int = 1, reference: int | None = None
) -> list[Part]:
    """The view of one segment's explanation (``order``: 1-based n-gram order; ``reference``: the reference to
    show, None for the one the score used)."""
    return evidence_view(explanation, hyp, refs, ViewOptions(order, reference))


__all__ = ["ViewOptions", "explanation_parts", "has_view", "order_labels"]
