"""A plotly figure of a lesson drawn as a static SVG string, for handouts: no browser, no script, no plotly.js.

Lesson figures are of two kinds (``rendering.teach_figures`` and the BERTScore similarity map): a grid — a heatmap of
categories with scatter traces marking cells (the LCS path, best matches) — and a numeric drawing — word rows joined
by lines (an alignment). :func:`figure_svg` draws both from the figure's own data, so a lesson added later with such
a figure needs nothing here. Labels arrive escaped for plotly (``escape_plotly``); they are unescaped once and
escaped again for XML, so user text stays text.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

CELL_W, CELL_H = 46, 28
SANS = "sans-serif"


def _label(value: object) -> str:
    """A plotly label as XML text: plotly's escaping undone, XML's applied (quotes too: labels go in attributes)."""
    return html.escape(html.unescape(str(value)), quote=True)


def _blue(fraction: float) -> str:
    """Plotly's "Blues" scale, from #f7fbff to #08306b, at ``fraction`` in [0, 1]."""
    low, high = (0xF7, 0xFB, 0xFF), (0x08, 0x30, 0x6B)
    t = min(1.0, max(0.0, fraction))
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(low, high, strict=True))


def _dash(line: Any) -> str:
    return ' stroke-dasharray="2,4"' if getattr(line, "dash", None) in ("dot", "dash") else ""


def _title(figure: go.Figure) -> str:
    text = figure.layout.title.text if figure.layout.title else None
    return _label(text) if text else ""


def figure_svg(figure: go.Figure, font: str = SANS) -> str:
    """``figure`` as an ``<svg>`` element (a grid when it holds a heatmap, else a drawing in data coordinates), its
    text in the font family ``font`` (a PDF names the font it embedded)."""
    heatmaps = [t for t in figure.data if isinstance(t, go.Heatmap)]
    style = f"font-family:{font};font-size:11px"
    body, width, height = _grid(figure, heatmaps[0], style) if heatmaps else _drawing(figure, style)
    title = _title(figure)
    top = 22 if title else 0
    caption = f'<text x="4" y="15" style="{style}">{title}</text>' if title else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + top}" '
        f'viewBox="0 0 {width} {height + top}" role="img">{caption}<g transform="translate(0,{top})">{body}</g></svg>'
    )


def _grid(figure: go.Figure, heatmap: go.Heatmap, style: str) -> tuple[str, int, int]:
    cols = [str(x) for x in heatmap.x] if heatmap.x is not None else []
    rows = [str(y) for y in heatmap.y] if heatmap.y is not None else []
    z: Sequence[Sequence[float | None]] = heatmap.z if heatmap.z is not None else []
    if not cols and len(z):
        cols = [str(k) for k in range(len(z[0]))]
    if not rows:
        rows = [str(k) for k in range(len(z))]
    text = heatmap.text if heatmap.text is not None else None
    left = 12 + 7 * max((len(html.unescape(r)) for r in rows), default=1)
    top = 16 + 6 * max((len(html.unescape(c)) for c in cols), default=1)
    values = [v for row in z for v in row if v is not None and not math.isnan(v)]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    span = (high - low) or 1.0
    parts: list[str] = []
    for j, col in enumerate(cols):
        x, y = left + j * CELL_W + CELL_W / 2, top - 6
        parts.append(f'<text x="{x}" y="{y}" transform="rotate(-45 {x} {y})" style="{style}">{_label(col)}</text>')
    for i, row in enumerate(rows):
        y = top + i * CELL_H
        parts.append(
            f'<text x="{left - 6}" y="{y + CELL_H / 2 + 4}" text-anchor="end" style="{style}">{_label(row)}</text>'
        )
        for j in range(len(cols)):
            value = z[i][j] if i < len(z) and j < len(z[i]) else None
            x = left + j * CELL_W
            if value is None or math.isnan(value):
                parts.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="#fff" stroke="#eee"/>')
                continue
            fraction = (value - low) / span
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{_blue(fraction)}" stroke="#fff"/>'
            )
            label = text[i][j] if text is not None and i < len(text) and j < len(text[i]) else ""
            if label:
                colour = "#fff" if fraction > 0.6 else "#222"
                parts.append(
                    f'<text x="{x + CELL_W / 2}" y="{y + CELL_H / 2 + 4}" text-anchor="middle" fill="{colour}" '
                    f'style="{style}">{_label(label)}</text>'
                )
    col_at = {c: left + k * CELL_W + CELL_W / 2 for k, c in enumerate(cols)}
    row_at = {r: top + k * CELL_H + CELL_H / 2 for k, r in enumerate(rows)}
    for trace in figure.data:
        if not isinstance(trace, go.Scatter) or trace.x is None or trace.y is None:
            continue
        points = [(col_at.get(str(x)), row_at.get(str(y))) for x, y in zip(trace.x, trace.y, strict=True)]
        placed = [(x, y) for x, y in points if x is not None and y is not None]
        parts.append(_scatter(trace, placed, CELL_W - 6, CELL_H - 6))
    return "".join(parts), left + len(cols) * CELL_W + 10, top + len(rows) * CELL_H + 10


def _scatter(trace: go.Scatter, points: Sequence[tuple[float, float]], box_w: float, box_h: float) -> str:
    """Lines through ``points`` and/or a mark at each (open squares as a box of ``box_w × box_h``)."""
    mode = trace.mode or "markers"
    colour = (trace.line.color if "lines" in mode else trace.marker.color) or "#d62728"
    colour = colour if isinstance(colour, str) else "#d62728"
    parts = []
    if "lines" in mode and len(points) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        width = trace.line.width or 2
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{_label(colour)}" stroke-width="{width}"{_dash(trace.line)}/>'
        )
    if "markers" in mode:
        symbol = str(trace.marker.symbol or "")
        for x, y in points:
            if "square" in symbol:
                parts.append(
                    f'<rect x="{x - box_w / 2}" y="{y - box_h / 2}" width="{box_w}" height="{box_h}" fill="none" '
                    f'stroke="{_label(colour)}" stroke-width="3"/>'
                )
            else:
                parts.append(f'<circle cx="{x}" cy="{y}" r="4" fill="{_label(colour)}"/>')
    return "".join(parts)


def _drawing(figure: go.Figure, style: str) -> tuple[str, int, int]:
    """A figure in numeric coordinates (an alignment: word rows joined by lines)."""
    scatters = [t for t in figure.data if isinstance(t, go.Scatter) and t.x is not None and t.y is not None]
    xs = [float(x) for t in scatters for x in t.x]
    ys = [float(y) for t in scatters for y in t.y]
    if not xs:
        return "", 10, 10
    y_range = figure.layout.yaxis.range or (min(ys) - 0.5, max(ys) + 0.5)
    x_low, x_high = min(xs) - 0.5, max(xs) + 0.5
    left, width, height = 90, max(200, int(70 * (x_high - x_low))), 220

    def place(x: float, y: float) -> tuple[float, float]:
        return (
            left + (x - x_low) / (x_high - x_low) * width,
            height - (y - y_range[0]) / (y_range[1] - y_range[0]) * height,
        )

    parts: list[str] = []
    ticks = figure.layout.yaxis
    for value, label in zip(ticks.tickvals or (), ticks.ticktext or (), strict=False):
        _, y = place(x_low, float(value))
        parts.append(f'<text x="4" y="{y + 4}" style="{style};fill:#666">{_label(label)}</text>')
    for trace in scatters:
        points = [place(float(x), float(y)) for x, y in zip(trace.x, trace.y, strict=True)]
        mode = trace.mode or "markers"
        if "lines" in mode:
            parts.append(_scatter(trace, points, 0, 0))
        if "markers" in mode:
            colours = trace.marker.color
            for k, (x, y) in enumerate(points):
                colour = colours[k] if isinstance(colours, (list, tuple)) else colours or "#333"
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{_label(colour)}"/>')
        if "text" in mode and trace.text is not None:
            below = "bottom" in str(trace.textposition or "")
            for (x, y), label in zip(points, trace.text, strict=False):
                parts.append(
                    f'<text x="{x:.1f}" y="{y + (20 if below else -10):.1f}" text-anchor="middle" '
                    f'style="{style};font-size:13px">{_label(label)}</text>'
                )
    return "".join(parts), left + width + 20, height + 10
