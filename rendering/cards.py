"""Limitation cards: what a metric rewards, what it is blind to, and its known misreadings.

One Markdown file per card under ``rendering/cards/``, read by the Teach page (at the end of every lesson of the
metric) and included verbatim by the docs' metric pages (``--8<-- "rendering/cards/<name>.md"``), so the class and
the documentation read the same text. The text is ours, never user input: it is shown as written.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from metrics.core.registry import SPECS

CARDS = Path(__file__).with_name("cards")
# Families whose metrics share another family's card: the BLEU reimplementations read the same n-grams; CometKiwi
# is COMET without the reference.
_SHARED = {"bleu-nltk": "bleu", "bleu-google": "bleu", "cometkiwi": "comet"}


@cache
def _read(name: str) -> str | None:
    path = CARDS / f"{name}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def card(name: str) -> str | None:
    """The card named ``name`` (a family, or a lesson's own topic such as ``perplexity``), or None when there is none."""
    return _read(_SHARED.get(name, name))


def card_for(metric_id: str) -> str | None:
    """The card of ``metric_id``'s family, or None when its family has none."""
    return card(SPECS[metric_id].family)


def names() -> tuple[str, ...]:
    """Every card's name, sorted."""
    return tuple(sorted(p.stem for p in CARDS.glob("*.md")))
