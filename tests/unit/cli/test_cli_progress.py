"""The CLI's progress bar: only on a terminal, only for a run long enough to need one, erased at the end."""

from __future__ import annotations

import io

from metrics.cli.progress import ProgressBar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _clock(times):
    values = iter(times)
    return lambda: next(values)


def test_drawn_on_a_terminal_after_the_delay_and_erased():
    stream = _Terminal()
    bar = ProgressBar(stream, delay=1.0, interval=0.1, width=10, clock=_clock([0.0, 0.5, 1.2, 1.25, 2.0, 3.0]))
    bar(0.1, "BLEU on A")  # 0.5 s: too early, nothing drawn
    assert stream.getvalue() == ""
    bar(0.5, "chrF2 on A")  # 1.2 s
    assert stream.getvalue() == "\r[#####.....]  50% chrF2 on A"
    bar(0.6, "TER on A")  # 1.25 s: within the redraw interval
    bar(1.0, "done")  # 2.0 s
    assert stream.getvalue().endswith("\r[##########] 100% done" + " " * 6)
    bar.close()
    assert stream.getvalue().endswith("\r" + " " * len("[##########] 100% done" + " " * 6) + "\r")


def test_nothing_reaches_a_pipe_or_a_file():
    stream = io.StringIO()
    bar = ProgressBar(stream, delay=0.0, clock=_clock([0.0, 5.0, 6.0]))
    bar(0.5, "BLEU on A")
    bar(1.0, "done")
    bar.close()
    assert stream.getvalue() == ""
