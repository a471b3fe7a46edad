"""Evidence views found by explanation type.

A family's view module registers one function per explanation type with :func:`evidence_view`::

    @evidence_view.register(BLEUExplanation)
    def _bleu(ex: BLEUExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]: ...

and, when its evidence comes in n-gram orders a reader switches between, their labels with :func:`order_labels`.
Registration follows the class hierarchy (a subclass without its own view gets its parent's); an explanation type
with no view anywhere in its hierarchy raises, it never falls back to something generic.
:mod:`rendering.evidence` imports every module of :mod:`rendering.views`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import singledispatch

from metrics.core.explanation import Explanation
from rendering.parts import Part


@dataclass(frozen=True)
class ViewOptions:
    """What the reader chose: the n-gram ``order`` (1-based, for views with :func:`order_labels`) and the
    ``reference`` to show (its index among the segment's references; None for the one the score used)."""

    order: int = 1
    reference: int | None = None


@singledispatch
def evidence_view(explanation: Explanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    """The parts that show ``explanation`` of ``hyp`` against ``refs``."""
    raise LookupError(f"no evidence view is registered for {type(explanation).__name__}")


@singledispatch
def order_labels(explanation: Explanation) -> tuple[str, ...]:
    """The n-gram orders the view of ``explanation`` can switch between; evidence without orders has none."""
    return ()


def has_view(explanation_type: type[Explanation]) -> bool:
    """Whether a view is registered for ``explanation_type`` (or for a class it derives from)."""
    return evidence_view.dispatch(explanation_type) is not evidence_view.dispatch(object)
