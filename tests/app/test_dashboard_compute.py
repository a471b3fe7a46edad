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


def _page() -> None:
    """A page asking for three results through the pipeline; the test sets what the session holds."""
    import streamlit as st

    from dashboard.compute import LRU, Job, NotComputed, report, run_cached

    store = st.session_state.setdefault("store", LRU(8))
    calls = st.session_state.setdefault("calls", [])
    seconds = st.session_state.get("seconds", {})

    def job(item: str) -> Job[str]:
        def run() -> str:
            calls.append(item)
            report(0.5, f"{item}: 1 of 2 segments")
            return item.upper()

        estimate = (lambda: seconds[item]) if item in seconds else None
        return Job(("k", item), f"work on {item}", run, estimate)

    tolerant = st.session_state.get("tolerant", True)
    found, failed = run_cached(store, {i: job(i) for i in "abc"}, "Working", (NotComputed,) if tolerant else ())
    st.session_state["found"] = dict(found)
    st.session_state["failed"] = {item: str(err) for item, err in failed.items()}
    st.write("the page goes on")


def _session(**preset: object):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_page, default_timeout=30)
    for key, value in preset.items():
        at.session_state[key] = value
    return at.run()


def test_a_stopped_result_is_left_out_and_computed_on_continue():
    from dashboard.keys import STOPPED

    at = _session(**{STOPPED: {("k", "b")}})
    assert at.session_state["found"] == {"a": "A", "c": "C"} and at.session_state["failed"] == {"b": "stopped"}
    assert [i.value.replace("\\", "") for i in at.info] == ["Working was stopped; not computed: work on b."]
    at.button[0].click().run()
    assert at.session_state["found"] == {"a": "A", "b": "B", "c": "C"} and at.session_state["calls"] == ["a", "c", "b"]
    assert not at.info and not at.session_state[STOPPED]


def test_long_work_waits_for_the_users_go_and_short_work_does_not():
    at = _session(seconds={"b": 20.0, "c": 100.0})
    assert at.session_state["found"] == {"a": "A"}
    assert set(at.session_state["failed"]) == {"b", "c"}
    warning = at.warning[0].value.replace("\\", "")
    assert "expected to take about 2 minutes in all" in warning
    assert "work on b (20 seconds), work on c (1.7 minutes)" in warning
    at.button[0].click().run()
    assert at.session_state["found"] == {"a": "A", "b": "B", "c": "C"} and not at.warning
    quick = _session(seconds={"b": 20.0, "c": 30.0})
    assert quick.session_state["found"] == {"a": "A", "b": "B", "c": "C"} and not quick.warning


def test_a_caller_that_needs_every_result_ends_the_page_after_saying_why():
    from dashboard.keys import STOPPED

    at = _session(tolerant=False, **{STOPPED: {("k", "a")}})
    assert "found" not in at.session_state and not [m for m in at.markdown if "goes on" in m.value]
    assert at.info and at.button[0].label == "Continue"


def test_two_sessions_asking_for_one_missing_result_compute_it_once():
    import threading
    import time

    store, calls, results = LRU(8), [], []

    def slow() -> int:
        calls.append(1)
        time.sleep(0.6)
        return 42

    def session() -> None:
        found, _ = run_cached(store, {0: Job("shared", "shared", slow)}, "Working")
        results.append(found[0])

    threads = [threading.Thread(target=session) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert results == [42, 42, 42] and calls == [1] and store._claims == {}


def test_duration_text():
    from dashboard.compute import duration_text

    assert [duration_text(s) for s in (0.2, 59, 100, 3000, 7200)] == [
        "1 second",
        "59 seconds",
        "1.7 minutes",
        "50 minutes",
        "2 hours",
    ]


def test_the_progress_bar_and_its_stop_button_go_when_the_work_is_done():
    """Computed results leave no bar behind ("result 3 of 3" stayed above the evidence once: a container's
    ``empty()`` adds an element to it instead of clearing it)."""
    at = _session()
    assert at.session_state["found"] == {"a": "A", "b": "B", "c": "C"}
    assert not at.get("progress") and not at.button
    assert [m.value for m in at.markdown] == ["the page goes on"]
