"""TER, translation edit rate (Snover et al., 2006, "A Study of Translation Edit Rate with Targeted Human
Annotation"), equal to sacrebleu 2.6.0's ``TER`` (its re-implementation of tercom, ``lib_ter``).

Equivalent sacrebleu call: ``TER(normalized=…, no_punct=…, asian_support=…, case_sensitive=…)``; command line
``sacrebleu REFS -i HYP -m ter [--ter-normalized] [--ter-no-punct] [--ter-asian-support]
[--ter-case-sensitive]``; tercom flags ``-N``, ``-P``, ``-A``, ``-s``. TER lowercases by default.

Per segment: every reference is scored on its own (shifts, then banded word edit distance; see
:mod:`metrics.families.ter.search`); the segment keeps the **fewest** edits over the references (the first reference wins
ties) and the **average** reference length over all of them. Statistics: ``[edits, ref_len, shifts,
substitutions, deletions, insertions, budget_stops]`` where the four edit kinds come from the chosen reference's
trace and add up to ``edits``, and ``budget_stops`` is 1 when the shift search of that segment was cut by the
work budget (see below). ``deletions`` and ``insertions`` keep tercom's naming: a deletion removes a hypothesis word
the reference lacks (an :attr:`~metrics.core.edits.EditOp.INSERT` step of the alignment), an insertion adds a
reference word the hypothesis lacks (a ``DELETE`` step). Corpus TER = 100 · Σ edits / Σ ref_len (100 when there are edits but no reference
words, 0 when there are neither); a segment score is the same formula on one row, as ``sentence_score``.

Very long segments: sacrebleu's search is quadratic or worse in the segment length. Ours is exact and much
faster, but a 100 000-token line could still take minutes, so ``search_budget`` caps the work of one
hypothesis/reference search. The default never binds on real text: measured with ``python -m benchmarks.work_bounds``,
the largest search on WMT22 de-en paragraphs (consecutive segments joined; 2 340 searches of 245–285 words, 765 of
380–439 words) takes 1.9·10⁸ units (0.2 s; a unit is about a nanosecond), on the 300 longest CNN/DM summaries
7·10⁷; the default 2·10⁹ is 11× the largest. A segment whose
search was cut keeps the shifts found so far, so its TER can only be *higher* than sacrebleu's; it is never
silent: :meth:`TER.stats` adds a note per such segment and the explanation carries it. ``search_budget=0`` turns
shifts off for everything (plain banded edit distance, also reported). Before any search, a text longer than
:data:`metrics.core.limits.TER` is cut there (the kernel's tables grow with the square of the length), with a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np

from metrics.core import limits
from metrics.core.base import CostEstimated, Metric, StatsNote, each_segment, segments_text
from metrics.core.cache import BoundedCache
from metrics.core.checkpoint import checkpoint
from metrics.core.config import check_options, option
from metrics.core.edits import EditAlignment, EditExplanation, EditOp, count_ops
from metrics.core.limits import SegmentLimit
from metrics.core.tokens import Token, locate
from metrics.families.ter.search import DEFAULT_BUDGET, PairTrace, SearchBudget, ter_pair, work_bound
from metrics.families.ter.tokenizer import TercomTokenizer
from metrics.kernels import kernel

REFERENCE_VERSION = "2.6.0"
# The time of one hypothesis/reference pair over the square of its mean length, measured on 2 cores with the compiled
# shift search: 0.24 s for 200 CNN/DM summaries, 1.6 s for 40 segments of five summaries (6–8e-7), rounded up.
SECONDS_PER_SQUARED_WORD = 1e-6

__all__ = ["TER", "TERConfig", "TERExplanation", "TERReference", "TERShift"]


@dataclass(frozen=True)
class TERConfig:
    normalized: bool = option(False, label="Normalize (tercom -N)", help="Tokenize punctuation before scoring.")
    no_punct: bool = option(False, label="Remove punctuation", help='Delete . , ? : ; ! " ( ) before scoring (-P).')
    asian_support: bool = option(
        False, label="Asian support", help="Split Chinese, Japanese and Korean characters apart (tercom -A)."
    )
    case_sensitive: bool = option(False, label="Case sensitive", help="TER lowercases by default (-s keeps case).")
    search_budget: int = option(
        DEFAULT_BUDGET,
        label="Shift search budget",
        help="Work units per hypothesis/reference shift search; a search cut by it is noted and its TER can only be "
        "higher than sacrebleu's. 0 = no shifts.",
        low=0,
        step=1,
        work_bound=True,
    )

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True)
class TERShift:
    """One applied shift. Positions refer to the hypothesis just before it (``before``); ``after`` follows it.

    ``target`` is sacrebleu's insertion index, ``dest`` where the block starts afterwards; ``tokens`` are the
    moved words as tokens of the original hypothesis (character spans into the text the user gave).
    """

    words: tuple[str, ...]
    tokens: tuple[Token, ...]
    start: int
    length: int
    target: int
    dest: int
    before: tuple[str, ...]
    after: tuple[str, ...]
    distance_before: int
    distance_after: int

    @property
    def gain(self) -> int:
        """Edit-distance reduction; the shift itself costs one edit, so the TER drops by ``gain − 1``."""
        return self.distance_before - self.distance_after


@dataclass(frozen=True, kw_only=True)
class TERReference(EditAlignment):
    """The whole TER computation against one reference: the shifts, then the alignment of the shifted hypothesis
    (``hypothesis``: the original tokens in their shifted order) with the reference; ``edits`` counts both."""

    shifts: tuple[TERShift, ...]
    candidates: int  # shift candidates evaluated, sacrebleu's cumulative counter (search stops at 1000)
    candidate_cap_hit: bool  # the round reaching 1000 candidates ended the search, its shift discarded
    budget_exhausted: bool


@dataclass(frozen=True, kw_only=True)
class TERExplanation(EditExplanation[TERReference]):
    """TER of one segment: every reference's shifts and alignment; ``best_ref`` needs the fewest edits."""


@dataclass(frozen=True)
class _Segment:
    hyp_words: list[str]
    ref_words: tuple[tuple[str, ...], ...]
    traces: tuple[PairTrace, ...]
    best: int
    row: np.ndarray


COLUMNS = ("edits", "ref_len", "shifts", "substitutions", "deletions", "insertions", "budget_stops")


class TER(Metric[TERConfig, TERExplanation], CostEstimated):
    """sacrebleu 2.6.0 TER (see the module docstring); scores are 0–100 and can exceed 100; lower is better."""

    id: ClassVar[str] = "ter"
    aggregate: ClassVar[Literal["sum"]] = "sum"
    Config: ClassVar[type] = TERConfig
    explanation_type: ClassVar[type[TERExplanation]] = TERExplanation
    higher_is_better: ClassVar[bool] = False

    def __init__(self, config: TERConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        c = self.config
        self._tokenizer = TercomTokenizer(c.normalized, c.no_punct, c.asian_support, c.case_sensitive)
        self._budget = SearchBudget(c.search_budget)
        self._ref_cache: BoundedCache[str, tuple[str, ...]] = BoundedCache()
        # Systems often give the same output for a segment, and its row depends on nothing else.
        self._row_cache: BoundedCache[tuple[str, ...], np.ndarray] = BoundedCache()
        self._ref_ids_cache: BoundedCache[tuple[str, ...], tuple[dict[str, int], list[list[int]]]] = BoundedCache()

    @property
    def segment_limit(self) -> SegmentLimit | None:
        return limits.TER

    @property
    def name(self) -> str:
        return "TER"

    @property
    def columns(self) -> tuple[str, ...]:
        return COLUMNS

    def signature(self) -> str:
        c = self.config
        parts = [
            f"case:{'mixed' if c.case_sensitive else 'lc'}",
            "tok:tercom",
            f"norm:{'yes' if c.normalized else 'no'}",
            f"punct:{'no' if c.no_punct else 'yes'}",
            f"asian:{'yes' if c.asian_support else 'no'}",
        ]
        if c.search_budget != DEFAULT_BUDGET:
            parts.append(f"budget:{c.search_budget}")
        return "|".join([*parts, f"version:{REFERENCE_VERSION}"])

    def tokenize(self, text: str) -> list[str]:
        """sacrebleu's TER preprocessing of a hypothesis: right strip, tercom tokenizer, whitespace split."""
        return self._tokenizer.words(text)

    def _ref_words(self, ref: str) -> tuple[str, ...]:
        # sacrebleu preprocesses references twice (once when caching them, again when extracting their words);
        # the tokenizer is idempotent on everything we know of, but parity costs nothing here.
        return self._ref_cache.get_or_make(ref, lambda: tuple(self._tokenizer.words(self._tokenizer(ref.rstrip()))))

    def _segment(self, hyp: str, refs: Sequence[str]) -> _Segment:
        if not refs:
            raise ValueError("TER needs at least one reference per segment")
        hyp_words = self.tokenize(hyp)
        ref_words = tuple(self._ref_words(r) for r in refs)
        traces = tuple(ter_pair(hyp_words, list(words), self._budget) for words in ref_words)
        best = 0
        for k, trace in enumerate(traces):
            if trace.edits < traces[best].edits:
                best = k
        chosen = traces[best]
        counts = count_ops(chosen.alignment)
        # tercom's names: it deletes the hypothesis words the reference lacks and inserts the missing ones
        subs, dels, ins = counts[EditOp.SUBSTITUTE], counts[EditOp.INSERT], counts[EditOp.DELETE]
        avg_ref_len = sum(t.ref_len for t in traces) / len(traces)
        stopped = any(t.budget_exhausted for t in traces)
        row = np.array(
            [chosen.edits, avg_ref_len, len(chosen.shifts), subs, dels, ins, float(stopped)], dtype=np.float64
        )
        return _Segment(hyp_words, ref_words, traces, best, row)

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        key = (hyp, *refs)
        row = self._row_cache.get(key)
        if row is None:
            row = self._kernel_row(hyp, refs)
            if row is None:
                row = self._segment(hyp, refs).row
            self._row_cache[key] = row
        return row

    def _ref_ids(self, refs: Sequence[str]) -> tuple[dict[str, int], list[list[int]]]:
        """The words of a segment's references as ids of one vocabulary."""
        vocab: dict[str, int] = {}
        return vocab, [[vocab.setdefault(w, len(vocab)) for w in self._ref_words(r)] for r in refs]

    def _kernel_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray | None:
        """The row of :meth:`_segment` from the compiled search (:mod:`metrics.kernels._ter`), or None where the
        pure path must run: no build, or a pair whose search might have hit the work budget."""
        ter = kernel("ter")
        if ter is None or not refs:
            return None
        hyp_words = self.tokenize(hyp)
        vocab, ref_ids = self._ref_ids_cache.get_or_make(tuple(refs), lambda: self._ref_ids(refs))
        # Words are only ever compared with reference words, so every word no reference has can share one id.
        hyp_ids = [vocab.get(w, -1) for w in hyp_words]
        results = []
        for ids in ref_ids:
            result = ter.ter_pair(hyp_ids, ids, checkpoint)  # a long search can be stopped by the caller
            if work_bound(len(hyp_ids), len(ids), *result[5:]) > self.config.search_budget:
                return None  # the pure search might have been stopped by the budget: let it decide
            results.append(result)
        edits, shifts, subs, dels, ins = min(results, key=lambda r: r[0])[:5]  # fewest edits, the first on ties
        avg_ref_len = sum(len(ids) for ids in ref_ids) / len(ref_ids)
        return np.array([edits, avg_ref_len, shifts, subs, dels, ins, 0.0], dtype=np.float64)

    def expected_seconds(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> float:
        """The shift search's time grows about with the square of the length: ``SECONDS_PER_SQUARED_WORD`` × n² per
        hypothesis/reference pair of mean length n words, within a factor of two on WMT sentences (16 words,
        about 3 ms) and CNN/DailyMail summaries (56 words, about 40 ms). Texts count as :meth:`stats` reads them,
        cut at :attr:`segment_limit`."""
        total = 0.0
        for _, hyp, seg_refs in each_segment(hyps, refs):
            hyp, seg_refs = self._within_limit(hyp, seg_refs)
            n_hyp = len(self.tokenize(hyp))
            total += sum(((n_hyp + len(self._ref_words(ref))) / 2) ** 2 for ref in seg_refs)
        return SECONDS_PER_SQUARED_WORD * total

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        pooled = np.asarray(pooled, dtype=np.float64)
        edits, ref_len = pooled[..., 0], pooled[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(ref_len > 0, edits / np.where(ref_len > 0, ref_len, 1.0), np.where(edits > 0, 1.0, 0.0))
        return 100.0 * ratio

    def _corpus_notes(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], rows: np.ndarray
    ) -> tuple[StatsNote, ...]:
        stopped = np.flatnonzero(rows[:, COLUMNS.index("budget_stops")])
        if len(stopped) == 0:
            return ()
        return (StatsNote(self._budget_kind(), segments_text([int(i) + 1 for i in stopped])),)

    def _budget_kind(self) -> str:
        if self.config.search_budget == 0:
            return "shifts disabled (search_budget=0); its TER is the plain edit rate, ≥ sacrebleu's"
        return (
            "the shift search stopped early because it hit the work budget "
            f"(search_budget={self.config.search_budget:,}); its TER may be higher than sacrebleu's"
        )

    def _explain(self, hyp: str, refs: Sequence[str]) -> TERExplanation:
        seg = self._segment(hyp, refs)
        casefold = not self.config.case_sensitive
        hyp_tokens = locate(hyp, seg.hyp_words, casefold=casefold)
        results = []
        for k, (ref, words, trace) in enumerate(zip(refs, seg.ref_words, seg.traces, strict=True)):
            ref_tokens = locate(ref, words, casefold=casefold)
            results.append(_reference_result(k, hyp_tokens, ref_tokens, trace))
        notes = (f"TER this segment: {self._budget_kind()}",) if seg.row[6] > 0 else ()
        return TERExplanation(
            score=float(self.score_pooled(seg.row)),
            row=tuple(float(x) for x in seg.row),
            notes=notes,
            best_ref=seg.best,
            hyp_tokens=hyp_tokens,
            references=tuple(results),
            edits=int(seg.row[0]),
            avg_ref_len=float(seg.row[1]),
        )


def _reference_result(
    index: int, hyp_tokens: tuple[Token, ...], ref_tokens: tuple[Token, ...], trace: PairTrace
) -> TERReference:
    words = tuple(t.text for t in hyp_tokens)
    shifts = []
    for s in trace.shifts:
        moved = s.moved
        shifts.append(
            TERShift(
                words=tuple(words[i] for i in moved),
                tokens=tuple(hyp_tokens[i] for i in moved),
                start=s.start,
                length=s.length,
                target=s.target,
                dest=s.dest,
                before=tuple(words[i] for i in s.order_before),
                after=tuple(words[i] for i in s.order_after),
                distance_before=s.distance_before,
                distance_after=s.distance_after,
            )
        )
    counts = count_ops(trace.alignment)
    return TERReference(
        index=index,
        tokens=ref_tokens,
        hypothesis=tuple(hyp_tokens[i] for i in trace.order),
        alignment=trace.alignment,
        edits=trace.edits,
        ref_len=trace.ref_len,
        matches=counts[EditOp.MATCH],
        substitutions=counts[EditOp.SUBSTITUTE],
        insertions=counts[EditOp.INSERT],
        deletions=counts[EditOp.DELETE],
        shifts=tuple(shifts),
        candidates=trace.candidates,
        candidate_cap_hit=trace.candidate_cap_hit,
        budget_exhausted=trace.budget_exhausted,
    )
