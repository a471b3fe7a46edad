"""The dashboard's one compute pipeline: content-keyed, process-wide stores, and the jobs that fill them under a
single progress bar that can be stopped.

Every result the pages show (scores, significance reports, correlations, explanations) is looked up by a key that
names its content (metric, options, references, the outputs concerned), so a rerun, a page switch or a renamed
system is a lookup, and only what is missing is computed — under one progress bar, drawn only then.

Long work stays in the user's hands:

* progress goes by segments, not only by result: a job reports where it is through :func:`report` (scoring passes
  it to :func:`metrics.evaluate.evaluate`, which hears it from the metric segment by segment);
* a Stop button beside the bar ends the work at the next report; every result finished before is kept, and the
  ones left are not computed again until the user says so (a Continue button where they were asked for);
* a job that knows it may take long (``Job.expected_seconds``; TER on long segments) is not started before the
  user says so when the pending ones together are expected to pass ``CONFIRM_SECONDS``; the rest of the page is
  computed and shown meanwhile.

A caller that can do without some results lists :class:`NotComputed` among its ``expected`` errors and gets them
as failures; for any other caller the page ends where the results were asked for (``st.stop``), after saying why.
Two sessions asking for the same missing result at once compute it once: the second waits for the first.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

import streamlit as st

from dashboard.keys import CONFIRMED, ESTIMATES, STOPPED
from rendering.text import escape_markdown

Item = TypeVar("Item", bound=Hashable)
T = TypeVar("T")

CONFIRM_SECONDS = 60.0  # pending work expected to take longer waits for the user's go
REFRESH_SECONDS = 0.2  # the progress bar is redrawn (and a Stop click noticed) at most this often


class NotComputed(Exception):
    """A result not computed in this run: the user stopped it, or it is expected to take long and waits for a go."""


class LRU:
    """A small thread-safe LRU map; Streamlit serves several sessions from threads of one process."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._claims: dict[Hashable, tuple[threading.Lock, list[int]]] = {}

    def get(self, key: Hashable) -> Any:
        """The value stored under ``key``, ``None`` when there is none (values are never ``None``)."""
        with self._lock:
            if key not in self._data:
                return None
            self._data.move_to_end(key)
            return self._data[key]

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._data

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    @contextmanager
    def claim(self, key: Hashable, waiting: Callable[[], None]) -> Iterator[None]:
        """Hold ``key`` while its value is computed: another session claiming it meanwhile waits, calling
        ``waiting`` every ``REFRESH_SECONDS`` (which may raise to give up), and then finds the value stored."""
        with self._lock:
            lock, holders = self._claims.setdefault(key, (threading.Lock(), [0]))
            holders[0] += 1
        try:
            while not lock.acquire(timeout=REFRESH_SECONDS):
                waiting()
            try:
                yield
            finally:
                lock.release()
        finally:
            with self._lock:
                holders[0] -= 1
                if not holders[0]:
                    del self._claims[key]


@dataclass(frozen=True)
class Job(Generic[T]):
    """How to get one result: its content ``key`` in the store, the progress text while it runs, ``run``, and —
    for work whose cost grows fast with the data — ``expected_seconds`` (``None`` from it: no estimate)."""

    key: Hashable
    message: str
    run: Callable[[], T]
    expected_seconds: Callable[[], float | None] | None = None


_REPORT: ContextVar[Callable[[float, str], None] | None] = ContextVar("scorelens_report", default=None)


def report(fraction: float, message: str) -> None:
    """Tell the progress bar how far the running job is (``fraction`` of it, ``message`` says where); a no-op
    outside :func:`run_cached`. This is where a Stop click ends the job (Streamlit raises here)."""
    show = _REPORT.get()
    if show is not None:
        show(fraction, message)


def run_cached(
    store: LRU, jobs: Mapping[Item, Job[T]], label: str, expected: tuple[type[Exception], ...] = ()
) -> tuple[dict[Item, T], dict[Item, Exception]]:
    """(value of every item that has one, in the order of ``jobs``; the ``expected`` error of every item whose job
    raised one). Stored values are read once and kept; the missing ones are computed under one progress bar
    titled ``label`` (nothing is drawn when all are stored) and stored, so no eviction by another session between
    a check and a read can lose one. An error not in ``expected`` is a bug and propagates; results held back (see
    the module docstring) are :class:`NotComputed` failures, or end the page if that is not ``expected``."""
    found: dict[Item, T] = {}
    missing: list[Item] = []
    for item, job in jobs.items():
        value = store.get(job.key)
        if value is None:
            missing.append(item)
        else:
            found[item] = value
    failed: dict[Item, Exception] = {}
    if missing:
        held = _held_back(jobs, missing, label)
        if held and not any(issubclass(NotComputed, kind) for kind in expected):
            st.stop()
        failed.update(held)
        _compute(store, jobs, [item for item in missing if item not in held], label, expected, found, failed)
    return {item: found[item] for item in jobs if item in found}, failed


def _keys_digest(keys: Sequence[Hashable]) -> str:
    """A widget-key suffix naming a set of results (stable within the server process)."""
    return f"{hash(tuple(keys)) & 0xFFFFFFFF:08x}"


def _mark(name: str, keys: Sequence[Hashable], add: bool) -> None:
    """Widget callback: add ``keys`` to (or take them out of) the session's set ``name``."""
    marked = set(st.session_state.get(name, ()))
    st.session_state[name] = marked | set(keys) if add else marked - set(keys)


def _expected_seconds(job: Job[Any]) -> float | None:
    if job.expected_seconds is None:
        return None
    estimates = st.session_state.setdefault(ESTIMATES, {})
    if job.key not in estimates:
        if len(estimates) > 4096:
            estimates.clear()
        estimates[job.key] = job.expected_seconds()
    return estimates[job.key]


def duration_text(seconds: float) -> str:
    """``40 seconds``, ``3 minutes``, ``1.5 hours``: how long, to two significant figures at most."""
    if seconds < 90:
        whole = max(1, round(seconds))
        return f"{whole} second{'s' * (whole > 1)}"
    if seconds < 90 * 60:
        return f"{seconds / 60:.2g} minutes"
    return f"{seconds / 3600:.2g} hours"


def _held_back(jobs: Mapping[Item, Job[Any]], missing: Sequence[Item], label: str) -> dict[Item, Exception]:
    """The missing results not to compute now — stopped by the user, or long and not yet asked for — each as a
    :class:`NotComputed`, after saying so with a button that lets them be computed."""
    held: dict[Item, Exception] = {}
    stopped_keys = set(st.session_state.get(STOPPED, ()))
    stopped = [item for item in missing if jobs[item].key in stopped_keys]
    if stopped:
        keys = [jobs[item].key for item in stopped]
        listing = ", ".join(jobs[item].message for item in stopped)
        st.info(escape_markdown(f"{label} was stopped; not computed: {listing}."), icon=":material/stop_circle:")
        st.button(
            "Continue",
            key=f"compute_resume:{_keys_digest(keys)}",
            on_click=_mark,
            args=(STOPPED, keys, False),
            help="Compute what was stopped (what finished before is kept).",
        )
        held.update({item: NotComputed("stopped") for item in stopped})
    confirmed = set(st.session_state.get(CONFIRMED, ()))
    estimates = {
        item: seconds
        for item in missing
        if item not in held and jobs[item].key not in confirmed and (seconds := _expected_seconds(jobs[item]))
    }
    if sum(estimates.values()) >= CONFIRM_SECONDS:
        keys = [jobs[item].key for item in estimates]
        listing = ", ".join(f"{jobs[item].message} ({duration_text(s)})" for item, s in estimates.items())
        st.warning(
            escape_markdown(
                f"{label}: expected to take about {duration_text(sum(estimates.values()))} in all, estimated from "
                f"the segments' lengths — {listing}. Everything else is shown meanwhile; start it here (it can be "
                "stopped, and what finishes is kept) or choose other metrics in the sidebar."
            ),
            icon=":material/hourglass_top:",
        )
        st.button(
            "Start it",
            key=f"compute_confirm:{_keys_digest(keys)}",
            on_click=_mark,
            args=(CONFIRMED, keys, True),
        )
        held.update({item: NotComputed("waits for the user's go") for item in estimates})
    return held


def _compute(
    store: LRU,
    jobs: Mapping[Item, Job[T]],
    todo: Sequence[Item],
    label: str,
    expected: tuple[type[Exception], ...],
    found: dict[Item, T],
    failed: dict[Item, Exception],
) -> None:
    """Compute ``todo`` in order under one progress bar with a Stop button, storing each value as it comes."""
    if not todo:
        return
    keys = [jobs[item].key for item in todo]
    holder = st.empty()  # a container's own .empty() adds an empty element to it; a placeholder's clears it
    frame = holder.container()
    bar = frame.progress(0.0, text=escape_markdown(label))
    frame.button(
        "Stop computing",
        key=f"compute_stop:{_keys_digest(keys)}",
        on_click=_mark,
        args=(STOPPED, keys, True),
        help="Stop computing; what finished is kept.",
    )
    shown_at = 0.0
    try:
        for k, item in enumerate(todo):
            job = jobs[item]

            def show(fraction: float, message: str, k: int = k, force: bool = False) -> None:
                nonlocal shown_at
                if force or time.monotonic() - shown_at >= REFRESH_SECONDS:
                    shown_at = time.monotonic()
                    where = f" · result {k + 1} of {len(todo)}" if len(todo) > 1 else ""
                    text = escape_markdown(f"{label}: {message}{where}")
                    bar.progress(min(max((k + fraction) / len(todo), 0.0), 1.0), text=text)

            show(0.0, job.message, force=True)
            with store.claim(job.key, waiting=partial(show, 0.0, f"{job.message} (another session computes it)")):
                value = store.get(job.key)
                if value is None:
                    token = _REPORT.set(show)
                    try:
                        value = job.run()
                    except expected as err:
                        failed[item] = err
                        continue
                    finally:
                        _REPORT.reset(token)
                    store.put(job.key, value)
            found[item] = value
    finally:
        holder.empty()
