"""CharacTER: translation edit rate on the character level, as rwth-i6/CharacTER (HEAD c4b25cb) computes it.

Wang, Peter, Rosendahl and Ney, "CharacTER: Translation Edit Rate on Character Level", WMT 2016. The reference is
GPL-3.0; this is a clean-room implementation of the behaviour described in parity.md §9 (no code was consulted).
Equivalent reference call: ``CharacTER.py -r ref.txt -o hyp.txt`` (one reference), corpus score = mean of the
sentence scores. Lower is better; scores lie in [0, 1].

Per sentence (words = ``str.split()``, case-sensitive, no normalization):

1. ``d0`` = word-level Levenshtein distance of hypothesis and reference; 0 (with a non-empty reference) → 0.
2. Greedy shifts: every pair (i, j), i ≠ j, with ``hyp[i] == ref[j]`` (exact word equality) proposes moving the
   maximal common run starting there, ``hyp[i:i+L]``, to index j of the remaining words. The proposal that lowers
   the word distance most wins; ties go to the lexicographically largest resulting word list. Repeat until no
   proposal improves. The reference has no limit on shift size, distance or count.
3. The shift cost is computed afterwards from the original and final word orders (not from the shifts made):
   for each position where they differ, the first later position of the final order holding the original word
   starts a phrase; its cost is the average character length of the phrase's words.
4. score = min(1, (charLevenshtein(final words joined by " ", reference joined by " ") + shift cost) / length of
   the joined hypothesis) — normalized by the *hypothesis* length.
5. An empty hypothesis or an empty reference scores 1.0 (the reference's 0/0 path; ``""`` vs ``""`` is 1.0).

Multiple references (the reference supports one): the segment scores the **minimum over its references** (the
best match, as TER does); ties keep the first reference. The explanation shows every reference.

Bound (documented, never silent): the shift search is the expensive part (each round evaluates every proposal
with a word-level edit distance). ``max_shift_work`` caps the work of one segment's search, counted as
Σ over candidate evaluations of |hyp words| · (⌊|ref words| / 64⌋ + 1) — the steps of a bit-parallel distance;
one unit costs about 4–10 ns here. A round that would exceed the cap is not started: the shifts found so far are
kept, and the segment is named in ``SegmentStats.notes`` and in its explanation's ``notes``. Its score may then
differ from the reference's either way: the greedy search minimizes the word distance, the score adds a character
distance and a shift cost, so stopping early has given both lower and higher scores on real paragraphs. The bound
must therefore never bind on real text: measured with ``python -m benchmarks.work_bounds`` on WMT22 de-en
paragraphs (consecutive segments joined; 2 340 searches of 245–285 words, largest 6.7·10⁷ units, 0.6 s; 765 of
380–439 words, largest 3.9·10⁸ units, 3.2 s) and the 300 longest CNN/DM summaries (1.9·10⁶), the default 10⁹
(≲ 8 s per segment) is 2.5× the largest; sentences need at most ~2·10⁶. A 10 000-word line skips its search at
once. ``max_shift_work=None`` searches without bound, as the reference does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz.distance import Levenshtein

from metrics.core import limits
from metrics.core.base import Progress, Rows, StatsNote, each_segment, segments_text
from metrics.core.config import check_options, option
from metrics.core.edits import Edit, EditOp
from metrics.core.explanation import Explanation
from metrics.core.levenshtein import align, alignment_cells
from metrics.core.levenshtein import distance as levenshtein
from metrics.core.limits import SegmentLimit
from metrics.core.references import LowestOverReferences, reference_notes
from metrics.core.tokens import Token, locate

__all__ = ["CharacTER", "CharacTERConfig", "CharacTERExplanation", "Shift", "PhraseCost"]

VERSION = "scorelens-0.1.0"
# Character alignments (evidence only, not the score) keep a full matrix; beyond this many cells they are omitted.
MAX_ALIGNMENT_CELLS = 20_000_000


@dataclass(frozen=True)
class CharacTERConfig:
    """``max_shift_work``: work bound of one segment's shift search (see the module docstring); ``None`` = none."""

    max_shift_work: int | None = option(
        1_000_000_000,
        label="Shift search work bound",
        help="Work units of one segment's shift search; a search cut by it is noted, and its score may differ from "
        "the reference's (higher or lower). none (left empty) = unbounded, as the reference.",
        low=0,
        step=1,
        work_bound=True,
    )

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True)
class Shift:
    """One shift made: ``block`` moved from ``source`` (index in the word list before the shift) to
    ``destination`` (index in the word list after it); word distances before and after."""

    block: tuple[str, ...]
    source: int
    destination: int
    distance_before: int
    distance_after: int


@dataclass(frozen=True)
class PhraseCost:
    """A phrase the shift-cost heuristic found moved: ``original`` index in the hypothesis, ``final`` index in the
    shifted word list, its words and its cost (their average character length)."""

    original: int
    final: int
    words: tuple[str, ...]
    cost: float


@dataclass(frozen=True)
class ReferenceResult:
    """CharacTER of the hypothesis against one reference.

    ``order[k]`` is the index of the original hypothesis word at position ``k`` after the shifts; ``edits`` is a
    character alignment of the shifted hypothesis (``shifted``) with ``reference`` (``None`` when it would exceed
    ``MAX_ALIGNMENT_CELLS``; ``char_distance`` is exact either way). ``score = min(1, (char_distance + shift_cost)
    / hyp_chars)`` except for the empty/identical cases named in ``rule``.
    """

    reference: tuple[Token, ...]
    word_distance: int
    shifts: tuple[Shift, ...]
    final_words: tuple[str, ...]
    order: tuple[int, ...]
    phrases: tuple[PhraseCost, ...]
    shift_cost: float
    shifted: str
    reference_text: str
    char_distance: int
    edits: tuple[Edit, ...] | None
    hyp_chars: int
    rule: str
    score: float
    notes: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class CharacTERExplanation(Explanation):
    """Evidence for one segment: every reference's result and ``best_ref``, the one scored (the lowest score, the
    first on ties)."""

    best_ref: int
    tokens: tuple[Token, ...]
    references: tuple[ReferenceResult, ...]


def shift_cost(original: Sequence[str], final: Sequence[str]) -> tuple[float, tuple[PhraseCost, ...]]:
    """The post-hoc shift cost (parity.md §9.2 step 3) and the phrases it charged."""
    total = 0.0
    phrases = []
    n = len(original)
    p = 0
    while p < n:
        if original[p] == final[p]:
            p += 1
            continue
        s = next((s for s in range(p + 1, n) if final[s] == original[p]), None)
        if s is None:
            p += 1
            continue
        length = 1
        while p + length < n and s + length < n and original[p + length] == final[s + length]:
            length += 1
        words = tuple(original[p : p + length])
        cost = sum(len(w) for w in words) / length
        total += cost
        phrases.append(PhraseCost(p, s, words, cost))
        p += length
    return total, tuple(phrases)


@dataclass
class _Search:
    words: list[str]
    order: list[int]
    shifts: list[Shift]
    work: int
    bounded: str | None


def _shift_search(hyp: list[str], ref: list[str], d0: int, budget: int | None) -> _Search:
    """Greedy maximal-run shifts (§9.2 step 2), each round's work checked against ``budget`` before it starts."""
    # Words become integers numbered in sorted order: list comparison of the integers is then the reference's
    # lexicographic comparison of the word lists (its tie-break), and the C++ distance never sees a hash clash.
    vocab = {word: k for k, word in enumerate(sorted(set(hyp) | set(ref)))}
    words = [vocab[w] for w in hyp]
    target = [vocab[w] for w in ref]
    at: dict[int, list[int]] = {}
    for j, word in enumerate(target):
        at.setdefault(word, []).append(j)
    order = list(range(len(hyp)))
    current = d0
    shifts: list[Shift] = []
    spent = 0
    # Work of one candidate evaluation ~ the bit-parallel distance's steps: |hyp| words × ⌈|ref| / 64⌉ limbs.
    unit = len(hyp) * (len(ref) // 64 + 1)
    lev = Levenshtein.distance
    tail = len(target)
    # Count before enumerating: on a giant line the pairs alone could fill memory. Shifts only permute the words,
    # so the number of (i, j) pairs with equal words never changes; only the i == j ones (not candidates) do.
    pairs = sum(len(at.get(word, ())) for word in words)
    while True:
        count = pairs - sum(1 for a, b in zip(words, target, strict=False) if a == b)
        if count == 0:
            break
        if budget is not None and spent + count * unit > budget:
            note = (
                f"shift search stopped after {len(shifts)} shift(s): the next round of {count} candidate "
                f"shifts would exceed max_shift_work={budget} (the reference searches unbounded; this score may "
                "differ from its score, higher or lower)"
            )
            return _Search([hyp[k] for k in order], order, shifts, spent, note)
        spent += count * unit
        best_gain: int | None = None
        best_words: list[int] = []
        best_move = (0, 0, 0)
        size = len(words)
        for i, word in enumerate(words):
            for j in at.get(word, ()):
                if i == j:
                    continue
                length = 1
                while i + length < size and j + length < tail and words[i + length] == target[j + length]:
                    length += 1
                # Moving L words is at most 2L edits away from the current list, so it gains at most 2L.
                if best_gain is not None and 2 * length < best_gain:
                    continue
                rest = words[:i] + words[i + length :]
                candidate = rest[:j] + words[i : i + length] + rest[j:]
                if best_gain is None:
                    gain = current - lev(candidate, target)
                else:
                    # Only proposals at least as good as the best so far matter (ties too: the word lists decide);
                    # rapidfuzz stops early beyond the cutoff.
                    cutoff = current - best_gain
                    dist = lev(candidate, target, score_cutoff=cutoff)
                    if dist > cutoff:
                        continue
                    gain = current - dist
                # Largest gain, then the largest word list; >= keeps the last of equal proposals, as the
                # reference's sort-and-take-last does.
                if best_gain is None or gain > best_gain or candidate >= best_words:
                    best_gain, best_words, best_move = gain, candidate, (i, j, length)
        if best_gain is None or best_gain <= 0:
            break
        i, j, length = best_move
        rest_order = order[:i] + order[i + length :]
        order = rest_order[:j] + order[i : i + length] + rest_order[j:]
        block = tuple(hyp[k] for k in order[min(j, len(rest_order)) :][:length])
        shifts.append(Shift(block, i, min(j, len(rest_order)), current, current - best_gain))
        words = best_words
        current -= best_gain
    return _Search([hyp[k] for k in order], order, shifts, spent, None)


def character_one(hyp: str, ref: str, max_shift_work: int | None, alignment: bool) -> ReferenceResult:
    """CharacTER of one hypothesis against one reference; the single code path of rows and explanations.

    ``alignment=False`` (rows) skips only evidence: the reference's token offsets and the character alignment.
    """
    hyp_words, ref_words = hyp.split(), ref.split()
    hyp_text, ref_text = " ".join(hyp_words), " ".join(ref_words)
    ref_tokens = locate(ref, ref_words) if alignment else ()
    identity = tuple(range(len(hyp_words)))
    if not ref_words or not hyp_words:
        rule = "empty reference → 1.0" if not ref_words else "empty hypothesis → 1.0"
        d0 = max(len(hyp_words), len(ref_words))
        return ReferenceResult(
            ref_tokens, d0, (), tuple(hyp_words), identity, (), 0.0, hyp_text, ref_text, 0, None, len(hyp_text),
            rule, 1.0, (),
        )  # fmt: skip
    d0 = levenshtein(hyp_words, ref_words)
    if d0 == 0:
        edits = tuple(Edit(EditOp.MATCH, k, k) for k in range(len(hyp_text))) if alignment else None
        return ReferenceResult(
            ref_tokens, 0, (), tuple(hyp_words), identity, (), 0.0, hyp_text, ref_text, 0, edits, len(hyp_text),
            "identical word sequences → 0.0", 0.0, (),
        )  # fmt: skip
    search = _shift_search(hyp_words, ref_words, d0, max_shift_work)
    cost, phrases = shift_cost(hyp_words, search.words)
    shifted = " ".join(search.words)
    char_distance = levenshtein(shifted, ref_text)
    score = min(1.0, (char_distance + cost) / len(shifted))
    notes: tuple[str, ...] = () if search.bounded is None else (search.bounded,)
    edits = None
    if alignment:
        if alignment_cells(shifted, ref_text) <= MAX_ALIGNMENT_CELLS:
            edits = align(shifted, ref_text)
        else:
            notes += (
                f"character alignment omitted: {len(shifted)}×{len(ref_text)} exceeds {MAX_ALIGNMENT_CELLS} cells",
            )
    return ReferenceResult(
        ref_tokens, d0, tuple(search.shifts), tuple(search.words), tuple(search.order), phrases, cost, shifted,
        ref_text, char_distance, edits, len(shifted), "min(1, (char distance + shift cost) / hypothesis chars)",
        score, notes,
    )  # fmt: skip


class CharacTER(LowestOverReferences[CharacTERConfig, CharacTERExplanation, ReferenceResult]):
    """CharacTER (rwth-i6/CharacTER): character edit rate after word shifts, normalized by the hypothesis length.

    Rows hold one sentence score each (aggregate "mean": the reference averages sentence scores). Lower is better.
    """

    id = "characTER"
    Config = CharacTERConfig
    explanation_type = CharacTERExplanation

    @property
    def segment_limit(self) -> SegmentLimit | None:
        return limits.CHARACTER

    @property
    def name(self) -> str:
        return "CharacTER"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("characTER",)

    def one_reference(self, hyp: str, ref: str, detail: bool) -> ReferenceResult:
        return character_one(hyp, ref, self.config.max_shift_work, detail)

    def _explain(self, hyp: str, refs: Sequence[str]) -> CharacTERExplanation:
        results, best = self.against_references(hyp, list(refs), detail=True)
        notes = reference_notes(results)
        score = results[best].score
        return CharacTERExplanation(
            score=score,
            row=(score,),
            notes=notes,
            best_ref=best,
            tokens=locate(hyp, hyp.split()),
            references=tuple(results),
        )

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        """Sentence scores; segments whose shift search hit ``max_shift_work`` are named in the notes."""
        rows = np.empty((len(hyps), 1), dtype=np.float64)
        bounded = []
        for i, hyp, seg_refs in each_segment(hyps, refs, progress):
            results, best = self.against_references(hyp, seg_refs, detail=False)
            rows[i, 0] = results[best].score
            if any(r.notes for r in results):
                bounded.append(i + 1)
        notes: tuple[StatsNote, ...] = ()
        if bounded:
            kind = (
                f"shift search bounded by max_shift_work={self.config.max_shift_work}; the scores of these segments "
                "may differ from the reference's (higher or lower)"
            )
            notes = (StatsNote(kind, segments_text(bounded)),)
        return Rows(rows, notes)

    def signature(self) -> str:
        work = self.config.max_shift_work
        # 2e+08 for round bounds, every digit otherwise: two bounds that can give different scores never print alike
        bound = "none" if work is None else f"{work:.0e}" if float(f"{work:.0e}") == work else str(work)
        return f"tok:split|case:mixed|refs:min|shiftbound:{bound}|ref:rwth-i6-CharacTER-c4b25cb|version:{VERSION}"
