"""Edit traces as escaped HTML: an alignment of hypothesis and reference units (words for TER/WER, characters for
CharacTER) with matches, substitutions, insertions and deletions marked, and shifted blocks drawn on the text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rendering.text import Span, escape_html, highlight

Op = Literal["match", "sub", "ins", "del"]
_CSS: dict[Op, str] = {"match": "sl-eq", "sub": "sl-sub", "ins": "sl-ins", "del": "sl-del"}
_SIGN: dict[Op, str] = {"match": "", "sub": "S", "ins": "I", "del": "D"}


def legend(deletion: str, insertion: str, *, shifts: bool = True) -> str:
    """The colour key; what "deletion" and "insertion" mean follows each metric's own naming (TER: a deletion
    removes a hypothesis word; jiwer's WER: a deletion is a reference word the hypothesis lacks)."""
    shift = ' <span class="sl-shift">shifted block</span>' if shifts else ""
    return (
        '<div class="sl-legend"><span class="sl-eq">match</span> <span class="sl-sub">substitution</span> '
        f'<span class="sl-del">deletion ({escape_html(deletion)})</span> '
        f'<span class="sl-ins">insertion ({escape_html(insertion)})</span>{shift}</div>'
    )


LEGEND = legend("hypothesis word the reference lacks", "reference word the hypothesis lacks")


@dataclass(frozen=True)
class Step:
    """One alignment column: ``hyp`` above, ``ref`` below (``None`` for the missing side of an ins/del)."""

    op: Op
    hyp: str | None
    ref: str | None
    shifted: bool = False  # the hypothesis unit was moved by a shift before alignment


def alignment_html(steps: Sequence[Step], *, limit: int = 400) -> str:
    """A two-row alignment: one column per step, hypothesis on top, reference below, op letter between."""
    cells = []
    for step in steps[:limit]:
        css = _CSS[step.op] + (" sl-shifted" if step.shifted else "")
        hyp = escape_html(step.hyp) if step.hyp is not None else "&#8203;"
        ref = escape_html(step.ref) if step.ref is not None else "&#8203;"
        title = {"match": "match", "sub": "substitution", "ins": "insertion", "del": "deletion"}[step.op]
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
