"""The annotation sections of the analysis document (:mod:`metrics.reports.analysis`): errors by category and
severity, category differences, category tables per bucket, span agreement — as JSON keys and as long tables (CSV,
LaTeX, the terminal). The definitions are in ``docs/annotation-analysis.md``.

``categories``           ``[{"annotations", "system", "category", "severity", "errors", "segments", "words", "unit",
                         "per_segment", "per_segment_ci", "per_100_words", "per_100_words_ci"}]`` — ``severity``
                         ``"any"`` counts every severity, ``category`` ``"All"`` every category
``category_differences`` ``[{"annotations", "baseline", "system", "category", "severity", "rate", "baseline_rate",
                         "system_rate", "delta", "delta_ci", "p_value", "p_holm", "significant", "segments",
                         "n_bootstrap"}]`` — ``delta`` = system − baseline (negative: fewer errors); ``p_holm``
                         Holm-adjusted across the cells tested for that pair
``category_buckets``     ``[{"annotations", "by", "bucket", "system", "segments", "category", "severity", "errors",
                         "per_segment", "per_segment_ci", "per_100_words", "per_100_words_ci"}]``
``span_agreement``       ``[{"annotations", "metric", "system", "category", "severity", "precision", "precision_ci",
                         "recall", "recall_ci", "f1", "f1_ci", "macro_f1", "macro_f1_ci", "flagged", "marked",
                         "overlap", "characters", "chance_precision", "segments", "unlocated", "options"}]`` —
                         ``system`` ``"(all systems)"`` pools every analysed system

``annotation_analysis``  ``[{"annotations", "source", "unit", "baseline", "rate", "span_flags", "n_bootstrap", "seed",
                         "alpha"}]`` — the settings of each file's sections

Intervals are ``[lo, hi]`` (95 % bootstrap percentile); ``null`` where a rate is undefined.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from metrics.annotations.analysis import AnnotationAnalysis
from metrics.annotations.categories import CategoryTable
from metrics.annotations.categories import Cell as CategoryCell
from metrics.reports.results import Cell, Table
from metrics.stats.significance import Interval


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _ci(interval: Interval) -> list[float | None]:
    return [_number(interval.lo), _number(interval.hi)]


def _cell(cell: CategoryCell) -> tuple[str, str]:
    return cell.category, cell.severity.value if cell.severity else "any"


def _table_rows(a: AnnotationAnalysis, table: CategoryTable) -> Iterator[tuple[Cell, ...]]:
    for e in table.estimates:
        s, w = e.per_segment, e.per_100_words
        yield (*_cell(e.cell), e.errors, _number(s.score), _number(s.lo), _number(s.hi), _number(w.score),
               _number(w.lo), _number(w.hi))  # fmt: skip


def _categories(analyses: Sequence[AnnotationAnalysis]) -> Iterator[tuple[Cell, ...]]:
    for a in analyses:
        for t in a.tables:
            for row in _table_rows(a, t):
                yield (a.label, t.system, *row[:3], t.n_rated, t.words, a.unit, *row[3:])


def _differences(analyses: Sequence[AnnotationAnalysis]) -> Iterator[tuple[Cell, ...]]:
    for a in analyses:
        for d in a.differences:
            yield (a.label, d.baseline, d.system, *_cell(d.cell), d.rate.value, d.baseline_rate, d.system_rate,
                   d.difference, d.difference_ci[0], d.difference_ci[1], d.p_value, d.p_corrected,
                   d.significant(a.alpha), d.n_segments, d.n_samples)  # fmt: skip


def _buckets(analyses: Sequence[AnnotationAnalysis]) -> Iterator[tuple[Cell, ...]]:
    for a in analyses:
        for b in a.buckets:
            for system, t in b.tables.items():
                for row in _table_rows(a, t):
                    yield (a.label, b.by, b.label, system, t.n_rated, *row)


def _agreement(analyses: Sequence[AnnotationAnalysis]) -> Iterator[tuple[Cell, ...]]:
    for a in analyses:
        for t in a.agreement:
            for e in t.estimates:
                yield (a.label, t.metric, t.system, *_cell(e.cell),
                       *(v for iv in (e.precision, e.recall, e.f1, e.macro_f1)
                         for v in (_number(iv.score), _number(iv.lo), _number(iv.hi))),
                       e.flagged, e.marked, e.overlap, e.characters, _number(e.chance_precision), e.n_segments,
                       t.unlocated, t.options)  # fmt: skip


_RATE = ("per_segment", "per_segment_lo", "per_segment_hi", "per_100_words", "per_100_words_lo", "per_100_words_hi")
TABLES = (
    ("categories", ("annotations", "system", "category", "severity", "errors", "segments", "words", "unit", *_RATE),
     _categories),
    ("category_differences", ("annotations", "baseline", "system", "category", "severity", "rate", "baseline_rate",
                              "system_rate", "delta", "delta_lo", "delta_hi", "p_value", "p_holm", "significant",
                              "segments", "n_bootstrap"), _differences),
    ("category_buckets", ("annotations", "by", "bucket", "system", "segments", "category", "severity", "errors",
                          *_RATE), _buckets),
    ("span_agreement", ("annotations", "metric", "system", "category", "severity", "precision", "precision_lo",
                        "precision_hi", "recall", "recall_lo", "recall_hi", "f1", "f1_lo", "f1_hi", "macro_f1",
                        "macro_f1_lo", "macro_f1_hi", "flagged", "marked", "overlap", "characters",
                        "chance_precision", "segments", "unlocated", "options"), _agreement),
)  # fmt: skip

# what ``--format table`` shows of each table, and its title
SHOWN = {
    "categories": ("system", "category", "severity", "errors", "segments", "per_segment", "per_segment_lo",
                   "per_segment_hi", "per_100_words", "per_100_words_lo", "per_100_words_hi"),
    "category_differences": ("baseline", "system", "category", "severity", "delta", "delta_lo", "delta_hi",
                             "p_value", "p_holm", "significant"),
    "category_buckets": ("by", "bucket", "system", "category", "severity", "errors", "per_segment", "per_100_words"),
    "span_agreement": ("metric", "system", "category", "severity", "precision", "recall", "f1", "f1_lo", "f1_hi",
                       "macro_f1", "chance_precision"),
}  # fmt: skip
TITLES = {
    "categories": "Errors by category and severity: count, rate per rated segment and per 100 words of output, 95% "
    "bootstrap intervals",
    "category_differences": "Categories that differ from the baseline: rate difference (system - baseline), paired "
    "bootstrap p, Holm-adjusted across the categories of the pair",
    "category_buckets": "Errors by category and severity in each bucket and slice",
    "span_agreement": "Do the metrics see what the raters saw? Character precision/recall/F1 of the metric's flags "
    "against the raters' spans (micro; macro F1 = mean of segment F1); chance precision = share of characters "
    "the raters marked",
}


def annotation_tables(analyses: Sequence[AnnotationAnalysis]) -> tuple[Table, ...]:
    """One long table per section with rows."""
    found = (Table(name, columns, tuple(rows(analyses))) for name, columns, rows in TABLES)
    return tuple(t for t in found if t.rows)


def annotation_json(analyses: Sequence[AnnotationAnalysis]) -> dict[str, Any]:
    """The JSON keys of the sections with rows (module docstring): each row an object keyed by its table's
    columns, intervals as ``[lo, hi]``."""
    document: dict[str, Any] = {
        "annotation_analysis": [
            {
                "annotations": a.label,
                "source": a.source,
                "unit": a.unit,
                "baseline": a.baseline,
                "rate": a.rate.value,
                "span_flags": a.options,
                "n_bootstrap": a.n_samples,
                "seed": a.seed,
                "alpha": a.alpha,
            }
            for a in analyses
        ]
    }
    for table in annotation_tables(analyses):
        records = []
        for row in table.rows:
            record: dict[str, Any] = dict(zip(table.columns, row, strict=True))
            for key in [c[: -len("_lo")] for c in table.columns if c.endswith("_lo")]:
                record[f"{key}_ci"] = [record.pop(f"{key}_lo"), record.pop(f"{key}_hi")]
            records.append(record)
        document[table.name] = records
    return document
