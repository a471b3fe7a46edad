"""``scorelens meta --format table``: the meta-evaluation document as readable text."""

from __future__ import annotations

import math
from collections.abc import Sequence

from metrics.meta.results import Estimate, Statistic
from metrics.reports.meta import (
    STATISTIC_LABELS,
    MetaDocument,
    ordered_metrics,
    ranks_by_statistic,
    statistic_estimate,
)

SYSTEM_COLUMNS = (
    ("spa", Statistic.SOFT_PAIRWISE_ACCURACY),
    ("accuracy", Statistic.PAIRWISE_ACCURACY),
    ("pearson", Statistic.SYSTEM_PEARSON),
    ("kendall", Statistic.SYSTEM_KENDALL),
)
SEGMENT_COLUMNS = (("acc_eq", Statistic.SEGMENT_ACC_EQ), ("seg_pearson", Statistic.SEGMENT_PEARSON))


def _value(x: float) -> str:
    return f"{x:.4f}" if math.isfinite(x) else "—"


def _with_interval(e: Estimate) -> str:
    if math.isfinite(e.lo) and math.isfinite(e.hi):
        return f"{_value(e.value)} [{_value(e.lo)}, {_value(e.hi)}]"
    return _value(e.value)


def _grid(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
    line = "  ".join(h.ljust(w) if k == 0 else h.rjust(w) for k, (h, w) in enumerate(zip(header, widths, strict=True)))
    out = [line, "-" * len(line)]
    for row in rows:
        out.append(
            "  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths, strict=True)))
        )
    return out


def _level(doc: MetaDocument, columns: Sequence[tuple[str, Statistic]], extra: bool) -> list[str]:
    report = doc.report
    ranks = ranks_by_statistic(report)
    order = ordered_metrics(report)
    header = ["metric"]
    for name, statistic in columns:
        header += [STATISTIC_LABELS[name], *(["rank"] if statistic in ranks else [])]
    if extra:
        header += ["tie ε", "Pearson by item", "τ_b none", "τ_b item", "τ_b sys"]
    rows = []
    for m in order:
        meta = report.metrics[m]
        row = [m]
        for _, statistic in columns:
            row.append(_with_interval(statistic_estimate(meta, statistic)))
            if statistic in ranks:
                row.append(str(ranks[statistic][m]))
        if extra:
            kendall = {(k.variant.value, k.grouping.value): k.value for k in meta.segment.kendall}
            row += [f"{meta.segment.calibration.threshold:.4g}", _value(meta.segment.pearson_by_item)]
            row += [_value(kendall.get(("b", g), math.nan)) for g in ("none", "item", "sys")]
        rows.append(row)
    first = report.metrics[order[0]]
    chance = ["chance"]
    for _, statistic in columns:
        chance += [_value(statistic_estimate(first, statistic).chance), *([""] if statistic in ranks else [])]
    rows.append(chance + ([""] * 5 if extra else []))
    return _grid(header, rows)


def format_meta(doc: MetaDocument) -> str:
    report = doc.report
    first = next(iter(report.metrics.values()))
    out = [
        f"Meta-evaluation against {doc.human or 'human scores'} on {doc.scope.label}: {len(doc.scope.segments)} "
        f"segments, {len(report.systems)} systems, {report.n_rated} rated (system, segment) pairs",
        "",
        f"System level ({first.system.n_systems} systems, {first.system.n_pairs} pairs; 95% bootstrap intervals)",
        *_level(doc, SYSTEM_COLUMNS, extra=False),
        "",
        f"Segment level (acc_eq by item with the calibrated tie threshold ε; {first.segment.n_items} items)",
        *_level(doc, SEGMENT_COLUMNS, extra=True),
        "",
        "Significance clusters (permutation tests; rank 1 the best):",
    ]
    for comparison in report.comparisons.values():
        clusters = " | ".join(f"{k}: {', '.join(c)}" for k, c in enumerate(comparison.clusters, 1))
        out.append(f"  {comparison.statistic.value}: {clusters}")
    out += ["", "Where each metric errs"]
    for m in ordered_metrics(report):
        systems = doc.system_errors(m)
        segments = doc.segment_errors(m)
        n_errors = report.metrics[m].n_segment_errors
        out.append(f"  {m}: {len(systems)} system pair(s) against the humans, {n_errors} segment pair(s)")
        for e in systems:
            out.append(
                f"    {e.better} > {e.worse} by the humans ({e.outcome.value}): human Δ {_value(e.human_delta)} "
                f"[{_value(e.human_interval[0])}, {_value(e.human_interval[1])}], metric Δ {_value(e.metric_delta)} "
                f"[{_value(e.metric_interval[0])}, {_value(e.metric_interval[1])}]"
            )
        for s in segments:
            out.append(
                f"    line {s.segment + 1}: {s.system_a} vs {s.system_b} ({s.outcome.value}): human "
                f"{_value(s.human_a)} / {_value(s.human_b)}, metric {_value(s.metric_a)} / {_value(s.metric_b)}"
            )
    if doc.notes:
        out += ["", *(f"note: {n}" for n in doc.notes)]
    return "\n".join(out) + "\n"
