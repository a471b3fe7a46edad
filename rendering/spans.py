"""Error spans drawn on a text: any sequence of :class:`~metrics.core.spans.ErrorSpan` — a learned metric's word-level
tags (xCOMET), a human rater's MQM or ESA marks — on the output (or, for omissions, on the source), as escaped HTML.

Severity is the colour (a light tint behind the text, the colour of a bar under it); each origin (a model, a rater)
draws its bars on a line of its own under the text, always the same line for the same origin, so several origins
stay apart on one line of text and a reader sees where they agree. Overlapping spans cut the text into pieces at
every span boundary: each piece shows every span covering it (the tint of the most severe, one bar per origin, and
all of them in its tooltip). A span of no characters (an insertion point) is drawn as a caret. Offsets are Python
string indices (code points), as :class:`ErrorSpan` defines them: a span may start or end between a base letter and
its combining mark, and is drawn exactly so.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.spans import ErrorSpan, Severity, Side
from rendering.text import escape_html

# Severity colours: a bar (saturated) and a tint behind the text (light enough to read black text on).
BAR = {
    Severity.NEUTRAL: "#78909c",
    Severity.MINOR: "#f9a825",
    Severity.MAJOR: "#ef6c00",
    Severity.CRITICAL: "#b71c1c",
}
TINT = {
    Severity.NEUTRAL: "#eceff1",
    Severity.MINOR: "#fff8e1",
    Severity.MAJOR: "#ffe0b2",
    Severity.CRITICAL: "#ffcdd2",
}
RANK = {severity: rank for rank, severity in enumerate(Severity)}  # the enum lists severities from least to worst
BAR_PX = 3  # a bar's height
LANE_PX = 5  # from one origin's bar to the next one's


def origins(spans: Sequence[ErrorSpan]) -> tuple[str, ...]:
    """The origins of ``spans`` in order of first appearance: the order of their lines under the text."""
    return tuple(dict.fromkeys(span.origin for span in spans))


def describe(span: ErrorSpan, shown: str | None = None) -> str:
    """One span in words, for a tooltip: origin, severity, category, confidence, and the producer's own text of the
    span when it differs from ``shown`` (the characters its offsets cover; xCOMET decodes its word pieces)."""
    words = [span.severity.value]
    if span.category:
        words.append(span.category)
    if span.confidence is not None:
        words.append(f"confidence {span.confidence:.3f}")
    head = f"{span.origin or 'unnamed'}: " + " · ".join(words)
    if shown is not None and span.text != shown:
        head += f" (its text: {span.text!r})"
    return head


def _check(text: str, spans: Sequence[ErrorSpan]) -> None:
    for span in spans:
        if span.end > len(text):
            raise ValueError(
                f"{span.side.value} span [{span.start}, {span.end}) of {span.origin or 'unnamed'} ({span.text!r}) "
                f"lies past the end of its text ({len(text)} characters)"
            )


def _style(covering: Sequence[ErrorSpan], lanes: Sequence[str]) -> str:
    """Inline style of a piece: the tint of its worst span, and per origin the bar of that origin's worst span on
    the origin's line (bars are background layers in the piece's bottom padding, so they wrap with the text)."""
    worst = max(covering, key=lambda s: RANK[s.severity]).severity
    layers = []
    for lane, origin in enumerate(lanes):
        own = [s for s in covering if s.origin == origin]
        if own:
            colour = BAR[max(own, key=lambda s: RANK[s.severity]).severity]
            below = (len(lanes) - 1 - lane) * LANE_PX
            layers.append(f"linear-gradient({colour},{colour}) 0 calc(100% - {below}px)/100% {BAR_PX}px no-repeat")
    padding = len(lanes) * LANE_PX
    return f"background:{', '.join([*layers, TINT[worst]])};padding-bottom:{padding}px"


def spans_html(text: str, spans: Sequence[ErrorSpan], side: Side = Side.TARGET, lanes: Sequence[str] = ()) -> str:
    """``text`` as escaped HTML with the spans of ``spans`` that lie on ``side`` drawn on it (the others belong to
    the other text). ``lanes``: the origins in the order of their lines (default: :func:`origins` of ``spans``, so
    the output and its source draw one origin on the same line); an origin missing from it gets a line after them.
    A span past the end of ``text`` is a ``ValueError``: its offsets belong to another text."""
    mine = [s for s in spans if s.side is side]
    _check(text, mine)
    order = list(dict.fromkeys([*(lanes or origins(spans)), *origins(mine)]))
    cuts = sorted({0, len(text), *(s.start for s in mine), *(s.end for s in mine)})
    points = [s for s in mine if s.start == s.end]
    out: list[str] = []
    for a, b in zip(cuts, cuts[1:] + [len(text)], strict=True):
        for point in (p for p in points if p.start == a):
            out.append(
                f'<span class="sl-err-point" style="color:{BAR[point.severity]}" '
                f'title="{escape_html(describe(point))} (between characters)">‸</span>'
            )
        if a >= b:
            continue
        piece = text[a:b]
        covering = [s for s in mine if s.start <= a and b <= s.end]
        if not covering:
            out.append(escape_html(piece))
            continue
        title = "\n".join(describe(s, text[s.start : s.end]) for s in covering)
        out.append(
            f'<span class="sl-err" style="{_style(covering, order)}" title="{escape_html(title)}">'
            f"{escape_html(piece)}</span>"
        )
    height = f"line-height:calc(1.7em + {len(order) * LANE_PX}px)" if mine else ""
    return f'<div class="sl-text sl-spans" style="{height}">{"".join(out)}</div>'


def spans_legend(lanes: Sequence[str]) -> str:
    """The colour key of the severities and which line under the text is whose (the first line is the one nearest
    the text)."""
    chips = " ".join(
        f'<span style="background:{TINT[s]};border-bottom:{BAR_PX}px solid {BAR[s]}">{s.value}</span>' for s in Severity
    )
    lines = ""
    if lanes:
        lines = " · lines under the text, nearest first: " + ", ".join(
            f"{k + 1}. {escape_html(origin or 'unnamed')}" for k, origin in enumerate(lanes)
        )
    return f'<div class="sl-legend">severity: {chips}{lines}</div>'
