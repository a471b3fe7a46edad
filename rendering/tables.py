"""Tables (pandas DataFrames) built from an :class:`metrics.core.evaluation.Evaluation` and the statistics on it.

Statistics are passed in as plain mappings so these functions work with or without the significance module:
``intervals[(system, metric_id)] = (lo, hi)``, ``pvalues[(system, metric_id)] = p`` against the baseline.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd
from pandas.io.formats.style import Styler

from metrics.core.evaluation import Evaluation
from metrics.reports.results import NoteGroup, display_names, note_groups
from metrics.reports.results import best_systems as best_of
from metrics.reports.results import metric_notes as evaluation_notes

Interval = tuple[float, float]
Key = tuple[str, str]


def metric_labels(evaluation: Evaluation) -> dict[str, str]:
    """Display name per metric id; ids are appended where two metrics share a name (e.g. two option sets)."""
    return display_names({m: metric.name for m, metric in evaluation.metrics.items()})


def scores_table(evaluation: Evaluation) -> pd.DataFrame:
    """Systems × metrics corpus scores, columns labelled with the metrics' display names."""
    labels = metric_labels(evaluation)
    rows = {r.name: {labels[m]: r.scores[m] for m in evaluation.metrics} for r in evaluation.systems}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "system"
    return frame


def best_systems(evaluation: Evaluation) -> dict[str, list[str]]:
    """Metric id → the best system(s) under it (lowest for error rates; all of them on an exact tie)."""
    return {
        metric_id: best_of({r.name: r.scores[metric_id] for r in evaluation.systems}, metric.higher_is_better)
        for metric_id, metric in evaluation.metrics.items()
    }


def best_per_column(evaluation: Evaluation) -> dict[str, str]:
    """Display name of each metric → the (first) best system under it."""
    labels = metric_labels(evaluation)
    return {labels[m]: names[0] for m, names in best_systems(evaluation).items()}


def ranked_systems(evaluation: Evaluation, metric_id: str) -> list[str]:
    """System names best first under ``metric_id`` (highest first, lowest for error rates); ties and undefined
    (NaN) scores keep input order, undefined last."""
    higher = evaluation.metrics[metric_id].higher_is_better
    values = {r.name: float(r.scores[metric_id]) for r in evaluation.systems}
    defined = [name for name, v in values.items() if not np.isnan(v)]
    ordered = sorted(defined, key=lambda name: -values[name] if higher else values[name])
    return ordered + [name for name in values if name not in defined]


def decimals(values: Sequence[float]) -> int:
    """Decimals a score column shows: 4 for scores on 0–1 (COMET, BERTScore: differences sit in the third
    decimal), 2 on 0–100 (as sacrebleu and papers report them)."""
    finite = [abs(v) for v in values if not np.isnan(v)]
    return 4 if finite and max(finite) <= 1.5 else 2


def overview_table(
    evaluation: Evaluation,
    intervals: Mapping[Key, Interval] | None = None,
    pvalues: Mapping[Key, float] | None = None,
) -> pd.DataFrame:
    """Scores (numeric, one column per metric named as the metric), then per metric its 95 % CI (``lo–hi``, with the
    score's decimals) and the p-value against the baseline when given. Index: system names in input order."""
    frame = scores_table(evaluation)
    labels = metric_labels(evaluation)
    columns: list[str] = []
    for metric_id, label in labels.items():
        columns.append(label)
        if intervals:
            places = decimals(list(frame[label]))
            frame[f"{label} 95% CI"] = [_interval_text(intervals.get((s, metric_id)), places) for s in frame.index]
            columns.append(f"{label} 95% CI")
        if pvalues:
            frame[f"{label} p"] = [_p_text(pvalues.get((s, metric_id))) for s in frame.index]
            columns.append(f"{label} p")
    return frame[columns]


BASELINE_P = "—"  # the baseline's own row: nothing to test (narrow, so that three metrics' columns fit 1400 px)


def _p_text(p: float | None) -> str:
    """p-values as text so the baseline row can say so (Arrow columns cannot mix numbers and dashes)."""
    return BASELINE_P if p is None or np.isnan(p) else f"{p:.4f}"


def _interval_text(interval: Interval | None, places: int) -> str:
    """Compact, so that three metrics' columns fit a 1400 px window: ``65.56–75.09``."""
    return "" if interval is None else f"{interval[0]:.{places}f}–{interval[1]:.{places}f}"


def style_overview(frame: pd.DataFrame, evaluation: Evaluation, alpha: float = 0.05) -> Styler:
    """Best score per metric in bold on a green background; p-values below ``alpha`` in bold."""
    labels = metric_labels(evaluation)
    best = best_systems(evaluation)

    def mark_best(column: pd.Series) -> list[str]:
        metric_id = next(m for m, label in labels.items() if label == column.name)
        return ["font-weight: bold; background-color: #c8e6c9" if s in best[metric_id] else "" for s in column.index]

    score_columns: list[Hashable] = list(labels.values())
    p_columns: list[Hashable] = [c for c in frame.columns if c.endswith(" p")]
    styler = frame.style.apply(mark_best, subset=score_columns)
    for column in score_columns:
        styler = styler.format(f"{{:.{decimals(list(frame[column]))}f}}", subset=[column])
    if p_columns:
        styler = styler.map(lambda v: "font-weight: bold" if _significant(v, alpha) else "", subset=p_columns)
    return styler


def _significant(value: str, alpha: float) -> bool:
    try:
        return float(value) < alpha
    except ValueError:
        return False


def groups_text(groups: Sequence[Sequence[str]]) -> str:
    """``{A, B} > {C}``: tied groups, best first (plain text; escape before Markdown)."""
    return " > ".join("{" + ", ".join(g) + "}" for g in groups)


def segment_table(evaluation: Evaluation, systems: Sequence[str], metric_id: str) -> pd.DataFrame:
    """Segment scores of ``systems`` under one metric, one column per system, rows numbered from 1."""
    data = {name: evaluation.system(name).segment_scores[metric_id] for name in systems}
    frame = pd.DataFrame(data)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="segment")
    return frame


def column_name(system: str, metric_label: str) -> str:
    return f"{system} · {metric_label}"


def sentence_scores(evaluation: Evaluation, systems: Sequence[str], metric_ids: Sequence[str]) -> pd.DataFrame:
    """Every segment score of the chosen systems and metrics, one column per (system, metric), rows from 1."""
    labels = metric_labels(evaluation)
    data = {
        column_name(s, labels[m]): np.asarray(evaluation.system(s).segment_scores[m], dtype=np.float64)
        for m in metric_ids
        for s in systems
    }
    frame = pd.DataFrame(data)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="segment")
    return frame


def metric_notes(evaluation: Evaluation) -> tuple[NoteGroup, ...]:
    """Every warning the metrics attached to their statistics (text thrown away by a tokenizer, a search bound that
    applied, ROUGE-Lsum without sentence breaks), once per kind with the metrics (as display names) and systems
    it concerns."""
    labels = metric_labels(evaluation)
    return tuple(
        NoteGroup(g.message, tuple(labels[m] for m in g.metrics), g.systems, g.details)
        for g in note_groups(evaluation_notes(evaluation))
    )


def systems_text(systems: Sequence[str], total: int, shown: int = 6) -> str:
    """``all 13 systems`` / ``A, B and C`` / ``A, B, … and 9 more`` (plain text; escape before Markdown)."""
    if len(systems) == total and total > 2:
        return f"all {total} systems"
    if len(systems) <= shown:
        return ", ".join(systems[:-1]) + (" and " if len(systems) > 1 else "") + systems[-1]
    return ", ".join(systems[:shown]) + f", … and {len(systems) - shown} more"
