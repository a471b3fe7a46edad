"""WER and CER, word and character error rates (the Levenshtein distance of Levenshtein, 1966, over words or
characters, divided by the reference length), and the word measures MER, WIL and WIP (Morris, Maier and Green,
2004, "From WER and RIL to MER and WIL"), equal to jiwer 4.0 ``wer`` / ``cer`` / ``mer`` / ``wil`` / ``wip``.

Equivalent jiwer calls: ``jiwer.wer(references, hypotheses)`` (and ``cer``, ``mer``, ``wil``, ``wip``); the
per-segment counts equal ``jiwer.process_words`` / ``process_characters`` (``hits``, ``substitutions``,
``deletions``, ``insertions``) and the explanation's alignment chunks are jiwer's ``alignments``.

jiwer's defaults, kept exactly (scores are fractions, 0–1 and above, not percentages):

* WER words: runs of **two or more** whitespace characters become one space (``re.sub(r"\\s\\s+", " ")``), the
  text is stripped, then split on the space character, dropping empty strings. A *single* tab, newline or
  no-break space therefore does not separate words (``"a\\tb"`` is one word), as in jiwer;
* CER characters: the stripped text, every code point (inner spaces included) is a symbol;
* corpus rate = Σ (S + D + I) / Σ reference length. When every reference is empty jiwer returns the number of
  insertions (a count, not a rate); the same holds here (``score_pooled`` returns the edits then).

Transforms (options, applied to hypotheses and references alike, in this order, each jiwer's own): ``lowercase``
(``ToLowerCase``), ``expand_contractions`` (``ExpandCommonEnglishContractions``: won't, can't, let's, then n't, 're,
's, 'd, 'll, 't, 've, 'm), ``remove_punctuation`` (``RemovePunctuation``: every code point of a Unicode category
P*, deleted without a space), ``collapse_spaces`` (``RemoveMultipleSpaces``) and ``strip`` (``Strip``). The
equivalent jiwer transform is ``Compose([<the chosen ones, in that order>, ReduceToListOfListOfWords()])`` (chars
for CER). The defaults are jiwer's ``wer_default`` (collapse and strip) and ``cer_default`` (strip only); any other
choice names its transforms in the signature (``tr:contractions+nopunct+collapse+strip``).

MER, WIL and WIP (metric ids ``mer``, ``wil``, ``wip``; family ``wer``, so ``--set wer.…`` reaches them) come from
the same counts, pooled over the corpus as jiwer pools them: with H hits, S substitutions, D deletions and I
insertions, MER = (S + D + I) / (H + S + D + I), WIP = H/(H + S + D) · H/(H + S + I) and WIL = 1 − WIP; with no
reference words MER is 0 and WIP 1 when the hypotheses are empty too, else 1 and 0 (jiwer's edge cases). Lower is
better for WER, CER, MER and WIL; higher for WIP.

The distance and the alignment are rapidfuzz's ``Levenshtein.opcodes(reference, hypothesis)``, which is what
jiwer calls, so ties between equally cheap alignments break exactly as in jiwer.

Several references (jiwer has none): each is aligned on its own; the segment keeps the alignment with the fewest
edits (the first on ties) and the **average** reference length, as sacrebleu does for TER and for its WER. With
one reference this is jiwer's definition. MER, WIL and WIP use the counts of that chosen alignment.

Very long segments: an exact distance costs |hyp|·|ref| cell operations (a 1-million-character line against
another one takes minutes in rapidfuzz, and so in jiwer). Above ``max_cells`` (after the common prefix and suffix
are set aside) the distance is first sought within a diagonal band of ``max_cells / max(|hyp|, |ref|)``; when it
fits, it is exact and so is the score (the alignment then comes from rapidfuzz's banded variant, whose ties may
break unlike jiwer's unbanded call; the edit count is the same). Only when the distance is larger still is the
segment cut into proportional chunks aligned separately, an upper bound: such a segment is never silent — it is
flagged in the ``bounded`` column with the proven lower bound in ``edits_lower`` (equal to ``edits`` otherwise),
:meth:`ErrorRate.stats` adds a note naming it and both bounds, and its explanation says the same, without an
alignment. The default ``max_cells`` (2·10^10, about a second) binds only on lines of ~100 000+ symbols: the largest
CER pair of the WMT22 paragraphs measured by ``python -m benchmarks.work_bounds`` (380–439 words) is 7·10^6. Its counts
are unknown, so MER, WIL and WIP of such a segment, and of a corpus holding it, are NaN.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Literal

import numpy as np
from rapidfuzz.distance import Levenshtein

from metrics.core.base import Metric, StatsNote
from metrics.core.cache import BoundedCache
from metrics.core.config import check_options, option
from metrics.core.edits import Edit, EditAlignment, EditExplanation, EditOp
from metrics.core.tokens import Token, locate

REFERENCE_VERSION = "jiwer-4.0.0"
DEFAULT_MAX_CELLS = 20_000_000_000  # hyp × ref symbols computed exactly without a band (~1 s in rapidfuzz)
_MULTIPLE_SPACES = re.compile(r"\s\s+")
# jiwer's ExpandCommonEnglishContractions, in its order (the specific words first)
_CONTRACTIONS = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"won't", "will not"),
        (r"can\'t", "can not"),
        (r"let\'s", "let us"),
        (r"n\'t", " not"),
        (r"\'re", " are"),
        (r"\'s", " is"),
        (r"\'d", " would"),
        (r"\'ll", " will"),
        (r"\'t", " not"),
        (r"\'ve", " have"),
        (r"\'m", " am"),
    )
)

__all__ = [
    "WER",
    "CER",
    "MER",
    "WIL",
    "WIP",
    "ErrorRateConfig",
    "CERConfig",
    "ErrorRateExplanation",
    "ErrorRateReference",
    "WordMeasure",
    "WordMeasureExplanation",
    "Chunk",
]


@functools.cache
def _punctuation_table() -> dict[int, None]:
    """jiwer's RemovePunctuation set (every code point of a Unicode category P*), as a deletion table."""
    return {i: None for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P")}


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
    expand_contractions: bool = option(
        False,
        label="Expand contractions",
        help="jiwer's ExpandCommonEnglishContractions: won't → will not, can't → can not, n't → not, 're → are, "
        "'s → is, … (after lowercasing, before punctuation is removed).",
    )
    remove_punctuation: bool = option(
        False,
        label="Remove punctuation",
        help="jiwer's RemovePunctuation: delete every Unicode punctuation character (category P*), without a space.",
    )
    collapse_spaces: bool = option(
        True,
        label="Collapse spaces",
        help="jiwer's RemoveMultipleSpaces: a run of two or more whitespace characters becomes one space (in "
        "jiwer's WER default, not its CER default).",
    )
    strip: bool = option(
        True, label="Strip", help="jiwer's Strip: remove leading and trailing whitespace (in both jiwer defaults)."
    )
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


@dataclass(frozen=True)
class CERConfig(ErrorRateConfig):
    """CER's options: jiwer's ``cer_default`` strips but keeps inner runs of spaces, each one a character."""

    collapse_spaces: bool = option(
        False,
        label="Collapse spaces",
        help="jiwer's RemoveMultipleSpaces: a run of two or more whitespace characters becomes one space (not in "
        "jiwer's CER default, where every space is a character).",
    )


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


class WordMeasure(Enum):
    """The word measures jiwer computes beside WER from the same counts."""

    MER = "mer"
    WIL = "wil"
    WIP = "wip"

    @property
    def label(self) -> str:
        return self.name

    @property
    def formula(self) -> str:
        return {
            WordMeasure.MER: "(S + D + I) / (H + S + D + I)",
            WordMeasure.WIL: "1 − H/(H + S + D) · H/(H + S + I)",
            WordMeasure.WIP: "H/(H + S + D) · H/(H + S + I)",
        }[self]


@dataclass(frozen=True, kw_only=True)
class WordMeasureExplanation(ErrorRateExplanation):
    """MER, WIL or WIP of one segment: WER's alignments, and ``measure`` of the counts (hits H, substitutions S,
    deletions D, insertions I) of the chosen reference ``best_ref``; ``score`` is the measure."""

    measure: WordMeasure


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
        parts = [f"case:{'lc' if c.lowercase else 'mixed'}", f"unit:{self.unit}", f"tr:{self._transforms()}"]
        parts.append("multiref:min-edits")
        if c.max_cells != DEFAULT_MAX_CELLS:
            parts.append(f"maxcells:{c.max_cells}")
        return "|".join([*parts, f"version:{REFERENCE_VERSION}"])

    def _transforms(self) -> str:
        """``default`` for jiwer's default transform of the unit, else the transforms applied, in their order."""
        c, default = self.config, self.Config()
        settings = ("expand_contractions", "remove_punctuation", "collapse_spaces", "strip")
        if all(getattr(c, name) == getattr(default, name) for name in settings):
            return "default"
        chosen = [
            name
            for name, on in (
                ("contractions", c.expand_contractions),
                ("nopunct", c.remove_punctuation),
                ("collapse", c.collapse_spaces),
                ("strip", c.strip),
            )
            if on
        ]
        return "+".join(chosen) or "none"

    def transform(self, text: str) -> str:
        """``text`` after the chosen jiwer transforms (see the module docstring), before it is split into symbols."""
        c = self.config
        if c.lowercase:
            text = text.lower()
        if c.expand_contractions:
            for pattern, replacement in _CONTRACTIONS:
                text = pattern.sub(replacement, text)
        if c.remove_punctuation:
            text = text.translate(_punctuation_table())
        if c.collapse_spaces:
            text = _MULTIPLE_SPACES.sub(" ", text)
        return text.strip() if c.strip else text

    def symbols(self, text: str) -> Sequence[str]:
        """The words (WER) or characters (CER) jiwer's transform makes of ``text``."""
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

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        return self._segment(hyp, refs)[3]

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        pooled = np.asarray(pooled, dtype=np.float64)
        edits, ref_len = pooled[..., 0], pooled[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            # jiwer: no reference symbols at all → the raw number of insertions (= the edits then)
            return np.where(ref_len > 0, edits / np.where(ref_len > 0, ref_len, 1.0), edits)

    def _corpus_notes(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], rows: np.ndarray
    ) -> tuple[StatsNote, ...]:
        bounded = np.flatnonzero(rows[:, self.columns.index("bounded")])
        if len(bounded) == 0:
            return ()
        kind = (
            f"too long for an exact distance (hypothesis × reference > max_cells={self.config.max_cells:,} "
            f"{self.unit} pairs): the edits are an upper bound from separately aligned chunks"
        )
        found = "; ".join(
            f"segment {int(i) + 1}: {int(rows[i, 0]):,} edits, at least {int(rows[i, 7]):,}" for i in bounded
        )
        return (StatsNote(kind, found),)

    def _tokens(self, text: str, symbols: Sequence[str]) -> tuple[Token, ...]:
        c = self.config
        rewritten = c.expand_contractions or c.remove_punctuation or c.collapse_spaces or not c.strip
        if self.unit == "word" or rewritten:
            # transforms that delete or rewrite characters: find each symbol where it still occurs verbatim
            return locate(text, list(symbols), casefold=c.lowercase)
        offset = len(text) - len(text.lstrip())
        if c.lowercase and len(text.lower()) != len(text):
            return tuple(Token(ch, None, None) for ch in symbols)  # lowercasing moved the characters
        return tuple(Token(ch, offset + i, offset + i + 1) for i, ch in enumerate(symbols))

    def _explanation_fields(self) -> dict[str, object]:
        """What a subclass's explanation adds to :class:`ErrorRateExplanation`."""
        return {}

    def _explain(self, hyp: str, refs: Sequence[str]) -> ErrorRateExplanation:
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
        return self.explanation_type(
            score=float(self.score_pooled(row)),
            row=tuple(float(x) for x in row),
            notes=tuple(notes),
            best_ref=best,
            hyp_tokens=hyp_tokens,
            references=tuple(results),
            edits=int(row[0]),
            avg_ref_len=float(row[1]),
            unit=self.unit,
            **self._explanation_fields(),
        )


class WER(ErrorRate):
    """Word error rate, jiwer 4.0 ``wer`` with its default transform (see the module docstring)."""

    id: ClassVar[str] = "wer"
    unit: ClassVar[Literal["word", "char"]] = "word"

    @property
    def name(self) -> str:
        return "WER"

    def symbols(self, text: str) -> list[str]:
        return [w for w in self.transform(text).split(" ") if w]


class CER(ErrorRate):
    """Character error rate, jiwer 4.0 ``cer`` with its default transform (see the module docstring)."""

    id: ClassVar[str] = "cer"
    Config: ClassVar[type] = CERConfig
    unit: ClassVar[Literal["word", "char"]] = "char"

    @property
    def name(self) -> str:
        return "CER"

    def symbols(self, text: str) -> str:
        return self.transform(text)


class _WordMeasureRate(WER):
    """MER, WIL or WIP (see the module docstring) from WER's counts of every segment, pooled as jiwer pools them."""

    explanation_type: ClassVar[type[ErrorRateExplanation]] = WordMeasureExplanation
    measure: ClassVar[WordMeasure]

    @property
    def name(self) -> str:
        return self.measure.label

    def signature(self) -> str:
        return f"measure:{self.measure.value}|{super().signature()}"

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        pooled = np.asarray(pooled, dtype=np.float64)
        hits, subs, dels, ins = (pooled[..., k] for k in range(2, 6))
        ref_words, hyp_words = hits + subs + dels, hits + subs + ins
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.measure is WordMeasure.MER:
                value = np.where(ref_words > 0, (subs + dels + ins) / (hits + subs + dels + ins), hyp_words > 0)
            else:
                preserved = np.where(hyp_words >= 1, (hits / ref_words) * (hits / hyp_words), 0.0)
                wip = np.where(ref_words > 0, preserved, hyp_words == 0)
                value = wip if self.measure is WordMeasure.WIP else 1 - wip
        # a segment too long to align has no counts (see the module docstring)
        return np.where(pooled[..., 6] > 0, np.nan, value.astype(np.float64))

    def _explanation_fields(self) -> dict[str, object]:
        return {"measure": self.measure}


class MER(_WordMeasureRate):
    """Match error rate, jiwer 4.0 ``mer``: (S + D + I) / (H + S + D + I)."""

    id: ClassVar[str] = "mer"
    measure: ClassVar[WordMeasure] = WordMeasure.MER


class WIL(_WordMeasureRate):
    """Word information lost, jiwer 4.0 ``wil``: 1 − WIP."""

    id: ClassVar[str] = "wil"
    measure: ClassVar[WordMeasure] = WordMeasure.WIL


class WIP(_WordMeasureRate):
    """Word information preserved, jiwer 4.0 ``wip``: H/(H + S + D) · H/(H + S + I); higher is better."""

    id: ClassVar[str] = "wip"
    measure: ClassVar[WordMeasure] = WordMeasure.WIP
    higher_is_better: ClassVar[bool] = True
