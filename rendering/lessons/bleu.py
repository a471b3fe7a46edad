"""The BLEU lesson (Papineni et al., 2002): clipped n-gram counts, modified precisions, their geometric mean in log
space, the brevity penalty and the score — every number read from :class:`metrics.families.bleu.metric.BLEUExplanation`.

The explanation is sentence BLEU as the segment scores give it — ``sacrebleu.sentence_bleu`` by default (effective
order as ``segment_effective_order`` says) — so the lesson's score is the one the Segment view shows for the same pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from metrics.families.bleu.metric import BLEU, BLEUExplanation, OrderEvidence
from rendering.teach import Context, Lesson, Step, Table, aligned, frac, gram_text, lesson, sum_lines, tex
from rendering.text import Span, escape_markdown, highlight

MISTAKES = (
    "The geometric mean is taken over the **log** precisions, exp((log p₁ + … + log p_N)/N) — not the exp of the "
    "arithmetic mean of the precisions, and not their arithmetic mean.",
    "The brevity penalty is exp(1 − r/c) **only when c ≤ r** (a hypothesis no longer than the reference); a longer "
    "hypothesis gets BP = 1, not a bonus. There is no penalty for being too long: precision already punishes that.",
    "Counts are clipped by the **maximum** count of the n-gram in any single reference, not by the sum over the "
    "references.",
    "r is *one* reference length (the closest to c in sacrebleu, ties going to the shorter one; the shortest in the "
    "Google/TensorFlow code), not the average reference length.",
    "Corpus BLEU pools the counts of all segments before dividing; it is not the mean of sentence BLEU scores.",
    "Without smoothing, one order without a match makes sentence BLEU exactly 0, however good the other orders are.",
)

CSS = (
    "<style>.tb-hit{background:#c8f0c8;border-radius:3px}.tb-clip{background:#ffd6a5;border-radius:3px;"
    "text-decoration:line-through}.tb-miss{background:#f6c6c6;border-radius:3px}.tb-box{line-height:2}</style>"
)


def _unigram_spans(explanation: BLEUExplanation) -> list[Span]:
    """Hypothesis words coloured by what unigram clipping did: credited, clipped away, or absent from the refs."""
    spans: list[Span] = []
    order = explanation.orders[0] if explanation.orders else None
    if order is None:
        return spans
    for match in order.ngrams:
        for k, position in enumerate(match.positions):
            token = explanation.hyp_tokens[position]
            if token.start is None or token.end is None:
                continue
            if k < match.clipped:
                css, title = "tb-hit", f"credited ({k + 1} of {match.clipped} allowed)"
            elif match.max_ref_count:
                css, title = "tb-clip", f"clipped: the references allow {match.max_ref_count}"
            else:
                css, title = "tb-miss", "in no reference"
            spans.append(Span(token.start, token.end, css, title))
    return spans


def _precision_formula(order: OrderEvidence, smooth: str, smooth_amount: float | None) -> tuple[str, ...]:
    n = order.order
    general = (
        rf"p_{n} = \frac{{\sum_{{g}} \min\big(\mathrm{{count}}(g),\ \max_r \mathrm{{count}}_r(g)\big)}}"
        rf"{{\sum_{{g}} \mathrm{{count}}(g)}}"
    )
    p = order.precision / 100
    if order.total == 0:
        return (general, rf"p_{n}: \text{{no {n}-grams in the hypothesis}}")
    if order.correct > 0 or smooth in ("none",):
        if smooth == "add-k" and n > 1:
            k = smooth_amount or 0.0
            return (
                general,
                rf"p_{n} = \frac{{{tex(order.correct)} + {tex(k)}}}{{{tex(order.total)} + {tex(k)}}} = {tex(p)}"
                r"\quad(\text{add-}k)",
            )
        return (general, rf"p_{n} = {frac(order.correct, order.total)} = {tex(p)}")
    if smooth == "exp":
        return (
            general,
            rf"p_{n} = \frac{{0}}{{{tex(order.total)}}} \;\to\; \frac{{1}}{{2^{{{order.exp_halvings}}} \cdot {tex(order.total)}}}"
            rf" = {tex(p)}\quad(\text{{exp smoothing}})",
        )
    if smooth == "floor":
        return (
            general,
            rf"p_{n} = \frac{{0}}{{{tex(order.total)}}} \;\to\; \frac{{{tex(smooth_amount or 0.0)}}}"
            rf"{{{tex(order.total)}}} = {tex(p)}\quad(\text{{floor}})",
        )
    if smooth == "add-k" and n > 1:
        k = smooth_amount or 0.0
        return (
            general,
            rf"p_{n} = \frac{{0 + {tex(k)}}}{{{tex(order.total)} + {tex(k)}}} = {tex(p)}\quad(\text{{add-}}k)",
        )
    return (general, rf"p_{n} = {frac(order.correct, order.total)} = 0")


def _order_table(order: OrderEvidence, n_refs: int) -> pd.DataFrame:
    """One row per distinct hypothesis n-gram: its count, its count in every reference, the clip, the credit."""
    rows = []
    for match in sorted(order.ngrams, key=lambda m: m.positions[0]):
        row: dict[str, Any] = {"n-gram": gram_text(match.ngram), "in hyp": match.hyp_count}
        for k, count in enumerate(match.ref_counts):
            row[f"in ref {k + 1}"] = count
        row["max ref"] = match.max_ref_count
        row["clipped"] = match.clipped
        rows.append(row)
    columns = ["n-gram", "in hyp", *(f"in ref {k + 1}" for k in range(n_refs)), "max ref", "clipped"]
    return pd.DataFrame(rows, columns=columns)


@lesson.register(BLEUExplanation)
def bleu_lesson(explanation: BLEUExplanation, metric: BLEU, hyp: str, refs: Sequence[str], context: Context) -> Lesson:
    config = metric.config
    n_max = config.max_ngram_order
    eff = explanation.effective_order
    ref_texts = [[t.text for t in toks] for toks in explanation.ref_tokens]
    steps: list[Step] = []
    numbers: dict[str, float] = {}

    # 1. tokens
    token_rows = [
        {
            "side": "hypothesis",
            "tokens": " · ".join(t.text for t in explanation.hyp_tokens),
            "length": explanation.sys_len,
        }
    ]
    token_rows += [
        {"side": f"reference {k + 1}", "tokens": " · ".join(toks), "length": length}
        for k, (toks, length) in enumerate(zip(ref_texts, explanation.ref_lengths, strict=True))
    ]
    case = "lowercased, then " if config.lowercase else ""
    steps.append(
        Step(
            "1. Tokens",
            f"Both sides are {case}tokenized with sacrebleu's **{escape_markdown(config.tokenize)}** tokenizer. "
            "In the hypothesis, green words are credited, orange ones are clipped away (the references do not have "
            "that many), red ones occur in no reference.",
            tables=(Table("tokens", pd.DataFrame(token_rows)),),
            html=CSS + f'<div class="tb-box">{highlight(hyp, _unigram_spans(explanation))}</div>',
        )
    )
    numbers["hypothesis length c"] = explanation.sys_len

    # 2. one step per order
    for order in explanation.orders:
        n = order.order
        p = order.precision / 100
        note = ""
        if order.total == 0 and config.segment_effective_order:
            note = (
                f" The hypothesis has fewer than {n} tokens, so there is no {n}-gram: with *effective order* on, "
                f"sentence BLEU uses the orders 1..{eff} and leaves this one out of the mean."
            )
        elif order.total == 0:
            note = (
                f" The hypothesis has fewer than {n} tokens, so there is no {n}-gram: without effective order "
                f"(segment_effective_order off, as sacrebleu's BLEU().sentence_score) p{n} counts as 0 and makes the "
                "whole score 0. Effective order on (the default, as sacrebleu.sentence_bleu) leaves the order out."
            )
        elif order.correct == 0 and config.smooth != "none":
            note = f" No {n}-gram matches: **{escape_markdown(config.smooth)}** smoothing replaces the zero."
        elif order.correct == 0:
            note = f" No {n}-gram matches and there is no smoothing: p{n} = 0 makes the whole score 0."
        steps.append(
            Step(
                f"{n + 1}. {n}-grams: clipped counts and modified precision p{n}",
                "Each hypothesis n-gram is credited at most as often as it occurs in the reference that has it most "
                "often (clipping)." + note,
                formulas=_precision_formula(order, config.smooth, config.smooth_amount),
                tables=(Table(f"{n}-grams", _order_table(order, len(ref_texts))),),
            )
        )
        numbers[f"matches m{n}"] = order.correct
        numbers[f"{n}-grams in hypothesis"] = order.total
        numbers[f"p{n}"] = p

    # 3. geometric mean in log space
    used = explanation.orders[:eff]
    logs = explanation.log_precisions
    mean_log, geo = explanation.mean_log_precision, explanation.geometric_mean
    log_rows: list[dict[str, Any]] = [
        {"n": o.order, "p_n (%)": o.precision, "log p_n": lg, "in the mean": True}
        for o, lg in zip(used, logs, strict=True)
    ]
    log_rows += [
        {"n": o.order, "p_n (%)": o.precision, "log p_n": None, "in the mean": False} for o in explanation.orders[eff:]
    ]
    geo_formulas = (
        rf"\bar p = \exp\Big(\frac{{1}}{{{eff}}}\sum_{{n=1}}^{{{eff}}} \log p_n\Big)",
        aligned(
            rf"\frac{{1}}{{{eff}}}\sum_n \log p_n",
            rf"\frac{{1}}{{{eff}}}\big({sum_lines([f'({tex(lg)})' for lg in logs])}\big)",
            tex(mean_log),
        ),
        rf"\bar p = \exp({tex(mean_log)}) = {tex(geo)}",
    )
    text = (
        f"The precisions are combined by a geometric mean, computed as the exponential of the mean **log** "
        f"precision over the orders 1..{eff}. sacrebleu takes the logs of the precisions in percent, so p̄ is a "
        "percentage too."
    )
    if eff < n_max:
        text += f" Only {eff} of the {n_max} orders exist in this short hypothesis (effective order)."
    if any(o.precision == 0 for o in used):
        text += " A precision of 0 has log −∞ (sacrebleu uses −9 999 999 999), so the mean is 0."
    if not explanation.any_match:
        text += " No n-gram of any order matches: sacrebleu returns 0 at once, before any smoothing."
    steps.append(
        Step(
            f"{n_max + 2}. Geometric mean of the precisions, in log space",
            text,
            formulas=geo_formulas,
            tables=(Table("log precisions", pd.DataFrame(log_rows)),),
        )
    )
    numbers["mean log precision"] = mean_log
    numbers["geometric mean p̄"] = geo

    # 4. brevity penalty
    c, r = explanation.sys_len, explanation.ref_len
    bp = explanation.brevity_penalty
    rule = "closest to c (ties → the shorter)" if config.ref_length == "closest" else "the shortest reference"
    lengths = ", ".join(str(n) for n in explanation.ref_lengths)
    # The conclusion names the branch of the formula above it: c = r is its c ≤ r branch, where e^0 = 1.
    if c == 0:
        bp_line = r"BP = 0 \quad(\text{empty hypothesis})"
    elif c > r:
        bp_line = rf"c = {c} > r = {r} \;\Rightarrow\; BP = 1"
    else:
        relation = "=" if c == r else "<"
        bp_line = (
            rf"c = {c} {relation} r = {r},\ c \le r \;\Rightarrow\; BP = e^{{1 - {r}/{c}}} = "
            rf"e^{{{tex(explanation.brevity_exponent)}}} = {tex(bp)}"
        )
    equal = " c = r falls in the c ≤ r branch: e^(1 − r/c) = e^0 = 1, no penalty." if 0 < c == r else ""
    steps.append(
        Step(
            f"{n_max + 3}. Brevity penalty",
            f"c = {c} hypothesis tokens; reference lengths {escape_markdown(lengths)}; r = {r} is {rule} "
            f"(reference {explanation.ref_len_index + 1}).{equal}",
            formulas=(r"BP = \begin{cases} 1 & c > r \\ e^{\,1 - r/c} & c \le r \end{cases}", bp_line),
        )
    )
    numbers["reference length r"] = r
    numbers["brevity penalty BP"] = bp

    # 5. final
    steps.append(
        Step(
            f"{n_max + 4}. BLEU",
            "With the precisions in percent, BLEU comes out × 100, as sacrebleu reports it.",
            formulas=(
                r"\mathrm{BLEU} = BP \cdot \bar p",
                rf"\mathrm{{BLEU}} = {tex(bp)} \cdot {tex(geo)} = {tex(explanation.score, 2)}",
            ),
        )
    )
    numbers["BLEU"] = explanation.score
    precisions = "/".join(f"{o.precision:.1f}" for o in explanation.orders)
    summary = (
        f"BLEU = {explanation.score:.2f} {precisions} (BP = {bp:.3f} "
        f"ratio = {explanation.length_ratio:.3f} hyp_len = {c} ref_len = {r})"
    )
    how = (
        "sacrebleu.sentence_bleu computes it (effective order on)"
        if config.segment_effective_order
        else "sacrebleu's BLEU().sentence_score computes it (effective order off)"
    )
    notes = (f"Sentence BLEU as {how}. Signature of the segment scores: {metric.segment_signature()}",)
    return Lesson(
        metric.name,
        explanation.score,
        f"{explanation.score:.2f}",
        tuple(steps),
        numbers,
        summary,
        MISTAKES,
        notes,
    )


__all__ = ["bleu_lesson"]
