"""Views of edit-distance evidence: the TER trace (shifts, then the alignment of the shifted hypothesis), the
WER/CER alignment (and MER/WIL/WIP's, with their formula), the CharacTER shifts with its character alignment and the
EED grid. The alignments are drawn with
:func:`rendering.edits_html.alignment_html`, in :class:`~metrics.core.edits.EditOp`'s sense of insert and delete."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from metrics.core.edits import EditExplanation
from metrics.families.character.metric import CharacTERExplanation
from metrics.families.eed.metric import EEDExplanation
from metrics.families.ter.metric import TERExplanation
from metrics.families.wer.metric import ErrorRateExplanation, WordMeasureExplanation
from rendering.edits_html import Step, alignment_html, alignment_steps, counts_html, legend, shifted_blocks_html
from rendering.figures import argmin_figure
from rendering.ngram_view import plain_html
from rendering.parts import Part, note
from rendering.view import ViewOptions, evidence_view


def _counts(ex: EditExplanation[Any], k: int, first: tuple[str, str], rate: str, formula: str | None = None) -> Part:
    """The steps of the alignment with reference ``k`` by kind, and the rate the chosen one gives (``formula``, else
    the edits over the average reference length)."""
    ref = ex.references[k]
    formula = formula or f"{ex.edits} / {ex.avg_ref_len:g} (average reference length)"
    return Part(
        "html",
        counts_html(
            [
                first,
                ("substitutions", str(ref.substitutions)),
                ("insertions", str(ref.insertions)),
                ("deletions", str(ref.deletions)),
                ("edits", str(ref.edits)),
                (rate, f"{formula} = {ex.score:.4f}"),
            ]
        ),
        f"Against reference {k + 1}" + (" (fewest edits)" if k == ex.best_ref else ""),
    )


@evidence_view.register(TERExplanation)
def ter_parts(ex: TERExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    k = ex.best_ref if options.reference is None else options.reference
    ref = ex.references[k]
    blocks = []
    moved: set[int] = set()
    for n, shift in enumerate(ref.shifts, start=1):
        spans = [(t.start, t.end) for t in shift.tokens if t.start is not None and t.end is not None]
        moved |= {start for start, _ in spans}
        if spans:
            label = f"shift {n}: '{' '.join(shift.words)}' from position {shift.start + 1} to {shift.dest + 1}"
            blocks.append((spans[0][0], spans[-1][1], label))
    parts = [
        _counts(ex, k, ("shifts", str(len(ref.shifts))), "TER"),
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
    steps = alignment_steps(ref, hyp, refs[k], moved)
    parts.append(
        Part(
            "html",
            legend("word") + alignment_html(steps),
            "Shifted hypothesis (top) aligned with the reference (bottom)",
        )
    )
    if ref.candidate_cap_hit:
        parts.append(note("The shift search stopped at sacrebleu's 1000-candidate cap (its last shift discarded)."))
    if ref.budget_exhausted:
        parts.append(note("The shift search stopped at the configured search budget."))
    return parts + [note(n) for n in ex.notes]


@evidence_view.register(CharacTERExplanation)
def character_parts(ex: CharacTERExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    k = ex.best_ref if options.reference is None else options.reference
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
            f"Against reference {k + 1}" + (" (lowest)" if k == ex.best_ref else ""),
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
                e.op,
                ref.shifted[e.hyp_index] if e.hyp_index is not None else None,
                ref.reference_text[e.ref_index] if e.ref_index is not None else None,
            )
            for e in ref.edits
        ]
        parts.append(
            Part(
                "html",
                legend("character", shifts=False) + alignment_html(steps),
                "Shifted hypothesis (top) vs reference, by character",
            )
        )
    return parts + [note(n) for n in (*ref.notes, *ex.notes)]


@evidence_view.register(EEDExplanation)
def eed_parts(ex: EEDExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    k = ex.best_ref if options.reference is None else options.reference
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
            f"Against reference {k + 1}" + (" (lowest)" if k == ex.best_ref else ""),
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


@evidence_view.register(ErrorRateExplanation)
def error_rate_parts(ex: ErrorRateExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    """WER/CER (jiwer): the alignment of the hypothesis with one reference, unit by unit."""
    k = ex.best_ref if options.reference is None else options.reference
    counts = _counts(ex, k, ("hits", str(ex.references[k].matches)), "WER" if ex.unit == "word" else "CER")
    return _alignment_parts(ex, k, counts, hyp, refs)


@evidence_view.register(WordMeasureExplanation)
def word_measure_parts(ex: WordMeasureExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    """MER, WIL or WIP (jiwer): WER's alignment, and the measure's formula over the chosen reference's counts."""
    k = ex.best_ref if options.reference is None else options.reference
    chosen = ex.references[ex.best_ref]
    terms = f"H = {chosen.matches}, S = {chosen.substitutions}, D = {chosen.deletions}, I = {chosen.insertions}"
    formula = f"{ex.measure.formula} with {terms} (reference {ex.best_ref + 1})"
    counts = _counts(ex, k, ("hits", str(ex.references[k].matches)), ex.measure.label, formula)
    return _alignment_parts(ex, k, counts, hyp, refs)


def _alignment_parts(ex: ErrorRateExplanation, k: int, counts: Part, hyp: str, refs: Sequence[str]) -> list[Part]:
    ref = ex.references[k]
    unit = "word" if ex.unit == "word" else "character"
    parts = [counts]
    if ref.alignment is None:
        parts.append(note(f"The segment is too long to align; at least {ref.lower_bound} edits."))
        return parts + [note(n) for n in ex.notes]
    steps = alignment_steps(ref, hyp, refs[k])
    parts.append(
        Part(
            "html",
            legend(unit, shifts=False) + alignment_html(steps),
            "Alignment: hypothesis (top), reference (bottom)",
        )
    )
    return parts + [note(n) for n in ex.notes]
