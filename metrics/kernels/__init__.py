"""Compiled kernels (Cython, built by ``pip install``) that compute statistics rows faster, and the switch to the
pure-Python path.

Every kernel computes rows bit-identical to its metric's pure-Python code, which stays the source of every
explanation; tests compare the two on real data. ``SCORELENS_PURE=1`` in the environment, or :func:`pure_python`
around a call, forces the pure path (as does a missing build: the numbers never depend on it, only the speed).
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TypeVar

T = TypeVar("T")

_forced_pure = os.environ.get("SCORELENS_PURE", "") not in ("", "0")
_loaded: dict[str, ModuleType | None] = {}


def kernel(name: str) -> ModuleType | None:
    """The compiled module ``metrics.kernels._<name>``, or None on the pure path."""
    if _forced_pure:
        return None
    if name not in _loaded:
        try:
            _loaded[name] = importlib.import_module(f"metrics.kernels._{name}")
        except ImportError:
            _loaded[name] = None
    return _loaded[name]


@contextmanager
def pure_python() -> Iterator[None]:
    """Compute with the pure-Python code inside the block (for tests and comparisons)."""
    global _forced_pure
    before = _forced_pure
    _forced_pure = True
    try:
        yield
    finally:
        _forced_pure = before


def processors() -> int:
    """The processors this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def in_threads(work: Callable[[int], T], parts: int) -> list[T]:
    """``[work(0), …, work(parts - 1)]``, part 0 in this thread and each other part in a thread of its own, for
    kernels that release the GIL. The threads are started and joined here, so none outlives the call (a process
    may fork after it); the first part's exception, in part order, is raised."""
    results: list[T | None] = [None] * parts
    errors: list[BaseException | None] = [None] * parts

    def run(k: int) -> None:
        try:
            results[k] = work(k)
        except BaseException as err:  # re-raised below, in the caller's thread
            errors[k] = err

    threads = [threading.Thread(target=run, args=(k,), daemon=True) for k in range(1, parts)]
    for thread in threads:
        thread.start()
    run(0)
    for thread in threads:
        thread.join()
    for error in errors:
        if error is not None:
            raise error
    return results  # type: ignore[return-value]  # every part ran without an error
