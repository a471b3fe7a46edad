"""ScoreLens metrics core: exact-parity text-generation metrics with the evidence behind every score.

Standalone: imports neither streamlit, plotly nor pandas. Start with :func:`metrics.core.registry.create`.
"""

from metrics.core.base import Metric, SegmentStats
from metrics.core.registry import SPECS, create

__all__ = ["Metric", "SegmentStats", "SPECS", "create"]
__version__ = "0.1.0"
