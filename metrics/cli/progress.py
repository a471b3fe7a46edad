"""A progress bar on standard error for long runs, drawn only on a terminal: pipes, files and tests see nothing."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


class ProgressBar:
    """``progress(fraction, message)`` as :func:`metrics.evaluate.evaluate` calls it, drawn as one line on
    ``stream`` when it is a terminal and the run has lasted ``delay`` seconds (a quick run shows nothing), redrawn
    at most every ``interval`` seconds, and erased by :meth:`close`."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        delay: float = 1.0,
        interval: float = 0.1,
        width: int = 30,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.delay, self.interval, self.width, self.clock = delay, interval, width, clock
        self.started = clock()
        self.drawn_at: float | None = None
        self.length = 0

    def __call__(self, fraction: float, message: str) -> None:
        now = self.clock()
        if not self.enabled or now - self.started < self.delay:
            return
        if self.drawn_at is not None and now - self.drawn_at < self.interval and fraction < 1:
            return
        filled = round(self.width * min(max(fraction, 0.0), 1.0))
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} {message}"[:100]
        self.stream.write("\r" + line.ljust(self.length))
        self.stream.flush()
        self.drawn_at, self.length = now, max(self.length, len(line))  # the width that shows on screen

    def close(self) -> None:
        """Erase the bar (if one was drawn), so what follows starts on a clean line."""
        if self.drawn_at is not None:
            self.stream.write("\r" + " " * self.length + "\r")
            self.stream.flush()
            self.drawn_at = None
