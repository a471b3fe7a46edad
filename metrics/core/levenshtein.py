"""Unit-cost Levenshtein distance over any sequences of hashable symbols (characters, words), and an alignment.

The distance is rapidfuzz's (bit-parallel Myers/Hyyrö in C++): a 40 000-character line takes well under a
second, and CharacTER's thousands of candidate-shift evaluations per sentence stay cheap.

The alignment (for explanations only) is a plain dynamic program vectorized row by row with numpy.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

from metrics.core.edits import Edit, EditOp


def distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Levenshtein distance (insert, delete, substitute: cost 1 each) of two strings or two symbol sequences.

    rapidfuzz's C++ implementation (bit-parallel, like python-Levenshtein which CharacTER uses). Symbol sequences
    are first mapped to small integers, so that no two different symbols can share a hash.
    """
    if isinstance(a, str) and isinstance(b, str):
        return Levenshtein.distance(a, b)
    codes: dict[Hashable, int] = {}
    return Levenshtein.distance(
        [codes.setdefault(s, len(codes)) for s in a], [codes.setdefault(s, len(codes)) for s in b]
    )


def alignment_cells(hyp: Sequence[Hashable], ref: Sequence[Hashable]) -> int:
    """Size of the full matrix :func:`align` keeps in memory for a backtrace."""
    return (len(hyp) + 1) * (len(ref) + 1)


def align(hyp: Sequence[Hashable], ref: Sequence[Hashable]) -> tuple[Edit, ...]:
    """One minimum-cost alignment; the number of non-``MATCH`` steps equals :func:`distance`.

    Backtrace preference at equal cost: diagonal (match or substitution), then a hypothesis symbol alone
    (``INSERT``), then a reference symbol alone (``DELETE``); see :class:`~metrics.core.edits.EditOp`. Memory
    is (|hyp|+1)·(|ref|+1) small integers; callers bound it with :func:`alignment_cells`.
    """
    n, m = len(hyp), len(ref)
    dtype = np.int16 if max(n, m) < np.iinfo(np.int16).max else np.int32
    codes: dict[Hashable, int] = {}
    h = np.array([codes.setdefault(s, len(codes)) for s in hyp], dtype=np.int64)
    r = np.array([codes.setdefault(s, len(codes)) for s in ref], dtype=np.int64)
    table = np.empty((n + 1, m + 1), dtype=dtype)
    steps: np.ndarray = np.arange(m + 1, dtype=dtype)
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
            edits.append(Edit(EditOp.INSERT, i - 1, None))
            i -= 1
        else:
            edits.append(Edit(EditOp.DELETE, None, j - 1))
            j -= 1
    edits.reverse()
    return tuple(edits)
