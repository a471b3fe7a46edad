"""Tables of human error annotations for the Analysis page: errors by category × severity per system with their
intervals, the two-system comparison across categories (Holm-corrected), and each metric's span agreement with the
raters. Plain pandas frames: names stay data, never markup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from metrics.annotations.agreement import AgreementTable
from metrics.annotations.categories import CategoryDifference, CategoryTable, Cell, Rate
from metrics.stats.significance import DEFAULT_ALPHA, Interval

RATE_WORDS = {Rate.PER_SEGMENT: "errors per rated segment", Rate.PER_100_WORDS: "errors per 100 words"}


def interval_text(interval: Interval, digits: int = 2) -> str:
    """``0.41 [0.28, 0.55]``; a dash where the rate is undefined."""
    if interval.score != interval.score:  # NaN: no segment or word to divide by
        return "—"
    return f"{interval.score:.{digits}f} [{interval.lo:.{digits}f}, {interval.hi:.{digits}f}]"


def shown_cells(tables: Mapping[str, CategoryTable], depth: int, by_severity: bool) -> list[Cell]:
    """The cells a table shows: ``All`` and the categories down to ``depth`` levels, each at any severity and, with
    ``by_severity``, at each severity some system has an error of; in the tables' order."""
    first = next(iter(tables.values()))
    cells = []
    for estimate in first.estimates:
        cell = estimate.cell
        if cell.depth > depth or (cell.severity is not None and not by_severity):
            continue
        if cell.severity is not None and not any(t.estimate(cell).errors for t in tables.values()):
            continue
        cells.append(cell)
    return cells


def category_frame(tables: Mapping[str, CategoryTable], rate: Rate, depth: int, by_severity: bool) -> pd.DataFrame:
    """One row per cell (category · severity), one column per system: the rate with its 95% bootstrap interval;
    then the rated segments, words and errors each system's rates divide."""
    cells = shown_cells(tables, depth, by_severity)
    frame = pd.DataFrame(
        {system: [interval_text(t.estimate(c).rate(rate)) for c in cells] for system, t in tables.items()},
        index=pd.Index([c.label for c in cells], name="category · severity"),
    )
    totals = pd.DataFrame(
        {
            system: [f"{t.n_rated}", f"{t.words:g} {t.unit}", f"{t.estimate(cells[0]).errors:g}"]
            for system, t in tables.items()
        },
        index=pd.Index(["rated segments", "words", "errors (mean over raters)"], name="category · severity"),
    )
    return pd.concat([frame, totals])


def comparison_frame(differences: Sequence[CategoryDifference], alpha: float = DEFAULT_ALPHA) -> pd.DataFrame:
    """One row per tested cell: both rates, the difference (system − baseline: negative = fewer errors) with its
    paired-bootstrap interval, the p-value and the Holm-corrected p-value; significant cells first."""
    rows = [
        {
            "category · severity": d.cell.label,
            d.baseline: d.baseline_rate,
            d.system: d.system_rate,
            "Δ": d.difference,
            "Δ 95% CI low": d.difference_ci[0],
            "Δ 95% CI high": d.difference_ci[1],
            "p": d.p_value,
            "p (Holm)": d.p_corrected,
            f"significant (α={alpha:g})": d.significant(alpha),
        }
        for d in differences
    ]
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    return frame.sort_values(["p (Holm)", "category · severity"], kind="stable").reset_index(drop=True)


def span_agreement_frame(
    found: Mapping[str, Mapping[str, AgreementTable]], labels: Mapping[str, str], cell: Cell
) -> pd.DataFrame:
    """One row per metric and system: character-level precision, recall and F1 (micro) with intervals, macro F1,
    the characters behind them and the precision of random flags (the share of characters raters marked)."""
    rows = []
    for metric_id, by_system in found.items():
        for system, table in by_system.items():
            e = table.estimate(cell)
            rows.append(
                {
                    "metric": labels.get(metric_id, metric_id),
                    "system": system,
                    "precision": interval_text(e.precision),
                    "recall": interval_text(e.recall),
                    "F1": interval_text(e.f1),
                    "macro F1": interval_text(e.macro_f1),
                    "flagged chars": e.flagged,
                    "marked chars": e.marked,
                    "overlap": e.overlap,
                    "chance precision": round(e.chance_precision, 3),
                    "segments": e.n_segments,
                }
            )
    return pd.DataFrame(rows)
