"""Tokens that remember where they came from, so highlights land on the user's original text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    """A token as the metric saw it, with the span ``[start, end)`` of the original text it stands for.

    ``start``/``end`` are ``None`` when a tokenizer rewrote the text (``&amp;`` → ``&``, lowercasing that changes
    length, stemming) so that the token cannot be found verbatim in the original.
    """

    text: str
    start: int | None
    end: int | None

    @property
    def located(self) -> bool:
        return self.start is not None


def locate(original: str, pieces: Sequence[str], *, casefold: bool = False) -> tuple[Token, ...]:
    """Attach character offsets in ``original`` to each of ``pieces``, searching left to right.

    Tokenizers split and rewrite text; this recovers the span of every piece that still occurs verbatim after
    the previous one. A piece that does not occur keeps ``None`` offsets, and the search goes on from where the
    last located piece ended, so one rewritten token never shifts the others.
    """
    # Lowercasing can change a string's length (``"İ".lower()`` is two code points); offsets found in such a
    # lowered copy would not point into the original, so fall back to exact search there.
    casefold = casefold and len(original.lower()) == len(original)
    haystack = original.lower() if casefold else original
    tokens = []
    cursor = 0
    for piece in pieces:
        needle = piece.lower() if casefold else piece
        at = haystack.find(needle, cursor) if needle else -1
        if at < 0:
            tokens.append(Token(piece, None, None))
            continue
        tokens.append(Token(piece, at, at + len(needle)))
        cursor = at + len(needle)
    return tuple(tokens)
