"""WER and CER, word and character error rates (the Levenshtein distance of Levenshtein, 1966, over words or
characters, divided by the reference length), equal to jiwer 4.0 ``wer`` / ``cer`` with default transforms.

Equivalent jiwer calls: ``jiwer.wer(references, hypotheses)`` and ``jiwer.cer(references, hypotheses)``; the
per-segment counts equal ``jiwer.process_words`` / ``process_characters`` (``hits``, ``substitutions``,
``deletions``, ``insertions``) and the explanation's alignment chunks are jiwer's ``alignments``.

jiwer's defaults, kept exactly (scores are fractions, 0–1 and above, not percentages; lower is better):

* WER words: runs of **two or more** whitespace characters become one space (``re.sub(r"\\s\\s+", " ")``), the
  text is stripped, then split on the space character, dropping empty strings. A *single* tab, newline or
  no-break space therefore does not separate words (``"a\\tb"`` is one word), as in jiwer;
* CER characters: the stripped text, every code point (inner spaces included) is a symbol;
* no lowercasing (``lowercase=True`` prepends jiwer's ``ToLowerCase``), no punctuation handling;
* corpus rate = Σ (S + D + I) / Σ reference length. When every reference is empty jiwer returns the number of
  insertions (a count, not a rate); the same holds here (``score_pooled`` returns the edits then).

The distance and the alignment are rapidfuzz's ``Levenshtein.opcodes(reference, hypothesis)``, which is what
jiwer calls, so ties between equally cheap alignments break exactly as in jiwer.

Several references (jiwer has none): each is aligned on its own; the segment keeps the alignment with the fewest
edits (the first on ties) and the **average** reference length, as sacrebleu does for TER and for its WER. With
one reference this is jiwer's definition.

Very long segments: an exact distance costs |hyp|·|ref| cell operations (a 1-million-character line against
another one takes minutes in rapidfuzz, and so in jiwer). Above ``max_cells`` (after the common prefix and suffix
are set aside) the distance is first sought within a diagonal band of ``max_cells / max(|hyp|, |ref|)``; when it
fits, it is exact and so is the score (the alignment then comes from rapidfuzz's banded variant, whose ties may
break unlike jiwer's unbanded call; the edit count is the same). Only when the distance is larger still is the
segment cut into proportional chunks aligned separately, an upper bound: such a segment is never silent — it is
flagged in the ``bounded`` column with the proven lower bound in ``edits_lower`` (equal to ``edits`` otherwise),
:meth:`ErrorRate.stats` adds a note naming it and both bounds, and its explanation says the same, without an
alignment. The default ``max_cells`` (2·10^10, about a second) binds only on lines of ~100 000+ symbols.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

import numpy as np
from rapidfuzz.distance import Levenshtein

from metrics.core.base import Metric, Progress, SegmentStats, StatsNote
from metrics.core.cache import BoundedCache
from metrics.core.config import check_options, option
from metrics.core.edits import Edit, EditAlignment, EditExplanation, EditOp
from metrics.core.tokens import Token, locate

REFERENCE_VERSION = "jiwer-4.0.0"
DEFAULT_MAX_CELLS = 20_000_000_000  # hyp × ref symbols computed exactly without a band (~1 s in rapidfuzz)
_MULTIPLE_SPACES = re.compile(r"\s\s+")

__all__ = ["WER", "CER", "ErrorRateConfig", "ErrorRateExplanation", "ErrorRateReference", "Chunk"]


_CHUNK_TYPES = {
    "equal": EditOp.MATCH,
    "replace": EditOp.SUBSTITUTE,
    "insert": EditOp.INSERT,
    "delete": EditOp.DELETE,
}


@dataclass(frozen=True)
class Chunk:
    """A run of one operation, as jiwer's ``AlignmentChunk``: half-open index ranges on both sides."""

    type: EditOp
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    @property
    def errors(self) -> int:
        if self.type is EditOp.MATCH:
            return 0
        if self.type is EditOp.INSERT:
            return self.hyp_end_idx - self.hyp_start_idx
        return self.ref_end_idx - self.ref_start_idx

    def steps(self) -> tuple[Edit, ...]:
        """The chunk as one alignment step per unit."""
        hyp, ref = range(self.hyp_start_idx, self.hyp_end_idx), range(self.ref_start_idx, self.ref_end_idx)
        if self.type is EditOp.INSERT:
            return tuple(Edit(self.type, i, None) for i in hyp)
        if self.type is EditOp.DELETE:
            return tuple(Edit(self.type, None, j) for j in ref)
        return tuple(Edit(self.type, i, j) for i, j in zip(hyp, ref, strict=True))


@dataclass(frozen=True)
class ErrorRateConfig:
    lowercase: bool = option(False, label="Lowercase", help="Lowercase both sides first (jiwer's ToLowerCase).")
    max_cells: int = option(
        DEFAULT_MAX_CELLS,
        label="Exact alignment limit (cells)",
        help="Beyond this many hypothesis × reference cells the distance is sought in a band, then, if it does not "
        "fit, as a noted upper bound.",
        low=1,
        step=1,
        work_bound=True,
    )

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True, kw_only=True)
class ErrorRateReference(EditAlignment):
    """The alignment against one reference; ``matches`` are jiwer's hits. ``chunks`` (jiwer's ``alignments``) and
    ``alignment`` are None only for a bounded (too long) segment, whose ``edits`` are then an upper bound."""

    chunks: tuple[Chunk, ...] | None
    bounded: bool
    lower_bound: int  # equals ``edits`` unless bounded


@dataclass(frozen=True, kw_only=True)
class ErrorRateExplanation(EditExplanation[ErrorRateReference]):
    """WER/CER of one segment: every reference's alignment by ``unit``; ``best_ref`` needs the fewest edits."""

    unit: Literal["word", "char"]


@dataclass(frozen=True)
class _Pair:
    edits: int
    ref_len: int
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    chunks: tuple[tuple[str, int, int, int, int], ...] | None
    bounded: bool
    lower_bound: int


def _codes(ref: Sequence[str], hyp: Sequence[str]) -> tuple[list[int], list[int]]:
    """Words as small integers (what jiwer passes to rapidfuzz), so that no two words can share a hash."""
    codes: dict[str, int] = {}
    return [codes.setdefault(w, len(codes)) for w in ref], [codes.setdefault(w, len(codes)) for w in hyp]


def _tally(opcodes: object, ref_len: int) -> _Pair:
    hits = subs = dels = ins = 0
    chunks = []
    for tag, i1, i2, j1, j2 in opcodes:  # type: ignore[attr-defined]
        chunks.append((tag, i1, i2, j1, j2))
        if tag == "equal":
            hits += i2 - i1
        elif tag == "replace":
            subs += i2 - i1
        elif tag == "delete":
            dels += i2 - i1
        else:
            ins += j2 - j1
    edits = subs + dels + ins
    return _Pair(edits, ref_len, hits, subs, dels, ins, tuple(chunks), False, edits)


def _large_pair(ref: Sequence[int] | str, hyp: Sequence[int] | str, max_cells: int) -> _Pair:
    """A pair too large for the full DP. First the distance within a diagonal band of ``max_cells / length``
    (exact whenever it fits); then the alignment for that distance (rapidfuzz's banded variant: the edits are
    exact, ties may break unlike jiwer's unbanded call). If the distance exceeds the band: proportional chunks,
    each aligned exactly, give an upper bound, reported with the lower bound the band proved."""
    n, m = len(hyp), len(ref)
    cutoff = max(abs(n - m), max_cells // max(n, m, 1))
    found = Levenshtein.distance(ref, hyp, score_cutoff=cutoff)
    if found <= cutoff:
        return _tally(Levenshtein.opcodes(ref, hyp, score_hint=found), m)
    pieces = max(2, -(-n * m // max_cells))
    upper = 0
    for k in range(pieces):
        r = ref[k * m // pieces : (k + 1) * m // pieces]
        h = hyp[k * n // pieces : (k + 1) * n // pieces]
        upper += Levenshtein.distance(r, h)
    return _Pair(upper, m, 0, 0, 0, 0, None, True, cutoff + 1)


def _common_affixes(a: Sequence[object], b: Sequence[object]) -> int:
    """Length of the common prefix plus common suffix (what rapidfuzz trims before its DP)."""
    limit = min(len(a), len(b))
    p = 0
    while p < limit and a[p] == b[p]:
        p += 1
    s = 0
    while s < limit - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    return p + s


class ErrorRate(Metric[ErrorRateConfig, ErrorRateExplanation]):
    """Shared machinery of :class:`WER` and :class:`CER`."""

    aggregate: ClassVar[Literal["sum"]] = "sum"
    Config: ClassVar[type] = ErrorRateConfig
    explanation_type: ClassVar[type[ErrorRateExplanation]] = ErrorRateExplanation
    higher_is_better: ClassVar[bool] = False
    unit: ClassVar[Literal["word", "char"]]

    def __init__(self, config: ErrorRateConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._ref_cache: BoundedCache[str, Sequence[str]] = BoundedCache()

    @property
    def columns(self) -> tuple[str, ...]:
        return ("edits", "ref_len", "hits", "substitutions", "deletions", "insertions", "bounded", "edits_lower")

    def signature(self) -> str:
        c = self.config
        parts = [f"case:{'lc' if c.lowercase else 'mixed'}", f"unit:{self.unit}", "tr:default", "multiref:min-edits"]
        if c.max_cells != DEFAULT_MAX_CELLS:
            parts.append(f"maxcells:{c.max_cells}")
        return "|".join([*parts, f"version:{REFERENCE_VERSION}"])

    def symbols(self, text: str) -> Sequence[str]:
        """The words (WER) or characters (CER) jiwer's default transform makes of ``text``."""
        raise NotImplementedError

    def _ref_symbols(self, ref: str) -> Sequence[str]:
        return self._ref_cache.get_or_make(ref, lambda: self.symbols(ref))

    def _pair(self, hyp: Sequence[str], ref: Sequence[str]) -> _Pair:
        if isinstance(hyp, str) and isinstance(ref, str):
            a, b = ref, hyp  # characters: rapidfuzz compares code points directly
        else:
            a, b = _codes(ref, hyp)  # type: ignore[assignment]
        n, m = len(b), len(a)
        if n * m > self.config.max_cells:
            trimmed = _common_affixes(a, b)
            if (n - trimmed) * (m - trimmed) > self.config.max_cells:
                return _large_pair(a, b, self.config.max_cells)
        return _tally(Levenshtein.opcodes(a, b), m)

    def _segment(self, hyp: str, refs: Sequence[str]) -> tuple[Sequence[str], list[_Pair], int, np.ndarray]:
        if not refs:
            raise ValueError(f"{self.name} needs at least one reference per segment")
        hyp_symbols = self.symbols(hyp)
        pairs = [self._pair(hyp_symbols, self._ref_symbols(r)) for r in refs]
        best = 0
        for k, pair in enumerate(pairs):
            if pair.edits < pairs[best].edits:
                best = k
        chosen = pairs[best]
        avg_len = sum(p.ref_len for p in pairs) / len(pairs)
        bounded = float(any(p.bounded for p in pairs))
        lower = min(p.lower_bound for p in pairs)  # the fewest edits over the references are at least this
        row = np.array(
            [
                chosen.edits,
                avg_len,
                chosen.hits,
                chosen.substitutions,
                chosen.deletions,
                chosen.insertions,
                bounded,
                lower,
            ],
            dtype=np.float64,
        )
        return hyp_symbols, pairs, best, row

    def segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        return self._segment(hyp, refs)[3]

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        pooled = np.asarray(pooled, dtype=np.float64)
        edits, ref_len = pooled[..., 0], pooled[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            # jiwer: no reference symbols at all → the raw number of insertions (= the edits then)
            return np.where(ref_len > 0, edits / np.where(ref_len > 0, ref_len, 1.0), edits)

    def stats(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None = None
    ) -> SegmentStats:
        stats = super().stats(hyps, refs, progress)
        bounded = np.flatnonzero(stats.column("bounded"))
        if len(bounded) == 0:
            return stats
        kind = (
            f"too long for an exact distance (hypothesis × reference > max_cells={self.config.max_cells:,} "
            f"{self.unit} pairs): the edits are an upper bound from separately aligned chunks"
        )
        found = "; ".join(
            f"segment {int(i) + 1}: {int(stats.rows[i, 0]):,} edits, at least {int(stats.rows[i, 7]):,}"
            for i in bounded
        )
        return replace(stats, notes=(*stats.notes, StatsNote(kind, found)))

    def _tokens(self, text: str, symbols: Sequence[str]) -> tuple[Token, ...]:
        if self.unit == "word":
            return locate(text, list(symbols), casefold=self.config.lowercase)
        offset = len(text) - len(text.lstrip())
        if self.config.lowercase and len(text.lower()) != len(text):
            return tuple(Token(c, None, None) for c in symbols)  # lowercasing moved the characters
        return tuple(Token(c, offset + i, offset + i + 1) for i, c in enumerate(symbols))

    def explain(self, hyp: str, refs: Sequence[str]) -> ErrorRateExplanation:
        hyp_symbols, pairs, best, row = self._segment(hyp, refs)
        hyp_tokens = self._tokens(hyp, hyp_symbols)
        results = []
        notes = []
        for k, (ref, pair) in enumerate(zip(refs, pairs, strict=True)):
            chunks = alignment = None
            if pair.chunks is not None:
                chunks = tuple(Chunk(_CHUNK_TYPES[tag], i1, i2, j1, j2) for tag, i1, i2, j1, j2 in pair.chunks)
                alignment = tuple(step for chunk in chunks for step in chunk.steps())
            else:
                notes.append(
                    f"reference {k + 1}: too long for an exact distance (max_cells={self.config.max_cells:,}); "
                    f"{pair.lower_bound:,} ≤ edits ≤ {pair.edits:,}, the upper bound (separately aligned chunks) "
                    "is used and no alignment is shown"
                )
            results.append(
                ErrorRateReference(
                    index=k,
                    tokens=self._tokens(ref, self._ref_symbols(ref)),
                    hypothesis=hyp_tokens,
                    alignment=alignment,
                    edits=pair.edits,
                    ref_len=pair.ref_len,
                    matches=pair.hits,
                    substitutions=pair.substitutions,
                    insertions=pair.insertions,
                    deletions=pair.deletions,
                    chunks=chunks,
                    bounded=pair.bounded,
                    lower_bound=pair.lower_bound,
                )
            )
        return ErrorRateExplanation(
            score=float(self.score_pooled(row)),
            row=tuple(float(x) for x in row),
            notes=tuple(notes),
            best_ref=best,
            hyp_tokens=hyp_tokens,
            references=tuple(results),
            edits=int(row[0]),
            avg_ref_len=float(row[1]),
            unit=self.unit,
        )


class WER(ErrorRate):
    """Word error rate, jiwer 4.0 ``wer`` with its default transform (see the module docstring)."""

    id: ClassVar[str] = "wer"
    unit: ClassVar[Literal["word", "char"]] = "word"

    @property
    def name(self) -> str:
        return "WER"

    def symbols(self, text: str) -> list[str]:
        if self.config.lowercase:
            text = text.lower()
        return [w for w in _MULTIPLE_SPACES.sub(" ", text).strip().split(" ") if w]


class CER(ErrorRate):
    """Character error rate, jiwer 4.0 ``cer`` with its default transform (see the module docstring)."""

    id: ClassVar[str] = "cer"
    unit: ClassVar[Literal["word", "char"]] = "char"

    @property
    def name(self) -> str:
        return "CER"

    def symbols(self, text: str) -> str:
        if self.config.lowercase:
            text = text.lower()
        return text.strip()
