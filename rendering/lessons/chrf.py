"""The chrF / chrF++ lesson (Popović 2015, 2017): character (and word) n-gram tables, per-order precision and recall,
their average over the effective orders and the F_β score — read from :class:`metrics.families.chrf.metric.CHRFExplanation`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.families.chrf.metric import CHRF, AveragedF, CHRFExplanation, CHRFOrder
from rendering.teach import Context, Lesson, Step, Table, frac, lesson, tex
from rendering.text import escape_markdown

MISTAKES = (
    "sacrebleu averages precision and recall over the orders **first** and takes one F at the end; averaging the "
    "per-order F scores (chrF++.py, Moses, nltk — the 'eps smoothing' setting) gives a different number.",
    "Whitespace is removed before character n-grams are taken (unless 'keep whitespace' is on), so character "
    "n-grams run across word boundaries: “the cat” gives the 3-gram “hec”.",
    "β = 2 makes recall twice as important as precision — it is not a weight of 2 on precision.",
    "An order for which the reference has no n-gram is left out of the average, and the hypothesis' n-grams of "
    "that order are not counted against it.",
    "With several references chrF keeps the statistics of the single best reference (by sentence chrF); it does not "
    "pool the references.",
)


def _order_table(order: CHRFOrder) -> pd.DataFrame:
    rows = [
        {
            "n-gram": g.ngram,
            "count in hypothesis": g.hyp_count,
            "count in reference": g.ref_count,
            "matched = min": g.matched,
        }
        for g in order.ngrams
    ]
    rows.append(
        {
            "n-gram": "total",
            "count in hypothesis": order.n_hyp,
            "count in reference": order.n_ref,
            "matched = min": order.n_match,
        }
    )
    return pd.DataFrame(rows)


@lesson.register(CHRFExplanation)
def chrf_lesson(explanation: CHRFExplanation, metric: CHRF, hyp: str, refs: Sequence[str], context: Context) -> Lesson:
    config = metric.config
    beta = config.beta
    b2 = beta * beta
    steps: list[Step] = []
    numbers: dict[str, float] = {}
    best = explanation.best_ref

    # 1. preprocessing and the reference choice
    text = (
        "Character n-grams are taken from the text "
        + ("with its whitespace kept" if config.whitespace else "with all whitespace removed")
        + (", lowercased" if config.lowercase else "")
        + f": the hypothesis becomes **{escape_markdown(explanation.hyp_chars)}** ({len(explanation.hyp_chars)} "
        "characters)."
    )
    if config.word_order:
        text += (
            f" chrF++ adds word n-grams of orders 1..{config.word_order}: words split on spaces, one punctuation "
            "mark split off the end (or else the start) of each word."
        )
    tables: tuple[Table, ...] = ()
    if len(refs) > 1:
        text += (
            f" With {len(refs)} references, the hypothesis is scored against each and the statistics of the best "
            f"one — reference {best + 1} — are kept."
        )
        frame = pd.DataFrame(
            {"reference": [k + 1 for k in range(len(refs))], "sentence chrF": list(explanation.ref_scores)}
        )
        frame["kept"] = frame["reference"] == best + 1
        tables = (Table("references", frame),)
    steps.append(Step("1. Characters and the reference", text, tables=tables))

    # 2. n-gram tables
    order_tables = tuple(
        Table(f"{'char' if o.kind == 'char' else 'word'} {o.n}-grams", _order_table(o)) for o in explanation.orders
    )
    summary_rows = [
        {
            "order": f"{o.kind} {o.n}",
            "hyp n-grams": o.n_hyp,
            "ref n-grams": o.n_ref,
            "matched": o.n_match,
            "P_n": o.precision if o.n_hyp > 0 else None,
            "R_n": o.recall if o.n_ref > 0 else None,
            "in the average": o.averaged,
        }
        for o in explanation.orders
    ]
    first = explanation.orders[0]
    steps.append(
        Step(
            "2. Character n-gram tables" + (" and word n-gram tables" if config.word_order else ""),
            "For every order n, each n-gram is matched at most as often as it occurs on the other side. "
            "P_n = matched / hypothesis n-grams, R_n = matched / reference n-grams.",
            formulas=(
                r"P_n = \frac{\sum_g \min(\mathrm{hyp}(g), \mathrm{ref}(g))}{\sum_g \mathrm{hyp}(g)}",
                r"R_n = \frac{\sum_g \min(\mathrm{hyp}(g), \mathrm{ref}(g))}{\sum_g \mathrm{ref}(g)}",
                *(
                    (
                        rf"P_1 = {frac(first.n_match, first.n_hyp)} = {tex(first.precision)}",
                        rf"R_1 = {frac(first.n_match, first.n_ref)} = {tex(first.recall)}",
                    )
                    if first.averaged
                    else (r"P_1, R_1: \text{one side has no characters}",)
                ),
            ),
            tables=(Table("all orders", pd.DataFrame(summary_rows)), *order_tables),
        )
    )
    for o in explanation.orders:
        label = f"{o.kind} {o.n}"
        numbers[f"matched {label}-grams"] = o.n_match
        numbers[f"P {label}"] = o.precision
        numbers[f"R {label}"] = o.recall

    combination = explanation.combination
    if isinstance(combination, AveragedF):
        steps.append(
            Step(
                "3. Per-order F, averaged (eps smoothing)",
                "This variant takes F_β for every order and averages the F scores over all orders.",
                formulas=(
                    r"\mathrm{chrF}_\beta = \frac{100}{N}\sum_{n=1}^{N} \frac{(1+\beta^2) P_n R_n}{\beta^2 P_n + R_n}",
                    rf"\mathrm{{chrF}}_{{{tex(beta, 2)}}} = 100 \cdot {tex(combination.mean)} = {tex(explanation.score, 4)}",
                ),
                tables=(
                    Table(
                        "per-order F",
                        pd.DataFrame({"order": [r["order"] for r in summary_rows], "F_n": list(combination.f)}),
                    ),
                ),
            )
        )
        numbers["mean F"] = combination.mean
    else:
        effective = [o for o in explanation.orders if o.averaged]
        avg_p, avg_r, n_eff = combination.precision, combination.recall, combination.orders
        steps.append(
            Step(
                "3. Average precision and recall over the orders",
                f"{n_eff} of {len(explanation.orders)} orders have n-grams on both sides and are averaged "
                "(an order with no match counts with P = R = 0).",
                formulas=(
                    r"\bar P = \frac{1}{N_\mathrm{eff}}\sum_n P_n, \quad \bar R = \frac{1}{N_\mathrm{eff}}\sum_n R_n",
                    rf"\bar P = \frac{{{' + '.join(tex(o.precision) for o in effective) or '0'}}}{{{n_eff}}} = "
                    rf"{tex(avg_p)}",
                    rf"\bar R = \frac{{{' + '.join(tex(o.recall) for o in effective) or '0'}}}{{{n_eff}}} = "
                    rf"{tex(avg_r)}",
                ),
            )
        )
        numbers["average P"] = avg_p
        numbers["average R"] = avg_r
        steps.append(
            Step(
                "4. The F-score with β",
                f"β = {tex(beta, 2)}: recall counts β² = {tex(b2, 2)} times as much as precision.",
                formulas=(
                    r"\mathrm{chrF}_\beta = 100 \cdot \frac{(1+\beta^2)\,\bar P\,\bar R}{\beta^2 \bar P + \bar R}",
                    rf"\mathrm{{chrF}}_{{{tex(beta, 2)}}} = 100 \cdot \frac{{{tex(1 + b2, 2)} \cdot {tex(avg_p)} \cdot "
                    rf"{tex(avg_r)}}}{{{tex(b2, 2)} \cdot {tex(avg_p)} + {tex(avg_r)}}} = {tex(explanation.score)}",
                ),
            )
        )
    numbers["chrF score"] = explanation.score
    return Lesson(
        metric.name,
        explanation.score,
        f"{explanation.score:.2f}",
        tuple(steps),
        numbers,
        f"{metric.name} = {explanation.score:.2f}",
        MISTAKES,
        ("Signature: " + metric.signature(),),
    )
