"""``scorelens analyze --format table``: the analysis document as text for a terminal."""

from __future__ import annotations

from collections.abc import Sequence

from metrics.reports import annotation_analysis
from metrics.reports.analysis import Analysis, analysis_tables
from metrics.reports.results import Cell, Table, csv_cell


def _number(value: Cell) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return csv_cell(value)


def text_table(table: Table, columns: Sequence[str] | None = None) -> list[str]:
    """``table`` (or the named ``columns`` of it) as aligned text; numbers with 4 decimals."""
    chosen = list(columns or table.columns)
    at = [table.columns.index(c) for c in chosen]
    cells = [[_number(row[k]) for k in at] for row in table.rows]
    widths = [max([len(c), *(len(r[j]) for r in cells)]) for j, c in enumerate(chosen)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(chosen, widths, strict=True)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    return lines


_SHOWN = {
    "buckets": ("by", "bucket", "segments_of", "system", "metric", "segments", "score", "ci_lo", "ci_hi", "p_value",
                "significant"),
    "documents": ("document", "segments", "system", "metric", "score"),
    "agreement": ("metric", "a", "b", "delta", "p_value", "human_agreement"),
    # a person reads line numbers (1-based, as the app and editors number them), not the 0-based indices
    "ngrams": ("a", "b", "direction", "n", "ngram", "matches_a", "matches_b", "ratio", "lines"),
    "disagreements": ("line", "a", "b", "for_a", "delta_for_a", "for_b", "delta_for_b", "size"),
}  # fmt: skip

_TITLES = {
    "buckets": "Buckets: corpus score of each bucket's segments, 95% bootstrap interval, paired bootstrap p against "
    "the baseline (uncorrected; per-system buckets hold each system's own segments and have no test)",
    "word_accuracy": "Word accuracy by frequency (compare-mt): matches, words in references and outputs, P, R, F",
    "ngrams": "Characteristic n-grams (compare-mt's smoothed match ratio (m_a + α) / (m_a + m_b + 2α))",
    "documents": "Scores per document",
    "ranking_flips": "Documents where a pair of systems is ranked the other way than on the corpus",
    "agreement": "How far a difference can be trusted: estimated human agreement for a difference this large "
    "(Kocmi et al. 2024, from WMT system pairs; 0-1) beside the paired bootstrap p-value",
    "disagreements": "Segments where metrics disagree about A and B (size in standard deviations)",
    "notes": "Notes",
}


def format_analysis(analysis: Analysis) -> str:
    """Every computed section as a titled text table, then the signatures."""
    s = analysis.settings
    lines = [
        f"baseline {s.baseline}; {s.buckets.n_bootstrap} bootstrap resamples, seed {s.buckets.seed}, "
        f"alpha {s.buckets.alpha}; tokens: {s.tokens}",
    ]
    for table in analysis_tables(analysis):
        titles, shown = {**_TITLES, **annotation_analysis.TITLES}, {**_SHOWN, **annotation_analysis.SHOWN}
        lines += ["", titles[table.name], *text_table(table, shown.get(table.name))]
    lines += ["", *(f"{m.id}: {m.signature}" for m in analysis.results.metrics)]
    return "\n".join(lines) + "\n"
