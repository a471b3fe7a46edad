"""Unit-cost Levenshtein distance over any sequences of hashable symbols (characters, words), and an alignment.

The distance uses the bit-parallel algorithm of Myers (1999) in Hyyrö's formulation for global edit distance
(H. Hyyrö, "A bit-vector algorithm for computing Levenshtein and Damerau edit distances", 2003), on Python's
arbitrary-size integers: one pass over the text with a handful of integer operations per symbol, whatever the
pattern's length. That keeps a 60 000-character line at about a second where a Python dynamic program would take
hours, and makes CharacTER's many candidate-shift evaluations cheap.

The alignment (for explanations only) is a plain dynamic program vectorized row by row with numpy.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np


class EditOp(Enum):
    """One step of an alignment of a hypothesis with a reference.

    ``INSERT`` is a reference symbol the hypothesis lacks; ``DELETE`` a hypothesis symbol the reference lacks.
    """

    MATCH = "="
    SUBSTITUTE = "S"
    INSERT = "I"
    DELETE = "D"


@dataclass(frozen=True)
class Edit:
    """An alignment step; ``hyp_index``/``ref_index`` are ``None`` on the side the step does not consume."""

    op: EditOp
    hyp_index: int | None
    ref_index: int | None


class Pattern:
    """A fixed sequence (e.g. a reference) prepared for many distance queries against other sequences."""

    def __init__(self, symbols: Sequence[Hashable]) -> None:
        self.length = len(symbols)
        peq: dict[Hashable, int] = {}
        if self.length <= 512:
            for i, symbol in enumerate(symbols):
                peq[symbol] = peq.get(symbol, 0) | (1 << i)
        else:
            # OR-ing 1 << i into a growing integer is quadratic on long patterns; set bits in a buffer instead.
            positions: dict[Hashable, list[int]] = {}
            for i, symbol in enumerate(symbols):
                positions.setdefault(symbol, []).append(i)
            size = (self.length + 7) // 8
            for symbol, where in positions.items():
                buffer = bytearray(size)
                for i in where:
                    buffer[i >> 3] |= 1 << (i & 7)
                peq[symbol] = int.from_bytes(buffer, "little")
        self._peq = peq
        self._mask = (1 << self.length) - 1
        self._high = 1 << (self.length - 1) if self.length else 0

    def distance(self, text: Sequence[Hashable]) -> int:
        """Levenshtein distance between the pattern and ``text`` (insert, delete, substitute: cost 1 each)."""
        m = self.length
        if m == 0:
            return len(text)
        peq, mask, high = self._peq, self._mask, self._high
        pv, mv, score = mask, 0, m
        for symbol in text:
            eq = peq.get(symbol, 0)
            xv = eq | mv
            xh = (((eq & pv) + pv) ^ pv) | eq
            ph = mv | ~(xh | pv)
            mh = pv & xh
            if ph & high:
                score += 1
            elif mh & high:
                score -= 1
            ph = (ph << 1) | 1
            mh <<= 1
            pv = (mh | ~(xv | ph)) & mask
            mv = ph & xv
        return score


def distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Levenshtein distance of two sequences; the longer one becomes the bit pattern (fewer Python steps)."""
    if len(a) < len(b):
        a, b = b, a
    return Pattern(a).distance(b)


def alignment_cells(hyp: Sequence[Hashable], ref: Sequence[Hashable]) -> int:
    """Size of the full matrix :func:`align` keeps in memory for a backtrace."""
    return (len(hyp) + 1) * (len(ref) + 1)


def align(hyp: Sequence[Hashable], ref: Sequence[Hashable]) -> tuple[Edit, ...]:
    """One minimum-cost alignment; the number of non-``MATCH`` steps equals :func:`distance`.

    Backtrace preference at equal cost: diagonal (match or substitution), then deletion, then insertion. Memory
    is (|hyp|+1)·(|ref|+1) small integers; callers bound it with :func:`alignment_cells`.
    """
    n, m = len(hyp), len(ref)
    dtype = np.int16 if max(n, m) < np.iinfo(np.int16).max else np.int32
    codes: dict[Hashable, int] = {}
    h = np.array([codes.setdefault(s, len(codes)) for s in hyp], dtype=np.int64)
    r = np.array([codes.setdefault(s, len(codes)) for s in ref], dtype=np.int64)
    table = np.empty((n + 1, m + 1), dtype=dtype)
    steps = np.arange(m + 1, dtype=dtype)
    table[0] = steps
    for i in range(1, n + 1):
        prev = table[i - 1]
        best = np.empty(m + 1, dtype=dtype)
        best[0] = i
        best[1:] = np.minimum(prev[1:] + 1, prev[:-1] + (r != h[i - 1]).astype(dtype))
        # Insertions run along the row: D[j] = min_k≤j (best[k] + j − k) = j + cummin(best − index).
        table[i] = np.minimum.accumulate(best - steps) + steps
    edits: list[Edit] = []
    i, j = n, m
    while i > 0 or j > 0:
        here = table[i, j]
        if i > 0 and j > 0:
            same = hyp[i - 1] == ref[j - 1]
            if table[i - 1, j - 1] + (0 if same else 1) == here:
                edits.append(Edit(EditOp.MATCH if same else EditOp.SUBSTITUTE, i - 1, j - 1))
                i, j = i - 1, j - 1
                continue
        if i > 0 and table[i - 1, j] + 1 == here:
            edits.append(Edit(EditOp.DELETE, i - 1, None))
            i -= 1
        else:
            edits.append(Edit(EditOp.INSERT, None, j - 1))
            j -= 1
    edits.reverse()
    return tuple(edits)
