"""Compiled kernels (Cython, built by ``pip install``) that compute statistics rows faster, and the switch to the
pure-Python path.

Every kernel computes rows bit-identical to its metric's pure-Python code, which stays the source of every
explanation; tests compare the two on real data. ``SCORELENS_PURE=1`` in the environment, or :func:`pure_python`
around a call, forces the pure path (as does a missing build: the numbers never depend on it, only the speed).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

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
