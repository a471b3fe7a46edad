"""The TER edit search of sacrebleu 2.6.0 (``lib_ter.translation_edit_rate``), with the trace it throws away.

TER (Snover et al., 2006) greedily applies the block shift that lowers the edit distance most, until none helps,
then adds the word edit distance of the shifted hypothesis. sacrebleu re-implements tercom with its own
heuristics, and parity needs every one of them (all reproduced here, none of them "fixed"):

* edit distance over a *pseudo-diagonal band*: row ``i`` (hypothesis word ``i``) only computes reference
  columns ``[⌊i·m/n⌋ − w, ⌊i·m/n⌋ + w)`` with ``w = 25`` (wider when the length ratio is extreme); cells outside
  are infinite, so the banded distance can exceed the true Levenshtein distance;
* DP ties prefer the diagonal, then "consume a hypothesis word", then "consume a reference word";
* shift candidates come from every common run (every prefix length 1..10 of it) starting at hypothesis ``i`` and
  reference ``j`` with ``|i − j| ≤ 50``; a run is only tried when both sides hold an edit error and the reference
  start is not aligned inside the block; the block is inserted *before* each aligned target;
* candidates are counted *cumulatively* over all shift rounds of one hypothesis/reference pair; the round in which
  the count reaches 1000 ends the search and its shift is discarded even if it would help;
* the best candidate maximizes (gain, block length, −start, −target).

Speed (same results, measured ≥ 10× faster than sacrebleu on WMT data): sacrebleu evaluates every candidate
with a Python DP over its changed suffix. Here

* the DP runs first as Myers' (1999) bit-parallel *unrestricted* Levenshtein (one Python int per row). A path
  of cost d never strays more than d cells from the pseudo-diagonal, so when the band covers the whole matrix or
  the unrestricted distance is ≤ w − 2, the banded distance, the cells on optimal paths and therefore the
  traceback ties are provably those of the banded DP; the traceback is read from the bit vectors. A candidate
  starts from the bit state of the row where it first differs from the current hypothesis;
* everything else (long, poor hypotheses) uses the banded DP in numpy, all candidates of a round as one batch
  (one row operation for the batch; the insertion chain along a row is a running minimum), each joining at the
  row where it first differs and leaving as soon as its row equals the base row plus a constant — from then on
  the min-plus recurrence keeps that offset to the last cell, so its distance is known exactly;
* candidate enumeration walks only equal-word positions inside the ±50 window and skips run lengths the error
  filters reject, without counting them, as sacrebleu's loop (which does not count them either) would.

Bound: on a line of tens of thousands of tokens even this takes seconds per shift round. :class:`SearchBudget`
caps the work of one hypothesis/reference search by a fixed cost model (a count, never a clock, so results are
reproducible); when it runs out, the search stops (the shifts applied so far stay, the final distance is exact
for that hypothesis) and ``PairTrace.budget_exhausted`` says so. Callers must report it: that segment's TER may
then be higher than sacrebleu's. The default budget is orders of magnitude above what sentences or paragraphs
need (it binds only beyond roughly 10 000 tokens per line).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from metrics.core.checkpoint import checkpoint
from metrics.core.edits import Edit, EditOp

BEAM_WIDTH = 25
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000
# Work allowed for one hypothesis/reference shift search, in units of roughly a nanosecond of work (a
# deterministic count of rows and cells, never a clock, so results are reproducible). Sentences need ~10^5-10^7,
# paragraphs of 430 words up to 2·10^8 (0.2 s; python -m benchmarks.work_bounds).
DEFAULT_BUDGET = 2_000_000_000
_INF = math.inf


@dataclass(frozen=True)
class ShiftStep:
    """One applied shift: the block ``start:start+length`` of the hypothesis as it was before this shift.

    ``target`` is sacrebleu's insertion index (the block goes before that word of the pre-shift hypothesis, or
    moves right by ``target − start`` when ``target`` falls inside its own span); ``dest`` is where the block starts
    afterwards. ``order_before``/``order_after`` give, for each position, the index of the original hypothesis token.
    ``distance_before``/``distance_after`` are the banded edit distances around the shift (gain = their difference).
    """

    start: int
    length: int
    target: int
    dest: int
    order_before: tuple[int, ...]
    order_after: tuple[int, ...]
    distance_before: int
    distance_after: int

    @property
    def gain(self) -> int:
        return self.distance_before - self.distance_after

    @property
    def moved(self) -> tuple[int, ...]:
        """Original token indices of the moved words."""
        return self.order_before[self.start : self.start + self.length]


@dataclass(frozen=True)
class PairTrace:
    """The whole TER computation of one hypothesis against one reference."""

    edits: int
    ref_len: int
    shifts: tuple[ShiftStep, ...]
    order: tuple[int, ...]  # final hypothesis: original token index at each position
    alignment: tuple[Edit, ...]  # hyp_index into the final (shifted) hypothesis, ref_index into the reference
    distance: int  # banded edit distance of the final hypothesis (edits = len(shifts) + distance)
    candidates: int  # shift candidates counted (sacrebleu's cumulative counter)
    candidate_cap_hit: bool  # the last round reached 1000 candidates and its shift was discarded
    budget_exhausted: bool  # the search stopped early because of SearchBudget (score may exceed sacrebleu's)
    work: int = 0  # budget units spent (the cost model of SearchBudget)

    def count(self, op: EditOp) -> int:
        return sum(1 for step in self.alignment if step.op is op)


@dataclass(frozen=True)
class SearchBudget:
    """Work allowed for one pair's shift search (≈ ns by a fixed cost model of rows and cells, never a clock)."""

    units: int = DEFAULT_BUDGET

    def __post_init__(self) -> None:
        if self.units < 0:
            raise ValueError(f"the TER search budget must be ≥ 0, not {self.units}")


class _Band:
    """sacrebleu's ``BeamEditDistance`` band for an n×m problem, in a padded band-coordinate layout.

    Row ``i`` stores columns ``lo[i] .. lo[i] + W − 1`` at buffer positions ``1 .. W``; position 0 and everything
    past the row's true width hold +inf (cells outside the band). Row 0 is the full initial row ``j``.
    """

    def __init__(self, n: int, ref_ids: list[int]) -> None:
        m = len(ref_ids)
        ratio = m / n  # the same float expression as sacrebleu, so floor() agrees on every row
        beam = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
        lo = [0] * (n + 1)
        hi = [m + 1] * (n + 1)
        for i in range(1, n + 1):
            diag = math.floor(i * ratio)
            lo[i] = max(0, diag - beam)
            hi[i] = m + 1 if i == n else min(m + 1, diag + beam)
        self.n, self.m = n, m
        self.lo = lo
        self.width = [h - low for h, low in zip(hi, lo, strict=True)]
        self.step = [0] + [lo[i] - lo[i - 1] for i in range(1, n + 1)]
        self.W = max(self.width[1:])
        self.PW = self.W + max(self.step) + 1
        self.arange = np.arange(self.W, dtype=np.float64)[:, None]
        # reference id of column j − 1 for column j, padded so every row's window is a plain slice
        self.ref_pad = np.full(m + self.PW + 2, -1, dtype=np.int64)
        self.ref_pad[1 : m + 1] = ref_ids
        row0 = np.full(self.PW, _INF)
        upto = min(m + 1, self.PW - 1)
        row0[1 : upto + 1] = np.arange(upto, dtype=np.float64)
        self.row0 = row0

    def advance(self, prev: np.ndarray, i: int, words: np.ndarray) -> None:
        """Turn row ``i − 1`` into row ``i`` in place for a batch: ``prev`` is (PW, k), one column per hypothesis
        (so the running minimum below walks contiguous memory); ``words`` (k,) is each one's word at row ``i``."""
        W, s, width, lo = self.W, self.step[i], self.width[i], self.lo[i]
        cost = self.ref_pad[lo : lo + W, None] != words[None, :]
        best = prev[s : s + W] + cost  # diagonal: match (0) or substitution (1)
        np.minimum(best, prev[s + 1 : s + 1 + W] + 1.0, out=best)  # up: consume a hypothesis word
        if width < W:
            best[width:] = _INF
        # left (consume a reference word) chains along the row: cell t = min over u ≤ t of best[u] + (t − u)
        best -= self.arange
        np.minimum.accumulate(best, axis=0, out=best)
        best += self.arange
        if width < W:
            best[width:] = _INF
        prev[1 : W + 1] = best
        if i == 1:
            prev[W + 1 :] = _INF  # row 0 is finite past the band; no later row may read those cells

    def value(self, rows: np.ndarray, i: int, j: int) -> float:
        if i == 0:
            return float(j) if 0 <= j <= self.m else _INF
        t = j - self.lo[i]
        return rows.item(i, t + 1) if -1 <= t < self.PW - 1 else _INF

    def final_column(self) -> int:
        return self.m - self.lo[self.n] + 1


Step = tuple[EditOp, "int | None", "int | None"]


def _base_rows(band: _Band, words: np.ndarray) -> np.ndarray:
    """All rows of the banded DP of one hypothesis (``words`` = its ids), shape (n + 1, PW)."""
    rows = np.empty((band.n + 1, band.PW))
    rows[0] = band.row0
    prev = band.row0[:, None].copy()
    for i in range(1, band.n + 1):
        band.advance(prev, i, words[i - 1 : i])
        rows[i] = prev[:, 0]
    return rows


def _banded_traceback(band: _Band, rows: np.ndarray, hyp: list[int], ref: list[int]) -> list[Step]:
    """Read the banded DP back from (n, m) with sacrebleu's preference: diagonal, hypothesis word, reference word."""
    table = rows
    i, j = band.n, band.m
    steps: list[Step] = []
    value = band.value
    while i > 0 or j > 0:
        if i == 0:
            steps.append((EditOp.DELETE, None, j - 1))
            j -= 1
            continue
        if j == 0:
            steps.append((EditOp.INSERT, i - 1, None))
            i -= 1
            continue
        here = value(table, i, j)
        same = hyp[i - 1] == ref[j - 1]
        if value(table, i - 1, j - 1) + (0 if same else 1) == here:
            steps.append((EditOp.MATCH if same else EditOp.SUBSTITUTE, i - 1, j - 1))
            i -= 1
            j -= 1
        elif value(table, i - 1, j) + 1 == here:
            steps.append((EditOp.INSERT, i - 1, None))
            i -= 1
        else:
            steps.append((EditOp.DELETE, None, j - 1))
            j -= 1
    steps.reverse()
    return steps


class _Bits:
    """Myers' (1999) bit-parallel rows of the *unrestricted* DP, one Python int per bit vector over the reference.

    Row ``i`` is kept as ``(vp, vn, ph, mh)``: bit ``j − 1`` of ``vp``/``vn`` says D[i][j] − D[i][j−1] is +1/−1,
    bit ``j − 1`` of ``ph``/``mh`` says D[i][j] − D[i−1][j] is +1/−1. The state of row ``p`` is also the start of
    every candidate that shares the first ``p`` hypothesis words.
    """

    def __init__(self, ref: list[int]) -> None:
        m = len(ref)
        self.mask = (1 << m) - 1
        self.top = 1 << (m - 1)
        self.m = m
        peq: dict[int, int] = {}
        for j, w in enumerate(ref):
            peq[w] = peq.get(w, 0) | (1 << j)
        self.peq = peq

    def rows(self, words: list[int]) -> tuple[list[tuple[int, int, int, int]], list[int]]:
        peq, mask, top = self.peq, self.mask, self.top
        vp, vn, score = mask, 0, self.m
        rows = [(vp, vn, 0, 0)]
        scores = [score]
        for w in words:
            eq = peq.get(w, 0)
            xv = eq | vn
            xh = (((eq & vp) + vp) ^ vp) | eq
            ph = (vn | ~(xh | vp)) & mask
            mh = vp & xh
            if ph & top:
                score += 1
            elif mh & top:
                score -= 1
            phs = ((ph << 1) | 1) & mask
            mhs = (mh << 1) & mask
            vp = (mhs | ~(xv | phs)) & mask
            vn = phs & xv
            rows.append((vp, vn, ph, mh))
            scores.append(score)
        return rows, scores

    def distance(self, words: list[int], start: int, vp: int, vn: int, score: int) -> int:
        """Distance of ``words`` given the state of row ``start`` (shared with the base hypothesis)."""
        # The same Myers step as rows(), written out again on purpose: this is the shift search's innermost
        # loop, and a function call per word made it ~25% slower (40-word pairs, measured).
        peq, mask, top = self.peq, self.mask, self.top
        for k in range(start, len(words)):
            eq = peq.get(words[k], 0)
            xv = eq | vn
            xh = (((eq & vp) + vp) ^ vp) | eq
            ph = (vn | ~(xh | vp)) & mask
            mh = vp & xh
            if ph & top:
                score += 1
            elif mh & top:
                score -= 1
            phs = ((ph << 1) | 1) & mask
            vp = (((mh << 1) & mask) | ~(xv | phs)) & mask
            vn = phs & xv
        return score


def _bit_traceback(rows: list[tuple[int, int, int, int]], hyp: list[int], ref: list[int], distance: int) -> list[Step]:
    """The traceback of :func:`_banded_traceback`, read from the bit vectors (valid when the band is not binding)."""
    i, j, d = len(hyp), len(ref), distance
    steps: list[Step] = []
    while i > 0 and j > 0:
        vp, vn, ph, mh = rows[i]
        bit = 1 << (j - 1)
        dv = 1 if ph & bit else (-1 if mh & bit else 0)
        up = d - dv  # D[i-1][j]
        pvp, pvn = rows[i - 1][0], rows[i - 1][1]
        diag = up - (1 if pvp & bit else (-1 if pvn & bit else 0))  # D[i-1][j-1]
        same = hyp[i - 1] == ref[j - 1]
        if diag + (0 if same else 1) == d:
            steps.append((EditOp.MATCH if same else EditOp.SUBSTITUTE, i - 1, j - 1))
            d = diag
            i -= 1
            j -= 1
        elif dv == 1:
            steps.append((EditOp.INSERT, i - 1, None))
            d = up
            i -= 1
        else:
            steps.append((EditOp.DELETE, None, j - 1))
            d -= 1
            j -= 1
    while j > 0:
        steps.append((EditOp.DELETE, None, j - 1))
        j -= 1
    while i > 0:
        steps.append((EditOp.INSERT, i - 1, None))
        i -= 1
    steps.reverse()
    return steps


def _alignment_maps(steps: list[Step], n: int, m: int) -> tuple[list[int], list[int], list[int]]:
    """sacrebleu's ``trace_to_alignment`` on the flipped trace: ref→hyp alignment and error flags of both sides."""
    align = [0] * m
    hyp_err = [0] * n
    ref_err = [0] * m
    pos_h = -1
    match, extra, substitute = EditOp.MATCH, EditOp.INSERT, EditOp.SUBSTITUTE
    for op, h, r in steps:
        if h is not None:
            pos_h = h
        if op is extra:  # a hypothesis word without counterpart (tercom deletes it)
            hyp_err[h] = 1  # type: ignore[index]
            continue
        align[r] = pos_h  # type: ignore[index]
        if op is not match:
            ref_err[r] = 1  # type: ignore[index]
            if op is substitute:
                hyp_err[h] = 1  # type: ignore[index]
    return align, ref_err, hyp_err


def _next_error(flags: list[int]) -> list[int]:
    """For each position, the first position at or after it with an error (len(flags) + MAX when none)."""
    out = [0] * len(flags)
    nxt = len(flags) + MAX_SHIFT_SIZE + 1
    for p in range(len(flags) - 1, -1, -1):
        if flags[p]:
            nxt = p
        out[p] = nxt
    return out


def _perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    if target < start:
        return words[:target] + words[start : start + length] + words[target:start] + words[start + length :]
    if target > start + length:
        return words[:start] + words[start + length : target] + words[start : start + length] + words[target:]
    return (
        words[:start]
        + words[start + length : length + target]
        + words[start : start + length]
        + words[length + target :]
    )


def _candidates(
    hyp: list[int],
    ref: list[int],
    ref_positions: dict[int, list[int]],
    align: list[int],
    ref_err: list[int],
    hyp_err: list[int],
    checked: int,
) -> tuple[list[tuple[int, int, int]], int]:
    """Distinct (start, length, target) shift candidates of one round, in sacrebleu's order, and the new count."""
    n, m = len(hyp), len(ref)
    next_h = _next_error(hyp_err)
    next_r = _next_error(ref_err)
    seen: dict[tuple[int, int, int], None] = {}
    for start_h in range(n):
        need_h = next_h[start_h] - start_h + 1  # shortest block holding a hypothesis error
        if need_h > MAX_SHIFT_SIZE:
            continue
        positions = ref_positions.get(hyp[start_h])
        if not positions:
            continue
        lo = bisect_left(positions, start_h - MAX_SHIFT_DIST)
        hi = bisect_right(positions, start_h + MAX_SHIFT_DIST)
        for start_r in positions[lo:hi]:
            run = 1
            limit = min(MAX_SHIFT_SIZE, n - start_h, m - start_r)
            while run < limit and hyp[start_h + run] == ref[start_r + run]:
                run += 1
            shortest = max(need_h, next_r[start_r] - start_r + 1)
            at = align[start_r]
            longest = min(run, at - start_h) if at >= start_h else run  # never shift within itself
            for length in range(shortest, longest + 1):
                prev_idx = -1
                for offset in range(-1, length):
                    idx = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                    if idx == prev_idx:
                        continue
                    prev_idx = idx
                    seen[(start_h, length, idx)] = None
                    checked += 1
                if checked >= MAX_SHIFT_CANDIDATES:
                    return list(seen), checked
    return list(seen), checked


def _changed_region(words: list[int], start: int, length: int, target: int) -> tuple[int, list[int]]:
    """Where a shift changes the hypothesis: (first changed position, the new words from there on to the last)."""
    if target < start:
        a, b = target, start + length
    elif target > start + length:
        a, b = start, target
    else:
        a, b = start, target + length
    return a, _perform_shift(words[a:b], start - a, length, target - a)


_BLOCK = 32  # rows between convergence checks (and whose candidate words are gathered at once)


def _converged(rows: np.ndarray, base_row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which columns of ``rows`` (PW, k) equal ``base_row`` plus a constant on every cell, and that constant.

    From such a row on, the candidate and the base read the same words, and every DP cell is a minimum of
    neighbours plus fixed costs, so the offset carries unchanged to the last cell: the candidate's distance is
    the base distance plus the offset. Cells outside the band (+inf) must coincide.
    """
    finite_b = np.isfinite(base_row)
    finite = np.isfinite(rows)
    same_shape = (finite == finite_b[:, None]).all(axis=0)
    anchor = int(np.argmax(finite_b))
    delta = rows[anchor] - base_row[anchor]
    with np.errstate(invalid="ignore"):
        diff = np.where(finite_b[:, None], rows - base_row[:, None], delta[None, :])
    return same_shape & (diff == delta[None, :]).all(axis=0), delta


def _batch_distances(
    band: _Band, base: np.ndarray, hyp: list[int], cands: list[tuple[int, int, int]], meter: _Meter
) -> tuple[np.ndarray, np.ndarray] | None:
    """Banded distances of many shifted versions of the hypothesis ``hyp``, sharing its unchanged prefix rows.

    A candidate's rows up to its first changed position equal ``base``; it joins the batch there. Its word at
    each later row is its changed region's word inside that region and the base word elsewhere. Once past its
    region, a candidate leaves the batch as soon as its row is the base row plus a constant (see
    :func:`_converged`), which on long segments happens a few dozen rows later. Returns None when ``meter`` runs
    out before the batch is done, else (distances, the row at which each one's rows became base + constant).
    """
    regions = [_changed_region(hyp, *c) for c in cands]
    order = sorted(range(len(cands)), key=lambda c: regions[c][0])
    first = np.array([regions[c][0] for c in order], dtype=np.int64)
    span = np.array([len(regions[c][1]) for c in order], dtype=np.int64)
    end = first + span
    offsets = np.concatenate([[0], np.cumsum(span)[:-1]]).astype(np.int64)
    flat = np.array([w for c in order for w in regions[c][1]], dtype=np.int64)
    base_words = np.asarray(hyp, dtype=np.int64)
    base_final = base[band.n, band.final_column()]
    first_list = first.tolist()
    count = len(order)
    result = np.empty(count)
    settled = np.full(count, band.n, dtype=np.int64)
    live = np.empty(0, dtype=np.int64)  # indices (in sorted order) of candidates being computed
    prev = np.empty((band.PW, 0))
    joined = 0
    for block in range(first_list[0] + 1, band.n + 1, _BLOCK):
        checkpoint()  # one batch of a long line is many blocks
        rows = range(block, min(block + _BLOCK, band.n + 1))
        if len(live) == 0 and (joined == count or first_list[joined] + 1 >= rows.stop):
            continue  # nobody computes in this block
        pos = np.arange(rows.start - 1, rows.stop - 1)
        kb = int(np.searchsorted(first, rows.stop - 2, side="right"))
        off = pos[:, None] - first[None, :kb]
        inside = (off >= 0) & (off < span[None, :kb])
        gathered = flat[np.clip(offsets[None, :kb] + off, 0, max(len(flat) - 1, 0))]
        words = np.where(inside, gathered, base_words[pos][:, None])
        for r, i in enumerate(rows):
            k_new = joined
            while k_new < count and first_list[k_new] <= i - 1:
                k_new += 1
            if k_new > joined:
                prev = np.concatenate([prev, np.repeat(base[i - 1][:, None], k_new - joined, axis=1)], axis=1)
                live = np.concatenate([live, np.arange(joined, k_new)])
                joined = k_new
            if len(live):
                if not meter.charge(_NUMPY_ROW + _CELL * band.W * len(live)):
                    return None
                band.advance(prev, i, words[r, live])
        if len(live) and rows.stop <= band.n:
            last = rows.stop - 1
            ready = end[live] <= last
            if ready.any():
                done, delta = _converged(prev[:, ready], base[last])
                if done.any():
                    finished = live[ready][done]
                    result[finished] = base_final + delta[done]
                    settled[finished] = last
                    keep = ~ready
                    keep[np.flatnonzero(ready)[~done]] = True
                    live = live[keep]
                    prev = prev[:, keep]
    if len(live):
        result[live] = prev[band.final_column(), :]
    out = np.empty(count)
    out[order] = result
    rows_out = np.empty(count, dtype=np.int64)
    rows_out[order] = settled
    return out, rows_out


def _rebase(band: _Band, base: np.ndarray, words: list[int], first: int, settled: int) -> np.ndarray:
    """Banded rows of a shifted hypothesis ``words`` from the rows ``base`` of the one it was shifted from:
    equal up to ``first``, recomputed up to ``settled``, then ``base`` plus the offset found there."""
    rows = base.copy()
    prev = base[first][:, None].copy()
    ids = np.asarray(words, dtype=np.int64)
    for i in range(first + 1, settled + 1):
        band.advance(prev, i, ids[i - 1 : i])
        rows[i] = prev[:, 0]
    if settled < band.n:
        finite = np.isfinite(base[settled])
        anchor = int(np.argmax(finite))
        rows[settled + 1 :] += rows[settled, anchor] - base[settled, anchor]
    return rows


# The cost model behind SearchBudget (≈ ns per unit on a typical machine).
_NUMPY_ROW = 15_000  # one numpy row operation of the banded DP
_CELL = 5  # one banded cell inside such an operation
_BITS_ROW = 1_000  # one bit-parallel row (plus m/2 for the width of the bit vectors)
_STEP = 1_000  # one Python step of traceback or candidate scan
_BITS_LIMIT = 4096  # longer references: bit vectors get slower than the banded numpy rows


def work_bound(n: int, m: int, rounds: int, candidates: int) -> int:
    """An upper bound on the budget units :func:`ter_pair` spends on an ``n``-word hypothesis against an ``m``-word
    reference whose search runs ``rounds`` rounds and counts ``candidates`` shift candidates, from the cost model
    above: every round pays at most for its base rows (banded and bit-parallel), the candidate scan, one batch of
    rows and one rebase, and every candidate at most its full price on either path. A faster search of the same
    pair that took that many rounds and candidates tells whether this one could have been stopped by the budget."""
    if n == 0 or m == 0:
        return 0
    ratio = m / n
    beam = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
    width = min(m + 1, 2 * beam + 1) + 2 * beam + 2  # a band row, padded for its step
    banded_row = _NUMPY_ROW + _CELL * width
    bits_row = _BITS_ROW + m // 2
    per_round = n * banded_row + n * bits_row + (n + m) * _STEP + n * _NUMPY_ROW + n * banded_row + n * width * _CELL
    per_candidate = n * bits_row + n * width * _CELL
    return rounds * per_round + candidates * per_candidate


class _Meter:
    def __init__(self, units: int) -> None:
        self.left = units
        self.units = units

    @property
    def spent(self) -> int:
        return self.units - self.left

    def charge(self, amount: int) -> bool:
        """Spend ``amount``; False once the budget is overdrawn."""
        self.left -= amount
        return self.left >= 0


def ter_pair(hyp: list[str], ref: list[str], budget: SearchBudget | None = None) -> PairTrace:
    """sacrebleu's ``translation_edit_rate(hyp, ref)`` with its whole trace (and an optional work budget)."""
    n, m = len(hyp), len(ref)
    identity = tuple(range(n))
    if m == 0:
        extra = tuple(Edit(EditOp.INSERT, i, None) for i in range(n))
        return PairTrace(n, 0, (), identity, extra, n, 0, False, False)
    if n == 0:
        missing = tuple(Edit(EditOp.DELETE, None, j) for j in range(m))
        return PairTrace(m, m, (), identity, missing, m, 0, False, False)

    vocab: dict[str, int] = {}
    ref_ids = [vocab.setdefault(w, len(vocab)) for w in ref]
    cur = [vocab.setdefault(w, len(vocab)) for w in hyp]
    ref_positions: dict[int, list[int]] = {}
    for j, w in enumerate(ref_ids):
        ref_positions.setdefault(w, []).append(j)

    ratio = m / n  # sacrebleu's float expressions, so that the band agrees with its floor() on every row
    beam = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
    # The band covers the whole matrix: banded and unrestricted DP are the same thing.
    full = math.floor(n * ratio) <= beam and (n == 1 or math.floor(ratio) + beam >= m + 1)
    # A path of cost d stays within d cells of the pseudo-diagonal, so when the unrestricted distance is at most
    # beam − 2 (one cell spare for floor() rounding) every optimal path, and every DP tie the traceback looks at,
    # lies inside the band: banded distance, banded cells on those paths and the traceback are all unchanged.
    exact_up_to = beam - 2
    use_bits = full or m <= _BITS_LIMIT
    bits = _Bits(ref_ids) if use_bits else None
    band: _Band | None = None
    meter = _Meter((budget or SearchBudget()).units)
    bits_row = _BITS_ROW + m // 2
    order = list(identity)
    shifts: list[ShiftStep] = []
    checked = 0
    capped = exhausted = False
    known: int | None = None  # banded distance of ``cur`` when already known from the previous round
    next_base: np.ndarray | None = None  # its banded rows, when the previous round's batch gave them cheaply
    while True:
        checkpoint()  # a round of a long line takes a while: let the caller stop here
        base: np.ndarray | None = None
        exact = False
        # the contrapositive of the bound above: a banded distance > beam − 2 means an unrestricted one too,
        # so the bit vectors would be of no use this round
        have_bits = bits is not None and (full or known is None or known <= exact_up_to)
        if have_bits:
            vrows, scores = bits.rows(cur)  # type: ignore[union-attr]
            meter.charge(n * bits_row)
            exact = full or scores[n] <= exact_up_to
        if exact:
            distance = scores[n]
            steps = _bit_traceback(vrows, cur, ref_ids, distance)
        else:
            band = band or _Band(n, ref_ids)
            if next_base is not None:
                base = next_base
            else:
                base = _base_rows(band, np.asarray(cur, dtype=np.int64))
                meter.charge(n * (_NUMPY_ROW + _CELL * band.W))
            distance = int(base[n, band.final_column()])
            steps = _banded_traceback(band, base, cur, ref_ids)
        next_base = None
        align, ref_err, hyp_err = _alignment_maps(steps, n, m)
        cands, checked = _candidates(cur, ref_ids, ref_positions, align, ref_err, hyp_err, checked)
        meter.charge((n + m) * _STEP)
        if checked >= MAX_SHIFT_CANDIDATES:
            capped = True  # sacrebleu discards this round's shift, whatever it would gain
            break
        if not cands:
            break
        # Evaluate every candidate: bit vectors from the shared prefix when that provably gives the banded
        # value, the banded numpy batch for the rest. Stop (keeping the shifts so far) if the budget runs out.
        dists = [0] * len(cands)
        settled: dict[int, int] = {}
        hard: list[int] = []
        for c, (s, length, t) in enumerate(cands):
            checkpoint()
            # a shift of L words changes the distance by at most 2L, so some candidates cannot be within reach
            if not have_bits or not (full or distance - 2 * length <= exact_up_to):
                hard.append(c)
                continue
            p = min(s, t)
            if not meter.charge((n - p) * bits_row):
                break
            d = bits.distance(  # type: ignore[union-attr]
                _perform_shift(cur, s, length, t), p, vrows[p][0], vrows[p][1], scores[p]
            )
            if full or d <= exact_up_to:
                dists[c] = d
            else:
                hard.append(c)
        if meter.left < 0:
            exhausted = True
            break
        if hard:
            band = band or _Band(n, ref_ids)
            if base is None:
                base = _base_rows(band, np.asarray(cur, dtype=np.int64))
                meter.charge(n * (_NUMPY_ROW + _CELL * band.W))
            batch = _batch_distances(band, base, cur, [cands[c] for c in hard], meter)
            if batch is None or meter.left < 0:
                exhausted = True
                break
            for c, d, row in zip(hard, batch[0].tolist(), batch[1].tolist(), strict=True):
                dists[c] = int(d)
                settled[c] = row
        best_key: tuple[int, int, int, int] | None = None
        best = 0
        for c, (s, length, t) in enumerate(cands):
            key = (distance - dists[c], length, -s, -t)
            if best_key is None or key > best_key:
                best_key, best = key, c
        assert best_key is not None
        if best_key[0] <= 0:
            break
        s, length, t = cands[best]
        new_order = _perform_shift(order, s, length, t)
        dest = t if t < s else (t - length if t > s + length else t)
        shifts.append(ShiftStep(s, length, t, dest, tuple(order), tuple(new_order), distance, distance - best_key[0]))
        order = new_order
        cur = _perform_shift(cur, s, length, t)
        known = distance - best_key[0]
        if best in settled and base is not None and band is not None:
            first = min(s, t)
            next_base = _rebase(band, base, cur, first, settled[best])
            meter.charge((settled[best] - first) * (_NUMPY_ROW + _CELL * band.W) + n * band.W * _CELL)
    return PairTrace(
        edits=len(shifts) + distance,
        ref_len=m,
        shifts=tuple(shifts),
        order=tuple(order),
        alignment=tuple(Edit(op, h, r) for op, h, r in steps),
        distance=distance,
        candidates=checked,
        candidate_cap_hit=capped,
        budget_exhausted=exhausted,
        work=meter.spent,
    )
