"""ROUGE-S and ROUGE-SU (Lin 2004 §3.4–3.5), skip-bigram co-occurrence as ROUGE-1.5.5.pl computes it.

Per hypothesis (peer) and reference (model): ordered word pairs ``(t_i, t_j)``, ``0 < j-i <= skip_distance+1``, over
the whole text (pairs cross sentence boundaries); hits = Σ over the reference's pairs of ``min(count_ref,
count_hyp)``; R = hits/#ref pairs, P = hits/#hyp pairs. ROUGE-SU adds the unigrams of all tokens **except the last
one** of each text (perl's "start-of-sentence" trick, measured: one token ⇒ no SU units at all). With
``multi_ref="B"`` the reference is the one with the best 5-decimal recall string (the first on ties), as perl
compares them. Options, pooling and statistics: :mod:`metrics.families.rouge155.base`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import chain
from typing import ClassVar

import numpy as np

from metrics.core import limits
from metrics.core.limits import SegmentLimit
from metrics.core.tokens import Token
from metrics.families.rouge155.base import Rouge155, Rouge155Explanation, Rouge155Reference, _Side
from metrics.families.rouge155.config import RougeSConfig
from metrics.families.rouge155.printed import round5

# Distinct tokens the shared vocabulary may number before it is dropped (between segments).
_VOCABULARY_LIMIT = 800_000


class UnitKind(Enum):
    """What a ROUGE-S/SU counting unit is."""

    SKIP_BIGRAM = "skip-bigram"
    UNIGRAM = "unigram"  # ROUGE-SU only, every token but the last


@dataclass(frozen=True)
class SkipUnit:
    """One unit both texts contain; ``clipped = min(hyp_count, ref_count)`` of it are credited as hits."""

    kind: UnitKind
    words: tuple[str, ...]  # (first, second) of a skip-bigram, (word,) of a unigram
    hyp_count: int
    ref_count: int
    clipped: int
    hyp_spans: tuple[tuple[int, ...], ...]  # token indices of every hypothesis occurrence: (i, j) or (i,)
    ref_spans: tuple[tuple[int, ...], ...]  # the same in the reference


@dataclass(frozen=True, kw_only=True)
class SkipReference(Rouge155Reference):
    """ROUGE-S/SU against one reference: the shared units in order of first reference occurrence (``hits`` is
    Σ clipped); ``selection_score`` is the 5-decimal recall perl's ``-f B`` compares."""

    units: tuple[SkipUnit, ...]
    unigram_excluded: Token | None  # SU: the last token, whose unigram perl never counts


@dataclass(frozen=True, kw_only=True)
class SkipBigramExplanation(Rouge155Explanation[SkipReference]):
    """ROUGE-S/SU of one segment: the units each reference shares with the hypothesis."""

    hyp_unigram_excluded: Token | None
    skip_distance: int | None
    unigrams: bool


def _ratio(hits: float, total: float) -> float:
    return hits / total if total != 0 else 0.0


def _span(n: int, skip_distance: int | None) -> int:
    """The largest ``j - i`` of a skip-bigram in ``n`` tokens."""
    return n - 1 if skip_distance is None else min(skip_distance + 1, n - 1)


def skip_occurrences(
    tokens: Sequence[str], skip_distance: int | None, unigrams: bool
) -> dict[Hashable, list[tuple[int, ...]]]:
    """Every unit of ROUGE-1.5.5's ``createSkipBigram`` with the token indices of each occurrence, in perl's order:
    for each ``i`` but the last, SU's unigram ``t_i`` (key: the string, occurrence ``(i,)``), then the pairs
    ``(t_i, t_j)``, ``0 < j-i <= d+1`` (key: the tuple, occurrence ``(i, j)``). Pairs and unigrams never collide.

    The metrics count the same units as integer codes; this readable form is what explanations show."""
    n = len(tokens)
    span = _span(n, skip_distance)
    found: dict[Hashable, list[tuple[int, ...]]] = {}
    for i in range(n - 1):
        if unigrams:
            found.setdefault(tokens[i], []).append((i,))
        for j in range(i + 1, min(n - 1, i + span) + 1):
            found.setdefault((tokens[i], tokens[j]), []).append((i, j))
    return found


def skip_total(n: int, skip_distance: int | None, unigrams: bool) -> int:
    """The number of units ROUGE-1.5.5 counts for a text of ``n`` tokens (perl's ``_cn_``)."""
    if n < 2:
        return 0
    span = _span(n, skip_distance)
    return span * n - span * (span + 1) // 2 + (n - 1 if unigrams else 0)


def _pair_index_arrays(n: int, span: int) -> tuple[np.ndarray, np.ndarray]:
    """``(i, j)`` index arrays of every skip-bigram of ``n`` tokens with ``0 < j-i <= span`` (cached for short texts:
    without a gap limit the arrays grow with n², so long texts build theirs each time)."""
    return _short_pair_index_arrays(n, span) if n <= 256 else _build_pair_index_arrays(n, span)


def _build_pair_index_arrays(n: int, span: int) -> tuple[np.ndarray, np.ndarray]:
    per_first = np.minimum(span, n - 1 - np.arange(n, dtype=np.int64))
    first = np.repeat(np.arange(n, dtype=np.int64), per_first)
    starts = np.repeat(np.cumsum(per_first) - per_first, per_first)
    second = first + 1 + (np.arange(first.size, dtype=np.int64) - starts)
    return first, second


_short_pair_index_arrays = lru_cache(maxsize=256)(_build_pair_index_arrays)


_CODE_SHIFT = np.int64(1 << 32)
_NO_CODES = np.empty(0, dtype=np.int64)


@dataclass(frozen=True)
class _SkipText:
    """A text's units as integer codes (pair ``a·2^32 + b``, unigram ``-(a+1)``), sorted.

    A reference keeps its distinct codes with their counts; a hypothesis keeps every code (``counts`` is empty):
    its count of a reference unit is the width of that code's run, found by binary search, which is cheaper than
    counting all of its units.
    """

    codes: np.ndarray
    counts: np.ndarray
    total: int


class _RougeSkip(Rouge155[RougeSConfig, SkipBigramExplanation]):
    Config: ClassVar[type] = RougeSConfig
    explanation_type: ClassVar[type[SkipBigramExplanation]] = SkipBigramExplanation
    unigrams: ClassVar[bool] = False

    def __init__(self, config: RougeSConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._vocabulary: dict[str, int] = {}

    @property
    def segment_limit(self) -> SegmentLimit | None:
        """A wide skip distance (or none) makes skip bigrams grow with the square of the length."""
        d = self.config.skip_distance
        return limits.ROUGE_S_WIDE if d is None or d > limits.WIDE_SKIP else None

    def _start_segment(self) -> None:
        """Bound the vocabulary, between segments only: a segment's texts must be coded with one vocabulary, and
        the cached reference codes use it, so both are dropped together."""
        if len(self._vocabulary) > _VOCABULARY_LIMIT:
            self._vocabulary.clear()
            self._ref_cache.clear()

    @property
    def _suffix(self) -> str:
        d = self.config.skip_distance
        return "*" if d is None else str(d)

    @property
    def name(self) -> str:
        return f"ROUGE-{'SU' if self.unigrams else 'S'}{self._suffix}"

    def _type(self) -> str:
        return f"rouge{'SU' if self.unigrams else 'S'}{self._suffix}"

    def _metric_flags(self) -> list[str]:
        d = self.config.skip_distance
        return ["-2", "-1" if d is None else str(d), *(["-u"] if self.unigrams else [])]

    def _prepare(self, tokens: Sequence[str], distinct: bool) -> _SkipText:
        n = len(tokens)
        if n < 2:
            return _SkipText(_NO_CODES, _NO_CODES, 0)
        vocabulary = self._vocabulary
        for token in set(tokens).difference(vocabulary):
            vocabulary[token] = len(vocabulary)
        ids = np.array(list(map(vocabulary.__getitem__, tokens)), dtype=np.int64)
        first, second = _pair_index_arrays(n, _span(n, self.config.skip_distance))
        codes = ids[first] * _CODE_SHIFT + ids[second]
        if self.unigrams:
            codes = np.concatenate([codes, -1 - ids[:-1]])
        codes.sort()
        if not distinct:
            return _SkipText(codes, _NO_CODES, int(codes.size))
        starts = np.flatnonzero(np.concatenate([[True], codes[1:] != codes[:-1]]))
        return _SkipText(codes[starts], np.diff(np.append(starts, codes.size)), int(codes.size))

    def _ref(self, ref: str) -> _SkipText:
        return self._cached(
            ref, lambda text: self._prepare(tuple(chain.from_iterable(self._tokenizer.sentences(text))), True)
        )

    def _sides(self, hyp: _SkipText, refs: Sequence[_SkipText]) -> list[_Side]:
        sides = []
        for ref in refs:
            hits = 0
            if hyp.codes.size and ref.codes.size:
                in_hyp = np.searchsorted(hyp.codes, ref.codes, "right") - np.searchsorted(hyp.codes, ref.codes, "left")
                hits = int(np.minimum(ref.counts, in_hyp).sum())
            # perl's -f B compares the "%07.5f" recall string (0 without reference units)
            selection = round5(hits / ref.total) if ref.total else 0.0
            sides.append(_Side(hits, ref.total, hyp.total, selection))
        return sides

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        self._start_segment()
        ref_texts = [self._ref(r) for r in refs]
        hyp_text = self._prepare(tuple(chain.from_iterable(self._tokenizer.sentences(hyp))), False)
        return self._row(self._sides(hyp_text, ref_texts), _ratio)[0]

    def _explain(self, hyp: str, refs: Sequence[str]) -> SkipBigramExplanation:
        self._start_segment()
        hyp_tokens = tuple(chain.from_iterable(self._tokenizer.tokens(hyp)))
        ref_tokens = [tuple(chain.from_iterable(self._tokenizer.tokens(r))) for r in refs]
        hyp_words = tuple(t.text for t in hyp_tokens)
        ref_words = [tuple(t.text for t in toks) for toks in ref_tokens]
        sides = self._sides(self._prepare(hyp_words, False), [self._prepare(words, True) for words in ref_words])
        row, selected = self._row(sides, _ratio)
        hyp_spans = skip_occurrences(hyp_words, self.config.skip_distance, self.unigrams)
        references = []
        for k, (words, toks) in enumerate(zip(ref_words, ref_tokens, strict=True)):
            units = []
            for unit, positions in skip_occurrences(words, self.config.skip_distance, self.unigrams).items():
                in_hyp = hyp_spans.get(unit)
                if in_hyp:
                    kind = UnitKind.UNIGRAM if isinstance(unit, str) else UnitKind.SKIP_BIGRAM
                    unit_words = (unit,) if isinstance(unit, str) else tuple(unit)  # type: ignore[arg-type]
                    clipped = min(len(in_hyp), len(positions))
                    units.append(
                        SkipUnit(
                            kind, unit_words, len(in_hyp), len(positions), clipped, tuple(in_hyp), tuple(positions)
                        )
                    )
            side = sides[k]
            references.append(
                SkipReference(
                    index=k,
                    tokens=toks,
                    hits=int(side.hits),
                    ref_total=int(side.ref_total),
                    hyp_total=int(side.hyp_total),
                    selection_score=side.selection_score,
                    selected=selected[k],
                    units=tuple(units),
                    unigram_excluded=toks[-1] if self.unigrams and toks else None,
                )
            )
        return SkipBigramExplanation(
            **self._pooled(row, selected),
            hyp_tokens=hyp_tokens,
            references=tuple(references),
            hyp_unigram_excluded=hyp_tokens[-1] if self.unigrams and hyp_tokens else None,
            skip_distance=self.config.skip_distance,
            unigrams=self.unigrams,
        )


class RougeS(_RougeSkip):
    """ROUGE-S (skip-bigram co-occurrence), ROUGE-1.5.5.pl ``-2 D``; ``RougeS()`` is ROUGE-S4."""

    id: ClassVar[str] = "rougeS"
    unigrams: ClassVar[bool] = False


class RougeSU(_RougeSkip):
    """ROUGE-SU (skip-bigrams plus unigrams but the last token's), ROUGE-1.5.5.pl ``-2 D -u``; default ROUGE-SU4."""

    id: ClassVar[str] = "rougeSU"
    unigrams: ClassVar[bool] = True
