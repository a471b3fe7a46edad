"""The dashboard's compute pipeline: stored results are read once, only missing ones run, expected errors are
collected per item and anything else propagates."""

from __future__ import annotations

import pytest

from dashboard.compute import LRU, Job, run_cached


def test_only_missing_items_run_and_results_keep_the_order_of_the_jobs():
    store = LRU(8)
    store.put(("b",), "stored b")
    ran: list[str] = []

    def job(item: str) -> Job[str]:
        def run() -> str:
            ran.append(item)
            return f"computed {item}"

        return Job((item,), item, run)

    found, failed = run_cached(store, {item: job(item) for item in "abc"}, "Working")
    assert list(found.items()) == [("a", "computed a"), ("b", "stored b"), ("c", "computed c")]
    assert ran == ["a", "c"] and failed == {}
    assert store.get(("a",)) == "computed a"
    found, _ = run_cached(store, {item: job(item) for item in "cab"}, "Working")
    assert list(found) == ["c", "a", "b"] and ran == ["a", "c"]  # all stored now: nothing runs


def test_a_value_evicted_after_it_was_computed_is_still_returned():
    store = LRU(1)
    jobs = {k: Job(k, str(k), lambda k=k: k * 10) for k in (1, 2, 3)}
    found, _ = run_cached(store, jobs, "Working")
    assert found == {1: 10, 2: 20, 3: 30} and 1 not in store and store.get(3) == 30


def test_expected_errors_are_collected_per_item_and_others_propagate():
    def bad() -> int:
        raise ValueError("no references")

    store = LRU(8)
    found, failed = run_cached(
        store, {"ok": Job("ok", "ok", lambda: 1), "bad": Job("bad", "bad", bad)}, "W", (ValueError,)
    )
    assert found == {"ok": 1} and str(failed["bad"]) == "no references" and "bad" not in store
    with pytest.raises(ValueError, match="no references"):
        run_cached(store, {"bad": Job("bad", "bad", bad)}, "W")
