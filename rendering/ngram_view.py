"""N-gram match highlighting, one function for every n-gram metric (BLEU, ROUGE-N, chrF).

A metric's evidence is turned into :class:`Occurrence` s — "the n-gram starting at unit ``start`` spanning
``length`` units was matched / clipped / unmatched" — where a unit is a token (BLEU, ROUGE-N, chrF word orders) or
a character (chrF character orders) with its span in the original text. :func:`ngram_html` colours each unit by
the best status of the n-grams covering it, so overlapping n-grams of order ≥ 2 stay readable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from metrics.core.tokens import Token
from rendering.text import Span, escape_html, highlight

Status = Literal["match", "clip", "miss"]
_RANK: dict[Status, int] = {"match": 2, "clip": 1, "miss": 0}
CSS: dict[Status, str] = {"match": "sl-match", "clip": "sl-clip", "miss": "sl-miss"}
LEGEND = (
    '<div class="sl-legend"><span class="sl-match">matched</span> '
    '<span class="sl-clip">over the reference count (clipped)</span> '
    '<span class="sl-miss">not in any reference</span></div>'
)


def reference_legend(n_refs: int) -> str:
    """Which underline colour stands for which reference (the one whose count set the clip)."""
    if n_refs < 2:
        return ""
    keys = " ".join(f'<span class="sl-match sl-ref{min(k, 7)}">reference {k + 1}</span>' for k in range(min(n_refs, 8)))
    return f'<div class="sl-legend">underline: the reference that matched — {keys}</div>'


Unit = tuple[int, int] | None  # [start, end) in the displayed text, None if the unit cannot be located


@dataclass(frozen=True)
class Occurrence:
    start: int
    length: int
    status: Status
    label: str  # tooltip: the n-gram and its counts
    ref: int | None = None  # 0-based reference that matched (set the clip), when known


def status_of(k: int, credited: int, allowed: int) -> Status:
    """Status of the ``k``-th occurrence (0-based) of an n-gram credited ``credited`` times, allowed ``allowed``.

    Clipping credits ``min(count, allowed)`` occurrences without saying which; the first ones are shown as
    credited, the rest as clipped.
    """
    if k < credited:
        return "match"
    return "clip" if allowed > 0 else "miss"


def unit_spans(units: Sequence[Unit], occurrences: Iterable[Occurrence]) -> list[Span]:
    """One span per unit covered by an occurrence, classed by the best status covering it; tooltips list them."""
    best: dict[int, Status] = {}
    labels: dict[int, list[str]] = {}
    refs: dict[int, set[int]] = {}
    for occ in occurrences:
        for u in range(occ.start, occ.start + occ.length):
            if u >= len(units) or units[u] is None:
                continue
            if u not in best or _RANK[occ.status] > _RANK[best[u]]:
                best[u] = occ.status
            labels.setdefault(u, [])
            if occ.label not in labels[u]:
                labels[u].append(occ.label)
            if occ.ref is not None and occ.status == "match":
                refs.setdefault(u, set()).add(occ.ref)
    spans = []
    for u in sorted(best):
        start, end = units[u]  # type: ignore[misc]
        css = CSS[best[u]]
        if len(refs.get(u, ())) == 1:
            css += f" sl-ref{min(next(iter(refs[u])), 7)}"
        title = "\n".join(labels[u][:12]) + ("\n…" if len(labels[u]) > 12 else "")
        spans.append(Span(start, end, css, title))
    return _merge(spans)


def _merge(spans: list[Span]) -> list[Span]:
    """Join directly adjacent spans with the same class and tooltip (character units of one n-gram)."""
    merged: list[Span] = []
    for span in spans:
        last = merged[-1] if merged else None
        if last and last.end == span.start and last.css_class == span.css_class and last.title == span.title:
            merged[-1] = Span(last.start, span.end, last.css_class, last.title)
        else:
            merged.append(span)
    return merged


def token_units(text: str, tokens: Sequence[Token]) -> tuple[str, list[Unit]]:
    """The text to display and each token's span in it: the original text when every token was located in it,
    otherwise the tokens joined by spaces (a tokenizer rewrote something, e.g. ``&amp;`` → ``&``)."""
    if all(t.located for t in tokens):
        return text, [(t.start, t.end) for t in tokens]  # type: ignore[misc]
    units: list[Unit] = []
    cursor = 0
    for t in tokens:
        units.append((cursor, cursor + len(t.text)))
        cursor += len(t.text) + 1
    return " ".join(t.text for t in tokens), units


def ngram_html(text: str, units: Sequence[Unit], occurrences: Iterable[Occurrence]) -> str:
    """``text`` as escaped HTML with the units of matched/clipped/unmatched n-grams highlighted."""
    return f'<div class="sl-text">{highlight(text, unit_spans(units, occurrences))}</div>'


def plain_html(text: str) -> str:
    return f'<div class="sl-text">{escape_html(text)}</div>'
