"""The BERTScore lesson (Zhang et al., ICLR 2020, as bert-score 0.3.13 computes it): contextual embeddings, the
cosine-similarity matrix, greedy matching, precision, recall and F, idf weights, the maximum over references and
rescaling with a baseline the reader gives — read from :class:`metrics.families.bertscore.metric.BERTScoreExplanation`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.families.bertscore.metric import BERTScore, BERTScoreExplanation
from rendering.teach import Context, Lesson, Step, Table, aligned, lesson, num, tex
from rendering.text import escape_markdown
from rendering.views.bertscore import similarity_figure

MISTAKES = (
    "The matrix includes \\[CLS\\] and \\[SEP\\]: they weigh 0, but a token may still find its best match in one of them.",
    "Greedy matching is not an alignment: several candidate tokens may match the same reference token.",
    "With several references bert-score takes the maximum of P, of R and of F separately — the three may come from "
    "different references, and F is then not the harmonic mean of the P and R it reports.",
    "idf comes from the references of the loaded corpus (log((N+1)/(df+1)), each sentence counted once), not from "
    "the model's training data; a word in every reference weighs 0.",
    "Raw BERTScores of contextual models crowd near the top (0.8–0.95 here is ordinary); rescaling with a baseline "
    "spreads them out and changes no ranking.",
    "Scores of different models or layers are not comparable: the signature names both.",
)


def _side_table(
    tokens: Sequence[str], weights: Sequence[float], best: Sequence[float], partner: Sequence[str]
) -> pd.DataFrame:
    total = sum(weights)
    rows = [
        {"token": t, "best match": p, "max cos": s, "weight w": w, "w / Σw": w / total if total else float("nan"),
         "w·cos / Σw": w * s / total if total else float("nan")}
        for t, w, s, p in zip(tokens, weights, best, partner, strict=True)
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["token", "best match", "max cos", "weight w", "w / Σw", "w·cos / Σw"])


@lesson.register(BERTScoreExplanation)
def bertscore_lesson(
    explanation: BERTScoreExplanation, metric: BERTScore, hyp: str, refs: Sequence[str], context: Context
) -> Lesson:
    ex = explanation
    column = {"P": "precision", "R": "recall", "F": "f1"}[ex.reported]
    values = [getattr(m, column) for m in ex.references]
    k = ex.best_ref if ex.best_ref is not None else values.index(max(values))
    match = ex.references[k]
    hyp_tokens = [t.text for t in ex.hyp_tokens]
    ref_tokens = [t.text for t in match.tokens]
    hyp_best, ref_best = match.hyp_best, match.ref_best
    steps: list[Step] = []
    numbers: dict[str, float] = {}

    steps.append(
        Step(
            "1. Contextual embeddings",
            f"Both sentences are cut into the model's word pieces ({len(hyp_tokens)} and {len(ref_tokens)} with "
            f"\\[CLS\\] and \\[SEP\\]) and run through {escape_markdown(ex.model)}; each token's vector is the output of layer "
            f"{ex.layers}, divided by its length so that a dot product is a cosine. The same word gets a different "
            "vector in another context — that is what lets BERTScore credit paraphrases.",
            formulas=(r"\hat{x}_i = \frac{x_i}{\lVert x_i \rVert}",),
        )
    )
    fig, _ = similarity_figure(ex, match)
    steps.append(
        Step(
            "2. Cosine similarity of every pair of tokens",
            f"Candidate tokens are rows, tokens of reference {k + 1} columns. ● marks each candidate token's most "
            "similar reference token, ○ each reference token's most similar candidate token.",
            formulas=(r"\cos(x_i, \hat{y}_j) = \hat{x}_i^{\top} \hat{y}_j",),
            figure=fig,
        )
    )
    weight_text = (
        f"idf over the {ex.idf_documents} reference sentences of the loaded corpus"
        if ex.idf
        else "1 for every token and 0 for \\[CLS\\] and \\[SEP\\]"
    )
    hyp_table = _side_table(hyp_tokens, ex.hyp_weights, hyp_best, [ref_tokens[j] for j in match.hyp_match])
    ref_table = _side_table(ref_tokens, match.weights, ref_best, [hyp_tokens[i] for i in match.ref_match])
    steps.append(
        Step(
            "3. Greedy matching and the weights",
            "Each token keeps only its best similarity on the other side (a greedy maximum, not a one-to-one "
            f"alignment). Weights: {weight_text}.",
            formulas=(
                r"\mathrm{idf}(w) = \ln \frac{N + 1}{\mathrm{df}(w) + 1}",
            ) if ex.idf else (),
            tables=(Table("candidate (precision terms)", hyp_table), Table(f"reference {k + 1} (recall terms)", ref_table)),
        )
    )  # fmt: skip
    p, r, f = match.precision, match.recall, match.f1
    steps.append(
        Step(
            "4. Precision, recall and F",
            "Precision averages the candidate tokens' best similarities, recall the reference tokens', each weighted; "
            "F is their harmonic mean.",
            formulas=(
                aligned(
                    "P",
                    r"\frac{\sum_{i} w(x_i) \max_j \hat{x}_i^{\top}\hat{y}_j}{\sum_i w(x_i)}",
                    rf"\frac{{{tex(float((hyp_table['weight w'] * hyp_table['max cos']).sum()))}}}{{{tex(sum(ex.hyp_weights))}}} = {tex(p)}",
                ),
                aligned(
                    "R",
                    r"\frac{\sum_{j} w(y_j) \max_i \hat{x}_i^{\top}\hat{y}_j}{\sum_j w(y_j)}",
                    rf"\frac{{{tex(float((ref_table['weight w'] * ref_table['max cos']).sum()))}}}{{{tex(sum(match.weights))}}} = {tex(r)}",
                ),
                rf"F = \frac{{2PR}}{{P + R}} = \frac{{2 \cdot {tex(p)} \cdot {tex(r)}}}{{{tex(p)} + {tex(r)}}} = {tex(f)}",
            ),
        )
    )  # fmt: skip
    numbers.update({"P": p, "R": r, "F": f})
    if len(ex.references) > 1:
        rows = [{"reference": n + 1, "P": m.precision, "R": m.recall, "F": m.f1} for n, m in enumerate(ex.references)]
        steps.append(
            Step(
                "5. Several references",
                "bert-score scores the candidate against each reference and keeps the maximum of P, of R and of F "
                f"separately: P = {num(ex.precision)}, R = {num(ex.recall)}, F = {num(ex.f1)}.",
                tables=(Table("per reference", pd.DataFrame(rows)),),
            )
        )
        numbers.update({"segment P": ex.precision, "segment R": ex.recall, "segment F": ex.f1})
    baseline = float(context.options.get("baseline", 0.0))
    reported = ex.score
    rescaled = (reported - baseline) / (1 - baseline)
    steps.append(
        Step(
            f"{len(steps) + 1}. Rescaling with a baseline",
            "bert-score's rescale_with_baseline maps a score x to (x − b)/(1 − b), where b is the score the model gives "
            "unrelated sentence pairs (bert-score ships b per model and layer, computed on Common Crawl; none ships "
            "for this model, so give your own b in the what-ifs). It is a linear map: rankings and correlations do "
            "not change, only the spread." + (" With b = 0 nothing changes." if baseline == 0 else ""),
            formulas=(rf"\frac{{x - b}}{{1 - b}} = \frac{{{tex(reported)} - {tex(baseline)}}}{{1 - {tex(baseline)}}} = {tex(rescaled)}",),
        )
    )  # fmt: skip
    if baseline:
        numbers[f"rescaled with b = {baseline:g} (what-if)"] = rescaled
    numbers[metric.name] = reported
    return Lesson(
        metric.name,
        reported,
        f"{reported:.4f}",
        tuple(steps),
        numbers,
        f"{metric.name} = {reported:.4f} (P {ex.precision:.4f}, R {ex.recall:.4f}, F {ex.f1:.4f})",
        MISTAKES,
        (f"Signature: {metric.signature()}",),
    )
