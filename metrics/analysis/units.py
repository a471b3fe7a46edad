"""What a length, a word or an n-gram is counted in: a metric's own tokens.

Each family's tokenization lives with the family; :func:`token_unit` finds it by the metric's type:

* BLEU (sacrebleu and Google's): ``BLEU.tokenize`` (13a, intl, zh, char, ja-mecab); rows hold ``sys_len`` and, with one
  reference, ``ref_len``;
* TER: ``TER.tokenize`` (tercom's tokenizer); rows hold ``ref_len``, the mean over the references;
* METEOR: ``Meteor.tokenize`` (lowercased whitespace words); rows hold ``hyp_len`` and, with one reference, ``ref_len``;
* WER and CER: ``symbols`` (jiwer's words or characters); rows hold ``ref_len``, the mean over the references;
* ROUGE-N/L/Lsum: the rouge-score tokenizer (``tokenizer.words``); its rows count n-grams or the best reference's
  tokens, so lengths are derived;
* chrF: characters without whitespace (its character unigrams); rows hold them but for the best reference and with
  ``hyp_c1 = 0`` against an empty reference, so lengths are derived;
* anything else (CIDEr-D, CharacTER, EED, nltk's BLEU, ROUGE-W/S/SU): whitespace words.

A reference length is the mean over the segment's references (TER's definition), so that it does not depend on
the output. Where the rows do not hold a length, :func:`lengths` derives it with the unit's tokenizer — the caller
caches the result per dataset (``Lengths.derived`` says which side was derived). For CJK text (more than half of
the references' letters Han, kana or Hangul) a unit that does not split those characters counts characters
instead, so that a Chinese sentence tokenized by 13a is not a handful of "words".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import regex

from metrics.core.base import Metric, SegmentStats
from metrics.families.bleu.metric import BLEU
from metrics.families.chrf.metric import CHRF
from metrics.families.meteor.metric import Meteor
from metrics.families.rouge.metric import RougeL, RougeLsum, RougeN
from metrics.families.ter.metric import TER
from metrics.families.wer.metric import ErrorRate

_CJK_CHAR = r"\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}"
_CJK_TOKEN = regex.compile(rf"[{_CJK_CHAR}]|[^\s{_CJK_CHAR}]+", regex.V1)
_CJK_LETTER = regex.compile(rf"[{_CJK_CHAR}]", regex.V1)
_LETTER = regex.compile(r"\p{L}")
_CJK_SPLITTING_BLEU = {"zh", "char", "ja-mecab"}


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


def cjk_tokens(text: str) -> list[str]:
    """Every Han, kana or Hangul character a token of its own; other text split on whitespace."""
    return _CJK_TOKEN.findall(text)


CJK_CHARACTERS = TokenUnit("characters (CJK text)", cjk_tokens, splits_cjk=True)
WHITESPACE_WORDS = TokenUnit("whitespace words", str.split)


def is_cjk(texts: Sequence[str]) -> bool:
    """More than half of the letters are Han, kana or Hangul."""
    sample = "".join(texts[:2000])
    letters = len(_LETTER.findall(sample))
    return letters > 0 and len(_CJK_LETTER.findall(sample)) > letters / 2


@functools.singledispatch
def token_unit(metric: Metric) -> TokenUnit:
    """The unit ``metric`` counts in (see the module docstring); whitespace words where it has none of its own."""
    del metric
    return WHITESPACE_WORDS


@token_unit.register
def _bleu(metric: BLEU) -> TokenUnit:
    tokenize = metric.config.tokenize
    return TokenUnit(
        f"{metric.name} tokens (tok:{tokenize})",
        metric.tokenize,
        splits_cjk=tokenize in _CJK_SPLITTING_BLEU,
        ref_column="ref_len",
        hyp_column="sys_len",
    )


@token_unit.register
def _ter(metric: TER) -> TokenUnit:
    return TokenUnit(f"{metric.name} tokens", metric.tokenize, ref_column="ref_len", ref_column_mean=True)


@token_unit.register
def _meteor(metric: Meteor) -> TokenUnit:
    return TokenUnit(f"{metric.name} words", metric.tokenize, ref_column="ref_len", hyp_column="hyp_len")


@token_unit.register
def _error_rate(metric: ErrorRate) -> TokenUnit:
    characters = metric.unit == "char"
    return TokenUnit(
        f"{metric.name} {'characters' if characters else 'words'}",
        metric.symbols,
        words=not characters,
        splits_cjk=characters,
        ref_column="ref_len",
        ref_column_mean=True,
    )


@token_unit.register(RougeN)
@token_unit.register(RougeL)
@token_unit.register(RougeLsum)
def _rouge(metric: RougeN | RougeL | RougeLsum) -> TokenUnit:
    return TokenUnit(
        f"ROUGE tokens (tok:{metric.config.tokenizer})",
        metric.tokenizer.words,
        splits_cjk=metric.config.tokenizer == "unicode",
    )


def _characters(text: str) -> list[str]:
    return [c for c in text if not c.isspace()]


@token_unit.register
def _chrf(metric: CHRF) -> TokenUnit:
    del metric
    return TokenUnit("characters (chrF)", _characters, words=False, splits_cjk=True)


def unit_for(metric: Metric, refs: Sequence[Sequence[str | None]]) -> TokenUnit:
    """``metric``'s unit, or characters when the references are CJK and the unit would not split them."""
    unit = token_unit(metric)
    if unit.splits_cjk:
        return unit
    first = [text for text in refs[0] if text is not None] if refs else []
    return CJK_CHARACTERS if is_cjk(first) else unit


def word_unit(metrics: Sequence[Metric], refs: Sequence[Sequence[str | None]]) -> TokenUnit:
    """The unit words and n-grams are counted in: the first of ``metrics`` that counts words (chrF and CER count
    characters), else whitespace words; characters for CJK text (see :func:`unit_for`)."""
    for metric in metrics:
        if token_unit(metric).words:
            return unit_for(metric, refs)
    first = [text for text in refs[0] if text is not None] if refs else []
    return CJK_CHARACTERS if is_cjk(first) else WHITESPACE_WORDS


@dataclass(frozen=True)
class Lengths:
    """Lengths in one unit: ``refs[i]`` the mean length of segment ``i``'s references, ``hyps[system][i]`` the
    output's. ``derived`` names what was tokenized (``references`` and/or system names); the rest was read from the
    metric's statistics."""

    unit: str
    refs: np.ndarray
    hyps: Mapping[str, np.ndarray]
    derived: tuple[str, ...]


def reference_lengths(unit: TokenUnit, refs: Sequence[Sequence[str | None]]) -> np.ndarray:
    """The mean length over each segment's references (segments without one: NaN)."""
    n = len(refs[0])
    total = np.zeros(n)
    count = np.zeros(n)
    for stream in refs:
        for i, text in enumerate(stream):
            if text is not None:
                total[i] += len(unit.tokens(text))
                count[i] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1), np.nan)


def output_lengths(unit: TokenUnit, hyps: Sequence[str]) -> np.ndarray:
    return np.array([len(unit.tokens(text)) for text in hyps], dtype=np.float64)


def lengths(
    unit: TokenUnit,
    refs: Sequence[Sequence[str | None]],
    systems: Mapping[str, Sequence[str]],
    stats: Mapping[str, SegmentStats] | None = None,
) -> Lengths:
    """Reference and output lengths in ``unit``, from ``stats`` (the metric's rows, by system) where they hold them.

    ``unit`` must be the unit of the metric that produced ``stats`` (see :func:`unit_for`); the CJK fallback has no
    columns, so everything is counted.
    """
    derived: list[str] = []
    first = next(iter(stats.values())) if stats else None
    one_ref = all(sum(stream[i] is not None for stream in refs) == 1 for i in range(len(refs[0])))
    if first is not None and unit.ref_column and (unit.ref_column_mean or one_ref):
        ref_lengths = np.array(first.column(unit.ref_column), dtype=np.float64)
    else:
        ref_lengths = reference_lengths(unit, refs)
        derived.append("references")
    hyp_lengths = {}
    for name, hyps in systems.items():
        if stats is not None and unit.hyp_column and name in stats:
            hyp_lengths[name] = np.array(stats[name].column(unit.hyp_column), dtype=np.float64)
        else:
            hyp_lengths[name] = output_lengths(unit, hyps)
            derived.append(name)
    return Lengths(unit.label, ref_lengths, hyp_lengths, tuple(derived))
