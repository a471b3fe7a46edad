"""Tokenizers for the rouge-score family: rouge-score 0.1.2's ASCII tokenizer and a Unicode-aware alternative.

``default`` is rouge-score's ``DefaultTokenizer`` (``rouge_score/tokenize.py``), which replicates Chin-Yew Lin's
ROUGE-1.5.5 cleaning: lowercase (Python's full Unicode ``str.lower``), treat every character outside ``[a-z0-9]`` as
a separator, optionally replace tokens longer than 3 characters by their Porter stem (nltk's ``PorterStemmer()``,
mode NLTK_EXTENSIONS, as rouge-score's ``use_stemmer=True``). All non-ASCII letters disappear: Chinese or Japanese
text has no tokens at all and ``café`` becomes ``caf``. :func:`discarded` finds what was thrown away so that the
metrics can warn.

``unicode`` is ScoreLens' own tokenizer for text in any script (not a rouge-score option, so no parity target):
lowercase with ``str.lower``; a token is a maximal run of letters, digits and combining marks (``\\p{L}\\p{N}\\p{M}``)
of any script, except that every Han ideograph, kana and Hangul syllable (and the letters/digits whose script
extensions include Han, Hiragana, Katakana, Hangul or Bopomofo, e.g. ``ー`` and ``々``) is a token of its own, so
Chinese and Japanese are scored character by character, as is customary without a word segmenter. Everything
else (punctuation, symbols, ``_``) separates tokens. No Unicode normalization is applied (NFC and NFD spellings
differ). Stemming, when on, applies only to ASCII tokens longer than 3 characters. On pure-ASCII text both
tokenizers give identical tokens.

Every token keeps the character span of the original text it came from (:class:`metrics.core.tokens.Token`); a stemmed
token's ``text`` is the stem, its span the word it was made from.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from metrics.core.porter import porter_stemmer
from metrics.core.tokens import Token
from metrics.kernels import kernel

if TYPE_CHECKING:
    import regex

TokenizerName = Literal["default", "unicode"]
TOKENIZERS: tuple[str, ...] = ("default", "unicode")

_ASCII_WORD = re.compile(r"[a-z0-9]+")
# rouge-score's final filter (``VALID_TOKEN_RE.match``); applied to stems, which could in principle leave [a-z0-9].
_VALID_TOKEN = re.compile(r"^[a-z0-9]+$")
# Runs of non-ASCII letters and digits (``\w`` is str.isalnum() plus "_") that the default tokenizer drops: all but
# the two whose lowercase holds an ASCII letter (İ -> i + combining dot, the Kelvin sign K -> k; a test checks every
# code point).
_DISCARDED = re.compile(r"[^\W\x00-\x7f\u0130\u212a]+")
_CJK = r"[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]"


@functools.cache
def _unicode_word() -> regex.Pattern[str]:
    # Compiled, and the regex module imported, on first use: that costs start-up time, and the default tokenizer
    # never needs it.
    import regex

    return regex.compile(rf"[[\p{{L}}\p{{N}}]&&{_CJK}]|[[\p{{L}}\p{{N}}\p{{M}}]--{_CJK}]+", regex.V1)


_STEM_CACHE_SIZE = 1 << 18


def split_sentences(text: str) -> list[tuple[int, str]]:
    """rouge-score's ROUGE-Lsum sentences: ``text.split("\\n")`` without empty strings, with each start offset.

    Lines holding only spaces or punctuation are kept (they have no tokens). ``split_summaries=True`` (nltk's
    ``sent_tokenize``) is not offered: it needs the ``punkt_tab`` model and changes scores.
    """
    sentences = []
    offset = 0
    for line in text.split("\n"):
        if line:
            sentences.append((offset, line))
        offset += len(line) + 1
    return sentences


def _char_origins(text: str, lowered: str) -> list[int] | None:
    """Index into ``text`` of every character of ``lowered`` (``None`` when lowercasing kept the length)."""
    if len(lowered) == len(text):
        return None  # each code point lowercases to exactly one, so offsets coincide
    origins: list[int] = []
    for i, char in enumerate(text):
        origins.extend([i] * len(char.lower()))
    return origins


class RougeTokenizer:
    """One tokenizer configuration (``default``/``unicode``, with or without stemming), with its own stem cache.

    :meth:`words` is the scoring path (strings only); :meth:`tokens` adds character spans for explanations and
    always yields the same strings.
    """

    def __init__(self, name: TokenizerName = "default", stemmer: bool = False) -> None:
        if name not in TOKENIZERS:
            raise ValueError(f"unknown ROUGE tokenizer {name!r}; valid: {', '.join(TOKENIZERS)}")
        self.name = name
        self.stemmer = stemmer
        self._stem: Callable[[str], str] | None = None
        if stemmer:
            porter = porter_stemmer()  # as rouge-score's DefaultTokenizer(use_stemmer=True)

            def stem(word: str) -> str:
                stemmed = porter(word)
                return stemmed if _VALID_TOKEN.match(stemmed) else ""

            # Per instance, not global: a fresh metric starts cold, the Porter stemmer is deterministic anyway.
            self._stem = functools.lru_cache(maxsize=_STEM_CACHE_SIZE)(stem)

    def _pieces(self, lowered: str) -> list[str]:
        if self.name == "default":
            return _ASCII_WORD.findall(lowered)
        return _unicode_word().findall(lowered)

    def normalize(self, piece: str) -> str:
        """The form a piece is compared in: its stem when stemming applies, else itself ("" = dropped)."""
        if self._stem is not None and len(piece) > 3 and (self.name == "default" or piece.isascii()):
            return self._stem(piece)
        return piece

    def words(self, text: str) -> list[str]:
        """Token strings of ``text`` (rouge-score's ``DefaultTokenizer.tokenize`` for ``default``)."""
        pieces = self._pieces(text.lower())
        stem = self._stem
        if stem is None:
            return pieces
        if self.name == "default":
            stemmed = [stem(w) if len(w) > 3 else w for w in pieces]
        else:
            stemmed = [stem(w) if len(w) > 3 and w.isascii() else w for w in pieces]
        return [w for w in stemmed if w] if "" in stemmed else stemmed

    def tokens(self, text: str, offset: int = 0) -> tuple[Token, ...]:
        """Tokens of ``text`` with spans into it (shifted by ``offset``, for a sentence inside a larger text)."""
        lowered = text.lower()
        origins = _char_origins(text, lowered)
        finder = _ASCII_WORD if self.name == "default" else _unicode_word()
        tokens = []
        for match in finder.finditer(lowered):
            form = self.normalize(match.group())
            if not form:
                continue
            start, end = match.span()
            if origins is not None:
                start, end = origins[start], origins[end - 1] + 1
            tokens.append(Token(form, start + offset, end + offset))
        return tuple(tokens)


def discarded(text: str) -> tuple[Token, ...]:
    """Runs of letters/digits that the ``default`` tokenizer throws away (non-ASCII ones), with their spans.

    ``K`` (Kelvin sign) and ``İ`` are not listed: they lowercase to ASCII ``k`` and ``i`` + a combining dot, and
    the ASCII part is kept.
    """
    if text.isascii():
        return ()
    return tuple(Token(match.group(), *match.span()) for match in _DISCARDED.finditer(text))


def losing(texts: Sequence[str | None]) -> list[int]:
    """The indices of the texts (None skipped) of which the ``default`` tokenizer throws away a letter or digit."""
    compiled = kernel("rouge")
    if compiled is not None:
        found: list[int] = compiled.losing(texts)
        return found
    return [k for k, text in enumerate(texts) if text is not None and not text.isascii() and _DISCARDED.search(text)]
