"""ROUGE-N, ROUGE-L and ROUGE-Lsum (Lin 2004, "ROUGE: A Package for Automatic Evaluation of Summaries"), equal to
Google's rouge-score 0.1.2.

Equivalent rouge-score call: ``RougeScorer([type], use_stemmer=stemmer).score_multi(refs, hyp)`` per segment
(``score(ref, hyp)`` with a single reference; note the reference comes first), with ``split_summaries=False`` and
the default tokenizer. rouge-score's docstring names the ROUGE-1.5.5 equivalent ``ROUGE-1.5.5.pl -e data -n 2``
(``-m`` with the stemmer); the differences to the perl script (Unicode lowercasing, nltk's Porter variant, no
WordNet exceptions, no 5-decimal rounding, no bootstrap averages, F1 only) are listed in ``metrics.families.rouge155.base``.

Scores are on a 0–1 scale. F is F1 (rouge-score has no β). With several references each type independently takes
the reference with the highest F (first maximum, as rouge-score's ``score_multi``). The corpus score is the mean of
the segment F scores (rouge-score itself only offers ``BootstrapAggregator``, whose ``mid`` is the median of 1000
bootstrap means from NumPy's unseeded global random state; :mod:`metrics.stats.rouge_bootstrap` computes it from
these rows with a seed, equal to rouge-score's for that seed).

Per segment the statistics are ``[precision, recall, fmeasure, hits, hyp_total, ref_total, best_ref]`` of the
winning reference: ``hits`` clipped n-gram matches / LCS length / clipped union-LCS hits, ``hyp_total`` and
``ref_total`` the n-gram or token counts the precision and recall divide by, and ``best_ref`` the 0-based index of
the winning reference among the segment's references (meaningful per segment only, not as a mean).

Options, shared by the three metrics (``--set rouge.stemmer=true`` reaches all): ``stemmer`` (rouge-score's
``use_stemmer``: nltk Porter stems of tokens longer than 3 characters) and ``tokenizer`` (``default`` is
rouge-score's ASCII tokenizer, which deletes every non-ASCII letter so that Chinese or Japanese score 0 — the
family declares it (``Family.text``), and :mod:`metrics.core.caveats` says how many texts lose letters, once for
all systems; ``unicode`` keeps letters of any script and scores CJK per character, see
:mod:`metrics.families.rouge.tokenize`). ROUGE-Lsum alone has ``split``: ``newlines`` (rouge-score's: a text's
lines are its sentences) or ``rules``, which also splits each line with ScoreLens' rule-based splitter
(:mod:`metrics.core.sentences`, named ``rules-v1`` in the signature); with it, ROUGE-Lsum equals rouge-score's on
text split that way beforehand.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import chain
from types import ModuleType
from typing import Any, ClassVar, Literal, NamedTuple, TypeVar, cast

import numpy as np

from metrics.core import limits
from metrics.core.base import CostEstimated, Metric, Progress, Rows, StatsNote, each_segment
from metrics.core.cache import BoundedCache
from metrics.core.config import check_options, option
from metrics.core.explanation import Explanation
from metrics.core.limits import SegmentLimit
from metrics.core.sentences import SPLITTER, sentence_spans
from metrics.core.tokens import Token
from metrics.core.traits import Traits
from metrics.families.rouge.lcs import (
    Pair,
    SentencePack,
    SentenceUnion,
    lcs_length,
    lcs_pairs,
    lcs_table,
    lcs_trail,
    match_masks,
    summary_lcs,
)
from metrics.families.rouge.tokenize import (
    RougeTokenizer,
    TokenizerName,
    discarded,
    split_sentences,
)
from metrics.kernels import in_threads, kernel, processors

REFERENCE = "rouge-score-0.1.2"
# ROUGE-Lsum's time per cell of its sentence tables (hypothesis × reference tokens), compiled, on 2 shared cores:
# 3.9-4.1e-9 s for 10-100 segments of 1,000-1,500 words; rounded up for tokens beyond the whitespace words counted.
LSUM_SECONDS_PER_CELL = 1e-8
VERSION = "scorelens-0.1.0"
COLUMNS = ("precision", "recall", "fmeasure", "hits", "hyp_total", "ref_total", "best_ref")
# Segments per thread of a kernel call in stats() (~10 ms of work): in fewer, longer calls the threads wait less on
# each other for the GIL between calls (rouge1, CNN/DM's three systems, two threads: 0.10 s wall, 0.12-0.16 s at
# 1,000 segments per call).
KERNEL_CHUNK = 4000
# Segments a thread takes at least: a thread costs ~0.1 ms to start, a segment ~3 µs.
THREAD_SEGMENTS = 200
_F = COLUMNS.index("fmeasure")
# Distinct tokens after which the compiled path starts a new vocabulary (under 100 bytes each; a long-running
# process meets ever new ones). CNN/DailyMail's 11,490 references and 3 systems hold 41,000.
VOCABULARY_LIMIT = 1 << 20
Ngram = tuple[str, ...]
T = TypeVar("T")


@dataclass(frozen=True)
class RougeConfig:
    """Options of ROUGE-L and ROUGE-Lsum (and, with ``n``, of ROUGE-N)."""

    stemmer: bool = option(
        False, label="Stemming", help="Porter-stem tokens longer than 3 characters (rouge-score use_stemmer)."
    )
    tokenizer: TokenizerName = option(
        "default",
        label="Tokenizer",
        help="default = rouge-score's ASCII tokenizer; unicode keeps letters of any script.",
        choice_labels={"default": "default (rouge-score, ASCII)", "unicode": "unicode (letters of any script)"},
    )

    def __post_init__(self) -> None:
        check_options(self)


SplitName = Literal["newlines", "rules"]


@dataclass(frozen=True)
class RougeLsumConfig(RougeConfig):
    """ROUGE-Lsum's options: those of ROUGE-L, and where its sentences come from."""

    split: SplitName = option(
        "newlines",
        label="Sentence split",
        help=(
            "newlines = the text's own lines are its sentences (rouge-score). rules = also split each line with "
            f"ScoreLens' rule-based splitter ({SPLITTER}: abbreviations, initials, decimals, quotes, ellipses, "
            "CJK 。！？); it splits after an abbreviation it does not list (Brig. Gen.), misses an initialism ending a "
            "sentence (U.S. Obama), and splits German ordinals (3. Oktober). Not rouge-score's split_summaries."
        ),
        choice_labels={"newlines": "newlines (your own lines)", "rules": f"rules ({SPLITTER}) within each line"},
    )


@dataclass(frozen=True)
class RougeNConfig(RougeConfig):
    n: int = option(
        1,
        label="n-gram order N",
        help="ROUGE-N counts n-grams of this order (rouge-score's rouge1..rouge9).",
        low=1,
        high=9,
        step=1,
    )


def prf(hits: int, hyp_total: int, ref_total: int) -> tuple[float, float, float]:
    """rouge-score's precision, recall and F1, in its order of float operations (bit-identical)."""
    precision = hits / max(hyp_total, 1)
    recall = hits / max(ref_total, 1)
    fmeasure = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, fmeasure


# ---------------------------------------------------------------------------------------------------- evidence


@dataclass(frozen=True)
class NgramMatch:
    """One n-gram the hypothesis and the reference share; ``clipped = min(hyp_count, ref_count)`` are credited.

    rouge-score counts n-grams, not occurrences, so which ``clipped`` of several occurrences "matched" is not
    defined; all occurrences are listed (a highlighter may mark the first ``clipped``).
    """

    ngram: Ngram
    hyp_count: int
    ref_count: int
    clipped: int
    hyp_positions: tuple[int, ...]  # token index where each hypothesis occurrence starts
    ref_positions: tuple[int, ...]  # token index where each reference occurrence starts
    hyp_spans: tuple[tuple[int, int], ...] = ()  # [start, end) in the hypothesis text of each occurrence
    ref_spans: tuple[tuple[int, int], ...] = ()  # [start, end) in the reference text of each occurrence


@dataclass(frozen=True)
class NgramEvidence:
    """ROUGE-N: the shared n-grams in order of first occurrence in the hypothesis (``hits`` = Σ clipped)."""

    n: int
    matches: tuple[NgramMatch, ...]


@dataclass(frozen=True)
class LcsEvidence:
    """ROUGE-L: one LCS of the reference (grid rows) and the hypothesis (grid columns) as token index pairs.

    The path is the one rouge-score's backtracking picks from the DP grid (diagonal on equal tokens; left only if
    the left cell is strictly greater than the upper one, else up). :meth:`dp_table` gives the grid itself.
    """

    pairs: tuple[Pair, ...]  # (reference token index, hypothesis token index), ascending
    ref_words: tuple[str, ...]
    hyp_words: tuple[str, ...]

    def dp_table(self) -> np.ndarray:
        """The ``(len(ref)+1) × (len(hyp)+1)`` LCS grid, e.g. for a heatmap with :attr:`pairs` as its path."""
        return np.array(lcs_table(self.ref_words, self.hyp_words), dtype=np.int64)

    def trail(self) -> tuple[Pair, ...]:
        """Every grid cell the backtracking visits from the bottom-right corner; its diagonal steps are
        :attr:`pairs`."""
        return lcs_trail(lcs_table(self.ref_words, self.hyp_words), self.ref_words, self.hyp_words)


@dataclass(frozen=True)
class LsumSentence:
    """ROUGE-Lsum evidence of one reference sentence; its tokens are ``ref_tokens[start:end]``.

    ``lcs[k]`` is the backtracked LCS with hypothesis sentence ``k`` as ``(i, j)`` pairs local to the two
    sentences; ``union`` is LCS∪ (local reference positions), ``hits`` those that survived unigram clipping.
    """

    index: int
    start: int
    end: int
    lcs: tuple[tuple[Pair, ...], ...]
    union: tuple[int, ...]
    hits: tuple[int, ...]

    @property
    def clipped(self) -> tuple[int, ...]:
        """Positions on an LCS path that were not credited because their token was already used up."""
        kept = set(self.hits)
        return tuple(i for i in self.union if i not in kept)


@dataclass(frozen=True)
class LsumEvidence:
    """ROUGE-Lsum: per reference sentence the union LCS; sentence boundaries as token ranges."""

    sentences: tuple[LsumSentence, ...]
    hyp_sentences: tuple[tuple[int, int], ...]  # (start, end) token range of each hypothesis sentence


Evidence = NgramEvidence | LcsEvidence | LsumEvidence


@dataclass(frozen=True)
class RougeRefScore:
    """The score of the hypothesis against one reference, with the evidence behind it."""

    index: int
    ref_tokens: tuple[Token, ...]
    precision: float
    recall: float
    fmeasure: float
    hits: int
    hyp_total: int
    ref_total: int
    evidence: Evidence
    discarded: tuple[Token, ...]  # letters/digits of this reference the default tokenizer dropped


@dataclass(frozen=True, kw_only=True)
class RougeExplanation(Explanation):
    """Why one segment got its ROUGE score: every reference's score and evidence, and which one won (``best_ref``,
    the first with the highest F1).

    ``score`` is the winning F1; ``precision``/``recall`` belong to the winning reference. ``notes`` is non-empty
    when the tokenizer dropped letters (see ``hyp_discarded``).
    """

    best_ref: int
    metric: str
    hyp_tokens: tuple[Token, ...]
    references: tuple[RougeRefScore, ...]
    precision: float
    recall: float
    hyp_discarded: tuple[Token, ...]

    @property
    def chosen(self) -> RougeRefScore:
        return self.references[self.best_ref]


# ------------------------------------------------------------------------------------------------- the metrics


class _Candidate(NamedTuple):
    hits: int
    hyp_total: int
    ref_total: int
    evidence: Evidence | None = None


def _best_row(candidates: Sequence[_Candidate]) -> tuple[tuple[float, ...], int]:
    """The row of the reference with the highest F (first maximum, as numpy argmax in ``score_multi``)."""
    best_index, best = 0, None
    for k, cand in enumerate(candidates):
        scores = prf(cand.hits, cand.hyp_total, cand.ref_total)
        if best is None or scores[2] > best[2]:
            best_index, best = k, scores
    if best is None:
        raise ValueError("ROUGE needs at least one reference per segment")
    cand = candidates[best_index]
    return (*best, float(cand.hits), float(cand.hyp_total), float(cand.ref_total), float(best_index)), best_index


class _Rouge(Metric[RougeConfig, RougeExplanation]):
    """What the three rouge-score metrics share: tokenizer, caches, columns, mean-of-F corpus score, notes."""

    aggregate: ClassVar[Literal["mean"]] = "mean"
    Config: ClassVar[type] = RougeConfig
    explanation_type: ClassVar[type[RougeExplanation]] = RougeExplanation
    _by_lines: ClassVar[bool] = False  # whether the texts' sentences are their lines (ROUGE-Lsum)

    def __init__(self, config: RougeConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self.tokenizer = RougeTokenizer(self.config.tokenizer, self.config.stemmer)
        self._ref_cache: BoundedCache[str, Any] = BoundedCache()
        # The compiled path: per thread of a kernel call, a vocabulary of token ids and the references it encoded;
        # one call at a time (the app shares a metric between sessions).
        self._vocabularies: list[Any] = []
        self._texts: list[BoundedCache[str, Any]] = []
        self._lock = threading.Lock()

    @property
    def columns(self) -> tuple[str, ...]:
        return COLUMNS

    def signature(self) -> str:
        c = self.config
        return "|".join(
            [
                f"type:{self.id}",
                f"tok:{c.tokenizer}",
                f"stem:{'yes' if c.stemmer else 'no'}",
                *self._signature_options(),
                "f:f1",
                "multi:max-f",
                "agg:mean",  # of the segment F; rouge-score's BootstrapAggregator reports a median of resample means
                f"ref:{REFERENCE}",
                f"version:{VERSION}",
            ]
        )

    def _signature_options(self) -> tuple[str, ...]:
        """Fields of options only some of the metrics have (ROUGE-Lsum's sentence split)."""
        return ()

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        """The mean F (pooled rows are means, so the F column already is it)."""
        return np.asarray(np.asarray(pooled, dtype=np.float64)[..., _F])

    def _cached(self, ref: str, build: Callable[[str], T]) -> T:
        """What ``build`` derives from a reference, once per distinct reference (each metric caches one kind)."""
        value: T = self._ref_cache.get_or_make(ref, lambda: build(ref))
        return value

    @abstractmethod
    def _row(self, hyp: str, refs: Sequence[str]) -> tuple[float, ...]:
        """The segment's statistics as floats (:meth:`segment_row` without the array)."""

    def _words(self, text: str) -> tuple[list[str], tuple[int, ...]]:
        """The tokens ``text`` is scored by, and where its sentences end among them (one sentence)."""
        words = self.tokenizer.words(text)
        return words, (len(words),)

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        compiled = kernel("rouge")
        if compiled is None:
            return np.array(self._row(hyp, refs), dtype=np.float64)
        return self._compiled_rows([hyp], [[ref] for ref in refs], compiled)[0]

    def _threads(self) -> int:
        """Threads a kernel call may use: one for another tokenizer than the default (its words are Python)."""
        return processors() if self.config.tokenizer == "default" else 1

    @property
    def traits(self) -> Traits:
        """In process when its kernel spreads a call over threads of its own (then forked workers would only
        duplicate the references' encoding)."""
        return Traits(in_process=kernel("rouge") is not None and self._threads() > 1)

    def _vocabulary_for(self, compiled: ModuleType, part: int = 0) -> Any:
        """The vocabulary of the ``part``-th thread of a kernel call; a new one (and no encoded references) once it
        has grown past its limit."""
        while len(self._vocabularies) <= part:
            self._vocabularies.append(None)
            self._texts.append(BoundedCache())
        if self._vocabularies[part] is None or len(self._vocabularies[part]) > VOCABULARY_LIMIT:
            self._texts[part].clear()
            if self.config.tokenizer == "default":
                self._vocabularies[part] = compiled.Vocabulary(self._by_lines, stem=self.config.stemmer)
            else:
                self._vocabularies[part] = compiled.Vocabulary(tokenize=self._words)
        return self._vocabularies[part]

    def _compiled_rows(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], compiled: ModuleType
    ) -> np.ndarray:
        """The rows of :meth:`_row` from the compiled kernel. The segments are split into runs, one per thread (the
        kernel releases the GIL); a run's texts become ids of that thread's vocabulary, which keeps the references
        it encoded for the next system, as the runs of a corpus are the same for every system."""
        parts = max(1, min(self._threads(), len(hyps) // THREAD_SEGMENTS))
        bounds = [len(hyps) * k // parts for k in range(parts + 1)]

        def rows(part: int) -> Any:
            start, stop = bounds[part], bounds[part + 1]
            streams = [vocabularies[part].encode_all(stream[start:stop], self._texts[part]) for stream in refs]
            return self._kernel_rows(compiled, vocabularies[part], hyps[start:stop], streams)

        with self._lock:
            vocabularies = [self._vocabulary_for(compiled, part) for part in range(parts)]
            flats = in_threads(rows, parts)
        return np.concatenate([np.frombuffer(flat, dtype=np.float64) for flat in flats]).reshape(
            len(hyps), len(COLUMNS)
        )

    @abstractmethod
    def _kernel_rows(self, compiled: ModuleType, vocabulary: Any, hyps: Sequence[str], streams: list[list[Any]]) -> Any:
        """The kernel's flat rows of the hypotheses against encoded reference streams."""

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        compiled = kernel("rouge")
        if compiled is None:
            rows = [self._row(hyp, seg_refs) for _, hyp, seg_refs in each_segment(hyps, refs, progress)]
            return Rows(np.array(rows, dtype=np.float64).reshape(len(rows), len(COLUMNS)))
        # in chunks, so that progress is heard while the kernel works
        chunks = []
        step = KERNEL_CHUNK * self._threads()
        for start in range(0, len(hyps), step):
            stop = min(start + step, len(hyps))
            chunks.append(self._compiled_rows(hyps[start:stop], [s[start:stop] for s in refs], compiled))
            if progress is not None:
                progress(stop)
        return Rows(np.concatenate(chunks) if chunks else np.empty((0, len(COLUMNS)), dtype=np.float64))

    def _notes(self, hyp_lost: tuple[Token, ...], refs_lost: Sequence[tuple[Token, ...]]) -> tuple[str, ...]:
        if not hyp_lost and not any(refs_lost):
            return ()
        words = list(dict.fromkeys([t.text for t in hyp_lost] + [t.text for lost in refs_lost for t in lost]))
        shown = ", ".join(repr(w) for w in words[:10]) + (f" and {len(words) - 10} more" if len(words) > 10 else "")
        return (
            f"The rouge-score tokenizer deleted these non-ASCII letters/digits, which therefore never match: {shown}. "
            "Use tokenizer=unicode to keep them.",
        )

    def _explanation(
        self,
        hyp: str,
        refs: Sequence[str],
        hyp_tokens: tuple[Token, ...],
        ref_tokens: Sequence[tuple[Token, ...]],
        candidates: Sequence[_Candidate],
    ) -> RougeExplanation:
        row, best = _best_row(candidates)
        check = self.config.tokenizer == "default"
        hyp_lost = discarded(hyp) if check else ()
        refs_lost = [discarded(r) if check else () for r in refs]
        references = []
        for k, (cand, tokens) in enumerate(zip(candidates, ref_tokens, strict=True)):
            p, r, f = prf(cand.hits, cand.hyp_total, cand.ref_total)
            evidence = cast(Evidence, cand.evidence)  # explain paths always attach evidence
            references.append(
                RougeRefScore(k, tokens, p, r, f, cand.hits, cand.hyp_total, cand.ref_total, evidence, refs_lost[k])
            )
        return RougeExplanation(
            score=float(row[_F]),
            row=tuple(float(x) for x in row),
            notes=self._notes(hyp_lost, refs_lost),
            best_ref=best,
            metric=self.id,
            hyp_tokens=hyp_tokens,
            references=tuple(references),
            precision=float(row[0]),
            recall=float(row[1]),
            hyp_discarded=hyp_lost,
        )


def ngram_counter(words: Sequence[str], n: int) -> Counter[Hashable]:
    """rouge-score's ``_create_ngrams``; unigrams are keyed by the word itself (not a 1-tuple), for speed."""
    if n == 1:
        return Counter(words)
    # Shifted copies are meant to end at the shortest one: that is exactly the last complete n-gram.
    return Counter(zip(*(words[k:] for k in range(n)), strict=False))


def ngram_overlap(hyp_counts: dict[Hashable, int], ref_counts: dict[Hashable, int]) -> int:
    """Σ over shared n-grams of min(hyp count, ref count) (rouge-score's ``_score_ngrams`` intersection)."""
    hits = 0
    for gram in hyp_counts.keys() & ref_counts.keys():  # set intersection in C; few shared n-grams remain
        count, other = hyp_counts[gram], ref_counts[gram]
        hits += count if count < other else other
    return hits


class RougeN(_Rouge):
    """ROUGE-N: clipped n-gram overlap of the whole texts (newlines are ordinary separators; n-grams span them).

    rouge-score ``rouge{n}``: P = overlap / #hypothesis n-grams, R = overlap / #reference n-grams, F1.
    """

    id: ClassVar[str] = "rougeN"
    Config: ClassVar[type] = RougeNConfig

    def __init__(self, config: RougeConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        # Its registered id (rouge1, rouge2, …) names n, so it is the instance's, as an external metric's is.
        vars(self)["id"] = f"rouge{self.n}"

    @property
    def n(self) -> int:
        return self.config.n  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return f"ROUGE-{self.n}"

    def _kernel_rows(self, compiled: ModuleType, vocabulary: Any, hyps: Sequence[str], streams: list[list[Any]]) -> Any:
        return compiled.ngram_rows(vocabulary, self.n, hyps, streams)

    def _ref(self, ref: str) -> tuple[Counter[Hashable], int]:
        words = self.tokenizer.words(ref)
        return ngram_counter(words, self.n), max(len(words) - self.n + 1, 0)

    def _row(self, hyp: str, refs: Sequence[str]) -> tuple[float, ...]:
        words = self.tokenizer.words(hyp)
        hyp_counts = ngram_counter(words, self.n)
        hyp_total = max(len(words) - self.n + 1, 0)
        candidates = []
        for ref in refs:
            ref_counts, ref_total = self._cached(ref, self._ref)
            candidates.append(_Candidate(ngram_overlap(hyp_counts, ref_counts), hyp_total, ref_total))
        return _best_row(candidates)[0]

    def _explain(self, hyp: str, refs: Sequence[str]) -> RougeExplanation:
        """Shared n-grams with clipped counts and every occurrence's token position, for every reference."""
        n = self.n
        hyp_tokens = self.tokenizer.tokens(hyp)
        ref_tokens = [self.tokenizer.tokens(r) for r in refs]
        hyp_pos = _positions([t.text for t in hyp_tokens], n)
        candidates = []
        for tokens in ref_tokens:
            ref_pos = _positions([t.text for t in tokens], n)
            matches = tuple(
                NgramMatch(
                    gram,
                    len(hp),
                    len(ref_pos[gram]),
                    min(len(hp), len(ref_pos[gram])),
                    tuple(hp),
                    tuple(ref_pos[gram]),
                    _spans(hyp_tokens, hp, n),
                    _spans(tokens, ref_pos[gram], n),
                )
                for gram, hp in hyp_pos.items()
                if gram in ref_pos
            )
            hits = sum(m.clipped for m in matches)
            candidates.append(
                _Candidate(
                    hits, max(len(hyp_tokens) - n + 1, 0), max(len(tokens) - n + 1, 0), NgramEvidence(n, matches)
                )
            )
        return self._explanation(hyp, refs, hyp_tokens, ref_tokens, candidates)


def _spans(tokens: Sequence[Token], starts: Sequence[int], n: int) -> tuple[tuple[int, int], ...]:
    """Character span of each n-gram occurrence, from its first token's start to its last token's end."""
    return tuple((tokens[p].start, tokens[p + n - 1].end) for p in starts)  # type: ignore[misc]


def _positions(words: Sequence[str], n: int) -> dict[Ngram, list[int]]:
    positions: dict[Ngram, list[int]] = {}
    for i in range(len(words) - n + 1):
        positions.setdefault(tuple(words[i : i + n]), []).append(i)
    return positions


class RougeL(_Rouge):
    """ROUGE-L: longest common subsequence of the whole texts, taken as one sentence (rouge-score ``rougeL``).

    P = LCS / #hypothesis tokens, R = LCS / #reference tokens, F1; 0 when either side has no tokens. The LCS
    length is computed bit-parallel (exact); :meth:`explain` backtracks one LCS path with rouge-score's rule.
    """

    id: ClassVar[str] = "rougeL"

    @property
    def segment_limit(self) -> SegmentLimit | None:
        return limits.ROUGE_L

    @property
    def name(self) -> str:
        return "ROUGE-L"

    def _kernel_rows(self, compiled: ModuleType, vocabulary: Any, hyps: Sequence[str], streams: list[list[Any]]) -> Any:
        return compiled.lcs_rows(vocabulary, hyps, streams)

    def _row(self, hyp: str, refs: Sequence[str]) -> tuple[float, ...]:
        words = self.tokenizer.words(hyp)
        masks = match_masks(words)
        candidates = []
        for ref in refs:
            ref_words = self._cached(ref, self.tokenizer.words)
            candidates.append(_Candidate(lcs_length(ref_words, words, masks), len(words), len(ref_words)))
        return _best_row(candidates)[0]

    def _explain(self, hyp: str, refs: Sequence[str]) -> RougeExplanation:
        """One LCS per reference as (reference index, hypothesis index) pairs, and the DP grid on demand."""
        hyp_tokens = self.tokenizer.tokens(hyp)
        ref_tokens = [self.tokenizer.tokens(r) for r in refs]
        hyp_words = tuple(t.text for t in hyp_tokens)
        candidates = []
        for tokens in ref_tokens:
            ref_words = tuple(t.text for t in tokens)
            pairs = lcs_pairs(ref_words, hyp_words)
            evidence = LcsEvidence(pairs, ref_words, hyp_words)
            candidates.append(_Candidate(len(pairs), len(hyp_words), len(ref_words), evidence))
        return self._explanation(hyp, refs, hyp_tokens, ref_tokens, candidates)


@dataclass(frozen=True)
class _Summary:
    sentences: list[list[str]]
    counts: Counter[str]
    total: int


class RougeLsum(_Rouge, CostEstimated):
    """ROUGE-Lsum: summary-level union LCS over sentences split on ``"\\n"`` (rouge-score ``rougeLsum``).

    Sentences are ``text.split("\\n")`` without empty strings, exactly as rouge-score with
    ``split_summaries=False``. **Without newlines in the texts ROUGE-Lsum equals ROUGE-L**: put one sentence per
    line (``.sents.jsonl`` inputs are joined with ``"\\n"``), or choose ``split=rules``, which splits each line
    further with :func:`~metrics.core.sentences.sentence_spans` (the scoring paths get the sentences one a line, the
    explanation keeps their offsets into the user's text). R = clipped LCS∪ hits / #reference tokens,
    P = hits / #hypothesis tokens, F1 (Lin 2004 §3.2 with ROUGE-1.5.5's clipping against double counting).
    """

    id: ClassVar[str] = "rougeLsum"
    Config: ClassVar[type] = RougeLsumConfig
    _by_lines = True

    def __init__(self, config: RougeConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._ref_lines: BoundedCache[str, str] = BoundedCache()  # references split once for every system

    @property
    def split(self) -> SplitName:
        return cast(RougeLsumConfig, self.config).split

    def _signature_options(self) -> tuple[str, ...]:
        return (f"split:{SPLITTER if self.split == 'rules' else 'newlines'}",)

    def _sentences(self, text: str) -> list[tuple[int, str]]:
        """The sentences of ``text`` with their start offsets: its lines, or with ``split=rules`` the splitter's
        sentences within its lines (:mod:`metrics.core.sentences`)."""
        if self.split == "newlines":
            return split_sentences(text)
        return [(a, text[a:b]) for a, b in sentence_spans(text)]

    def _lined(self, text: str) -> str:
        """``text`` as the scoring paths read it, one sentence a line: as given, or split by the splitter (the
        compiled kernel splits on newlines itself)."""
        if self.split == "newlines":
            return text
        return "\n".join(sentence for _, sentence in self._sentences(text))

    def _lined_refs(self, refs: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
        """:meth:`_lined` of reference streams, each distinct reference split once (every system meets them)."""
        return [[None if r is None else self._lined_ref(r) for r in stream] for stream in refs]

    def _lined_ref(self, ref: str) -> str:
        return self._ref_lines.get_or_make(ref, lambda: self._lined(ref))

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        lined = cast(list[list[str]], self._lined_refs([refs]))[0]  # no None among one segment's references
        return super()._segment_row(self._lined(hyp), lined)

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        if self.split == "newlines":
            return super()._rows(hyps, refs, progress)
        return super()._rows([self._lined(hyp) for hyp in hyps], self._lined_refs(refs), progress)

    def expected_seconds(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> float:
        """Its tables grow with the product of the lengths: ``LSUM_SECONDS_PER_CELL`` × the hypothesis × reference
        words of every pair (:func:`~metrics.core.limits.pair_cells`), within a factor of three of the measured
        time; a page of long summaries asks first as TER does."""
        return LSUM_SECONDS_PER_CELL * limits.pair_cells(hyps, refs, limits.ROUGE_LSUM)

    @property
    def segment_limit(self) -> SegmentLimit | None:
        return limits.ROUGE_LSUM

    @property
    def name(self) -> str:
        return "ROUGE-Lsum"

    def _corpus_notes(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], rows: np.ndarray
    ) -> tuple[StatsNote, ...]:
        """The tokenizer's note, and one when sentences come from newlines and no text has one (ROUGE-Lsum then
        equals ROUGE-L), which names the splitter option."""
        notes = super()._corpus_notes(hyps, refs, rows)
        texts = chain(hyps, (r for stream in refs for r in stream if r is not None))
        if self.split != "newlines" or any("\n" in text for text in texts):
            return notes
        return (
            *notes,
            StatsNote(
                "no hypothesis or reference contains a newline, so every text is one sentence and ROUGE-Lsum "
                "equals ROUGE-L; give one sentence per line (a .jsonl list of sentences), or set ROUGE's "
                f"Sentence split option to rules (rouge.split=rules: ScoreLens' rule-based splitter {SPLITTER}) "
                "for summary-level scores."
            ),
        )

    def _words(self, text: str) -> tuple[list[str], tuple[int, ...]]:
        words: list[str] = []
        ends = []
        for _, sentence in split_sentences(text):
            words += self.tokenizer.words(sentence)
            ends.append(len(words))
        return words, tuple(ends)

    def _kernel_rows(self, compiled: ModuleType, vocabulary: Any, hyps: Sequence[str], streams: list[list[Any]]) -> Any:
        return compiled.summary_rows(vocabulary, hyps, streams)

    def _summary(self, text: str) -> _Summary:
        sentences = [self.tokenizer.words(s) for _, s in split_sentences(text)]
        counts = Counter(chain.from_iterable(sentences))
        return _Summary(sentences, counts, sum(counts.values()))

    def _row(self, hyp: str, refs: Sequence[str]) -> tuple[float, ...]:
        summary = self._summary(hyp)
        pack = SentencePack.of(summary.sentences)
        candidates = []
        for ref in refs:
            ref_summary = self._cached(ref, self._summary)
            hits = 0
            if summary.total and ref_summary.total:
                hits = summary_lcs(
                    ref_summary.sentences,
                    summary.sentences,
                    pack,
                    ref_counts=ref_summary.counts,
                    can_counts=summary.counts,
                )[0]
            candidates.append(_Candidate(hits, summary.total, ref_summary.total))
        return _best_row(candidates)[0]

    def _sentence_tokens(self, text: str) -> tuple[tuple[Token, ...], list[tuple[int, int]]]:
        tokens: list[Token] = []
        ranges = []
        for offset, sentence in self._sentences(text):
            start = len(tokens)
            tokens.extend(self.tokenizer.tokens(sentence, offset))
            ranges.append((start, len(tokens)))
        return tuple(tokens), ranges

    def _explain(self, hyp: str, refs: Sequence[str]) -> RougeExplanation:
        """Per reference sentence: the LCS with each hypothesis sentence, LCS∪, and the positions credited."""
        hyp_tokens, hyp_ranges = self._sentence_tokens(hyp)
        hyp_sents = [[t.text for t in hyp_tokens[a:b]] for a, b in hyp_ranges]
        pack = SentencePack.of(hyp_sents)
        ref_tokens = []
        candidates = []
        for ref in refs:
            tokens, ranges = self._sentence_tokens(ref)
            ref_tokens.append(tokens)
            ref_sents = [[t.text for t in tokens[a:b]] for a, b in ranges]
            hits, details = 0, tuple(SentenceUnion(tuple(() for _ in hyp_sents), (), ()) for _ in ranges)
            if hyp_tokens and tokens:
                hits, details = summary_lcs(ref_sents, hyp_sents, pack, evidence=True)
            sentences = tuple(
                LsumSentence(k, a, b, d.lcs, d.union, d.hits)
                for k, ((a, b), d) in enumerate(zip(ranges, details, strict=True))
            )
            evidence = LsumEvidence(sentences, tuple(hyp_ranges))
            candidates.append(_Candidate(hits, len(hyp_tokens), len(tokens), evidence))
        return self._explanation(hyp, refs, hyp_tokens, ref_tokens, candidates)
