"""Views of edit-distance evidence: the TER trace (shifts, then the alignment of the shifted hypothesis) and the
CharacTER shifts with its character alignment. Both draw with :func:`rendering.edits_html.alignment_html`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from metrics.core.tokens import Token
from rendering.edits_html import LEGEND, Op, Step, alignment_html, counts_html, legend, shifted_blocks_html
from rendering.figures import argmin_figure
from rendering.ngram_view import plain_html
from rendering.parts import Part, note

_OPS: dict[str, Op] = {"MATCH": "match", "SUBSTITUTE": "sub", "INSERT": "ins", "DELETE": "del"}


def _op(edit_op: Any) -> Op:
    """Both edit enums (``metrics.core.levenshtein`` and ``metrics.ter.search``) share member names, not values."""
    return _OPS[edit_op.name]


def _shown(text: str, token: Token | None) -> str | None:
    """The token as the user wrote it (TER lowercases by default), falling back to the metric's form."""
    if token is None:
        return None
    return text[token.start : token.end] if token.located else token.text


def ter_parts(ex: Any, hyp: str, refs: Sequence[str], reference: int | None = None) -> list[Part]:
    k = ex.best if reference is None else reference
    ref = ex.references[k]
    blocks = []
    moved: set[int | None] = set()
    for n, shift in enumerate(ref.shifts, start=1):
        located = [t for t in shift.tokens if t.located]
        moved |= {t.start for t in located}
        if located:
            label = f"shift {n}: '{' '.join(shift.words)}' from position {shift.start + 1} to {shift.dest + 1}"
            blocks.append((located[0].start, located[-1].end, label))
    steps = [
        Step(
            _op(e.op),
            _shown(hyp, e.hyp_token),
            _shown(refs[k], e.ref_token),
            e.hyp_token is not None and e.hyp_token.located and e.hyp_token.start in moved,
        )
        for e in ref.alignment
    ]
    edits = len(ref.shifts) + ref.substitutions + ref.deletions + ref.insertions
    parts = [
        Part(
            "html",
            counts_html(
                [
                    ("shifts", str(len(ref.shifts))),
                    ("substitutions", str(ref.substitutions)),
                    ("deletions", str(ref.deletions)),
                    ("insertions", str(ref.insertions)),
                    ("edits", f"{edits}"),
                    ("TER", f"{ex.edits} / {ex.avg_ref_len:g} (average reference length) = {ex.score:.4f}"),
                ]
            ),
            f"Against reference {k + 1}" + (" (fewest edits)" if k == ex.best else ""),
        ),
        Part("html", shifted_blocks_html(hyp, blocks), "Hypothesis with the shifted blocks"),
    ]
    if ref.shifts:
        table = pd.DataFrame(
            [
                {
                    "step": n,
                    "words moved": " ".join(s.words),
                    "from position": s.start + 1,
                    "to position": s.dest + 1,
                    "edit distance before → after": f"{s.distance_before} → {s.distance_after}",
                }
                for n, s in enumerate(ref.shifts, start=1)
            ]
        )
        parts.append(Part("table", table, "Shifts, in the order applied"))
    parts.append(
        Part("html", LEGEND + alignment_html(steps), "Shifted hypothesis (top) aligned with the reference (bottom)")
    )
    if ref.candidate_cap_hit:
        parts.append(note("The shift search stopped at sacrebleu's 1000-candidate cap (its last shift discarded)."))
    if ref.budget_exhausted:
        parts.append(note("The shift search stopped at the configured search budget."))
    return parts + [note(n) for n in ex.notes]


def character_parts(ex: Any, hyp: str, refs: Sequence[str], reference: int | None = None) -> list[Part]:
    k = ex.best if reference is None else reference
    ref = ex.references[k]
    parts = [
        Part(
            "html",
            counts_html(
                [
                    ("word distance", str(ref.word_distance)),
                    ("shifts", str(len(ref.shifts))),
                    ("shift cost", f"{ref.shift_cost:g}"),
                    ("character distance", str(ref.char_distance)),
                    ("hypothesis characters", str(ref.hyp_chars)),
                    ("CharacTER", f"{ref.score:.4f} ({ref.rule})"),
                ]
            ),
            f"Against reference {k + 1}" + (" (lowest)" if k == ex.best else ""),
        )
    ]
    if ref.shifts:
        parts.append(
            Part(
                "table",
                pd.DataFrame(
                    [
                        {
                            "step": n,
                            "block": " ".join(s.block),
                            "from": s.source + 1,
                            "to": s.destination + 1,
                            "word distance before → after": f"{s.distance_before} → {s.distance_after}",
                        }
                        for n, s in enumerate(ref.shifts, start=1)
                    ]
                ),
                "Shifts",
            )
        )
    if ref.phrases:
        parts.append(
            Part(
                "table",
                pd.DataFrame(
                    [
                        {"phrase": " ".join(p.words), "original": p.original + 1, "final": p.final + 1, "cost": p.cost}
                        for p in ref.phrases
                    ]
                ),
                "Shift cost per moved phrase (average character length)",
                detail=True,
            )
        )
    if ref.edits is None:
        parts.append(note("The character alignment is too large to draw; the distance above is exact."))
    else:
        steps = [
            Step(
                _op(e.op),
                ref.shifted[e.hyp_index] if e.hyp_index is not None else None,
                ref.reference_text[e.ref_index] if e.ref_index is not None else None,
            )
            for e in ref.edits
        ]
        parts.append(
            Part("html", LEGEND + alignment_html(steps), "Shifted hypothesis (top) vs reference, by character")
        )
    return parts + [note(n) for n in (*ref.notes, *ex.notes)]


def eed_parts(ex: Any, hyp: str, refs: Sequence[str], reference: int | None = None) -> list[Part]:
    k = ex.best if reference is None else reference
    al = ex.references[k]
    parts = [
        Part(
            "html",
            counts_html(
                [
                    ("errors", f"{al.errors:g}"),
                    ("coverage", str(al.coverage)),
                    ("reference length", str(al.ref_length)),
                    ("EED", f"min(1, (errors + ρ·coverage) / (length + ρ·coverage)) = {al.score:.4f}"),
                    ("variant", str(ex.variant)),
                ]
            ),
            f"Against reference {k + 1}" + (" (lowest)" if k == ex.best else ""),
        ),
        Part("html", plain_html(al.hypothesis), "Preprocessed hypothesis (columns)"),
        Part("html", plain_html(al.reference), "Preprocessed reference (rows)"),
    ]
    if al.steps:
        fig, cut = argmin_figure(
            [s.char for s in al.steps], [s.argmin for s in al.steps], [s.long_jump for s in al.steps], al.hypothesis
        )
        parts.append(Part("figure", fig, "Argmin column per reference character (red: long jump)"))
        if cut:
            parts.append(note(cut))
        parts.append(
            Part(
                "table",
                pd.DataFrame(
                    [
                        {
                            "ref #": s.index,
                            "char": s.char,
                            "argmin column": s.argmin,
                            "row minimum": s.value,
                            "long jump": s.long_jump,
                        }
                        for s in al.steps
                    ]
                ).head(400),
                "Rows of the DP grid",
                detail=True,
            )
        )
    return parts + [note(n) for n in (*al.notes, *ex.notes)]


def error_rate_parts(ex: Any, hyp: str, refs: Sequence[str], reference: int | None = None) -> list[Part]:
    """WER/CER (jiwer): chunks of equal/substituted/inserted/deleted units against one reference."""
    k = ex.best if reference is None else reference
    ref = ex.references[k]
    unit = "word" if ex.unit == "word" else "character"
    parts = [
        Part(
            "html",
            counts_html(
                [
                    ("hits", str(ref.hits)),
                    ("substitutions", str(ref.substitutions)),
                    ("deletions", str(ref.deletions)),
                    ("insertions", str(ref.insertions)),
                    ("rate", f"{ex.edits} / {ex.avg_ref_len:g} = {ex.score:.4f}"),
                ]
            ),
            f"Against reference {k + 1}" + (" (fewest edits)" if k == ex.best else ""),
        )
    ]
    if ref.chunks is None:
        parts.append(note(f"The segment is too long to align; at least {ref.lower_bound} edits."))
        return parts + [note(n) for n in ex.notes]

    def text_of(tokens: Sequence[Token], i: int, source: str) -> str:
        token = tokens[i]
        return source[token.start : token.end] if token.located else token.text

    steps = []
    for chunk in ref.chunks:
        kind = chunk.type.name
        h = range(chunk.hyp_start_idx, chunk.hyp_end_idx)
        r = range(chunk.ref_start_idx, chunk.ref_end_idx)
        if kind in ("EQUAL", "SUBSTITUTE"):
            op: Op = "match" if kind == "EQUAL" else "sub"
            steps += [
                Step(op, text_of(ex.hyp_tokens, i, hyp), text_of(ref.tokens, j, refs[k]))
                for i, j in zip(h, r, strict=True)
            ]
        elif kind == "INSERT":  # jiwer: hypothesis units the reference lacks
            steps += [Step("ins", text_of(ex.hyp_tokens, i, hyp), None) for i in h]
        else:
            steps += [Step("del", None, text_of(ref.tokens, j, refs[k])) for j in r]
    key = legend(
        f"{unit} of the reference the hypothesis lacks", f"{unit} of the hypothesis the reference lacks", shifts=False
    )
    parts.append(Part("html", key + alignment_html(steps), "Alignment: hypothesis (top), reference (bottom)"))
    return parts + [note(n) for n in ex.notes]
