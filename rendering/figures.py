"""Plotly figures: corpus scores with confidence whiskers, per-metric rankings, and the LCS grid of ROUGE-L.

Plotly interprets a subset of HTML in every label (``<b>``, ``<a href>``…), so every user string that reaches a
figure (system names, tokens) goes through :func:`rendering.text.escape_plotly` first, which escapes only what
plotly decodes again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rendering.text import escape_plotly

Interval = tuple[float, float]
PATH_COLOURS = ("#d81b60", "#1e88e5", "#ffc107", "#004d40", "#8e24aa", "#f4511e")


def scores_figure(
    scores: Mapping[str, Mapping[str, float]],
    labels: Mapping[str, str],
    intervals: Mapping[tuple[str, str], Interval] | None = None,
) -> go.Figure:
    """One panel per metric (scales differ): a point per system, with CI whiskers when ``intervals`` are given.

    ``scores[system][metric_id]``; ``labels[metric_id]`` is the metric's display name.
    """
    metric_ids = list(labels)
    systems = list(scores)
    fig = make_subplots(
        rows=1, cols=max(1, len(metric_ids)), subplot_titles=[escape_plotly(labels[m]) for m in metric_ids]
    )
    names = [escape_plotly(s) for s in systems]
    for col, metric_id in enumerate(metric_ids, start=1):
        values = [scores[s][metric_id] for s in systems]
        error = None
        if intervals:
            upper = [
                intervals[(s, metric_id)][1] - v if (s, metric_id) in intervals else 0
                for s, v in zip(systems, values, strict=True)
            ]
            lower = [
                v - intervals[(s, metric_id)][0] if (s, metric_id) in intervals else 0
                for s, v in zip(systems, values, strict=True)
            ]
            error = {"type": "data", "array": upper, "arrayminus": lower, "visible": True}
        fig.add_trace(
            go.Scatter(
                x=values,
                y=names,
                mode="markers",
                marker={"size": 10},
                error_x=error,
                name=escape_plotly(labels[metric_id]),
                showlegend=False,
                hovertemplate="%{y}: %{x:.4f}<extra></extra>",
            ),
            row=1,
            col=col,
        )
        if col > 1:
            fig.update_yaxes(showticklabels=False, row=1, col=col)
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=120 + 32 * len(systems), margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def ranks(scores: Mapping[str, Mapping[str, float]], metric_id: str, higher_is_better: bool) -> dict[str, int]:
    """Competition ranks (1 = best; equal scores share a rank) of every system under one metric."""
    values = {s: scores[s][metric_id] for s in scores}
    ordered = sorted(values.values(), reverse=higher_is_better)
    return {s: 1 + ordered.index(v) for s, v in values.items()}


def rankings_figure(
    scores: Mapping[str, Mapping[str, float]], labels: Mapping[str, str], higher_is_better: Mapping[str, bool]
) -> go.Figure:
    """A bump chart: x = metric, y = rank of each system under it (1 on top); crossing lines = disagreement."""
    metric_ids = list(labels)
    per_metric = {m: ranks(scores, m, higher_is_better[m]) for m in metric_ids}
    fig = go.Figure()
    for system in scores:
        fig.add_trace(
            go.Scatter(
                x=[escape_plotly(labels[m]) for m in metric_ids],
                y=[per_metric[m][system] for m in metric_ids],
                mode="lines+markers",
                name=escape_plotly(system),
                hovertemplate="%{x}: rank %{y}<extra>%{fullData.name}</extra>",
            )
        )
    fig.update_yaxes(autorange="reversed", dtick=1, title="rank")
    fig.update_layout(height=160 + 28 * len(scores), margin={"l": 10, "r": 10, "t": 20, "b": 30})
    return fig


def lcs_grid_figure(
    ref_words: Sequence[str],
    hyp_words: Sequence[str],
    grid: np.ndarray,
    paths: Sequence[Sequence[tuple[int, int]]],
    *,
    path_names: Sequence[str] = (),
    limit: int = 80,
    boundaries: tuple[Sequence[int], Sequence[int]] = ((), ()),
) -> tuple[go.Figure, str]:
    """Heatmap of ``grid`` (rows: reference positions 0..m, columns: hypothesis positions 0..n) with each path of
    ``(ref index, hyp index)`` pairs drawn through the cells ``(i+1, j+1)`` it matched.

    Grids larger than ``limit`` per side are cut to the top-left ``limit × limit`` cells; the returned note says so
    (empty when nothing was cut). ``boundaries`` are sentence starts (reference, hypothesis) drawn as lines.
    """
    m, n = len(ref_words), len(hyp_words)
    rows, cols = min(m, limit), min(n, limit)
    shown = np.asarray(grid)[: rows + 1, : cols + 1]
    note = ""
    if rows < m or cols < n:
        note = f"The grid has {m + 1} × {n + 1} cells; the first {rows + 1} × {cols + 1} are drawn."
    x_labels = ["∅", *(escape_plotly(w) for w in hyp_words[:cols])]
    y_labels = ["∅", *(escape_plotly(w) for w in ref_words[:rows])]
    fig = go.Figure(
        go.Heatmap(
            z=shown,
            x=list(range(cols + 1)),
            y=list(range(rows + 1)),
            colorscale="Blues",
            showscale=False,
            customdata=[[f"{y_labels[i]} / {x_labels[j]}" for j in range(cols + 1)] for i in range(rows + 1)],
            hovertemplate="ref %{y}, hyp %{x} (%{customdata}): %{z}<extra></extra>",
        )
    )
    for k, path in enumerate(paths):
        kept = [(i, j) for i, j in path if i < rows and j < cols]
        if not kept:
            continue
        fig.add_trace(
            go.Scatter(
                x=[j + 1 for _, j in kept],
                y=[i + 1 for i, _ in kept],
                mode="lines+markers",
                line={"color": PATH_COLOURS[k % len(PATH_COLOURS)], "width": 3},
                marker={"size": 9},
                name=escape_plotly(path_names[k]) if k < len(path_names) else f"path {k + 1}",
                hovertemplate="match: ref %{y}, hyp %{x}<extra></extra>",
            )
        )
    for start in boundaries[0]:
        if 0 < start <= rows:
            fig.add_hline(y=start + 0.5, line={"color": "#9e9e9e", "dash": "dot"})
    for start in boundaries[1]:
        if 0 < start <= cols:
            fig.add_vline(x=start + 0.5, line={"color": "#9e9e9e", "dash": "dot"})
    fig.update_xaxes(tickmode="array", tickvals=list(range(cols + 1)), ticktext=x_labels, side="top", tickangle=-60)
    fig.update_yaxes(tickmode="array", tickvals=list(range(rows + 1)), ticktext=y_labels, autorange="reversed")
    size = 22
    fig.update_layout(
        width=max(360, 140 + size * (cols + 1)),
        height=max(300, 140 + size * (rows + 1)),
        margin={"l": 10, "r": 10, "t": 90, "b": 10},
        showlegend=len(paths) > 1,
    )
    return fig, note


def weights_figure(grams: Sequence[tuple[str, float]], title: str) -> go.Figure:
    """Horizontal bars of n-gram weights (e.g. CIDEr-D TF-IDF), largest first; labels escaped."""
    ordered = sorted(grams, key=lambda g: -g[1])
    fig = go.Figure(go.Bar(x=[w for _, w in ordered], y=[escape_plotly(g) for g, _ in ordered], orientation="h"))
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(
        title=escape_plotly(title), height=120 + 20 * len(ordered), margin={"l": 10, "r": 10, "t": 40, "b": 30}
    )
    return fig


def argmin_figure(
    ref_chars: Sequence[str],
    argmins: Sequence[int],
    long_jumps: Sequence[bool],
    hyp_chars: Sequence[str],
    limit: int = 400,
) -> tuple[go.Figure, str]:
    """EED's path: for each reference character (x) the hypothesis column where its DP row was minimal (y); long
    jumps (rows at a reference space, capped at α + the row minimum) marked. Cut to ``limit`` characters."""
    shown = min(len(ref_chars), limit)
    note = f"The first {shown} of {len(ref_chars)} reference characters are drawn." if shown < len(ref_chars) else ""
    x = list(range(shown))
    fig = go.Figure(
        go.Scatter(
            x=x,
            y=list(argmins[:shown]),
            mode="lines+markers",
            marker={"color": ["#d81b60" if j else "#1e88e5" for j in long_jumps[:shown]], "size": 7},
            customdata=[
                [
                    escape_plotly(ref_chars[i]),
                    escape_plotly(hyp_chars[argmins[i]]) if 0 <= argmins[i] < len(hyp_chars) else "",
                ]
                for i in x
            ],
            hovertemplate="ref char %{x} '%{customdata[0]}' → hyp column %{y} '%{customdata[1]}'<extra></extra>",
        )
    )
    fig.update_xaxes(title="reference character")
    fig.update_yaxes(title="argmin hypothesis column")
    fig.update_layout(height=320, margin={"l": 10, "r": 10, "t": 20, "b": 40})
    return fig, note
