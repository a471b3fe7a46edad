"""Downloads of the overview: CSV, JSON and LaTeX, each carrying the signature of every score."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from metrics.evaluate import Evaluation
from rendering.tables import best_systems, metric_labels
from rendering.text import escape_latex

Key = tuple[str, str]


def records(
    evaluation: Evaluation,
    intervals: Mapping[Key, tuple[float, float]] | None = None,
    pvalues: Mapping[Key, float] | None = None,
    baseline: str | None = None,
) -> list[dict[str, Any]]:
    """One row per (system, metric): score, CI, p-value against ``baseline``, signature."""
    labels = metric_labels(evaluation)
    rows = []
    for result in evaluation.systems:
        for metric_id in evaluation.metrics:
            interval = (intervals or {}).get((result.name, metric_id))
            p = (pvalues or {}).get((result.name, metric_id))
            rows.append(
                {
                    "system": result.name,
                    "metric": labels[metric_id],
                    "metric_id": metric_id,
                    "score": float(result.scores[metric_id]),
                    "ci_low": None if interval is None else float(interval[0]),
                    "ci_high": None if interval is None else float(interval[1]),
                    "p_value": None if p is None or math.isnan(p) else float(p),
                    "baseline": baseline,
                    "signature": evaluation.signatures[metric_id],
                }
            )
    return rows


def to_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    return pd.DataFrame(list(rows)).to_csv(index=False)


def to_json(
    rows: Sequence[Mapping[str, Any]],
    evaluation: Evaluation,
    *,
    title: str = "",
    groups: Mapping[str, Sequence[Sequence[str]]] | None = None,
) -> str:
    labels = metric_labels(evaluation)
    document = {
        "dataset": title,
        "metrics": {
            m: {
                "name": labels[m],
                "signature": evaluation.signatures[m],
                "groups": [list(g) for g in (groups or {}).get(m, [])],
            }
            for m in evaluation.metrics
        },
        "results": list(rows),
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def to_latex(
    evaluation: Evaluation,
    intervals: Mapping[Key, tuple[float, float]] | None = None,
    *,
    digits: int = 2,
) -> str:
    """A booktabs table: best per column in bold, ``±`` half the CI width when known, signatures as footnotes."""
    labels = metric_labels(evaluation)
    best = best_systems(evaluation)
    metric_ids = list(evaluation.metrics)
    lines = [
        "% ScoreLens results; signatures:",
        *(f"% {escape_latex(labels[m])}: {escape_latex(evaluation.signatures[m])}" for m in metric_ids),
        "\\begin{tabular}{l" + "r" * len(metric_ids) + "}",
        "\\toprule",
        "System & "
        + " & ".join(escape_latex(labels[m]) + f"$^{{{k}}}$" for k, m in enumerate(metric_ids, 1))
        + " \\\\",
        "\\midrule",
    ]
    for result in evaluation.systems:
        cells = []
        for m in metric_ids:
            value = f"{result.scores[m]:.{digits}f}"
            interval = (intervals or {}).get((result.name, m))
            if interval is not None:
                value += f" {{\\scriptsize $\\pm${(interval[1] - interval[0]) / 2:.{digits}f}}}"
            cells.append(f"\\textbf{{{value}}}" if result.name in best[m] else value)
        lines.append(escape_latex(result.name) + " & " + " & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", ""]
    lines += [
        f"$^{{{k}}}$\\,\\texttt{{\\footnotesize {escape_latex(evaluation.signatures[m])}}}\\\\"
        for k, m in enumerate(metric_ids, 1)
    ]
    return "\n".join(lines) + "\n"
