"""The metrics' memo (metrics.core.cache.BoundedCache) is bounded by entries and by the text in its keys, so a few
long uploads cannot make a metric the app keeps across sessions hold gigabytes."""

from __future__ import annotations

from metrics.core.cache import BoundedCache, key_characters


def test_key_characters_counts_the_text_in_a_key() -> None:
    assert key_characters("abc") == 3
    assert key_characters(("ab", "cde", 7)) == 5
    assert key_characters("") == 1 and key_characters(42) == 1


def test_long_keys_empty_the_memo_before_it_holds_more_text_than_allowed() -> None:
    cache: BoundedCache[str, int] = BoundedCache(limit=100, characters=10)
    cache["abcd"] = 1
    cache["efgh"] = 2
    cache["abcd"] = 3  # a key already held adds nothing
    assert dict(cache) == {"abcd": 3, "efgh": 2}
    cache["ijk"] = 4  # 4 + 4 + 3 > 10: emptied first
    assert dict(cache) == {"ijk": 4}
    assert cache.get_or_make("lmnopqr", lambda: 5) == 5  # 3 + 7 = 10: fits
    assert dict(cache) == {"ijk": 4, "lmnopqr": 5}
    cache.clear()
    cache["0123456789"] = 6  # the count restarts after clear()
    assert dict(cache) == {"0123456789": 6}


def test_many_short_keys_still_stop_at_the_entry_limit() -> None:
    cache: BoundedCache[int, int] = BoundedCache(limit=3)
    for k in range(4):
        cache[k] = k
    assert dict(cache) == {3: 3}
