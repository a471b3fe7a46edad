"""The Meta-evaluation page's views (:mod:`metrics.reports.meta`): the system- and segment-level tables, the
significance clusters, and each metric's system and segment pairs against the humans. Frames hold numbers (NaN
where undefined) and intervals as text beside them; metric ids are shown by their display names."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from metrics.meta.results import Estimate, Statistic
from metrics.reports.meta import MetaDocument, ordered_metrics, ranks_by_statistic, statistic_estimate

SYSTEM_COLUMNS = (
    ("SPA", Statistic.SOFT_PAIRWISE_ACCURACY),
    ("accuracy", Statistic.PAIRWISE_ACCURACY),
    ("Pearson", Statistic.SYSTEM_PEARSON),
    ("τ-b", Statistic.SYSTEM_KENDALL),
)
SEGMENT_COLUMNS = (("acc_eq", Statistic.SEGMENT_ACC_EQ), ("Pearson", Statistic.SEGMENT_PEARSON))
KENDALL_COLUMNS = (("b", "none"), ("b", "item"), ("b", "sys"), ("c", "none"), ("23", "item"))
GROUPING_LABELS = {"none": "pooled", "item": "item", "sys": "system"}
STATISTIC_NAMES = {
    Statistic.SOFT_PAIRWISE_ACCURACY: "SPA (system level)",
    Statistic.PAIRWISE_ACCURACY: "pairwise accuracy (system level)",
    Statistic.SYSTEM_PEARSON: "Pearson (system level)",
    Statistic.SYSTEM_KENDALL: "Kendall τ-b (system level)",
    Statistic.SEGMENT_ACC_EQ: "acc_eq (segment level)",
    Statistic.SEGMENT_PEARSON: "Pearson (segment level)",
}
OUTCOME_LABELS = {
    "discordant": "ordered oppositely",
    "false_tie": "metric ties, humans order",
    "missed_tie": "humans tie, metric orders",
}


def interval(lo: float, hi: float) -> str:
    """``[lo, hi]`` to three decimals; empty where no interval was computed."""
    return f"[{lo:.3f}, {hi:.3f}]" if math.isfinite(lo) and math.isfinite(hi) else ""


def _cells(name: str, e: Estimate, rank: int | None) -> dict[str, object]:
    cells: dict[str, object] = {name: e.value}
    if math.isfinite(e.lo):
        cells[f"{name} CI"] = interval(e.lo, e.hi)
    if rank is not None:
        cells[f"{name} rank"] = rank
    return cells


def _level_table(
    doc: MetaDocument, columns: tuple[tuple[str, Statistic], ...], labels: Mapping[str, str]
) -> pd.DataFrame:
    ranks = ranks_by_statistic(doc.report)
    rows = []
    for m in ordered_metrics(doc.report):
        meta = doc.report.metrics[m]
        row: dict[str, object] = {"metric": labels.get(m, m)}
        for name, statistic in columns:
            row.update(_cells(name, statistic_estimate(meta, statistic), ranks.get(statistic, {}).get(m)))
        rows.append(row)
    first = next(iter(doc.report.metrics.values()))
    chance: dict[str, object] = {"metric": "chance"}
    chance.update({name: statistic_estimate(first, statistic).chance for name, statistic in columns})
    rows.append(chance)
    frame = pd.DataFrame(rows)
    intervals = [c for c in frame.columns if c.endswith(" CI")]
    frame[intervals] = frame[intervals].fillna("")  # the chance row has none
    ranked = [c for c in frame.columns if c.endswith(" rank")]
    return frame.astype(dict.fromkeys(ranked, "Int64"))  # whole ranks, none on the chance row


def system_table(doc: MetaDocument, labels: Mapping[str, str]) -> pd.DataFrame:
    """One row per metric, best first by SPA: SPA, pairwise accuracy, Pearson and Kendall τ-b with their 95 %
    intervals (``CI``) and significance ranks; a last row of the chance levels."""
    return _level_table(doc, SYSTEM_COLUMNS, labels)


def segment_table(doc: MetaDocument, labels: Mapping[str, str]) -> pd.DataFrame:
    """One row per metric: acc_eq (with its tie threshold ε), Pearson pooled and by item, and the Kendall variants
    by grouping (pooled, by item, by system); a last row of the chance levels."""
    frame = _level_table(doc, SEGMENT_COLUMNS, labels)
    extra = []
    for m in ordered_metrics(doc.report):
        segment = doc.report.metrics[m].segment
        kendall = {(k.variant.value, k.grouping.value): k.value for k in segment.kendall}
        row: dict[str, object] = {
            "ε": segment.calibration.threshold,
            "Pearson item": segment.pearson_by_item,
        }
        row.update({f"τ_{v} {GROUPING_LABELS[g]}": kendall.get((v, g), math.nan) for v, g in KENDALL_COLUMNS})
        extra.append(row)
    extra.append({})  # the chance row: no chance level is defined for these (NaN, an empty cell, not "None")
    return pd.concat([frame, pd.DataFrame(extra, dtype=float)], axis=1)


def clusters_table(doc: MetaDocument, labels: Mapping[str, str]) -> pd.DataFrame:
    """One row per compared statistic and significance cluster (rank 1 the best): its metrics and their values."""
    rows = []
    for comparison in doc.report.comparisons.values():
        values = dict(zip(comparison.metrics, comparison.values, strict=True))
        for rank, members in enumerate(comparison.clusters, 1):
            rows.append(
                {
                    "statistic": STATISTIC_NAMES[comparison.statistic],
                    "rank": rank,
                    "metrics": ", ".join(f"{labels.get(m, m)} ({values[m]:.3f})" for m in members),
                }
            )
    return pd.DataFrame(rows, columns=["statistic", "rank", "metrics"])


def system_pairs_table(doc: MetaDocument, metric_id: str) -> pd.DataFrame:
    """The system pairs ``metric_id`` orders against the humans: the humans' better system first, both deltas
    (better − worse, each on its own scale) with their intervals, and both sides' permutation p-values."""
    rows = [
        {
            "better (humans)": e.better,
            "worse (humans)": e.worse,
            "error": OUTCOME_LABELS[e.outcome.value],
            "human Δ": e.human_delta,
            "human Δ 95% CI": interval(*e.human_interval),
            "metric Δ": e.metric_delta,
            "metric Δ 95% CI": interval(*e.metric_interval),
            "human p": e.human_p,
            "metric p": e.metric_p,
        }
        for e in doc.system_errors(metric_id)
    ]
    columns = ["better (humans)", "worse (humans)", "error", "human Δ", "human Δ 95% CI", "metric Δ",
               "metric Δ 95% CI", "human p", "metric p"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def segment_pairs_table(doc: MetaDocument, metric_id: str) -> pd.DataFrame:
    """The heaviest segment pairs ``metric_id`` orders against the humans (largest human difference first), by
    line (1-based, as the Segment view numbers them)."""
    rows = [
        {
            "line": e.segment + 1,
            "system A": e.system_a,
            "system B": e.system_b,
            "error": OUTCOME_LABELS[e.outcome.value],
            "human A": e.human_a,
            "human B": e.human_b,
            "metric A": e.metric_a,
            "metric B": e.metric_b,
        }
        for e in doc.segment_errors(metric_id)
    ]
    columns = ["line", "system A", "system B", "error", "human A", "human B", "metric A", "metric B"]
    return pd.DataFrame(rows, columns=columns)
