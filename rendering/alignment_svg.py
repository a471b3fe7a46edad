"""A word alignment drawn as SVG (shown as an image): hypothesis tokens on top, reference tokens below, one line per aligned pair
coloured by the matching stage, and each chunk (a run adjacent in both sentences) boxed on both sides."""

from __future__ import annotations

import base64
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rendering.text import escape_html

STAGE_COLOURS = {"exact": "#2e7d32", "stem": "#1565c0", "synonym": "#8e24aa", "paraphrase": "#ef6c00"}
_CHAR = 7.4  # px per narrow character at 13px
_GAP = 12
_PAD = 6
_TOP, _BOTTOM = 24, 118


@dataclass(frozen=True)
class Link:
    hyp: int
    ref: int
    stage: str
    label: str = ""  # tooltip, e.g. "wrote ~ write (stem)"


@dataclass(frozen=True)
class Chunk:
    hyp_start: int
    hyp_end: int
    ref_start: int
    ref_end: int


def _width(text: str) -> float:
    wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in text)
    return (len(text) + wide) * _CHAR + 2 * _PAD


def _layout(tokens: Sequence[str]) -> list[tuple[float, float]]:
    """(x, width) of each token laid out left to right."""
    boxes, x = [], 4.0
    for token in tokens:
        w = _width(token)
        boxes.append((x, w))
        x += w + _GAP
    return boxes


def alignment_svg(
    hyp: Sequence[str], ref: Sequence[str], links: Sequence[Link], chunks: Sequence[Chunk] = (), *, limit: int = 150
) -> str:
    """The SVG (escaped text) inside a horizontally scrolling ``div``; tokens beyond ``limit`` are left out."""
    hyp, ref = list(hyp[:limit]), list(ref[:limit])
    top, bottom = _layout(hyp), _layout(ref)
    width = max([x + w for x, w in top + bottom] + [100.0]) + 4
    height = _BOTTOM + 30
    parts = [
        f'<svg class="sl-svg" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" role="img" aria-label="word alignment">'
    ]
    for chunk in chunks:
        for (start, end), boxes, y in (
            ((chunk.hyp_start, chunk.hyp_end), top, _TOP - 16),
            ((chunk.ref_start, chunk.ref_end), bottom, _BOTTOM - 16),
        ):
            if end > len(boxes) or start >= end:
                continue
            x0 = boxes[start][0] - 3
            x1 = boxes[end - 1][0] + boxes[end - 1][1] + 3
            parts.append(
                f'<rect class="sl-chunk" x="{x0:.1f}" y="{y}" width="{x1 - x0:.1f}" height="24" rx="4" '
                'fill="none" stroke="#757575" stroke-dasharray="4 2"/>'
            )
    for link in links:
        if link.hyp >= len(top) or link.ref >= len(bottom):
            continue
        hx = top[link.hyp][0] + top[link.hyp][1] / 2
        rx = bottom[link.ref][0] + bottom[link.ref][1] / 2
        colour = STAGE_COLOURS.get(link.stage, "#616161")
        tip = escape_html(link.label or link.stage)
        parts.append(
            f'<line x1="{hx:.1f}" y1="{_TOP + 10}" x2="{rx:.1f}" y2="{_BOTTOM - 18}" stroke="{colour}" '
            f'stroke-width="2"><title>{tip}</title></line>'
        )
    aligned_h = {link.hyp for link in links}
    aligned_r = {link.ref for link in links}
    for tokens, boxes, y, aligned in ((hyp, top, _TOP, aligned_h), (ref, bottom, _BOTTOM, aligned_r)):
        for k, (token, (x, w)) in enumerate(zip(tokens, boxes, strict=True)):
            weight = "600" if k in aligned else "400"
            fill = "#212121" if k in aligned else "#9e9e9e"
            parts.append(
                f'<text x="{x + w / 2:.1f}" y="{y}" text-anchor="middle" font-family="sans-serif" font-size="13" font-weight="{weight}" '
                f'fill="{fill}">{escape_html(token)}</text>'
            )
    parts.append("</svg>")
    legend = " ".join(
        f'<span class="sl-stage" style="border-color:{colour}">{stage}</span>'
        for stage, colour in STAGE_COLOURS.items()
        if any(link.stage == stage for link in links)
    )
    # An <img> with a data URI: st.html's sanitizer drops inline <svg>, and an SVG image never runs scripts.
    data = base64.b64encode("".join(parts).encode("utf-8")).decode("ascii")
    return (
        f'<div class="sl-scroll"><img class="sl-svg" alt="word alignment" width="{width:.0f}" height="{height}" '
        f'src="data:image/svg+xml;base64,{data}"/></div>'
        f'<div class="sl-legend">top: hypothesis, bottom: reference; dashed boxes: chunks. {legend}</div>'
    )
