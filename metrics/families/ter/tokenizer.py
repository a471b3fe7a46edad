"""The tercom tokenizer as sacrebleu 2.6.0 applies it for TER (``TercomTokenizer``; tercom's ``Normalizer.java``).

Flags map to tercom's command line: ``normalized`` is ``-N``, ``case_sensitive`` is ``-s``, ``no_punct`` is
``-P`` and ``asian_support`` is ``-A``. The regular expressions and their order are those of sacrebleu (they are
data, not logic: any change of order changes tokens). Two traps are kept on purpose, because parity needs them:

* TER lowercases by default (``case_sensitive=False``), unlike BLEU and chrF;
* the three kana rules of the Asian normalization anchor on ``^`` twice, so after the space padding of the
  western normalization they can never match (``'これはペンです。'`` keeps its kana run whole).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

_WESTERN_GENERAL = (
    (r"\n-", ""),  # end-of-line hyphenation
    (r"\n", " "),
    (r"&quot;", '"'),
    (r"&amp;", "&"),
    (r"&lt;", "<"),
    (r"&gt;", ">"),
)
_WESTERN_PUNCT = (
    (r"([{-~[-` -&(-+:-@/])", r" \1 "),  # the 13a symbol set
    (r"'s ", r" 's "),  # possessives
    (r"'s$", r" 's"),
    (r"([^0-9])([\.,])", r"\1 \2 "),  # period/comma not preceded by a digit
    (r"([\.,])([^0-9])", r" \1 \2"),  # period/comma not followed by a digit
    (r"([0-9])(-)", r"\1 \2 "),  # hyphen after a digit
)
_ASIAN = (
    (r"([\u4e00-\u9fff\u3400-\u4dbf])", r" \1 "),  # CJK unified ideographs (+ extension A)
    (r"([\u31c0-\u31ef\u2e80-\u2eff])", r" \1 "),  # strokes, radicals supplement
    (r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])", r" \1 "),  # compatibility blocks
    (r"([\u3200-\u3f22])", r" \1 "),  # enclosed CJK letters and beyond, as sacrebleu writes it
    (r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])", r"\1 \2 "),  # hiragana
    (r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])", r"\1 \2 "),  # katakana
    (r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])", r"\1 \2 "),  # kana ext.
    (_ASIAN_PUNCT, r" \1 "),
    (_FULL_WIDTH_PUNCT, r" \1 "),
)
_PUNCT = ((r"[\.,\?:;!\"\(\)]", ""),)
_ASIAN_PUNCT_RE = ((_ASIAN_PUNCT, ""), (_FULL_WIDTH_PUNCT, ""))


Rules = tuple[tuple[str, str], ...]


@cache
def _compiled(rules: Rules) -> tuple[tuple[re.Pattern[str], str], ...]:
    # Compiled on first use: the default options use none of them, and compiling them all costs start-up time.
    return tuple((re.compile(pattern), replacement) for pattern, replacement in rules)


def _apply(rules: Rules, text: str) -> str:
    for pattern, replacement in _compiled(rules):
        text = pattern.sub(replacement, text)
    return text


@dataclass(frozen=True)
class TercomTokenizer:
    """Maps a (right-stripped) line to its space-joined tercom tokens."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __call__(self, line: str) -> str:
        return _tokenize(line, self.normalized, self.no_punct, self.asian_support, self.case_sensitive)

    def words(self, line: str) -> list[str]:
        """sacrebleu's TER preprocessing: right strip, tokenize, whitespace split."""
        return self(line.rstrip()).split()


@lru_cache(maxsize=2**16)
def _tokenize(line: str, normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> str:
    if not line:
        return ""
    if not case_sensitive:
        line = line.lower()
    if normalized:
        line = _apply(_WESTERN_GENERAL, line)
        line = _apply(_WESTERN_PUNCT, f" {line} ")
        if asian_support:
            line = _apply(_ASIAN, line)
    if no_punct:
        line = _apply(_PUNCT, line)
        if asian_support:
            line = _apply(_ASIAN_PUNCT_RE, line)
    return " ".join(line.split())
