"""Tokens that remember where they came from, so highlights land on the user's original text, and the unit a
metric cuts text into (what its length buckets count)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


@dataclass(frozen=True)
class TokenUnit:
    """How one metric cuts text into tokens. ``ref_column``: the statistics column holding the reference length
    when a segment has one reference (or always, with ``ref_column_mean``: the mean over the references);
    ``hyp_column``: the column holding the output's length; ``splits_cjk``: CJK characters come out one per
    token (or as morphemes), so the unit needs no character fallback."""

    label: str
    tokens: Callable[[str], Sequence[str]]
    words: bool = True
    splits_cjk: bool = False
    ref_column: str | None = None
    ref_column_mean: bool = False
    hyp_column: str | None = None
