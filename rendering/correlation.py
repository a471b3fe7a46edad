"""The correlation table: how well each metric agrees with human judgments (:mod:`metrics.stats.correlation`).

One row per metric and level (segment: all judged (system, segment) pairs pooled; system: one point per system),
one column per coefficient with its 95 % bootstrap interval as text next to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from metrics.stats.correlation import Correlation

METHOD_LABELS = {"pearson": "Pearson", "spearman": "Spearman", "kendall": "Kendall τ-b"}
LEVEL_LABELS = {"segment": "segment", "system": "system"}


def interval_text(lo: float, hi: float) -> str:
    """``[lo, hi]`` to three decimals; empty when no resample gave a defined value."""
    return "" if np.isnan(lo) or np.isnan(hi) else f"[{lo:.3f}, {hi:.3f}]"


def correlation_table(correlations: Iterable[Correlation], labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Columns ``metric``, ``level``, ``n`` (points correlated), then per coefficient its value (a float, NaN when
    undefined, e.g. a constant side) and ``<coefficient> 95% CI``; rows in the order the correlations come.

    ``Correlation.metric`` is looked up in ``labels`` (metric id → display name) when given."""
    rows: dict[tuple[str, str], dict[str, object]] = {}
    for c in correlations:
        metric = labels.get(c.metric, c.metric) if labels else c.metric
        row = rows.setdefault((metric, c.level), {"metric": metric, "level": LEVEL_LABELS[c.level], "n": c.n})
        name = METHOD_LABELS[c.method]
        row[name] = c.value
        row[f"{name} 95% CI"] = interval_text(c.lo, c.hi)
    columns = ["metric", "level", "n"]
    for name in METHOD_LABELS.values():
        if any(name in row for row in rows.values()):
            columns += [name, f"{name} 95% CI"]
    frame = pd.DataFrame(list(rows.values()), columns=columns)
    for name in METHOD_LABELS.values():
        if name in frame:
            frame[name] = frame[name].astype(np.float64)
    return frame
