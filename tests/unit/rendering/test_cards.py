"""Limitation cards: one file each, read by the Teach page and included verbatim by the docs, so both show the same
text; every card names what the metric rewards, what it is blind to and its known misreadings."""

from __future__ import annotations

import pytest

from rendering import cards
from tests.support.paths import ROOT

DOCS = ROOT / "docs"


@pytest.mark.parametrize("name", cards.names())
def test_every_card_is_included_by_the_docs_and_has_its_parts(name: str) -> None:
    include = f'--8<-- "rendering/cards/{name}.md"'
    assert any(include in page.read_text(encoding="utf-8") for page in DOCS.rglob("*.md")), include
    text = cards.card(name) or ""
    for part in ("**Rewards.**", "**Blind to.**", "**Known misreadings.**"):
        assert part in text


def test_cards_of_the_metrics_and_the_known_misreadings() -> None:
    assert cards.card_for("bleu-nltk") == cards.card_for("bleu") is not None
    assert cards.card_for("rougeLsum") == cards.card_for("rouge1")
    assert cards.card_for("characTER") is None  # no card: the page shows none
    assert "not the sum of LCS lengths" in (cards.card_for("rougeLsum") or "")
    assert "quality bands" in (cards.card_for("rougeL") or "")
    assert "high for unrelated sentences without rescaling" in (cards.card_for("bertscore") or "")
    assert "−9999999999" in (cards.card_for("bleu") or "")
