"""N-gram counting shared by the n-gram metrics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

Ngram = tuple[str, ...]


def ngram_counts(tokens: Sequence[str], min_order: int, max_order: int) -> Counter[Ngram]:
    """Counts of all n-grams of ``tokens`` with ``min_order <= n <= max_order``, as token tuples."""
    counts: Counter[Ngram] = Counter()
    size = len(tokens)
    for n in range(min_order, max_order + 1):
        counts.update(tuple(tokens[i : i + n]) for i in range(size - n + 1))
    return counts


def ngram_positions(tokens: Sequence[str], n: int) -> dict[Ngram, list[int]]:
    """Start index of every occurrence of every n-gram of order ``n``, in order of appearance."""
    positions: dict[Ngram, list[int]] = {}
    for i in range(len(tokens) - n + 1):
        positions.setdefault(tuple(tokens[i : i + n]), []).append(i)
    return positions
