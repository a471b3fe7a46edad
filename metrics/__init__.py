"""ScoreLens metrics core: exact-parity text-generation metrics with the evidence behind every score.

Standalone: imports neither streamlit, plotly nor pandas. Start with :func:`metrics.core.registry.create`.

The names below load on first use, so that importing a subpackage (the command line) does not load numpy before
it has set up the process (:mod:`metrics.core.blas`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from metrics.core.base import Metric, SegmentStats
    from metrics.core.registry import SPECS, create

__all__ = ["Metric", "SegmentStats", "SPECS", "create"]
__version__ = "0.1.0"

_HOMES = {
    "Metric": "metrics.core.base",
    "SegmentStats": "metrics.core.base",
    "SPECS": "metrics.core.registry",
    "create": "metrics.core.registry",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'metrics' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
