"""Which registered metrics this installation can run (a family's module may need optional data)."""

from __future__ import annotations

from functools import cache

from metrics.core.registry import SPECS, metric_class


@cache
def available_metrics() -> tuple[str, ...]:
    ids = []
    for metric_id in SPECS:
        try:
            metric_class(metric_id)
        except (ImportError, AttributeError):
            continue
        ids.append(metric_id)
    return tuple(ids)
