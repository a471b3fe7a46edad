"""One bounded memo for the per-metric caches (reference preparations, stems, rows of repeated outputs).

Scoring a corpus meets the same references again and again (every system is scored against them), so each metric
keeps what it derived from a text. A long-running process (the app, a sweep over many corpora) must not grow
without bound: past ``limit`` entries the memo is emptied at once, which keeps lookups at one dict access and costs
only a re-derivation of what is still in use.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

DEFAULT_LIMIT = 200_000


class BoundedCache(dict[K, V], Generic[K, V]):
    """A ``dict`` that empties itself when an insertion would take it past ``limit`` entries."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError(f"cache limit must be positive, not {limit}")
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.limit and key not in self:
            self.clear()
        super().__setitem__(key, value)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The cached value for ``key``, made (and kept) on a miss."""
        try:
            return self[key]
        except KeyError:
            value = make()
            self[key] = value
            return value
