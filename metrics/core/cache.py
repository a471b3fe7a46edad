"""One bounded memo for the per-metric caches (reference preparations, stems, rows of repeated outputs).

Scoring a corpus meets the same references again and again (every system is scored against them), so each metric
keeps what it derived from a text. A long-running process (the app, a sweep over many corpora) must not grow
without bound: past ``limit`` entries, or past ``characters`` characters of text in its keys (what is derived from
a text grows with it, so a few long uploads weigh what many sentences do), the memo is emptied at once, which keeps
lookups at one dict access and costs only a re-derivation of what is still in use. The app keeps its metrics
across sessions, so these bounds are also what a closed session can leave behind.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

DEFAULT_LIMIT = 200_000
# Characters of text in the keys: 16 million (a hundred thousand 160-character sentences, or 47 uploads of one
# 343 KB line) keep a memo of tokens derived from them to a few hundred megabytes.
DEFAULT_CHARACTERS = 16_000_000


def key_characters(key: Hashable) -> int:
    """The characters of text in a key (a text, or a tuple holding texts); 1 for a key holding none."""
    if isinstance(key, str):
        return max(len(key), 1)
    if isinstance(key, tuple):
        return max(sum(len(part) for part in key if isinstance(part, str)), 1)
    return 1


class BoundedCache(dict[K, V], Generic[K, V]):
    """A ``dict`` that empties itself when an insertion would take it past ``limit`` entries or ``characters``
    characters of text in its keys (:func:`key_characters`)."""

    def __init__(self, limit: int = DEFAULT_LIMIT, characters: int = DEFAULT_CHARACTERS) -> None:
        super().__init__()
        if limit < 1 or characters < 1:
            raise ValueError(f"cache limits must be positive, not {limit} entries and {characters} characters")
        self.limit = limit
        self.characters = characters
        self._held = 0  # characters of the keys held

    def __setitem__(self, key: K, value: V) -> None:
        if key not in self:
            size = key_characters(key)
            if len(self) >= self.limit or self._held + size > self.characters:
                self.clear()
            self._held += size
        super().__setitem__(key, value)

    def clear(self) -> None:
        super().clear()
        self._held = 0

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The cached value for ``key``, made (and kept) on a miss."""
        try:
            return self[key]
        except KeyError:
            value = make()
            self[key] = value
            return value
