"""The METEOR lesson (Banerjee & Lavie 2005, as nltk 3.10.4 computes it): the three matching stages, the alignment,
P, R, Fmean, chunks, fragmentation, penalty and the score — read from :class:`metrics.families.meteor.metric.MeteorExplanation`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.families.meteor.metric import MatchStage, Meteor, MeteorAlignment, MeteorExplanation
from rendering.teach import Context, Lesson, Step, Table, frac, lesson, tex
from rendering.teach_figures import alignment

MISTAKES = (
    "The fragmentation penalty is **at most γ = 0.5** (every match its own chunk gives frag = 1), so METEOR never "
    "halves a score by more than that; it is 0 only with no matches.",
    "Fmean = 10PR/(R + 9P) weighs **recall** nine times as much as precision (α = 0.9) — it is not the F1 of P and R.",
    "Identical sentences do not score 1: one chunk still costs γ·(1/m)³ (0.9977 for six words).",
    "nltk's alignment is greedy (last hypothesis word first, taking the last free reference word); it does not look "
    "for the alignment with the fewest chunks, so a scrambled sentence can get more chunks than necessary.",
    "Stage 2 compares Porter stems and stage 3 asks WordNet about those stems, so some true synonyms are missed.",
    "nltk's METEOR and the official Meteor 1.5 jar (used by coco-caption) give different numbers: different "
    "parameters, paraphrase tables and function-word weights.",
)

_STAGE_TEXT = {
    MatchStage.EXACT: "the lowercased words are equal",
    MatchStage.STEM: "their Porter stems are equal",
    MatchStage.SYNONYM: "WordNet lists the reference stem as a synonym (lemma name) of the hypothesis stem",
}


def _match_table(w: MeteorAlignment) -> pd.DataFrame:
    rows = [
        {
            "stage": m.stage.value,
            "hyp #": m.hyp_index + 1,
            "hypothesis word": m.hyp_token.text,
            "ref #": m.ref_index + 1,
            "reference word": m.ref_token.text,
            "forms compared": f"{m.hyp_form} = {m.ref_form}"
            if m.hyp_form == m.ref_form
            else f"{m.hyp_form} ~ {m.ref_form}",
        }
        for m in w.matches
    ]
    return pd.DataFrame(
        rows, columns=["stage", "hyp #", "hypothesis word", "ref #", "reference word", "forms compared"]
    )


@lesson.register(MeteorExplanation)
def meteor_lesson(
    explanation: MeteorExplanation, metric: Meteor, hyp: str, refs: Sequence[str], context: Context
) -> Lesson:
    w = explanation.chosen
    alpha, beta, gamma = explanation.alpha, explanation.beta, explanation.gamma
    steps: list[Step] = []
    numbers: dict[str, float] = {}
    hyp_words = [t.text for t in w.hyp_tokens]
    ref_words = [t.text for t in w.ref_tokens]

    # 1. the three stages
    stage_rows = [
        {"stage": stage.value, "matches": count, "a pair matches when": _STAGE_TEXT[stage]}
        for stage, count in w.stage_counts
    ]
    text = (
        f"Both sides are split on spaces and lowercased ({w.hyp_len} hypothesis and {w.ref_len} reference words). "
        "Three stages run in turn, each on the words the previous stages left unmatched. In every stage the "
        "hypothesis words are visited from the **last** to the first, and each takes the **last** still-free "
        "reference word it matches."
    )
    tables = [Table("matches", _match_table(w)), Table("stages", pd.DataFrame(stage_rows))]
    if len(explanation.alignments) > 1:
        text += (
            f" With {len(explanation.alignments)} references the hypothesis is aligned with each and the best score "
            f"wins: reference {explanation.best_ref + 1}."
        )
        tables.append(
            Table(
                "references",
                pd.DataFrame(
                    {
                        "reference": [a.index + 1 for a in explanation.alignments],
                        "matches": [a.m for a in explanation.alignments],
                        "chunks": [len(a.chunks) for a in explanation.alignments],
                        "score": [a.score for a in explanation.alignments],
                        "kept": [k == explanation.best_ref for k in range(len(explanation.alignments))],
                    }
                ),
            )
        )
    steps.append(Step("1. Matching in three stages: exact, stem, synonym", text, tables=tuple(tables)))
    for stage, count in w.stage_counts:
        numbers[f"{stage.value} matches"] = count

    # 2. the alignment
    chunk_of = {}
    for k, chunk in enumerate(w.chunks):
        for i in range(chunk.hyp_start, chunk.hyp_end):
            chunk_of[i] = k
    links = [(m.hyp_index, m.ref_index, m.stage.value) for m in w.matches]
    chunk_rows = [
        {
            "chunk": k + 1,
            "hypothesis words": " ".join(hyp_words[c.hyp_start : c.hyp_end]),
            "hyp positions": f"{c.hyp_start + 1}–{c.hyp_end}",
            "ref positions": f"{c.ref_start + 1}–{c.ref_end}",
            "length": len(c),
        }
        for k, c in enumerate(w.chunks)
    ]
    steps.append(
        Step(
            "2. The alignment and its chunks",
            "A chunk is a maximal run of matches that are adjacent, in the same order, in both sentences. Fewer, "
            "longer chunks mean the word order agrees. Lines crossing each other are what makes chunks.",
            formulas=(rf"m = {w.m} \text{{ matches}}, \quad ch = {len(w.chunks)} \text{{ chunks}}",),
            tables=(Table("chunks", pd.DataFrame(chunk_rows)),),
            figure=alignment(hyp_words, ref_words, links, chunk_of) if w.matches else None,
        )
    )
    numbers["matches m"] = w.m
    numbers["chunks"] = len(w.chunks) if w.matches else 0

    # 3. P, R, Fmean
    if w.matches:
        familiar = (
            rf"F_{{mean}} = \frac{{10 P R}}{{R + 9 P}} = \frac{{10 \cdot {tex(w.precision)} \cdot {tex(w.recall)}}}"
            rf"{{{tex(w.recall)} + 9 \cdot {tex(w.precision)}}} = {tex(w.fmean)}"
            if abs(alpha - 0.9) < 1e-12
            else rf"F_{{mean}} = \frac{{{tex(w.precision)} \cdot {tex(w.recall)}}}{{{tex(alpha, 2)} \cdot "
            rf"{tex(w.precision)} + {tex(1 - alpha, 2)} \cdot {tex(w.recall)}}} = {tex(w.fmean)}"
        )
        if 0 < alpha < 1:
            weight = (
                f"α = {alpha:g}: the harmonic mean weighs recall α/(1−α) = {alpha / (1 - alpha):.4g} times as much "
                "as precision."
            )
        else:
            weight = f"α = {alpha:g}: Fmean is " + ("the recall alone." if alpha == 1 else "the precision alone.")
        steps.append(
            Step(
                "3. Precision, recall and Fmean",
                weight,
                formulas=(
                    rf"P = \frac{{m}}{{|hyp|}} = {frac(w.m, w.hyp_len)} = {tex(w.precision)}, \quad "
                    rf"R = \frac{{m}}{{|ref|}} = {frac(w.m, w.ref_len)} = {tex(w.recall)}",
                    r"F_{mean} = \frac{P \cdot R}{\alpha P + (1-\alpha) R}",
                    familiar,
                ),
            )
        )
        steps.append(
            Step(
                "4. Fragmentation and penalty",
                f"γ = {tex(gamma, 2)} is the largest possible penalty (frag = 1: every match its own chunk); β = "
                f"{tex(beta, 2)} makes it fall off quickly as chunks get longer.",
                formulas=(
                    rf"frag = \frac{{ch}}{{m}} = {frac(len(w.chunks), w.m)} = {tex(w.fragmentation)}",
                    rf"Penalty = \gamma \cdot frag^{{\beta}} = {tex(gamma, 2)} \cdot {tex(w.fragmentation)}^{{{tex(beta, 2)}}}"
                    rf" = {tex(w.penalty)}",
                ),
            )
        )
        steps.append(
            Step(
                "5. The score",
                "The penalty scales Fmean down.",
                formulas=(
                    r"Score = F_{mean} \cdot (1 - Penalty)",
                    rf"Score = {tex(w.fmean)} \cdot (1 - {tex(w.penalty)}) = {tex(explanation.score)}",
                ),
            )
        )
    else:
        reason = (
            "the hypothesis is empty"
            if not w.hyp_len
            else "the reference is empty"
            if not w.ref_len
            else "no word matches"
        )
        steps.append(Step("3. The score", f"METEOR is 0 because {reason}.", formulas=("Score = 0",)))
    numbers["P"] = w.precision
    numbers["R"] = w.recall
    numbers["Fmean"] = w.fmean
    numbers["fragmentation"] = w.fragmentation
    numbers["penalty"] = w.penalty
    numbers["METEOR"] = explanation.score
    return Lesson(
        metric.name,
        explanation.score,
        f"{explanation.score:.4f}",
        tuple(steps),
        numbers,
        explanation.formula(),
        MISTAKES,
        ("nltk 3.10.4 meteor_score with WordNet 3.0. Signature: " + metric.signature(),),
    )
