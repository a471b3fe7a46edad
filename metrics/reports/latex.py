"""LaTeX (booktabs) tables of the results and of the analysis document, names and signatures typeset literally."""

from __future__ import annotations

from metrics.reports.analysis import Analysis, analysis_tables
from metrics.reports.results import Cell, Results, Table, csv_cell

_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


def escape_latex(text: str) -> str:
    """Escape LaTeX's special characters so names and signatures typeset literally."""
    return "".join(_LATEX.get(ch, ch) for ch in text)


def to_latex(results: Results, *, digits: int = 2) -> str:
    """A booktabs table: best per column in bold, ``±`` the interval's half-width when known, signatures as
    footnotes."""
    labels = results.labels()
    best = {m.id: results.best(m.id) for m in results.metrics}
    lines = [
        "% ScoreLens results; signatures:",
        *(f"% {escape_latex(labels[m.id])}: {escape_latex(m.signature)}" for m in results.metrics),
        "\\begin{tabular}{l" + "r" * len(results.metrics) + "}",
        "\\toprule",
        "System & "
        + " & ".join(escape_latex(labels[m.id]) + f"$^{{{k}}}$" for k, m in enumerate(results.metrics, 1))
        + " \\\\",
        "\\midrule",
    ]
    for system in results.systems:
        cells = []
        for m in results.metrics:
            value = f"{system.scores[m.id]:.{digits}f}"
            interval = system.intervals.get(m.id)
            if interval is not None:
                value += f" {{\\scriptsize $\\pm${interval.half_width:.{digits}f}}}"
            cells.append(f"\\textbf{{{value}}}" if system.name in best[m.id] else value)
        lines.append(escape_latex(system.name) + " & " + " & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", ""]
    lines += [
        f"$^{{{k}}}$\\,\\texttt{{\\footnotesize {escape_latex(m.signature)}}}\\\\"
        for k, m in enumerate(results.metrics, 1)
    ]
    return "\n".join(lines) + "\n"


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
