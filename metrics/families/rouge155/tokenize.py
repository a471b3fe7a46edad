"""Text processing of ROUGE-1.5.5.pl (Lin 2004), reproduced for the ROUGE-W/S/SU metrics of ``metrics.families.rouge155``.

Tokenizers (the ``tokenizer`` option of the ROUGE-1.5.5 metrics):

* ``default`` — what ROUGE-1.5.5.pl does to each line of an SPL file: ASCII-only lowercasing (``tr/A-Z/a-z/``),
  every byte outside ``[A-Za-z0-9-]`` becomes a space (the script reads bytes, so each byte of a multi-byte UTF-8
  character is a separator), ``-`` becomes a token of its own and is then dropped by the token filter (tokens
  must start with ``[a-z0-9$]``). Net effect: a token is a maximal run of ASCII letters and digits, lowercased;
  ``Café`` gives ``caf``, ``K`` (Kelvin sign) and ``İ`` give nothing (unlike Python's ``str.lower``).
* ``whitespace`` — rouge-metric's ``PyRouge`` default: ``str.split()`` per line, case kept, nothing removed. It has
  no ROUGE-1.5.5.pl equivalent; it exists for parity with ``PyRouge`` on raw text.
* ``unicode`` — ScoreLens' any-script tokenizer of the rouge-score metrics (:mod:`metrics.families.rouge.tokenize`): Unicode
  lowercasing, letters/digits of every script, CJK one character per token. Not a perl option; stemming, when on,
  is still perl's and applies to ASCII tokens only.

Sentences are the lines of the text (``text.split("\\n")``): ROUGE-W works per sentence, ROUGE-S/SU on the
concatenation (skip-bigrams cross sentence boundaries). Empty lines hold no tokens and change nothing.

Stemming (``-m``): tokens longer than 3 characters are replaced by ``MorphStem``: the WordNet 2.0 exception table
(``went -> go``, ``leaves -> leaf``; the value is used as is, without Porter) or else the script's own Porter
variant, which differs from textbook Porter and from nltk's (see :func:`porter_stem`). Shorter tokens are kept.
The table is the DB perl builds from the four ``.exc`` files; six keys depend on the order the files were read in
and are resolved as in the DB every measured value came from (``best``/``better -> good``, ``is -> be``; see
``scripts/build_rouge155_exceptions.py``). The stemmer equals perl's ``stem`` on 152 000 words (all WordNet 3.0
index lemmas split into ASCII words, the exception keys, and 60 000 synthetic suffix combinations).
Stop-word removal (``-s``) and length limits (``-l``/``-b``) are not offered.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Literal

from metrics.core.tokens import Token

TokenizerName = Literal["default", "unicode", "whitespace"]
TOKENIZERS: tuple[str, ...] = ("default", "unicode", "whitespace")

EXCEPTIONS_FILE = Path(__file__).resolve().parent / "data" / "rouge155-wordnet-2.0-exceptions.txt.gz"

_PERL_WORD = re.compile(r"[A-Za-z0-9]+")
_WHITESPACE_WORD = re.compile(r"\S+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# The Porter regular expressions of ROUGE-1.5.5.pl's ``initialise``: y is always a vowel (an initial y is
# uppercased beforehand, which makes it a consonant there).
_c = "[^aeiou]"
_v = "[aeiouy]"
_C = f"{_c}[^aeiouy]*"
_V = f"{_v}[aeiou]*"
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")  # m > 0
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")  # m = 1
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")  # m > 1
_HAS_VOWEL = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

_STEP1A_IES = re.compile(r"(ss|i)es$")
_STEP1A_S = re.compile(r"([^s])s$")
_STEP1B_EED = re.compile(r"eed$")
_STEP1B_ED_ING = re.compile(r"(ed|ing)$")
_STEP1B_ADD_E = re.compile(r"(at|bl|iz)$")
_STEP1B_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_STEP2_SUFFIX = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble", "alli": "al",
    "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al",
    "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log",
}  # fmt: skip
_STEP3_SUFFIX = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP2 = re.compile("(" + "|".join(_STEP2_SUFFIX) + ")$")
_STEP3 = re.compile("(" + "|".join(_STEP3_SUFFIX) + ")$")
# ROUGE-1.5.5's step 4 is three rules applied one after the other, not "the longest suffix only" (CYL 2004 edit).
_STEP4_LIST = re.compile(r"(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_STEP4_MENT = re.compile(r"ment$")
_STEP4_ENT = re.compile(r"ent$")
_STEP4_ION = re.compile(r"(s|t)(ion)$")


def porter_stem(word: str) -> str:
    """ROUGE-1.5.5.pl's ``stem``: Porter (1980) as the script implements it.

    Differences from textbook Porter / nltk that matter for parity: words shorter than 3 characters are returned
    as is; ``y`` counts as a vowel except at the start of the word; step 4 removes a suffix of its list (``al``,
    ``ance``, …, ``ement``, …), then independently ``ment``, then ``ent`` or else ``sion``/``tion`` — so
    ``agreement -> agreem`` and ``abolitionism -> abolit``. The input is expected lowercased.
    """
    if len(word) < 3:
        return word
    initial_y = word[0] == "y"
    w = "Y" + word[1:] if initial_y else word

    m = _STEP1A_IES.search(w)
    if m:
        w = w[: m.start()] + m.group(1)
    else:
        m = _STEP1A_S.search(w)
        if m:
            w = w[: m.start()] + m.group(1)

    if _STEP1B_EED.search(w):
        if _MGR0.search(w[:-3]):
            w = w[:-1]
    else:
        m = _STEP1B_ED_ING.search(w)
        if m:
            stem = w[: m.start()]
            if _HAS_VOWEL.search(stem):
                w = stem
                if _STEP1B_ADD_E.search(w):
                    w += "e"
                elif _STEP1B_DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"

    if w.endswith("y"):
        stem = w[:-1]
        if _HAS_VOWEL.search(stem):
            w = stem + "i"

    m = _STEP2.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2_SUFFIX[m.group(1)]

    m = _STEP3.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3_SUFFIX[m.group(1)]

    m = _STEP4_LIST.search(w)
    if m and _MGR1.search(w[: m.start()]):
        w = w[: m.start()]
    m = _STEP4_MENT.search(w)
    if m and _MGR1.search(w[: m.start()]):
        w = w[: m.start()]
    m = _STEP4_ENT.search(w)
    if m:
        if _MGR1.search(w[: m.start()]):
            w = w[: m.start()]
    else:
        m = _STEP4_ION.search(w)
        if m:
            stem = w[: m.start()] + m.group(1)
            if _MGR1.search(stem):
                w = stem

    if w.endswith("e"):
        stem = w[:-1]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if w.endswith("ll") and _MGR1.search(w):
        w = w[:-1]

    if initial_y:
        w = "y" + w[1:]
    return w


@lru_cache(maxsize=1)
def exception_table() -> dict[str, str]:
    """The WordNet 2.0 exception table of ROUGE-1.5.5 ``-m`` (5930 entries; see ``scripts/build_rouge155_exceptions.py``)."""
    table: dict[str, str] = {}
    with gzip.open(EXCEPTIONS_FILE, "rt", encoding="ascii") as lines:
        for line in lines:
            if not line.startswith("#"):
                key, _, value = line.rstrip("\n").partition("\t")
                table[key] = value
    return table


@lru_cache(maxsize=1 << 18)
def morph_stem(token: str) -> str:
    """ROUGE-1.5.5's ``MorphStem``: ASCII-lowercase, then the exception table's value as is, else :func:`porter_stem`."""
    lowered = token.translate(_ASCII_LOWER)
    base = exception_table().get(lowered)
    return base if base is not None else porter_stem(lowered)


class Rouge155Tokenizer:
    """One tokenizer configuration (``default``/``whitespace``, stemming on or off).

    :meth:`sentences` is the scoring path (strings only); :meth:`tokens` gives the same strings as
    :class:`~metrics.core.tokens.Token` with character spans into the original text (a stemmed token's ``text`` is the
    stem, its span the word it came from).
    """

    def __init__(self, name: str = "default", stemmer: bool = False) -> None:
        if name not in TOKENIZERS:
            raise ValueError(f"unknown ROUGE-1.5.5 tokenizer {name!r}; valid: {', '.join(TOKENIZERS)}")
        self.name = name
        self.stemmer = stemmer
        self._finder = _PERL_WORD if name == "default" else _WHITESPACE_WORD
        self._form: Callable[[str], str] = self._perl_form if name == "default" else self._whitespace_form
        self._unicode = None
        if name == "unicode":
            from metrics.families.rouge.tokenize import RougeTokenizer

            self._unicode = RougeTokenizer("unicode", stemmer=False)

    def _perl_form(self, word: str) -> str:
        if self.stemmer and len(word) > 3:
            return morph_stem(word)
        return word.translate(_ASCII_LOWER)

    def _whitespace_form(self, word: str) -> str:
        return morph_stem(word) if self.stemmer and len(word) > 3 else word

    def _unicode_form(self, word: str) -> str:
        return morph_stem(word) if self.stemmer and len(word) > 3 and word.isascii() else word

    def sentences(self, text: str) -> tuple[tuple[str, ...], ...]:
        """Token strings per line of ``text``."""
        if self.name == "default":
            found = [_PERL_WORD.findall(line) for line in text.split("\n")]
            if self.stemmer:
                return tuple(
                    tuple(morph_stem(w) if len(w) > 3 else w.translate(_ASCII_LOWER) for w in s) for s in found
                )
            return tuple(tuple(w.translate(_ASCII_LOWER) for w in s) for s in found)
        if self._unicode is not None:
            words = self._unicode.words
            found = [words(line) for line in text.split("\n")]
            if self.stemmer:
                return tuple(tuple(self._unicode_form(w) for w in s) for s in found)
            return tuple(tuple(s) for s in found)
        found = [line.split() for line in text.split("\n")]
        if self.stemmer:
            return tuple(tuple(morph_stem(w) if len(w) > 3 else w for w in s) for s in found)
        return tuple(tuple(s) for s in found)

    def tokens(self, text: str) -> tuple[tuple[Token, ...], ...]:
        """The tokens of :meth:`sentences`, per line, with spans into ``text``."""
        result = []
        offset = 0
        for line in text.split("\n"):
            if self._unicode is not None:
                found = self._unicode.tokens(line, offset)
                result.append(tuple(Token(self._unicode_form(t.text), t.start, t.end) for t in found))
                offset += len(line) + 1
                continue
            result.append(
                tuple(
                    Token(self._form(m.group()), offset + m.start(), offset + m.end())
                    for m in self._finder.finditer(line)
                )
            )
            offset += len(line) + 1
        return tuple(result)
