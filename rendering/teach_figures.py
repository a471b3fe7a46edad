"""Plotly figures of the teaching page: the LCS dynamic-programming grid with its path, and word alignments.

Every word a user typed is HTML-escaped before it becomes a plotly label (plotly renders a subset of HTML in
labels and hover text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from rendering.text import escape_plotly

PATH_COLOUR = "#d62728"
MAX_GRID_CELLS = 2500  # beyond this a heatmap is unreadable and slow to send; lessons list the path instead
MAX_ANNOTATED_CELLS = 625
STAGE_COLOURS: Mapping[str, str] = {"exact": "#2ca02c", "stem": "#1f77b4", "synonym": "#9467bd"}


def _labels(words: Sequence[str]) -> list[str]:
    # Position-prefixed, so repeated words stay distinct categories on the axes.
    return [f"{k + 1}. {escape_plotly(w)}" for k, w in enumerate(words)]


def grid_fits(rows: int, cols: int) -> bool:
    """Whether an ``rows × cols`` grid is small enough to draw."""
    return (rows + 1) * (cols + 1) <= MAX_GRID_CELLS


def lcs_grid(
    table: Sequence[Sequence[float | None]],
    ref_words: Sequence[str],
    hyp_words: Sequence[str],
    path: Sequence[tuple[int, int]],
    title: str = "",
    trail: Sequence[tuple[int, int]] = (),
) -> go.Figure:
    """The ``(m+1) × (n+1)`` DP grid (rows: reference, columns: hypothesis) with the backtracked LCS path.

    ``path`` holds ``(reference index, hypothesis index)`` pairs of the matched tokens (0-based); their cells are
    ``table[i+1][j+1]`` and get a red square; ``None`` cells stay blank. ``trail`` (grid cells ``(i, j)``) is the whole walk back from the
    bottom-right corner, drawn as a dotted line.
    """
    rows = ["∅", *_labels(ref_words)]
    cols = ["∅", *_labels(hyp_words)]
    values = [[None if v is None else float(v) for v in row] for row in table]
    annotate = len(values) * len(values[0]) <= MAX_ANNOTATED_CELLS if values else False
    text = [["" if v is None or not annotate else f"{v:.4g}" for v in row] for row in values]
    figure = go.Figure(
        go.Heatmap(
            z=values,
            x=cols,
            y=rows,
            text=text,
            texttemplate="%{text}",
            colorscale="Blues",
            showscale=False,
            hovertemplate="ref %{y}<br>hyp %{x}<br>LCS so far: %{z}<extra></extra>",
        )
    )
    if trail:
        figure.add_trace(
            go.Scatter(
                x=[cols[j] for _, j in trail],
                y=[rows[i] for i, _ in trail],
                mode="lines",
                line={"color": PATH_COLOUR, "dash": "dot", "width": 2},
                name="backtracking",
                hoverinfo="skip",
            )
        )
    if path:
        figure.add_trace(
            go.Scatter(
                x=[cols[j + 1] for _, j in path],
                y=[rows[i + 1] for i, _ in path],
                mode="markers",
                marker={"symbol": "square-open", "size": 26, "color": PATH_COLOUR, "line": {"width": 3}},
                name="LCS path",
                hoverinfo="skip",
            )
        )
    figure.update_yaxes(autorange="reversed", type="category", title="reference")
    figure.update_xaxes(side="top", type="category", title="hypothesis")
    size = max(len(rows), len(cols))
    figure.update_layout(
        title=escape_plotly(title) if title else None,
        height=min(900, 120 + 34 * len(rows)),
        width=min(1200, 160 + 60 * size),
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        showlegend=False,
    )
    return figure


def _word_row(words: Sequence[str], y: int, position: str, matched: set[int]) -> go.Scatter:
    """One side of :func:`alignment`: the words as labelled markers, dark where aligned, pale where not."""
    return go.Scatter(
        x=list(range(len(words))),
        y=[y] * len(words),
        mode="markers+text",
        text=[escape_plotly(w) for w in words],
        textposition=position,
        marker={"size": 10, "color": ["#333" if k in matched else "#ccc" for k in range(len(words))]},
        showlegend=False,
        hoverinfo="skip",
    )


def alignment(
    hyp_words: Sequence[str],
    ref_words: Sequence[str],
    links: Sequence[tuple[int, int, str]],
    chunk_of: Mapping[int, int] | None = None,
    title: str = "",
) -> go.Figure:
    """Hypothesis words on top, reference words below, a line per aligned pair coloured by ``links[k][2]``.

    ``chunk_of`` maps a hypothesis index to its chunk number, shown in the hover text and as alternating line
    widths so that chunks can be told apart.
    """
    figure = go.Figure()
    seen: set[str] = set()
    for i, j, kind in links:
        colour = STAGE_COLOURS.get(kind, "#7f7f7f")
        chunk = chunk_of.get(i) if chunk_of else None
        hover = f"{escape_plotly(hyp_words[i])} ↔ {escape_plotly(ref_words[j])} ({escape_plotly(kind)}"
        hover += f", chunk {chunk + 1})" if chunk is not None else ")"
        figure.add_trace(
            go.Scatter(
                x=[i, j],
                y=[1, 0],
                mode="lines",
                line={"color": colour, "width": 4 if (chunk or 0) % 2 == 0 else 2},
                name=escape_plotly(kind),
                legendgroup=kind,
                showlegend=kind not in seen,
                hovertext=hover,
                hoverinfo="text",
            )
        )
        seen.add(kind)
    figure.add_trace(_word_row(hyp_words, 1, "top center", {i for i, _, _ in links}))
    figure.add_trace(_word_row(ref_words, 0, "bottom center", {j for _, j, _ in links}))
    figure.update_yaxes(
        tickvals=[0, 1], ticktext=["reference", "hypothesis"], range=[-0.5, 1.5], showgrid=False, zeroline=False
    )
    figure.update_xaxes(visible=False)
    figure.update_layout(
        title=escape_plotly(title) if title else None,
        height=260,
        margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
        legend={"orientation": "h"},
    )
    return figure
