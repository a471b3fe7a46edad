"""Tables (pandas DataFrames) built from an :class:`metrics.evaluate.Evaluation`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.evaluate import Evaluation


def scores_table(evaluation: Evaluation) -> pd.DataFrame:
    """Systems × metrics corpus scores, columns labelled with the metrics' display names."""
    rows = {r.name: {evaluation.metrics[m].name: r.scores[m] for m in evaluation.metrics} for r in evaluation.systems}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "system"
    return frame


def best_per_column(evaluation: Evaluation) -> dict[str, str]:
    """Display name of each metric → the best system under it (lowest for error rates)."""
    best = {}
    for metric_id, metric in evaluation.metrics.items():
        pick = min if not metric.higher_is_better else max
        best[metric.name] = pick(evaluation.systems, key=lambda r, m=metric_id: r.scores[m]).name
    return best


def segment_table(evaluation: Evaluation, systems: Sequence[str], metric_id: str) -> pd.DataFrame:
    """Segment scores of ``systems`` under one metric, one column per system, rows numbered from 1."""
    data = {name: evaluation.system(name).segment_scores[metric_id] for name in systems}
    frame = pd.DataFrame(data)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="segment")
    return frame
