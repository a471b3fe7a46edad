"""Two systems' outputs of one segment side by side, each with what the other lacks highlighted: the rows of the
explorer's error analysis. Words (or characters, for scripts written without spaces) are compared as a diff does,
on the user's original text, so a highlight lands on exactly the characters that differ."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from metrics.core.language import LengthUnit
from metrics.core.tokens import Token, locate
from rendering.text import Span, escape_html, highlight

ONLY_A, ONLY_B = "sl-only-a", "sl-only-b"


def _tokens(text: str, unit: LengthUnit) -> tuple[Token, ...]:
    return locate(text, [c for c in text if not c.isspace()] if unit == "characters" else text.split())


def _runs(tokens: Sequence[Token], css_class: str, title: str) -> list[Span]:
    """One span from the first to the last token of a run (the spaces between them included)."""
    starts = [t.start for t in tokens if t.start is not None]
    ends = [t.end for t in tokens if t.end is not None]
    return [Span(starts[0], ends[-1], css_class, title)] if starts and ends else []


def difference_spans(a: str, b: str, unit: LengthUnit = "words") -> tuple[list[Span], list[Span]]:
    """The spans of ``a`` that ``b`` lacks and of ``b`` that ``a`` lacks (a longest-matching-blocks diff of their
    words or characters)."""
    ta, tb = _tokens(a, unit), _tokens(b, unit)
    matcher = SequenceMatcher(None, [t.text for t in ta], [t.text for t in tb], autojunk=False)
    spans_a: list[Span] = []
    spans_b: list[Span] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            spans_a += _runs(ta[i1:i2], ONLY_A, "not in B")
            spans_b += _runs(tb[j1:j2], ONLY_B, "not in A")
    return spans_a, spans_b


@dataclass(frozen=True)
class ComparedRow:
    """One segment of the comparison: its number (from 1), the two outputs and their scores under one metric, and
    the text they are read against, labelled (the reference; the source, ``"Src"``, for data without references;
    ``None`` for neither)."""

    segment: int
    a: str
    b: str
    score_a: float
    score_b: float
    reference: str | None
    reference_label: str = "Ref"


def comparison_html(row: ComparedRow, metric_label: str, unit: LengthUnit = "words") -> str:
    """One row: the difference and both scores first, then the two outputs with their differences highlighted and
    the reference, each wrapping."""
    spans_a, spans_b = difference_spans(row.a, row.b, unit)
    delta = row.score_a - row.score_b
    sign = "sl-up" if delta > 0 else "sl-down" if delta < 0 else ""
    label = escape_html(metric_label)
    return (
        '<div class="sl-pair">'
        f'<div class="sl-pair-scores"><span class="sl-kv {sign}"><b>A − B {delta:+.4f}</b></span>'
        f'<span class="sl-kv">A {label} {row.score_a:.4f}</span><span class="sl-kv">B {label} {row.score_b:.4f}</span>'
        "</div>"
        f'<div class="sl-pair-texts"><div class="sl-text"><b>A</b> {highlight(row.a, spans_a)}</div>'
        f'<div class="sl-text"><b>B</b> {highlight(row.b, spans_b)}</div></div>'
        + (
            f'<div class="sl-text sl-pair-ref"><b>{escape_html(row.reference_label)}</b> {escape_html(row.reference)}</div>'
            if row.reference is not None
            else ""
        )
        + "</div>"
    )
