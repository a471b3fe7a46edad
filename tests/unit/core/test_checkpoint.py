"""Stop reaches inside one long segment: while stats() runs with a progress callback, long loops (TER's shift
search, compiled or pure) report the segments done so far again, so a callback that raises (the app's Stop)
ends the segment instead of waiting for it."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext

import pytest

from metrics.core import checkpoint as beats
from metrics.core.checkpoint import Heartbeat, beating, checkpoint
from metrics.core.registry import create
from metrics.kernels import kernel, pure_python


class _Stop(Exception):
    pass


def test_heartbeat_repeats_the_last_count_at_most_every_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(beats.time, "monotonic", lambda: now[0])
    heard: list[int] = []
    heartbeat = Heartbeat(heard.append)
    heartbeat(3)
    heartbeat.beat()  # no time has passed
    now[0] += 1.5 * beats.INTERVAL
    heartbeat.beat()
    heartbeat.beat()
    assert heard == [3, 3]


def test_checkpoint_reaches_only_the_running_stats() -> None:
    heard: list[int] = []
    checkpoint()  # nobody listens: nothing happens
    with beating(heard.append) as heartbeat:
        heartbeat(2)
        time.sleep(beats.INTERVAL)
        checkpoint()
    checkpoint()
    assert heard == [2, 2]


def _adversarial(words: int) -> tuple[str, str]:
    """Ten distinct words over and over, against them reversed: every position is a shift candidate, and the
    compiled search of one segment runs for seconds (2.3 s of CPU for 2,400 words)."""
    hyp = " ".join("abcdefghij"[i % 10] for i in range(words))
    ref = " ".join("jihgfedcba"[i % 10] for i in range(words))
    return hyp, ref


@pytest.mark.parametrize("path", ["compiled", "pure"])
def test_a_raising_progress_stops_ter_inside_its_first_segment(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no interval between reports, the first one comes from inside segment 1: its search checks in."""
    if path == "compiled" and kernel("ter") is None:
        pytest.skip("the TER kernel is not built")
    monkeypatch.setattr(beats, "INTERVAL", 0.0)
    hyp, ref = _adversarial(300)
    heard: list[int] = []

    def progress(done: int) -> None:
        heard.append(done)
        raise _Stop  # the first report is a repeat from inside segment 1 (done = 0): stop there

    context: AbstractContextManager[None] = pure_python() if path == "pure" else nullcontext()
    with context, pytest.raises(_Stop):
        create("ter").stats([hyp, "a b"], [[ref, "a b"]], progress)
    assert heard == [0]


def _stopped_after_0_3_s(metric_id: str, hyp: str, ref: str) -> list[int]:
    """The progress counts ``metric_id`` reported on one segment, its callback raising once 0.3 s have passed."""
    started = time.monotonic()
    heard: list[int] = []

    def progress(done: int) -> None:
        heard.append(done)
        if time.monotonic() - started > 0.3:
            raise _Stop

    with pytest.raises(_Stop):
        create(metric_id).stats([hyp], [[ref]], progress)
    return heard


def test_stop_ends_a_long_compiled_search_within_a_fraction_of_it() -> None:
    """The slowest TER segment within the limit (2,500 adversarial words, seconds of compiled search) stops
    within about INTERVAL plus 16 candidates once the callback raises."""
    if kernel("ter") is None:
        pytest.skip("the TER kernel is not built")
    hyp, ref = _adversarial(2_500)
    heard = _stopped_after_0_3_s("ter", hyp, ref)
    assert heard and set(heard) == {0}  # reports from inside the segment (done = 0), the last one raised


def test_stop_ends_a_long_eed_pair_between_rows() -> None:
    """EED aligns a pair of up to max_cells characters (4,000 × 4,000: seconds of numpy rows): a raising progress
    ends it from inside the segment."""
    hyp = "abcdefgh " * 450
    ref = "hgfedcba " * 450
    heard = _stopped_after_0_3_s("eed", hyp, ref)
    assert heard and set(heard) == {0}  # it raised inside the segment, before it was done
