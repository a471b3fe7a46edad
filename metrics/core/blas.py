"""How long OpenBLAS's idle threads spin: set for the command line and the app before numpy loads OpenBLAS.

numpy's OpenBLAS starts a thread per further processor when it loads, and those threads busy-wait for work for
2**28 processor cycles (about 0.1 s) when it loads and after every product before they sleep. ScoreLens calls BLAS
rarely (bootstrap and word-accuracy products) and keeps the processors busy with its own kernel threads and forked
workers: the spinning cost every process about 0.15 s of CPU (a ROUGE-1 run on CNN/DailyMail took 0.58 s of CPU,
0.44 s without it) and competed with the work on a two-core machine. 2**20 cycles (under a millisecond) still keeps
the threads awake between the products of one loop; products still use every processor.
"""

from __future__ import annotations

import os

SPIN = "20"  # log2 of the cycles OpenBLAS's threads wait before they sleep (its own default: 28)


def shorten_blas_spin() -> None:
    """Set ``OPENBLAS_THREAD_TIMEOUT`` unless it is set already; OpenBLAS reads it once, when numpy loads it."""
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", SPIN)
