"""Downloads of the overview, all from one :class:`metrics.io.results.Results`: the schema's JSON (what
``scorelens score --format json`` prints), its CSV tables in a zip, and a LaTeX table."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from metrics.core.evaluation import Evaluation
from metrics.io.results import Note, Results, Statistics, StatisticsSettings, build_results, tables
from metrics.stats.correlation import Correlation
from metrics.stats.significance import DEFAULT_ALPHA, Interval, PairResult
from rendering.text import escape_latex


def overview_results(
    evaluation: Evaluation,
    reports: Mapping[str, Mapping[str, Any]] | None,
    correlations: Mapping[str, Sequence[Correlation]],
    *,
    seed: int,
    n_resamples: int,
    title: str,
    human: str | None = None,
    notes: Sequence[str] = (),
) -> Results:
    """The results of what the overview shows: ``reports`` per metric id as the dashboard keeps them (``intervals``
    and ``groups`` by current system names, ``pairs`` keyed by the pair's two names; ``None`` without the
    significance module), from ``all_pairs`` with ``n_resamples`` paired-bootstrap resamples and ``seed``; the
    correlations with ``human`` scores; ``notes`` on the input. Equals the CLI's ``--paired-bs --all-pairs`` on the
    same data."""
    names = [r.name for r in evaluation.systems]
    intervals: dict[str, Mapping[str, Interval]] = {}
    pairs: dict[str, tuple[PairResult, ...]] = {}
    groups: dict[str, Sequence[Sequence[str]]] = {}
    for metric_id, report in (reports or {}).items():
        intervals[metric_id] = {name: iv for name, iv in report["intervals"].items() if iv is not None}
        oriented = _named_pairs(report["pairs"], names)
        if oriented:
            pairs[metric_id] = oriented
            groups[metric_id] = report["groups"]
    compared = bool(pairs)
    settings = StatisticsSettings(
        seed,
        n_resamples,
        method="bs" if compared else None,
        all_pairs=compared,
        alpha=DEFAULT_ALPHA if compared else None,
        human=human if correlations else None,
    )
    statistics = Statistics(settings, intervals, pairs, groups, correlations) if reports or correlations else None
    return build_results(evaluation, statistics, notes=[Note(n) for n in notes], title=title)


def _named_pairs(pairs: Mapping[frozenset[str], PairResult], names: Sequence[str]) -> tuple[PairResult, ...]:
    """The pairs with the names shown now (the records inside name systems by content) in all_pairs' order: the
    earlier system of the input is the baseline of a pair."""
    order = {name: i for i, name in enumerate(names)}
    found = []
    for key, pair in pairs.items():
        first, second = sorted(key, key=order.__getitem__)
        found.append(replace(pair, baseline=first, system=second))
    return tuple(sorted(found, key=lambda p: (order[p.baseline], order[p.system])))


def csv_zip(results: Results) -> bytes:
    """Every CSV table of the schema as ``<table>.csv`` in one zip (fixed timestamps: same results, same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for table in tables(results):
            archive.writestr(zipfile.ZipInfo(f"{table.name}.csv", date_time=(1980, 1, 1, 0, 0, 0)), table.to_csv())
    return buffer.getvalue()


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
