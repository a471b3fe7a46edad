"""Where a long computation inside one segment lets its caller stop it.

A caller stops scoring by raising from the ``progress`` callback it gave :meth:`~metrics.core.base.Metric.stats`
(the app's Stop button does, at its next progress report). Progress is reported per segment, so one segment that
takes seconds (TER's shift search on a line near its :mod:`length limit <metrics.core.limits>`) would run to its
end first. Such loops call :func:`checkpoint`: while :meth:`Metric.stats` runs with a ``progress`` callback, that
reports the segments done so far again — at most every ``INTERVAL`` seconds, so it costs a clock read — and lets
whatever the callback raises end the segment. Outside ``stats`` (and in worker threads and processes, which do not
see the caller's context) it does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["INTERVAL", "Heartbeat", "beating", "checkpoint"]

INTERVAL = 0.1  # seconds between two reports from inside a segment: well under the app's 0.2 s redraw

_BEAT: ContextVar[Callable[[], None] | None] = ContextVar("scorelens_checkpoint", default=None)


class Heartbeat:
    """A ``progress`` callback that remembers the last count it passed on, so that :meth:`beat` can repeat it."""

    def __init__(self, progress: Callable[[int], None]) -> None:
        self._progress = progress
        self._done = 0
        self._last = time.monotonic()

    def __call__(self, done: int) -> None:
        self._done = done
        self._last = time.monotonic()
        self._progress(done)

    def beat(self) -> None:
        """Report the segments done so far again, if ``INTERVAL`` has passed since the last report."""
        now = time.monotonic()
        if now - self._last >= INTERVAL:
            self._last = now
            self._progress(self._done)


@contextmanager
def beating(progress: Callable[[int], None]) -> Iterator[Heartbeat]:
    """Within the block, :func:`checkpoint` reports to ``progress`` (through the :class:`Heartbeat` yielded,
    which the block passes on as its progress callback)."""
    heartbeat = Heartbeat(progress)
    token = _BEAT.set(heartbeat.beat)
    try:
        yield heartbeat
    finally:
        _BEAT.reset(token)


def checkpoint() -> None:
    """Let the caller of the running :meth:`~metrics.core.base.Metric.stats` stop it here (see the module
    docstring); a no-op when none listens."""
    beat = _BEAT.get()
    if beat is not None:
        beat()
