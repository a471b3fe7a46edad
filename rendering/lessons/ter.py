"""The TER lesson (Snover et al. 2006, as sacrebleu 2.6.0 computes it): each shift the greedy search applies, then
each edit of the final alignment, then edits over the average reference length — read from
:class:`metrics.families.ter.metric.TERExplanation`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.core.edits import EditOp
from metrics.families.ter.metric import TER, TERExplanation, TERReference, TERShift
from rendering.teach import Context, Lesson, Step, Table, frac, lesson, tex
from rendering.text import escape_markdown

MISTAKES = (
    "TER is an error rate: **lower is better**, and it can exceed 100 (more edits than reference words).",
    "A shift moves a whole block of words and costs **one** edit, whatever its length or distance; that is what "
    "separates TER from a plain word error rate (Levenshtein distance).",
    "With several references TER takes the fewest edits over the references but divides by the **average** length "
    "of all references, not by the length of the reference that gave the fewest edits.",
    "sacrebleu's TER lowercases by default (case_sensitive=False), unlike its BLEU and chrF.",
    "The shift search is greedy (the best-gain shift first, at most 1000 candidates, blocks of at most 10 words, "
    "moved at most 50 positions): it does not guarantee the minimal number of edits, and tercom's can differ.",
)

# What TER does about each step (tercom's words: it deletes the hypothesis words the reference lacks).
_OP_TEXT = {
    EditOp.MATCH: "match (no cost)",
    EditOp.SUBSTITUTE: "substitute",
    EditOp.INSERT: "delete a hypothesis word the reference lacks",
    EditOp.DELETE: "insert a reference word the hypothesis lacks",
}


def _shift_step(number: int, k: int, shift: TERShift) -> Step:
    moved = " ".join(shift.words)
    text = (
        f"Move the block “{escape_markdown(moved)}” ({shift.length} word(s), position {shift.start + 1}) so that it "
        f"starts at position {shift.dest + 1}. The edit distance to the reference drops from "
        f"{shift.distance_before} to {shift.distance_after}: a gain of {shift.gain}, for the price of one shift "
        "edit. The search applies the best-gain shift as long as some shift has a gain above 0."
    )
    frame = pd.DataFrame(
        [
            {"": "before", "hypothesis": " ".join(shift.before), "distance": shift.distance_before},
            {"": "after", "hypothesis": " ".join(shift.after), "distance": shift.distance_after},
        ]
    )
    return Step(
        f"{number}. Shift {k + 1}",
        text,
        formulas=(rf"\text{{gain}} = {shift.distance_before} - {shift.distance_after} = {shift.gain} > 0",),
        tables=(Table(f"shift {k + 1}", frame),),
    )


def _edit_table(ref: TERReference) -> pd.DataFrame:
    rows = []
    for e in ref.alignment or ():
        rows.append(
            {
                "operation": _OP_TEXT[e.op],
                "hypothesis word": ref.hypothesis[e.hyp_index].text if e.hyp_index is not None else "",
                "reference word": ref.tokens[e.ref_index].text if e.ref_index is not None else "",
                "cost": int(e.op.is_error),
            }
        )
    return pd.DataFrame(rows, columns=["operation", "hypothesis word", "reference word", "cost"])


@lesson.register(TERExplanation)
def ter_lesson(explanation: TERExplanation, metric: TER, hyp: str, refs: Sequence[str], context: Context) -> Lesson:
    config = metric.config
    ref = explanation.chosen
    steps: list[Step] = []
    numbers: dict[str, float] = {}

    token_rows = [{"side": "hypothesis", "words": " · ".join(t.text for t in explanation.hyp_tokens),
                   "length": len(explanation.hyp_tokens)}]  # fmt: skip
    token_rows += [
        {"side": f"reference {r.index + 1}", "words": " · ".join(t.text for t in r.tokens), "length": r.ref_len}
        for r in explanation.references
    ]
    text = (
        "Both sides are "
        + ("" if config.case_sensitive else "lowercased and ")
        + ("tokenized (tercom -N) and " if config.normalized else "")
        + ("stripped of punctuation and " if config.no_punct else "")
        + "split into words."
    )
    tables = [Table("words", pd.DataFrame(token_rows))]
    if len(explanation.references) > 1:
        text += (
            f" The hypothesis is compared with each of the {len(explanation.references)} references; reference "
            f"{explanation.best_ref + 1} needs the fewest edits and is shown below."
        )
        tables.append(
            Table(
                "references",
                pd.DataFrame(
                    {
                        "reference": [r.index + 1 for r in explanation.references],
                        "edits": [r.edits for r in explanation.references],
                        "length": [r.ref_len for r in explanation.references],
                        "fewest edits": [r.index == explanation.best_ref for r in explanation.references],
                    }
                ),
            )
        )
    steps.append(Step("1. Words", text, tables=tuple(tables)))

    number = 2
    if not ref.shifts:
        steps.append(
            Step(
                f"{number}. Shifts",
                "The greedy search found no block move that lowers the edit distance, so no shift is applied.",
            )
        )
        number += 1
    for k, shift in enumerate(ref.shifts):
        steps.append(_shift_step(number, k, shift))
        number += 1

    counts = (
        f"{ref.substitutions} substitution(s), {ref.insertions} hypothesis word(s) the reference lacks (I, which TER "
        f"deletes), {ref.deletions} reference word(s) the hypothesis lacks (D, which TER inserts) and "
        f"{ref.matches} match(es)"
    )
    steps.append(
        Step(
            f"{number}. Edits",
            "The shifted hypothesis is aligned with the reference word by word (Levenshtein distance with the same "
            f"tie-breaking as sacrebleu): {counts}.",
            formulas=(
                r"\text{edits} = \text{shifts} + S + I + D",
                rf"\text{{edits}} = {len(ref.shifts)} + {ref.substitutions} + {ref.insertions} + {ref.deletions} = "
                rf"{ref.edits}",
            ),
            tables=(Table("alignment", _edit_table(ref)),),
        )
    )
    number += 1
    numbers["shifts"] = len(ref.shifts)
    numbers["substitutions"] = ref.substitutions
    numbers["insertions"] = ref.insertions
    numbers["deletions"] = ref.deletions
    numbers["edits"] = explanation.edits

    lengths = [r.ref_len for r in explanation.references]
    avg_formula = (
        rf"\bar r = \frac{{{' + '.join(str(n) for n in lengths)}}}{{{len(lengths)}}} = {tex(explanation.avg_ref_len)}"
        if len(lengths) > 1
        else rf"\bar r = {tex(explanation.avg_ref_len)}"
    )
    steps.append(
        Step(
            f"{number}. TER",
            "Edits over the average reference length, × 100.",
            formulas=(
                r"\mathrm{TER} = 100 \cdot \frac{\text{edits}}{\bar r}",
                avg_formula,
                rf"\mathrm{{TER}} = 100 \cdot {frac(explanation.edits, round(explanation.avg_ref_len, 4))} = "
                rf"{tex(explanation.score, 2)}",
            ),
        )
    )
    numbers["average reference length"] = explanation.avg_ref_len
    numbers["TER"] = explanation.score
    return Lesson(
        metric.name,
        explanation.score,
        f"{explanation.score:.2f}",
        tuple(steps),
        numbers,
        f"TER = {explanation.score:.2f} ({explanation.edits} edits / {explanation.avg_ref_len:g} words)",
        MISTAKES,
        (*explanation.notes, "Signature: " + metric.signature()),
    )
