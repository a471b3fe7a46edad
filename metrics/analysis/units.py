"""What a length, a word or an n-gram is counted in: a metric's own tokens.

Each family's tokenization lives with the family, and so does the unit its length buckets count in: a family
declares, for each of its metrics, the function giving that metric's :class:`~metrics.core.tokens.TokenUnit`
(``MetricDeclaration.token_unit``, e.g. ``metrics/families/ter/units.py``), and :func:`token_unit` finds it by the
metric's type. A metric declared without one (``token_unit=None``), or one no family declares (external scores),
counts whitespace words. A unit names the statistics columns that already hold a length (a reference's, an
output's); the rest is derived.

A reference length is the mean over the segment's references (TER's definition), so that it does not depend on
the output. Where the rows do not hold a length, :func:`lengths` derives it with the unit's tokenizer — the caller
caches the result per dataset (``Lengths.derived`` says which side was derived). For CJK text (more than half of
the references' letters Han, kana or Hangul) a unit that does not split those characters counts characters
instead, so that a Chinese sentence tokenized by a word tokenizer is not a handful of "words".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import regex

from metrics.core.base import Metric, SegmentStats
from metrics.core.family import load
from metrics.core.registry import families
from metrics.core.tokens import TokenUnit

_CJK_CHAR = r"\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}"
_CJK_TOKEN = regex.compile(rf"[{_CJK_CHAR}]|[^\s{_CJK_CHAR}]+", regex.V1)
_CJK_LETTER = regex.compile(rf"[{_CJK_CHAR}]", regex.V1)
_LETTER = regex.compile(r"\p{L}")


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


@functools.cache
def _declared_units() -> dict[str, str | None]:
    """Metric class (``"module:Class"``) → the path of its unit function, as the families declare them."""
    return {m.target: m.token_unit for family in families() for m in family.metrics}


def token_unit(metric: Metric) -> TokenUnit:
    """The unit ``metric`` counts in: its family's declaration for its class, or for the nearest class it derives
    from that a family declares; whitespace words where none declares one."""
    declared = _declared_units()
    for cls in type(metric).__mro__:
        path = f"{cls.__module__}:{cls.__qualname__}"
        if path in declared:
            function = declared[path]
            return WHITESPACE_WORDS if function is None else _unit_function(function)(metric)
    return WHITESPACE_WORDS


def _unit_function(path: str) -> Callable[[Metric], TokenUnit]:
    function: Callable[[Metric], TokenUnit] = load(path)
    return function


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
