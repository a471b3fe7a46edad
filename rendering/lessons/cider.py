"""The CIDEr-D lesson (Vedantam et al. 2015, as pycocoevalcap 1.2 computes it): TF-IDF weights from the document
frequencies of the loaded dataset's references, clipped dot products per order and reference, the Gaussian length
penalty and the ×10 average — read from :class:`metrics.families.cider.metric.CiderExplanation`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.families.cider.metric import CiderD, CiderExplanation, GramWeight
from rendering.teach import Context, Lesson, Step, Table, gram_text, lesson, tex
from rendering.text import escape_markdown

MISTAKES = (
    "Document frequencies come from the **references of the whole corpus** (one count per image), never from the "
    "hypotheses — so the same caption scores differently against another dataset.",
    "A corpus of one image scores 0 everywhere: idf = ln(1) − ln(df) = 0 for every n-gram.",
    "CIDEr-D clips: each n-gram contributes min(v_hyp, v_ref) · v_ref, so repeating a rare word does not pay; plain "
    "CIDEr uses the unclipped cosine and no length penalty.",
    "The 'length' in the Gaussian penalty is the number of bigrams (words − 1), and the score is multiplied by 10: "
    "CIDEr-D ranges over 0–10, not 0–1.",
    "COCO papers report CIDEr-D on PTB-tokenized, lowercased captions without punctuation (pycocoevalcap's "
    "COCOEvalCap); on raw text split on spaces (tokenize=split), “Dog.” and “dog” are different words and the score "
    "is lower — not comparable with published numbers.",
)


_WORDS = {
    "ptb": "PTB-tokenized and lowercased, punctuation dropped, as COCOEvalCap",
    "split": "raw text split on spaces",
}


def _weights_table(grams: Sequence[GramWeight]) -> pd.DataFrame:
    rows = [{"n-gram": gram_text(g.gram), "tf": g.tf, "df": g.df, "idf": g.idf, "tf·idf": g.weight} for g in grams]
    return pd.DataFrame(rows, columns=["n-gram", "tf", "df", "idf", "tf·idf"])


@lesson.register(CiderExplanation)
def cider_lesson(
    explanation: CiderExplanation, metric: CiderD, hyp: str, refs: Sequence[str], context: Context
) -> Lesson:
    steps: list[Step] = []
    numbers: dict[str, float] = {}
    orders = len(explanation.grams)
    source = escape_markdown(context.corpus_title) if context.corpus_title else "the loaded dataset"

    # 1. corpus and idf
    one_image = (
        " With a single image, ln N = 0 and every weight is 0: CIDEr-D is 0 whatever the caption."
        if explanation.images == 1
        else ""
    )
    steps.append(
        Step(
            "1. Document frequencies of the loaded dataset",
            f"The n-gram weights come from the references of {source}: {explanation.images} images. df(g) is the "
            "number of images whose references contain g; an n-gram found in no image gets the largest idf. Load "
            "another dataset and the same caption is weighted differently." + one_image,
            formulas=(
                r"\mathrm{idf}(g) = \ln N - \ln \max(1, \mathrm{df}(g))",
                rf"\ln N = \ln {explanation.images} = {tex(explanation.log_images)}",
            ),
        )
    )
    numbers["images N"] = explanation.images

    # 2. the hypothesis TF-IDF table
    steps.append(
        Step(
            "2. TF-IDF of the hypothesis",
            f"Each n-gram (orders 1–4) of the caption ({_WORDS[metric.config.tokenize]}) weighs its count times its "
            "idf: frequent words like “a” weigh little, rare ones a lot. The norm of each order's vector normalizes "
            "the dot products below.",
            formulas=(
                r"v(g) = \mathrm{tf}(g) \cdot \mathrm{idf}(g), \quad \lVert v_n \rVert = \sqrt{\textstyle\sum_g v(g)^2}",
                r"\lVert v_n \rVert = " + ",\\ ".join(tex(x) for x in explanation.norms),
            ),
            tables=tuple(Table(f"{k + 1}-grams", _weights_table(explanation.grams[k])) for k in range(orders)),
        )
    )
    for k in range(orders):
        numbers[f"hypothesis norm, order {k + 1}"] = explanation.norms[k]

    # 3. each reference
    sim_rows = []
    term_tables = []
    for r, ref in enumerate(explanation.references):
        for sim in ref.orders:
            sim_rows.append(
                {
                    "reference": r + 1,
                    "order": sim.order,
                    "clipped dot": sim.dot,
                    "‖v_hyp‖": sim.hyp_norm,
                    "‖v_ref‖": sim.ref_norm,
                    "cosine": sim.cosine,
                    "penalty": sim.penalty,
                    "similarity": sim.value,
                }
            )
        terms = [
            {
                "order": sim.order,
                "n-gram": gram_text(t.gram),
                "v_hyp": t.hyp_weight,
                "v_ref": t.ref_weight,
                "min(v_hyp, v_ref)·v_ref": t.contribution,
            }
            for sim in ref.orders
            for t in sim.terms
        ]
        term_tables.append(
            Table(
                f"reference {r + 1}: shared n-grams",
                pd.DataFrame(terms, columns=["order", "n-gram", "v_hyp", "v_ref", "min(v_hyp, v_ref)·v_ref"]),
            )
        )
    first = explanation.references[0]
    sigma = explanation.sigma
    steps.append(
        Step(
            "3. Clipped similarity with each reference",
            "For each reference and order: the clipped dot product over shared n-grams, divided by both norms, times a "
            "Gaussian penalty on the length difference δ (lengths counted in bigrams).",
            formulas=(
                r"\mathrm{sim}_n = \frac{\sum_g \min(v_h(g), v_r(g))\, v_r(g)}{\lVert v_h \rVert\, \lVert v_r \rVert}"
                r" \cdot e^{-\delta^2 / 2\sigma^2}",
                rf"\text{{reference 1: }} \delta = {explanation.length} - {first.length} = {tex(first.delta)}",
                rf"e^{{-{tex(first.delta)}^2 / (2 \cdot {tex(sigma, 2)}^2)}} = {tex(first.penalty)}",
            ),
            tables=(Table("similarities", pd.DataFrame(sim_rows)), *term_tables),
        )
    )

    # 4. the score
    per_order = list(explanation.per_order)
    nrefs = len(explanation.references)
    mean = explanation.mean_similarity
    steps.append(
        Step(
            "4. CIDEr-D",
            f"Sum the similarities over the {nrefs} reference(s) per order, average over the {orders} orders, divide "
            "by the number of references and multiply by 10.",
            formulas=(
                r"\mathrm{CIDEr\text{-}D} = \frac{10}{|R|} \cdot \frac{1}{4} \sum_{n=1}^{4} \sum_{r \in R} \mathrm{sim}_n(h, r)",
                r"\sum_r \mathrm{sim}_n = " + ",\\ ".join(tex(x) for x in per_order),
                rf"\mathrm{{CIDEr\text{{-}}D}} = \frac{{10}}{{{nrefs}}} \cdot {tex(mean)} = {tex(explanation.score)}",
            ),
        )
    )
    for k, value in enumerate(per_order):
        numbers[f"Σ similarity, order {k + 1}"] = value
    numbers["CIDEr-D"] = explanation.score
    notes = (
        f"Document frequencies of {context.corpus_title or 'the loaded dataset'}. Signature: {metric.signature()}",
    )
    return Lesson(
        metric.name,
        explanation.score,
        f"{explanation.score:.4f}",
        tuple(steps),
        numbers,
        f"CIDEr-D = {explanation.score:.4f} (document frequencies over {explanation.images} images)",
        MISTAKES,
        notes,
    )
