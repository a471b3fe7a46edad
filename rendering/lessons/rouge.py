"""The ROUGE-N / ROUGE-L / ROUGE-Lsum lesson (Lin 2004, as rouge-score 0.1.2 computes them): matched n-grams, the
LCS dynamic-programming grid with its backtracked path, the union LCS per reference sentence, then P, R and F —
read from :class:`metrics.families.rouge.metric.RougeExplanation`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.core.base import Metric
from metrics.families.rouge.metric import (
    LcsEvidence,
    LsumEvidence,
    NgramEvidence,
    RougeConfig,
    RougeExplanation,
    RougeRefScore,
)
from rendering.teach import Context, Lesson, Step, Table, frac, gram_text, lesson, tex
from rendering.teach_figures import grid_fits, lcs_grid
from rendering.text import escape_markdown

COMMON = (
    "Recall divides by the **reference** length, precision by the hypothesis length; rouge-score's "
    "score(target, prediction) takes the reference first, and swapping them swaps P and R.",
    "rouge-score reports F1: it has no β. ROUGE-1.5.5 weighs with α (-p 0.5 is F1); F_β corresponds to α = 1/(1+β²).",
    "The default tokenizer keeps only ASCII letters and digits: accents split words and Chinese or Japanese text "
    "scores 0.",
    "With several references rouge-score keeps the reference with the best F (for each ROUGE type separately); it "
    "does not pool or average them.",
)
MISTAKES = {
    "rougeN": (
        "ROUGE-N counts are clipped like BLEU's: a hypothesis n-gram is credited at most as often as the reference "
        "has it.",
        *COMMON,
    ),
    "rougeL": (
        "ROUGE-L is **not n-gram based**: it credits the longest common subsequence — words in the same order, not "
        "necessarily adjacent — so there is no n to choose, and gaps are not penalised.",
        "The LCS length is unique but the LCS itself is not: which words are highlighted depends on the backtracking "
        "rule (diagonal on a match, left only if strictly greater, else up).",
        *COMMON,
    ),
    "rougeLsum": (
        "ROUGE-Lsum needs one sentence per line: without newlines it is exactly ROUGE-L, unless its Sentence split "
        "option (rules) splits the lines into sentences.",
        "The union LCS counts each reference word once, even if several hypothesis sentences cover it, and clipping "
        "stops a word from being credited more often than it occurs in the hypothesis.",
        "ROUGE-L is **not n-gram based**: it credits words in sequence, not contiguous n-grams.",
        *COMMON,
    ),
}


def _references_table(explanation: RougeExplanation) -> pd.DataFrame:
    rows = [
        {
            "reference": r.index + 1,
            "hits": r.hits,
            "P": r.precision,
            "R": r.recall,
            "F1": r.fmeasure,
            "kept": r.index == explanation.best_ref,
        }
        for r in explanation.references
    ]
    return pd.DataFrame(rows)


def _ngram_step(best: RougeRefScore, evidence: NgramEvidence, number: int) -> Step:
    n = evidence.n
    rows = [
        {
            "n-gram": gram_text(m.ngram),
            "count in hypothesis": m.hyp_count,
            "count in reference": m.ref_count,
            "clipped = min": m.clipped,
        }
        for m in evidence.matches
    ]
    rows.append({"n-gram": "total", "count in hypothesis": best.hyp_total, "count in reference": best.ref_total,
                 "clipped = min": best.hits})  # fmt: skip
    return Step(
        f"{number}. Shared {n}-grams",
        f"Every {n}-gram both texts contain, credited min(count in hypothesis, count in reference) times. "
        f"The hypothesis has {best.hyp_total} {n}-grams, the reference {best.ref_total}.",
        formulas=(
            rf"\mathrm{{hits}} = \sum_g \min(\mathrm{{count}}_{{hyp}}(g), \mathrm{{count}}_{{ref}}(g)) = {best.hits}",
        ),
        tables=(Table(f"{n}-grams", pd.DataFrame(rows)),),
    )


def _lcs_step(best: RougeRefScore, evidence: LcsEvidence, number: int) -> Step:
    table = evidence.dp_table()
    pair_rows = [
        {
            "ref #": i + 1,
            "reference word": evidence.ref_words[i],
            "hyp #": j + 1,
            "hypothesis word": evidence.hyp_words[j],
        }
        for i, j in evidence.pairs
    ]
    m, n = len(evidence.ref_words), len(evidence.hyp_words)
    return Step(
        f"{number}. The LCS grid and its path",
        "Cell (i, j) holds the length of the longest common subsequence of the first i reference words and the "
        "first j hypothesis words: one more than the diagonal cell when the words are equal, else the larger of the "
        "cells above and to the left. Reading back from the bottom-right corner (diagonal on a match, left only when "
        "the left cell is strictly greater, else up) gives the path marked in red"
        + (
            "." if grid_fits(m, n) else f" (the {m + 1} × {n + 1} grid is too large to draw; the table lists the path)."
        ),
        formulas=(
            r"T[i][j] = T[i-1][j-1] + 1 \quad \text{if } r_i = h_j",
            r"T[i][j] = \max(T[i-1][j],\ T[i][j-1]) \quad \text{otherwise}",
            rf"\mathrm{{LCS}} = T[{m}][{n}] = {int(table[m][n]) if m and n else 0}",
        ),
        tables=(
            Table(
                "LCS words", pd.DataFrame(pair_rows, columns=["ref #", "reference word", "hyp #", "hypothesis word"])
            ),
        ),
        figure=lcs_grid(
            table.tolist(),
            evidence.ref_words,
            evidence.hyp_words,
            evidence.pairs,
            trail=evidence.trail(),
        )
        if m and n and grid_fits(m, n)
        else None,
    )


def _lsum_step(best: RougeRefScore, evidence: LsumEvidence, hyp_words: Sequence[str], number: int) -> Step:
    ref_words = [t.text for t in best.ref_tokens]
    rows = []
    for sentence in evidence.sentences:
        words = ref_words[sentence.start : sentence.end]
        row: dict[str, object] = {"reference sentence": f"{sentence.index + 1}: {' '.join(words)}"}
        for k, pairs in enumerate(sentence.lcs):
            row[f"LCS with hyp sentence {k + 1}"] = " ".join(words[i] for i, _ in pairs) or "—"
        row["union LCS∪"] = " ".join(words[i] for i in sentence.union) or "—"
        row["credited (after clipping)"] = " ".join(words[i] for i in sentence.hits) or "—"
        row["hits"] = len(sentence.hits)
        rows.append(row)
    hyp_sentences = [" ".join(hyp_words[a:b]) for a, b in evidence.hyp_sentences]
    text = (
        f"The hypothesis has {len(hyp_sentences)} sentence(s) and the reference {len(evidence.sentences)}. For each "
        "reference sentence, one LCS is taken with every hypothesis sentence and the reference words on any of them "
        "form the union LCS∪. A word is credited only while both texts still have an unused occurrence of it "
        "(clipping), so no word counts twice."
    )
    formulas = [
        r"\mathrm{hits} = \sum_{i} |\mathrm{LCS}_\cup(r_i, C)| \text{ (clipped)} = " + str(best.hits),
    ]
    if len(evidence.sentences) == 1 and len(hyp_sentences) > 1:
        formulas.append(rf"|\mathrm{{LCS}}_\cup(r_1, C)| = {len(evidence.sentences[0].union)}")
    return Step(
        f"{number}. Union LCS per reference sentence",
        text,
        formulas=tuple(formulas),
        tables=(Table("union LCS", pd.DataFrame(rows)),),
    )


@lesson.register(RougeExplanation)
def rouge_lesson(
    explanation: RougeExplanation,
    metric: Metric[RougeConfig, RougeExplanation],
    hyp: str,
    refs: Sequence[str],
    context: Context,
) -> Lesson:
    config = metric.config
    name = metric.name
    best = explanation.chosen
    evidence = best.evidence
    steps: list[Step] = []
    numbers: dict[str, float] = {}
    hyp_words = [t.text for t in explanation.hyp_tokens]

    # 1. tokens
    token_rows = [{"side": "hypothesis", "tokens": " · ".join(hyp_words), "length": len(hyp_words)}]
    token_rows += [
        {
            "side": f"reference {r.index + 1}",
            "tokens": " · ".join(t.text for t in r.ref_tokens),
            "length": len(r.ref_tokens),
        }
        for r in explanation.references
    ]
    text = (
        f"rouge-score's **{escape_markdown(config.tokenizer)}** tokenizer lowercases and keeps runs of letters and "
        "digits" + (", then Porter-stems words longer than 3 letters" if config.stemmer else "") + "."
    )
    for note in explanation.notes:
        text += " " + escape_markdown(note)
    tables = [Table("tokens", pd.DataFrame(token_rows))]
    if len(explanation.references) > 1:
        text += f" Of {len(explanation.references)} references the one with the best F1 is kept: reference {explanation.best_ref + 1}."
        tables.append(Table("references", _references_table(explanation)))
    steps.append(Step("1. Tokens", text, tables=tuple(tables)))

    # 2. the evidence proper
    if isinstance(evidence, NgramEvidence):
        steps.append(_ngram_step(best, evidence, 2))
        kind = "rougeN"
        unit = f"{evidence.n}-grams"
    elif isinstance(evidence, LcsEvidence):
        steps.append(_lcs_step(best, evidence, 2))
        kind = "rougeL"
        unit = "tokens"
    else:
        steps.append(_lsum_step(best, evidence, hyp_words, 2))
        kind = "rougeLsum"
        unit = "tokens"
    numbers["hits"] = best.hits
    numbers[f"hypothesis {unit}"] = best.hyp_total
    numbers[f"reference {unit}"] = best.ref_total

    # 3. P, R, F
    p, r, f = best.precision, best.recall, best.fmeasure
    beta = float(context.options.get("beta", 1.0))
    formulas = [
        rf"P = \frac{{\mathrm{{hits}}}}{{\text{{hypothesis {unit}}}}} = {frac(best.hits, best.hyp_total)} = {tex(p)}, \quad "
        rf"R = \frac{{\mathrm{{hits}}}}{{\text{{reference {unit}}}}} = {frac(best.hits, best.ref_total)} = {tex(r)}",
        r"F_\beta = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R}, \quad F_1 = \frac{2PR}{P+R}",
        rf"F_1 = \frac{{2 \cdot {tex(p)} \cdot {tex(r)}}}{{{tex(p)} + {tex(r)}}} = {tex(f)}",
    ]
    text = "rouge-score reports F1 (β = 1)."
    if beta != 1.0:
        b2 = beta * beta
        fb = (1 + b2) * p * r / (b2 * p + r) if b2 * p + r > 0 else 0.0
        formulas.append(
            rf"F_{{{tex(beta, 2)}}} = \frac{{{tex(1 + b2, 4)} \cdot {tex(p)} \cdot {tex(r)}}}{{{tex(b2, 4)} \cdot "
            rf"{tex(p)} + {tex(r)}}} = {tex(fb)}"
        )
        text += f" What-if: with β = {tex(beta, 2)} recall counts β² = {tex(b2, 4)} times as much; the score stays F1."
        numbers[f"F_β (β = {beta:g}, what-if)"] = fb
    steps.append(Step("3. Precision, recall and F", text, formulas=tuple(formulas)))
    numbers["P"] = p
    numbers["R"] = r
    numbers["F1"] = f
    return Lesson(
        name,
        explanation.score,
        f"{explanation.score:.4f}",
        tuple(steps),
        numbers,
        f"{name}: P = {p:.4f}, R = {r:.4f}, F1 = {f:.4f}",
        MISTAKES[kind],
        ("rouge-score 0.1.2 semantics. Signature: " + metric.signature(),),
    )
