"""Downloads of the Analysis page, all from one :class:`metrics.io.analysis.Analysis`: its JSON (what
``scorelens analyze --format json`` prints), its CSV tables in a zip, and the same tables in LaTeX."""

from __future__ import annotations

import io
import zipfile

from metrics.io.analysis import Analysis, analysis_tables
from metrics.io.results import Cell, Table, csv_cell
from rendering.text import escape_latex


def analysis_zip(analysis: Analysis) -> bytes:
    """Every CSV table as ``<table>.csv`` in one zip (fixed timestamps: same analysis, same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for table in analysis_tables(analysis):
            archive.writestr(zipfile.ZipInfo(f"{table.name}.csv", date_time=(1980, 1, 1, 0, 0, 0)), table.to_csv())
    return buffer.getvalue()


def _cell(value: Cell) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return escape_latex(csv_cell(value))


def table_latex(table: Table) -> str:
    """A booktabs ``tabular`` of ``table`` without its signature column (the signatures go above, as comments)."""
    shown = [k for k, name in enumerate(table.columns) if name != "signature"]
    lines = [
        f"% {escape_latex(table.name)}",
        "\\begin{tabular}{" + "l" * len(shown) + "}",
        "\\toprule",
        " & ".join(escape_latex(table.columns[k]) for k in shown) + " \\\\",
        "\\midrule",
        *(" & ".join(_cell(row[k]) for k in shown) + " \\\\" for row in table.rows),
        "\\bottomrule",
        "\\end{tabular}",
    ]
    return "\n".join(lines) + "\n"


def analysis_latex(analysis: Analysis) -> str:
    header = [
        "% ScoreLens analysis; signatures:",
        *(f"% {escape_latex(m.id)}: {escape_latex(m.signature)}" for m in analysis.results.metrics),
    ]
    return "\n".join(header) + "\n\n" + "\n".join(table_latex(t) for t in analysis_tables(analysis))
