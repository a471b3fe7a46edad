"""Corpus-level lessons: what changes when a metric reads several sentences instead of one.

* BLEU over several pairs: the pooled counts behind corpus BLEU, why it is not the mean of the sentence scores, and
  what effective order and smoothing do at sentence level (sacrebleu's −9999999999 shown as the log of zero it
  stands for, never as a number to read);
* ROUGE-L against ROUGE-Lsum on one multi-sentence summary, the union LCS of every reference sentence drawn;
* METEOR's chunk penalty over a paragraph against the same sentences scored one by one.

Every number comes from the metrics' own rows and explanations (``stats``, ``corpus_score``, ``explain``), so the
lesson and the scores cannot disagree; the sentence lessons' own steps (the LCS grid, the union LCS table) are
reused through :func:`rendering.lessons.build_lesson`, not redrawn. Lessons are found by their topic's type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
import pandas as pd

from metrics.core.base import Metric
from metrics.core.registry import SPECS
from metrics.core.selection import Selection
from metrics.families.bleu.metric import BLEU, BLEUExplanation
from metrics.families.meteor.metric import MeteorAlignment, MeteorExplanation
from metrics.families.rouge.metric import LcsEvidence, LsumEvidence, RougeExplanation
from rendering.teach import Lesson, Step, Table, aligned, frac, tex
from rendering.text import escape_html


class CorpusTopic(Enum):
    """The corpus-level lessons; each value is its title."""

    BLEU_POOLING = "BLEU over several pairs: pooled counts and sentence-level zeros"
    ROUGE_LSUM = "ROUGE-L against ROUGE-Lsum on a multi-sentence summary"
    METEOR_PARAGRAPH = "METEOR's chunk penalty across a paragraph"

    @property
    def card(self) -> str:
        """The name of the limitations card that ends the lesson (:mod:`rendering.cards`)."""
        return _CARDS[self]

    @property
    def tokenizer(self) -> tuple[str, str] | None:
        """(metric id, option) of the tokenizer the lesson offers as a setting: unsegmented Chinese or Japanese is
        one token per sentence under BLEU's 13a and nothing under rouge-score's ASCII tokenizer."""
        return _TOKENIZERS.get(self)

    @property
    def lines_are(self) -> str:
        """What a line of the typed texts is, for the page's labels."""
        return "a sentence of one summary" if self is CorpusTopic.ROUGE_LSUM else "one sentence pair"


_TOKENIZERS = {CorpusTopic.BLEU_POOLING: ("bleu", "tokenize"), CorpusTopic.ROUGE_LSUM: ("rougeLsum", "tokenizer")}
_CARDS = {CorpusTopic.BLEU_POOLING: "bleu", CorpusTopic.ROUGE_LSUM: "rouge", CorpusTopic.METEOR_PARAGRAPH: "meteor"}


@dataclass(frozen=True)
class Example:
    """A ready-made text for a topic: hypothesis lines and reference lines."""

    topic: CorpusTopic
    hyp: str
    ref: str


EXAMPLES: Mapping[CorpusTopic, Example] = {
    CorpusTopic.BLEU_POOLING: Example(
        CorpusTopic.BLEU_POOLING,
        "the cat sat on the mat\nit rained\nthe committee approved the new budget on monday morning",
        "the cat is on the mat\nit was raining\nthe committee approved the new budget on monday",
    ),
    CorpusTopic.ROUGE_LSUM: Example(
        CorpusTopic.ROUGE_LSUM,
        "police arrested two men after the robbery .\nthe bank was closed on friday .\nno one was hurt .",
        "two men were arrested by police .\nthe robbery happened at a bank on friday .\nnobody was hurt in the robbery .",
    ),
    CorpusTopic.METEOR_PARAGRAPH: Example(
        CorpusTopic.METEOR_PARAGRAPH,
        "the old house stood on the hill\nfor many years it was empty\nthe children said it was haunted",
        "the old house stood on a hill\nfor many years it was empty\nthe children said that it was haunted",
    ),
}


def lines(text: str) -> list[str]:
    """The non-blank lines of ``text``, stripped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _pairs(hyp_text: str, ref_text: str) -> tuple[list[str], list[str]]:
    hyps, refs = lines(hyp_text), lines(ref_text)
    if not hyps or not refs:
        raise ValueError("type at least one hypothesis line and one reference line")
    if len(hyps) != len(refs):
        raise ValueError(f"{len(hyps)} hypothesis lines and {len(refs)} reference lines: give one reference per line")
    return hyps, refs


def _metric(metric_id: str, options: Mapping[str, Any] | None = None) -> Metric[Any, Any]:
    selection = Selection((metric_id,), {SPECS[metric_id].family: dict(options or {})})
    return selection.metric(metric_id)


def _log_text(value: float, precision: float) -> str:
    """A log precision as the lesson prints it: log 0 is −∞, whatever sentinel sacrebleu stores for it."""
    return "−∞ (log 0)" if precision == 0 else f"{value:.4f}"


# ---------------------------------------------------------------------------------------------------------------
# BLEU


def _bleu_pair_rows(explanations: Sequence[BLEUExplanation], n_max: int) -> list[dict[str, Any]]:
    rows = []
    for k, e in enumerate(explanations):
        row: dict[str, Any] = {"pair": k + 1, "c": e.sys_len, "r": e.ref_len}
        for o in e.orders:
            row[f"m{o.order}/t{o.order}"] = f"{o.correct}/{o.total}"
        row["sentence BLEU"] = round(e.score, 4)
        rows.append(row)
    return rows


def bleu_pooling(hyp_text: str, ref_text: str, options: Mapping[str, Any]) -> Lesson:
    hyps, refs = _pairs(hyp_text, ref_text)
    metric = _metric("bleu", options)
    if not isinstance(metric, BLEU):
        raise TypeError(f"the BLEU lesson needs sacrebleu's BLEU, not {type(metric).__name__}")
    n_max = metric.config.max_ngram_order
    stats = metric.stats(hyps, [refs])
    pooled = stats.pooled()
    column = {name: pooled[k] for k, name in enumerate(stats.columns)}
    corpus = metric.corpus_score(stats)
    explained: list[BLEUExplanation] = [metric.explain(h, [r]) for h, r in zip(hyps, refs, strict=True)]
    sentence = [e.score for e in explained]
    mean_sentence = float(np.mean(sentence))
    numbers: dict[str, float] = {}
    steps: list[Step] = []

    steps.append(
        Step(
            "1. Each pair on its own",
            "Sentence BLEU of every pair, as the Segment view and `sacrebleu.sentence_bleu` give it (exp smoothing, "
            "effective order). m_n/t_n: clipped n-gram matches over the hypothesis' n-grams; c and r: hypothesis and "
            "reference lengths.",
            tables=(Table("pairs", pd.DataFrame(_bleu_pair_rows(explained, n_max))),),
        )
    )
    for k, s in enumerate(sentence):
        numbers[f"sentence BLEU {k + 1}"] = s

    c, r = column["sys_len"], column["ref_len"]
    combined = metric.corpus_steps(pooled)
    pooled_rows = []
    p_formulas = []
    for n in range(1, n_max + 1):
        m, t = int(column[f"correct_{n}"]), int(column[f"total_{n}"])
        p = float(combined.precisions[0, n - 1]) / 100
        smoothed = m == 0 and t > 0 and p > 0
        pooled_rows.append(
            {"n": n, "Σ matches": m, "Σ n-grams": t, "p_n": p, "log(100·p_n)": _log_text(combined.logs[0, n - 1], p)}
        )
        numbers[f"pooled p{n}"] = p
        line = rf"p_{n} = {frac(m, t)} = {tex(p)}"
        if smoothed and metric.config.smooth == "exp":
            halvings = int(combined.exp_halvings[0, n - 1])
            line = rf"p_{n} = \frac{{0}}{{{t}}} \to \frac{{1}}{{2^{{{halvings}}} \cdot {t}}} = {tex(p)}"
        p_formulas.append(line)
    bp = float(combined.brevity_penalty[0])
    steps.append(
        Step(
            "2. Corpus BLEU pools the counts",
            "Corpus BLEU adds the clipped matches, the n-gram totals and the lengths of all pairs first, and only then "
            "divides: one precision per order for the whole corpus, one brevity penalty from the summed lengths. "
            "An order without any match in the whole corpus is smoothed by sacrebleu's default exp smoothing "
            "(the k-th zero count becomes 1/2ᵏ).",
            formulas=(
                r"p_n = \frac{\sum_s m_n^{(s)}}{\sum_s t_n^{(s)}}",
                *p_formulas,
                rf"c = {tex(c)},\ r = {tex(r)} \;\Rightarrow\; BP = {tex(bp)}",
                aligned(
                    r"\mathrm{BLEU}",
                    r"BP \cdot 100\,\exp\Big(\frac{1}{N}\sum_n \log p_n\Big)",
                    rf"{tex(bp)} \cdot {tex(float(combined.geometric_mean[0]))}",
                    tex(corpus, 2),
                ),
            ),
            tables=(Table("pooled counts", pd.DataFrame(pooled_rows)),),
        )
    )
    numbers["pooled BP"] = bp

    weights = [e.orders[0].total / column["total_1"] if column["total_1"] else 0.0 for e in explained]
    steps.append(
        Step(
            "3. The corpus score is not the mean of the sentence scores",
            f"The mean of the {len(hyps)} sentence scores is {mean_sentence:.2f}; corpus BLEU is {corpus:.2f}. Pooling "
            "weighs each pair by how many n-grams it has (a long pair counts more), a pair whose sentence BLEU is 0 "
            "still brings its matches of the lower orders to the pool, and the brevity penalty is taken once, over "
            "the summed lengths — a short hypothesis next to a long one is not penalised on its own.",
            formulas=(
                rf"\frac{{1}}{{{len(hyps)}}}\sum_s \mathrm{{BLEU}}_s = {tex(mean_sentence, 2)} \neq "
                rf"\mathrm{{BLEU}}_{{corpus}} = {tex(corpus, 2)}",
            ),
            tables=(
                Table(
                    "weights",
                    pd.DataFrame(
                        {
                            "pair": range(1, len(hyps) + 1),
                            "share of the pooled unigrams": weights,
                            "sentence BLEU": sentence,
                        }
                    ),
                ),
            ),
        )
    )
    numbers["mean of sentence BLEU"] = mean_sentence

    strict = _metric("bleu", {**options, "smooth": "none", "segment_effective_order": False})
    rows = []
    for k, (h, ref) in enumerate(zip(hyps, refs, strict=True)):
        e = strict.explain(h, [ref])
        row: dict[str, Any] = {"pair": k + 1}
        for o, lg in zip(e.orders, e.log_precisions, strict=False):
            row[f"log p{o.order}"] = _log_text(lg, o.precision)
        row["BLEU"] = round(e.score, 4)
        row["eff. order"] = explained[k].effective_order
        row["BLEU, smoothed"] = round(explained[k].score, 4)
        rows.append(row)
        numbers[f"unsmoothed BLEU {k + 1}"] = e.score
    zero = [row["pair"] for row in rows if any("−∞" in str(v) for v in row.values())]
    text = (
        "At sentence level one order without a match is common. Without smoothing its precision is 0 and its log is "
        "−∞, so the geometric mean — and BLEU — is 0, however good the other orders are. sacrebleu computes that "
        "log as **−9999999999**, a stand-in for −∞ that keeps the arithmetic finite: it is not a number to read, "
        "average or compare; the table writes it as what it is. Effective order leaves out the orders the "
        "hypothesis is too short to have; exp smoothing (sacrebleu.sentence_bleu's default) replaces the k-th zero "
        "count by 1/2ᵏ."
    )
    if zero:
        text += " Here pair(s) " + ", ".join(str(z) for z in zero) + " have such a log of zero."
    steps.append(
        Step(
            "4. Sentence level: effective order and smoothing",
            text,
            formulas=(r"\log 0 = -\infty \;\Rightarrow\; \exp\Big(\frac{1}{N}\sum_n \log p_n\Big) = 0",),
            tables=(Table("sentence level", pd.DataFrame(rows)),),
            html="<small>log p<sub>n</sub> and BLEU: no smoothing, every order (sacrebleu's "
            "<code>BLEU(smooth_method='none', effective_order=False)</code>); BLEU, smoothed: "
            "<code>sentence_bleu</code>'s exp smoothing with effective order.</small>",
        )
    )
    numbers["corpus BLEU"] = corpus
    return Lesson(
        "BLEU (corpus)",
        corpus,
        f"{corpus:.2f}",
        tuple(steps),
        numbers,
        f"corpus BLEU = {corpus:.2f}; mean of sentence BLEU = {mean_sentence:.2f}",
        notes=(f"Signature: {metric.signature()}",),
    )


# ---------------------------------------------------------------------------------------------------------------
# ROUGE-L against ROUGE-Lsum

CSS = (
    "<style>.cl-row{line-height:2.1;margin:.2em 0}.cl-hit{background:#c8f0c8;border-radius:3px;padding:0 2px}"
    ".cl-clip{background:#ffd6a5;border-radius:3px;padding:0 2px}.cl-off{color:#777}"
    ".cl-row sup{color:#1f4e99;font-size:.7em;margin-left:1px}</style>"
)


def _ranges(numbers: Sequence[int]) -> str:
    """``1,3–6``: sorted distinct numbers with runs of three or more shortened, so a word on many LCS stays short."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ",".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ",".join(map(str, r)) for r in runs)


def union_drawing(explanation: RougeExplanation) -> str:
    """Every reference sentence with its words marked: green for a union-LCS word credited, orange for one clipping
    took away, grey for a word on no LCS; the superscripts name the hypothesis sentences whose LCS holds the word."""
    best = explanation.chosen
    evidence = best.evidence
    if not isinstance(evidence, LsumEvidence):
        raise TypeError("the union drawing needs ROUGE-Lsum evidence")
    words = [t.text for t in best.ref_tokens]
    out = [CSS]
    for sentence in evidence.sentences:
        local = words[sentence.start : sentence.end]
        by_word: dict[int, list[int]] = {}
        for k, pairs in enumerate(sentence.lcs):
            for i, _ in pairs:
                by_word.setdefault(i, []).append(k + 1)
        parts = []
        for i, word in enumerate(local):
            if i in sentence.hits:
                css = "cl-hit"
            elif i in sentence.union:
                css = "cl-clip"
            else:
                css = "cl-off"
            sup = f"<sup>{_ranges(by_word[i])}</sup>" if i in by_word else ""
            parts.append(f'<span class="{css}">{escape_html(word)}</span>{sup}')
        out.append(f'<div class="cl-row"><b>r{sentence.index + 1}</b> ' + " ".join(parts) + "</div>")
    return "".join(out)


def rouge_lsum(hyp_text: str, ref_text: str, options: Mapping[str, Any]) -> Lesson:
    from rendering.lessons import build_lesson  # the package imports this module: import at call time

    hyp = "\n".join(lines(hyp_text))
    ref = "\n".join(lines(ref_text))
    if not hyp or not ref:
        raise ValueError("type a summary and a reference summary, one sentence per line")
    rouge_l, rouge_lsum_metric = _metric("rougeL", options), _metric("rougeLsum", options)
    el: RougeExplanation = rouge_l.explain(hyp, [ref])
    es: RougeExplanation = rouge_lsum_metric.explain(hyp, [ref])
    lesson_l = build_lesson(rouge_l, hyp, [ref])
    lesson_s = build_lesson(rouge_lsum_metric, hyp, [ref])
    evidence_s = es.chosen.evidence
    evidence_l = el.chosen.evidence
    if not isinstance(evidence_s, LsumEvidence) or not isinstance(evidence_l, LcsEvidence):
        raise TypeError("unexpected ROUGE evidence")
    naive = sum(len(pairs) for s in evidence_s.sentences for pairs in s.lcs)
    union = sum(len(s.union) for s in evidence_s.sentences)
    numbers: dict[str, float] = {
        "ROUGE-L LCS": el.chosen.hits,
        "ROUGE-L F1": el.score,
        "sum of sentence-pair LCS lengths": naive,
        "union LCS words": union,
        "ROUGE-Lsum hits": es.chosen.hits,
        "ROUGE-Lsum P": es.chosen.precision,
        "ROUGE-Lsum R": es.chosen.recall,
        "ROUGE-Lsum F1": es.score,
    }
    grid = lesson_l.steps[1]
    union_step = lesson_s.steps[1]
    steps = (
        Step(
            "1. Two readings of one summary",
            f"The summary has {len(evidence_s.hyp_sentences)} sentence(s), the reference {len(evidence_s.sentences)} "
            "(one per line). ROUGE-L reads each text as one long sequence; ROUGE-Lsum matches every reference "
            "sentence against every summary sentence.",
            tables=lesson_s.steps[0].tables,
        ),
        Step(
            "2. ROUGE-L: one LCS over the whole texts",
            "The longest common subsequence of the two texts as single sequences: words must keep their order across "
            "sentence boundaries, so a summary that tells the same facts in another sentence order loses them. "
            + grid.text,
            formulas=grid.formulas,
            tables=grid.tables,
            figure=grid.figure,
        ),
        Step(
            "3. ROUGE-Lsum: the union LCS of every reference sentence",
            union_step.text + " In the drawing, green words are credited, orange ones were on an LCS but clipping "
            "took them away, grey ones are on no LCS; the small numbers name the summary sentences whose LCS holds "
            "the word.",
            formulas=union_step.formulas,
            tables=union_step.tables,
            html=union_drawing(es),
        ),
        Step(
            "4. Not the sum of LCS lengths",
            f"Adding up the LCS of every (reference sentence, summary sentence) pair gives {naive}: a word covered by "
            f"two summary sentences would count twice. The union counts it once ({union} words), and clipping "
            f"leaves {es.chosen.hits} hits.",
            formulas=(
                rf"\sum_i \sum_j |\mathrm{{LCS}}(r_i, c_j)| = {naive} \;\neq\; \sum_i |\mathrm{{LCS}}_\cup(r_i, C)| "
                rf"= {union} \;\to\; \text{{clipped}}: {es.chosen.hits}",
            ),
        ),
        Step(
            "5. The two scores",
            "Both divide by the same token counts; only the hits differ.",
            formulas=(
                rf"\text{{ROUGE-L}}: P = {frac(el.chosen.hits, el.chosen.hyp_total)},\ "
                rf"R = {frac(el.chosen.hits, el.chosen.ref_total)},\ F_1 = {tex(el.score)}",
                rf"\text{{ROUGE-Lsum}}: P = {frac(es.chosen.hits, es.chosen.hyp_total)},\ "
                rf"R = {frac(es.chosen.hits, es.chosen.ref_total)},\ F_1 = {tex(es.score)}",
            ),
        ),
    )
    return Lesson(
        "ROUGE-Lsum",
        es.score,
        f"{es.score:.4f}",
        steps,
        numbers,
        f"ROUGE-L F1 = {el.score:.4f}; ROUGE-Lsum F1 = {es.score:.4f}",
        notes=tuple(lesson_s.notes),
    )


# ---------------------------------------------------------------------------------------------------------------
# METEOR over a paragraph


def _meteor_row(label: str, a: MeteorAlignment) -> dict[str, Any]:
    m = len(a.matches)
    return {
        "text": label,
        "matches m": m,
        "chunks ch": len(a.chunks),
        "frag = ch/m": a.fragmentation,
        "penalty": a.penalty,
        "Fmean": a.fmean,
        "METEOR": a.score,
    }


def meteor_paragraph(hyp_text: str, ref_text: str, options: Mapping[str, Any]) -> Lesson:
    hyps, refs = _pairs(hyp_text, ref_text)
    metric = _metric("meteor", options)
    per: list[MeteorExplanation] = [metric.explain(h, [r]) for h, r in zip(hyps, refs, strict=True)]
    whole: MeteorExplanation = metric.explain(" ".join(hyps), [" ".join(refs)])
    a = whole.chosen
    rows = [_meteor_row(f"sentence {k + 1}", e.chosen) for k, e in enumerate(per)]
    rows.append(_meteor_row("paragraph", a))
    scores = [e.chosen.score for e in per]
    mean = float(np.mean(scores))
    chunks_sum = sum(len(e.chosen.chunks) for e in per)
    m = len(a.matches)
    numbers: dict[str, float] = {f"sentence METEOR {k + 1}": s for k, s in enumerate(scores)}
    numbers |= {
        "mean of sentence METEOR": mean,
        "sum of sentence chunks": chunks_sum,
        "paragraph matches": m,
        "paragraph chunks": len(a.chunks),
        "paragraph penalty": a.penalty,
        "paragraph METEOR": a.score,
    }
    gamma, beta = whole.gamma, whole.beta
    steps = (
        Step(
            "1. Sentence by sentence",
            "Each sentence aligned and penalised on its own: its chunks are runs of adjacent matched words in the "
            "same order, and its penalty γ·(ch/m)^β grows with them.",
            tables=(Table("sentences and paragraph", pd.DataFrame(rows)),),
        ),
        Step(
            "2. The paragraph as one text",
            f"Scored as one text the paragraph has {m} matches in {len(a.chunks)} chunk(s) (the sentences alone: "
            f"{chunks_sum}). A chunk can run on across a sentence boundary when both texts end and start their "
            "sentences alike, the alignment may pair a word with one in another sentence, and the penalty is taken "
            "once over the paragraph's fragmentation.",
            formulas=(
                rf"\mathrm{{frag}} = \frac{{ch}}{{m}} = {frac(len(a.chunks), m) if m else '0'} = {tex(a.fragmentation)}",
                rf"\mathrm{{Pen}} = \gamma \cdot \mathrm{{frag}}^{{\beta}} = {tex(gamma, 2)} \cdot "
                rf"{tex(a.fragmentation)}^{{{tex(beta, 2)}}} = {tex(a.penalty)}",
                rf"\mathrm{{METEOR}} = F_{{mean}} \cdot (1 - \mathrm{{Pen}}) = {tex(a.fmean)} \cdot "
                rf"(1 - {tex(a.penalty)}) = {tex(a.score)}",
            ),
        ),
        Step(
            "3. Paragraph METEOR is not the mean of its sentences",
            f"The mean of the sentence scores is {mean:.4f}; the paragraph scores {a.score:.4f}. The penalty is a "
            "power of the fragmentation, and Fmean is taken over the pooled matches, so neither averages.",
            formulas=(rf"\frac{{1}}{{{len(scores)}}}\sum_s \mathrm{{METEOR}}_s = {tex(mean)} \neq {tex(a.score)}",),
        ),
    )
    return Lesson(
        "METEOR (paragraph)",
        a.score,
        f"{a.score:.4f}",
        steps,
        numbers,
        f"paragraph METEOR = {a.score:.4f}; mean of sentence METEOR = {mean:.4f}",
        notes=(f"Signature: {metric.signature()}",),
    )


_BUILDERS: Mapping[CorpusTopic, Callable[[str, str, Mapping[str, Any]], Lesson]] = {
    CorpusTopic.BLEU_POOLING: bleu_pooling,
    CorpusTopic.ROUGE_LSUM: rouge_lsum,
    CorpusTopic.METEOR_PARAGRAPH: meteor_paragraph,
}


def corpus_lesson(topic: CorpusTopic, hyp_text: str, ref_text: str, options: Mapping[str, Any] | None = None) -> Lesson:
    """The lesson of ``topic`` on the typed lines (a line: one pair, or one sentence of a summary for ROUGE-Lsum),
    its metric built with ``options`` (the tokenizer of :attr:`CorpusTopic.tokenizer`)."""
    return _BUILDERS[topic](hyp_text, ref_text, options or {})
