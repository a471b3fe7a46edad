"""LaTeX (booktabs) tables of the results and of the analysis document, for a paper: names and signatures typeset
literally, numbers right-aligned, the best per column (per group of rows in a long table) in bold, each metric's
direction marked (↑ higher is better, ↓ lower is better), significance as a dagger, and the analysis tables as
``longtable`` so that they break across pages."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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


UP, DOWN = r"$\uparrow$", r"$\downarrow$"
DAGGER = r"$^\dagger$"
MARK = r"$\bullet$"
PACKAGES = r"% needs \usepackage{booktabs} and, for the analysis tables, \usepackage{longtable}"


def direction(higher_is_better: bool) -> str:
    """The marker a metric's name carries: ↑ higher is better, ↓ lower is better (an error rate)."""
    return UP if higher_is_better else DOWN


def to_latex(results: Results, *, digits: int = 2) -> str:
    """A booktabs table: each metric's name with its direction (↑/↓), best per column in bold, ``±`` the
    interval's half-width when known, signatures as footnotes."""
    labels = results.labels()
    best = {m.id: results.best(m.id) for m in results.metrics}
    lines = [
        "% ScoreLens results; signatures:",
        *(f"% {escape_latex(labels[m.id])}: {escape_latex(m.signature)}" for m in results.metrics),
        PACKAGES,
        "\\begin{tabular}{l" + "r" * len(results.metrics) + "}",
        "\\toprule",
        "System & "
        + " & ".join(
            f"{escape_latex(labels[m.id])} {direction(m.higher_is_better)}$^{{{k}}}$"
            for k, m in enumerate(results.metrics, 1)
        )
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
    lines.append(f"{UP}\\,higher is better, {DOWN}\\,lower is better; best per column in bold.\\\\")
    lines += [
        f"$^{{{k}}}$\\,\\texttt{{\\footnotesize {escape_latex(m.signature)}}}\\\\"
        for k, m in enumerate(results.metrics, 1)
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------- analysis tables

# Columns whose values name a metric (shown by name, with the direction marker), and columns of scores in which
# the best of each group of rows is marked (the group: rows alike in every text column but the system).
METRIC_COLUMNS = ("metric", "for_a", "for_b")
BEST_COLUMNS = ("score", "precision", "recall", "fmeasure")
NOT_A_GROUP = ("system", "a", "b", "signature")
HEADERS = {
    "segments_of": "segments of",
    "p_value": "$p$",
    "human_agreement": "agreement (est.)",
    "delta": r"$\Delta$",
    "human_delta": r"human $\Delta$",
    "delta_for_a": r"$\Delta$ (A's metric)",
    "delta_for_b": r"$\Delta$ (B's metric)",
    "fmeasure": "F",
    "ci": r"95\,\% CI",
}
# pairs of columns typeset as one interval, under this header
INTERVALS = {
    "ci_lo": ("ci_hi", HEADERS["ci"]),
    "delta_lo": ("delta_hi", r"$\Delta$ 95\,\% CI"),
    "human_lo": ("human_hi", r"human $\Delta$ 95\,\% CI"),
}


@dataclass(frozen=True)
class _Column:
    """One column as typeset: its header, ``l`` or ``r``, and its cells (LaTeX)."""

    header: str
    align: str
    cells: tuple[str, ...]


def _header(name: str) -> str:
    return HEADERS.get(name, escape_latex(name.replace("_", " ")))


def _is_number(value: Cell) -> bool:
    """A number, NumPy's included (a count may be an ``np.int64``), never a boolean."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and type(value).__name__ != "bool_"


def _finite(value: Cell) -> float | None:
    """The value as a finite float, or ``None`` (text, a boolean, NaN, ±inf, no value)."""
    if not _is_number(value) or isinstance(value, str | bool) or value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _decimals(values: Sequence[Cell], name: str) -> int:
    """p-values and scores on 0–1 (COMET, precision) with 4 decimals, scores on 0–100 with 2."""
    finite = [abs(v) for v in map(_finite, values) if v is not None]
    return 4 if name == "p_value" or (finite and max(finite) <= 1.5) else 2


def _number(value: Cell, places: int) -> str:
    number = _finite(value)
    if number is None:
        return ""
    return str(int(number)) if isinstance(value, numbers.Integral) else f"{number:.{places}f}"


def _best_rows(
    rows: Sequence[dict[str, Cell]], column: str, groups: Sequence[str], higher: Mapping[str, bool]
) -> set[int]:
    """Indices of the rows holding the best ``column`` value of their group (every tie), for groups of two or
    more rows that do not all tie; the direction is the row's metric's (higher when the table names none)."""
    found: dict[tuple[Cell, ...], list[int]] = {}
    numbers_of = [_finite(row[column]) for row in rows]
    for k, row in enumerate(rows):
        if numbers_of[k] is not None:
            found.setdefault(tuple(row[g] for g in groups), []).append(k)
    best: set[int] = set()
    for members in found.values():
        if len(members) < 2:
            continue
        metric = rows[members[0]].get("metric")
        sign = 1.0 if higher.get(str(metric), True) else -1.0
        values = [sign * (numbers_of[k] or 0.0) for k in members]
        if min(values) < max(values):
            best |= {k for k, v in zip(members, values, strict=True) if v == max(values)}
    return best


def _columns(table: Table, labels: Mapping[str, str], higher: Mapping[str, bool]) -> tuple[list[_Column], list[str]]:
    """The typeset columns of ``table`` and the notes they need: the signature left out (it heads the file), empty
    columns left out, ``ci_lo``/``ci_hi`` (and ``delta_lo``/``delta_hi``) as one interval, ``significant`` as a dagger on the score, other
    booleans as marks, metric ids as names with their direction, numbers right-aligned, the best per group bold."""
    rows = [dict(zip(table.columns, row, strict=True)) for row in table.rows]
    names = [c for c in table.columns if c != "signature" and any(r[c] is not None for r in rows)]
    numeric = {c for c in names if all(_is_number(r[c]) or r[c] is None for r in rows)}
    # a text column with one value throughout (the bucketing, the estimate's source) is said once, under the table
    constant = [
        c
        for c in names
        if len(rows) > 1 and c not in numeric and c not in METRIC_COLUMNS and isinstance(rows[0][c], str)
        and all(r[c] == rows[0][c] for r in rows)
    ]  # fmt: skip
    names = [c for c in names if c not in constant]
    groups = [c for c in names if c not in numeric and c not in NOT_A_GROUP]
    groups = [c for c in groups if not all(isinstance(r[c], bool) or r[c] is None for r in rows)]
    notes: list[str] = []
    columns: list[_Column] = []
    for name in names:
        values = [r[name] for r in rows]
        upper = INTERVALS.get(name, ("", ""))[0]
        if any(name == hi for hi, _ in INTERVALS.values()) or (name == "significant" and "score" in names):
            continue
        if upper in names:
            places = _decimals([*values, *(r[upper] for r in rows)], name)
            cells = tuple(
                "" if r[name] is None else f"{_number(r[name], places)}--{_number(r[upper], places)}" for r in rows
            )
            columns.append(_Column(INTERVALS[name][1], "r", cells))
        elif name in numeric:
            places = _decimals(values, name)
            best = _best_rows(rows, name, groups, higher) if name in BEST_COLUMNS else set()
            significant = [bool(r.get("significant")) for r in rows] if name == "score" else [False] * len(rows)
            cells = tuple(
                (f"\\textbf{{{_number(v, places)}}}" if k in best else _number(v, places))
                + (DAGGER if significant[k] else "")
                for k, v in enumerate(values)
            )
            columns.append(_Column(_header(name), "r", cells))
            if best:
                notes.append("Bold: the best of its group (rows alike but for the system).")
            if any(significant):
                notes.append(f"{DAGGER} significantly different from the baseline (paired bootstrap).")
        elif all(isinstance(v, bool) or v is None for v in values):
            columns.append(_Column(_header(name), "c", tuple(MARK if v else "" for v in values)))
            notes.append(f"{MARK}: {_header(name)}.")
        elif name in METRIC_COLUMNS:
            cells = tuple(
                "" if v is None else f"{escape_latex(labels.get(str(v), str(v)))} {direction(higher.get(str(v), True))}"
                for v in values
            )
            columns.append(_Column(_header(name), "l", cells))
        else:
            columns.append(
                _Column(_header(name), "l", tuple("" if v is None else escape_latex(csv_cell(v)) for v in values))
            )
    if any(c in names for c in METRIC_COLUMNS):
        notes.append(f"{UP}\\,higher is better, {DOWN}\\,lower is better.")
    notes += [f"{_header(c)}: {escape_latex(str(rows[0][c]))}." for c in constant]
    return columns, list(dict.fromkeys(notes))


def table_latex(table: Table, labels: Mapping[str, str], higher: Mapping[str, bool]) -> str:
    """A booktabs ``longtable`` of ``table`` (it breaks across pages, repeating its header): see :func:`_columns`.
    ``labels``: metric id → display name; ``higher``: metric id → higher is better."""
    columns, notes = _columns(table, labels, higher)
    header = " & ".join(c.header for c in columns) + " \\\\"
    width = len(columns)
    lines = [
        f"% {escape_latex(table.name)}",
        "\\begin{longtable}{" + "".join(c.align for c in columns) + "}",
        "\\toprule",
        header,
        "\\midrule",
        "\\endfirsthead",
        "\\toprule",
        header,
        "\\midrule",
        "\\endhead",
        "\\midrule",
        f"\\multicolumn{{{width}}}{{r}}{{\\footnotesize continued on the next page}} \\\\",
        "\\endfoot",
        "\\bottomrule",
        "\\endlastfoot",
        *(" & ".join(c.cells[k] for c in columns) + " \\\\" for k in range(len(table.rows))),
        "\\end{longtable}",
    ]
    if notes:
        lines.append("{\\footnotesize " + " ".join(notes) + "}\\par")
    return "\n".join(lines) + "\n"


def analysis_latex(analysis: Analysis) -> str:
    """Every computed section of the analysis as a booktabs ``longtable``, signatures as comments above."""
    labels = analysis.results.labels()
    higher = {m.id: m.higher_is_better for m in analysis.results.metrics}
    header = [
        "% ScoreLens analysis; signatures:",
        *(f"% {escape_latex(m.id)}: {escape_latex(m.signature)}" for m in analysis.results.metrics),
        PACKAGES,
    ]
    tables = analysis_tables(analysis)
    return "\n".join(header) + "\n\n" + "\n".join(table_latex(t, labels, higher) for t in tables)
