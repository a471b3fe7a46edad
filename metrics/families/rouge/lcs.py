"""Longest common subsequences of token sequences: the length, the DP grid, one backtracked path, union LCS.

Shared by ROUGE-L / ROUGE-Lsum (rouge-score 0.1.2, ``metrics.families.rouge.metric``) and reusable by the ROUGE-1.5.5 family
(``metrics.families.rouge155.weighted_lcs``): both references pick *the same* LCS path out of the DP grid (Lin 2004, "ROUGE: A Package
for Automatic Evaluation of Summaries", §3.2), so the explanation of a summary-level score depends on that rule:

* rows are the reference (model) tokens ``ref[0..m)``, columns the candidate (peer) tokens ``can[0..n)``;
* backtracking starts at the bottom-right cell; on equal tokens it goes diagonally; otherwise it goes *left*
  (candidate index − 1) only when the left cell is strictly greater than the upper cell, else *up* (ties go up).

This is rouge-score's ``_lcs_table`` + ``_backtrack_norec`` and ROUGE-1.5.5.pl's LCS marking; the clipped
summary-level count is rouge-score's ``_summary_level_lcs`` and ROUGE-1.5.5's summary-level ROUGE-L.

Speed: the DP grid is never materialized for scoring. Its rows are computed bit-parallel over Python ints
(Hyyrö 2004, "Bit-parallel LCS-length computation revisited"): bit ``j`` of row ``i`` is 0 exactly where
``T[i][j+1] = T[i][j] + 1``, so ``T[i][j]`` is a popcount. That gives the length in O(m) big-int operations and lets
the backtracking read any cell in O(1) word operations. For a summary, all candidate sentences are laid out side
by side in one int (:class:`SentencePack`, a zero guard bit between sentences stops the carries), so one pass over
a reference sentence computes its grid rows against every candidate sentence at once. :func:`lcs_table` builds
the plain grid for display.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import chain
from operator import or_
from typing import Any

Pair = tuple[int, int]


def match_masks(can: Sequence[Hashable]) -> dict[Hashable, int]:
    """For each distinct token of ``can``, the bit mask of the positions where it occurs (bit ``j`` = ``can[j]``).

    Compute it once per candidate sequence and pass it to :func:`lcs_length` / :func:`lcs_rows` /
    :func:`lcs_pairs` for every reference sequence compared with it.
    """
    masks: dict[Hashable, int] = {}
    get = masks.get
    for j, token in enumerate(can):
        masks[token] = get(token, 0) | (1 << j)
    return masks


def lcs_length(ref: Sequence[Hashable], can: Sequence[Hashable], masks: dict[Hashable, int] | None = None) -> int:
    """Length of the longest common subsequence of ``ref`` and ``can`` (exact; bit-parallel over ``can``)."""
    n = len(can)
    if not ref or not n:
        return 0
    if masks is None:
        masks = match_masks(can)
    v = (1 << n) - 1
    get = masks.get
    for token in ref:
        u = v & get(token, 0)
        if u:
            # Carries past bit n-1 only pile up above the row (they never flow down), so no masking here.
            v = (v + u) | (v - u)
    return n - (v & ((1 << n) - 1)).bit_count()


def _rows(ref_masks: Sequence[int], full: int) -> list[int]:
    """Bit-parallel grid rows; ``full`` has ones on the candidate positions and zeros on guard bits."""
    v = full
    rows = [v]
    append = rows.append
    for mask in ref_masks:
        u = v & mask
        if u:
            v = ((v + u) | (v - u)) & full
        append(v)
    return rows


def lcs_rows(ref: Sequence[Hashable], can: Sequence[Hashable], masks: dict[Hashable, int] | None = None) -> list[int]:
    """The rows of the LCS grid in bit-parallel form: ``rows[i]`` encodes ``T[i][0..n]`` (``i`` in ``0..m``).

    ``T[i][j] = j - popcount(rows[i] & ((1 << j) - 1))`` (see :func:`cell`).
    """
    if masks is None:
        masks = match_masks(can)
    return _rows([masks.get(token, 0) for token in ref], (1 << len(can)) - 1)


def cell(rows: Sequence[int], i: int, j: int) -> int:
    """``T[i][j]`` of the LCS grid from its bit-parallel rows."""
    return j - (rows[i] & ((1 << j) - 1)).bit_count()


def lcs_table(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[list[int]]:
    """The full ``(m+1) × (n+1)`` LCS grid ``T`` (row 0 and column 0 are zeros), e.g. for a heatmap.

    ``T[i][j]`` is the LCS length of ``ref[:i]`` and ``can[:j]``; this is rouge-score's ``_lcs_table``.
    """
    table = [[0] * (len(can) + 1)]
    for token in ref:
        above = table[-1]
        row = [0]
        left = 0
        for j, other in enumerate(can):
            left = above[j] + 1 if token == other else max(above[j + 1], left)
            row.append(left)
        table.append(row)
    return table


def lcs_trail(table: Sequence[Sequence[int]], ref: Sequence[Hashable], can: Sequence[Hashable]) -> tuple[Pair, ...]:
    """Every cell rouge-score's backtracking visits on an explicit grid, from ``(m, n)`` to the first row or column:
    diagonal on equal tokens, left only when the left cell is strictly greater than the upper one, else up."""
    i, j = len(ref), len(can)
    cells = [(i, j)]
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
        cells.append((i, j))
    return tuple(cells)


def lcs_pairs_from_table(
    table: Sequence[Sequence[int]], ref: Sequence[Hashable], can: Sequence[Hashable]
) -> tuple[Pair, ...]:
    """The path :func:`lcs_pairs` returns, walked cell by cell on an explicit grid (slow; for tests and display):
    the diagonal steps of :func:`lcs_trail`, as (reference, candidate) index pairs."""
    trail = lcs_trail(table, ref, can)
    diagonal = [(i, j) for (i0, j0), (i, j) in zip(trail, trail[1:], strict=False) if (i0, j0) == (i + 1, j + 1)]
    return tuple(reversed(diagonal))


def _backtrack(ref_masks: Sequence[int], rows: Sequence[int], offset: int, n: int) -> list[Pair]:
    """The reference rule's path through the grid of the candidate at bits ``[offset, offset + n)``.

    Walking cell by cell costs O(m + n) steps; two facts make it O(m + LCS) word operations. Without a match at
    ``(i, j)``, "left beats up" means ``T[i-1][j] < T[i][j]`` (otherwise ``T[i][j] = T[i-1][j]`` and the rule
    goes up). And once the walk goes left in row ``i`` it stays in that row, with the same value, up to the
    nearest column ``j' < j`` where ``can[j'-1] == ref[i-1]`` (row ``i-1`` is below ``T[i][j]`` on all of
    ``1..j``, so "up" cannot win again) and takes the diagonal there: one jump, found with ``bit_length``.
    Columns are kept in global bit positions (``j`` here is ``offset +`` the local column).
    """
    i, j = len(ref_masks), offset + n
    base = 1 << offset
    pairs: list[Pair] = []
    while i > 0 and j > offset:
        low = (1 << j) - base
        hits = ref_masks[i - 1] & low
        if not hits:
            i -= 1  # no match at or left of j in this row: T[i][j] == T[i-1][j], so up
            continue
        if not hits >> (j - 1):  # no match at (i, j) itself
            if (rows[i] & low).bit_count() == (rows[i - 1] & low).bit_count():
                i -= 1
                continue
            j = hits.bit_length()  # the left walk ends at the nearest match
        i -= 1
        j -= 1
        pairs.append((i, j - offset))
    pairs.reverse()
    return pairs


def lcs_pairs(
    ref: Sequence[Hashable], can: Sequence[Hashable], masks: dict[Hashable, int] | None = None
) -> tuple[Pair, ...]:
    """One LCS as ascending ``(ref index, can index)`` pairs, chosen by the reference backtracking rule.

    Diagonal on equal tokens; otherwise left only if ``T[i][j-1] > T[i-1][j]``, else up. The reference indices
    are exactly rouge-score's ``lcs_ind(ref, can)``.
    """
    if not ref or not can:
        return ()
    if masks is None:
        masks = match_masks(can)
    get = masks.get
    ref_masks = [get(token, 0) for token in ref]
    if not any(ref_masks):
        return ()
    n = len(can)
    return tuple(_backtrack(ref_masks, _rows(ref_masks, (1 << n) - 1), 0, n))


@dataclass(frozen=True)
class SentencePack:
    """Candidate sentences side by side in one bit space: sentence ``k`` owns bits ``[offset, offset + length)``.

    ``masks[token]`` has a bit at every position of ``token`` in any sentence; ``full`` is one on every sentence
    bit and zero on the guard bit after each sentence, which absorbs the carry of the bit-parallel addition.
    """

    fields: tuple[tuple[int, int], ...]  # (offset, length) per sentence
    masks: dict[Hashable, int]
    full: int

    @classmethod
    def of(cls, sentences: Sequence[Sequence[Hashable]]) -> SentencePack:
        masks: dict[Hashable, int] = {}
        get = masks.get
        fields = []
        full = 0
        offset = 0
        for sentence in sentences:
            for j, token in enumerate(sentence, start=offset):
                masks[token] = get(token, 0) | (1 << j)
            fields.append((offset, len(sentence)))
            full |= ((1 << len(sentence)) - 1) << offset
            offset += len(sentence) + 1
        return cls(tuple(fields), masks, full)

    def lcs_paths(self, ref: Sequence[Hashable]) -> list[list[Pair]]:
        """For each candidate sentence, the backtracked LCS with ``ref`` as (ref index, local index) pairs."""
        get = self.masks.get
        ref_masks = [get(token, 0) for token in ref]
        present = reduce(or_, ref_masks, 0)
        if not present:
            return [[] for _ in self.fields]
        rows = _rows(ref_masks, self.full)
        return [
            _backtrack(ref_masks, rows, offset, n) if present >> offset & ((1 << n) - 1) else []
            for offset, n in self.fields
        ]


def union_lcs(ref: Sequence[Hashable], cans: Sequence[Sequence[Hashable]] | SentencePack) -> tuple[int, ...]:
    """Sorted reference indices in the union of one backtracked LCS of ``ref`` with each candidate sentence.

    Lin (2004) §3.2's LCS∪ for one reference sentence (rouge-score's ``_union_lcs`` gives its tokens).
    """
    pack = cans if isinstance(cans, SentencePack) else SentencePack.of(cans)
    return tuple(sorted({i for path in pack.lcs_paths(ref) for i, _ in path}))


@dataclass(frozen=True)
class SentenceUnion:
    """Summary-level LCS evidence of one reference sentence (indices are positions in that sentence)."""

    lcs: tuple[tuple[Pair, ...], ...]  # per candidate sentence: the backtracked (ref, candidate) index pairs
    union: tuple[int, ...]  # LCS∪: sorted reference positions on any of those paths
    hits: tuple[int, ...]  # the positions of ``union`` that survived unigram clipping (counted as hits)


def summary_lcs(
    ref_sents: Sequence[Sequence[Hashable]],
    can_sents: Sequence[Sequence[Hashable]],
    pack: SentencePack | None = None,
    *,
    ref_counts: Mapping[Any, int] | None = None,
    can_counts: Mapping[Any, int] | None = None,
    evidence: bool = False,
) -> tuple[int, tuple[SentenceUnion, ...]]:
    """Clipped union-LCS hits of a summary (Lin 2004 §3.2, as implemented by ROUGE-1.5.5 and rouge-score).

    For each reference sentence in order, its LCS∪ with all candidate sentences is scanned left to right; a
    position counts as a hit only while its token has a positive remaining count in both the whole reference and
    the whole candidate (both counts are then decremented), so no token is credited more often than it occurs.
    Returns ``(hits, per-reference-sentence evidence)``; the evidence is empty unless ``evidence`` is true.
    ``pack`` (``SentencePack.of(can_sents)``) and the token counts of the whole texts may be passed in when they
    are reused; nothing passed in is modified.
    """
    if pack is None:
        pack = SentencePack.of(can_sents)
    ref_left = dict(ref_counts if ref_counts is not None else Counter(chain.from_iterable(ref_sents)))
    can_left = dict(can_counts if can_counts is not None else Counter(chain.from_iterable(can_sents)))
    hits = 0
    details: list[SentenceUnion] = []
    for ref in ref_sents:
        paths = pack.lcs_paths(ref) if ref else [[] for _ in pack.fields]
        union = sorted({i for path in paths for i, _ in path})
        kept = []
        for i in union:
            token = ref[i]
            if can_left.get(token, 0) > 0 and ref_left[token] > 0:
                hits += 1
                can_left[token] -= 1
                ref_left[token] -= 1
                kept.append(i)
        if evidence:
            details.append(SentenceUnion(tuple(tuple(p) for p in paths), tuple(union), tuple(kept)))
    return hits, tuple(details)
