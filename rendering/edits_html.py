"""Edit traces as escaped HTML: an alignment of hypothesis and reference units (words for TER/WER, characters for
CharacTER) with matches, substitutions, insertions and deletions marked, and shifted blocks drawn on the text."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import overload

from metrics.core.edits import EditAlignment, EditOp
from metrics.core.tokens import Token
from rendering.text import Span, escape_html, highlight

_CSS = {EditOp.MATCH: "sl-eq", EditOp.SUBSTITUTE: "sl-sub", EditOp.INSERT: "sl-ins", EditOp.DELETE: "sl-del"}
_SIGN = {EditOp.MATCH: "", EditOp.SUBSTITUTE: "S", EditOp.INSERT: "I", EditOp.DELETE: "D"}
_TITLE = {
    EditOp.MATCH: "match",
    EditOp.SUBSTITUTE: "substitution",
    EditOp.INSERT: "insertion",
    EditOp.DELETE: "deletion",
}


def legend(unit: str, *, shifts: bool = True) -> str:
    """The colour key, in :class:`~metrics.core.edits.EditOp`'s sense of insertion and deletion."""
    shift = ' <span class="sl-shift">shifted block</span>' if shifts else ""
    return (
        '<div class="sl-legend"><span class="sl-eq">match</span> <span class="sl-sub">substitution</span> '
        f'<span class="sl-ins">insertion (hypothesis {escape_html(unit)} the reference lacks)</span> '
        f'<span class="sl-del">deletion (reference {escape_html(unit)} the hypothesis lacks)</span>{shift}</div>'
    )


@dataclass(frozen=True)
class Step:
    """One alignment column: ``hyp`` above, ``ref`` below (``None`` for the missing side of an ins/del)."""

    op: EditOp
    hyp: str | None
    ref: str | None
    shifted: bool = False  # the hypothesis unit was moved by a shift before alignment


@overload
def shown(text: str, token: Token) -> str: ...
@overload
def shown(text: str, token: Token | None) -> str | None: ...
def shown(text: str, token: Token | None) -> str | None:
    """The token as the user wrote it (TER lowercases by default), falling back to the metric's form."""
    if token is None:
        return None
    return text[token.start : token.end] if token.located else token.text


def alignment_steps(alignment: EditAlignment, hyp: str, ref: str, moved: Collection[int] = ()) -> list[Step]:
    """The columns of an edit-rate alignment; ``moved`` holds the start offsets of hypothesis tokens a shift moved."""
    steps = []
    for edit in alignment.alignment or ():
        h = alignment.hypothesis[edit.hyp_index] if edit.hyp_index is not None else None
        r = alignment.tokens[edit.ref_index] if edit.ref_index is not None else None
        steps.append(Step(edit.op, shown(hyp, h), shown(ref, r), h is not None and h.located and h.start in moved))
    return steps


def alignment_html(steps: Sequence[Step], *, limit: int = 400) -> str:
    """A two-row alignment: one column per step, hypothesis on top, reference below, op letter between."""
    cells = []
    for step in steps[:limit]:
        css = _CSS[step.op] + (" sl-shifted" if step.shifted else "")
        hyp = escape_html(step.hyp) if step.hyp is not None else "&#8203;"
        ref = escape_html(step.ref) if step.ref is not None else "&#8203;"
        title = _TITLE[step.op]
        cells.append(
            f'<span class="sl-col {css}" title="{title}"><span class="sl-h">{hyp}</span>'
            f'<span class="sl-op">{_SIGN[step.op] or "&middot;"}</span><span class="sl-r">{ref}</span></span>'
        )
    more = f'<div class="sl-note">… {len(steps) - limit} more steps not drawn</div>' if len(steps) > limit else ""
    return f'<div class="sl-align">{"".join(cells)}</div>{more}'


def shifted_blocks_html(text: str, blocks: Sequence[tuple[int, int, str]]) -> str:
    """``text`` with character ranges ``(start, end, label)`` of shifted blocks marked (labels as tooltips)."""
    spans = [Span(start, end, "sl-shift", label) for start, end, label in blocks]
    return f'<div class="sl-text">{highlight(text, spans)}</div>'


def counts_html(items: Sequence[tuple[str, str]]) -> str:
    """A compact ``label value`` line (both escaped), e.g. edit counts and the TER formula."""
    body = " ".join(f'<span class="sl-kv"><b>{escape_html(k)}</b> {escape_html(v)}</span>' for k, v in items)
    return f'<div class="sl-counts">{body}</div>'
