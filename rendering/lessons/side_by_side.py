"""Metrics side by side: every chosen metric on the same hypotheses of one reference, where they disagree and why.

A comparison ranks the hypotheses by each metric (its own direction: TER is better lower) and names every metric
whose ranking differs from the others or from the order a reader expects (a contrast case's ``expected``); beside
each score the evidence the metric counted (BLEU's matches per order, TER's edits with its shifts, METEOR's
chunks), read from the metric's own explanation. The ready-made contrast cases are the classic disagreements: a
paraphrase, a word-order change, a dropped negation. Neural metrics join only where the page can run them; the
comparison names the ones it left out and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import Any

import pandas as pd

from metrics.analysis.units import is_cjk
from metrics.core.base import Metric, ReadsSource
from metrics.core.explanation import Explanation
from metrics.families.bertscore.metric import BERTScoreExplanation
from metrics.families.bleu.metric import BLEUExplanation
from metrics.families.chrf.metric import CHRFExplanation
from metrics.families.meteor.metric import MeteorExplanation
from metrics.families.rouge.metric import RougeExplanation
from metrics.families.ter.metric import TERExplanation


@dataclass(frozen=True)
class Contrast:
    """A ready-made contrast case: one reference (and its source, for COMET), labelled hypotheses, the order a
    bilingual reader would put them in (best first), and the point the case makes."""

    title: str
    source: str
    ref: str
    hyps: tuple[tuple[str, str], ...]  # (label, text)
    expected: tuple[str, ...]  # labels, best first
    point: str


CONTRASTS: tuple[Contrast, ...] = (
    Contrast(
        "A paraphrase against a one-word error",
        "Die Sitzung wurde verschoben, weil die Managerin krank war.",
        "the meeting was postponed because the manager was ill .",
        (
            ("paraphrase", "the meeting has been put off since the manager is sick ."),
            ("wrong meaning", "the meeting was postponed because the manager was well ."),
        ),
        ("paraphrase", "wrong meaning"),
        "The paraphrase says the same with other words: BLEU finds few shared n-grams and scores it lowest; chrF "
        "credits the shared characters (meeting, manager) and scores it less low. The copy with one word changed "
        "keeps almost every n-gram and wins on every surface metric although it says the opposite. Whether a "
        "learned metric (BERTScore, COMET) puts the paraphrase first depends on its model: compare them here.",
    ),
    Contrast(
        "A word-order change: TER's shift against BLEU's n-grams",
        "Gestern hat der Ausschuss das neue Budget für Schulen genehmigt.",
        "yesterday the committee approved the new budget for schools .",
        (
            ("adverb moved", "the committee approved the new budget for schools yesterday ."),
            ("one word wrong", "yesterday the committee approved the new budget for prisons ."),
            ("verb moved", "yesterday the committee the new budget approved for schools ."),
        ),
        ("adverb moved", "one word wrong", "verb moved"),
        "TER moves a block of words for one edit, so each hypothesis costs it one edit: the fluent reordering, the "
        "ungrammatical one and the wrong word tie. BLEU loses every n-gram that crosses the two cut points of a "
        "moved block, so it punishes the moved verb (cut in the middle) far more than the moved adverb (cut at the "
        "edge); METEOR counts the extra chunks.",
    ),
    Contrast(
        "A dropped negation",
        "Der Patient hat kein Fieber.",
        "the patient does not have a fever .",
        (
            ("negation kept", "the patient has no fever ."),
            ("negation dropped", "the patient does have a fever ."),
        ),
        ("negation kept", "negation dropped"),
        "Dropping 'not' removes one word and turns the meaning around. Surface metrics see one missing word and "
        "score the wrong statement high — higher than the correct rewording 'has no fever'. Embedding metrics "
        "(BERTScore) score it high too: 'does have' and 'does not have' sit close together, so even where they "
        "rank the rewording first the gap is small.",
    ),
)


@singledispatch
def evidence(explanation: Explanation) -> str:
    """What a metric counted for its score, in a few words (empty for a metric without a short summary)."""
    return ""


@evidence.register
def _(explanation: BLEUExplanation) -> str:
    matches = " ".join(f"{o.correct}/{o.total}" for o in explanation.orders)
    return f"n-gram matches {matches}, BP {explanation.brevity_penalty:.3f}"


@evidence.register
def _(explanation: CHRFExplanation) -> str:
    chars = [o for o in explanation.orders if o.kind == "char"]
    words = [o for o in explanation.orders if o.kind == "word"]
    text = "char n-gram matches " + " ".join(str(o.n_match) for o in chars)
    return text + ("; word " + " ".join(str(o.n_match) for o in words) if words else "")


@evidence.register
def _(explanation: TERExplanation) -> str:
    edits, _, shifts, subs, dels, ins = explanation.row[:6]
    return f"{edits:g} edits: {shifts:g} shift, {subs:g} sub, {dels:g} del, {ins:g} ins"


@evidence.register
def _(explanation: RougeExplanation) -> str:
    best = explanation.chosen
    return f"{best.hits} hits of {best.hyp_total}/{best.ref_total}"


@evidence.register
def _(explanation: MeteorExplanation) -> str:
    return f"{len(explanation.matches)} matches in {len(explanation.chunks)} chunks"


@evidence.register
def _(explanation: BERTScoreExplanation) -> str:
    p, r, f = explanation.row[:3]
    return f"P {p:.3f} R {r:.3f} F {f:.3f}"


@dataclass(frozen=True, eq=False)
class SideBySide:
    """Scores (rows: hypotheses, columns: metrics), each metric's ranking, the disagreements in words, and the
    metrics left out with their reason."""

    scores: pd.DataFrame
    evidence: pd.DataFrame
    rankings: Mapping[str, Ranking]
    disagreements: tuple[str, ...]
    skipped: Mapping[str, str]


def _explain(metric: Metric[Any, Any], hyp: str, ref: str, source: str) -> Explanation:
    if isinstance(metric, ReadsSource):
        return metric.explain_source(hyp, source, [ref])
    return metric.explain(hyp, [ref])


Ranking = tuple[tuple[str, ...], ...]  # groups of labels, best first; a group holds labels with the same score


def _ranking(labels: Sequence[str], scores: Sequence[float], higher_is_better: bool) -> Ranking:
    """Labels best first, grouped where the scores tie (in typed order within a group)."""
    distinct = sorted(set(scores), reverse=higher_is_better)
    return tuple(tuple(label for label, s in zip(labels, scores, strict=True) if s == value) for value in distinct)


def ranking_text(ranking: Ranking) -> str:
    """``a > b = c``: ``=`` joins a tie."""
    return " > ".join(" = ".join(group) for group in ranking)


def compare(
    metrics: Mapping[str, Metric[Any, Any]],
    ref: str,
    hyps: Sequence[tuple[str, str]],
    *,
    source: str = "",
    expected: Sequence[str] = (),
    skipped: Mapping[str, str] | None = None,
) -> SideBySide:
    """Run every metric of ``metrics`` (label → metric) on each labelled hypothesis against ``ref``; a metric that
    reads the source (COMET) gets ``source``. ``expected``: the labels best first, when the case has an order."""
    labels = [label for label, _ in hyps]
    if len(set(labels)) != len(labels):
        raise ValueError("give every hypothesis its own label")
    if not ref.strip():
        raise ValueError("type a reference")
    score_rows: dict[str, dict[str, Any]] = {label: {"hypothesis": label} for label in labels}
    evidence_rows: dict[str, dict[str, Any]] = {label: {"hypothesis": label} for label in labels}
    rankings: dict[str, Ranking] = {}
    notes: list[str] = []
    for name, metric in metrics.items():
        column = f"{name} {'↑' if metric.higher_is_better else '↓'}"
        scores = []
        for label, text in hyps:
            explanation = _explain(metric, text, ref, source)
            scores.append(explanation.score)
            score_rows[label][column] = explanation.score
            evidence_rows[label][name] = evidence(explanation)
        rankings[name] = _ranking(labels, scores, metric.higher_is_better)
    wrong = [name for name, ranking in rankings.items() if expected and ranking[0] != (expected[0],)]
    if wrong:
        notes.append(f"Not “{expected[0]}” alone first, as a reader puts it: {', '.join(wrong)}.")
    if is_cjk([ref, *(text for _, text in hyps)]):
        notes.append(
            "Chinese or Japanese without spaces: BLEU (13a), TER and METEOR read each unspaced sentence as one word, "
            "and ROUGE's default tokenizer drops its letters, so their scores here say little; chrF reads "
            "characters. The one-pair and corpus lessons offer BLEU's zh and ja-mecab and ROUGE's unicode tokenizers."
        )
    distinct = {ranking for ranking in rankings.values()}
    if len(distinct) > 1:
        groups = {ranking: [name for name, r in rankings.items() if r == ranking] for ranking in rankings.values()}
        notes.append(
            "The metrics disagree on the order: "
            + "; ".join(f"{', '.join(names)}: {ranking_text(ranking)}" for ranking, names in groups.items())
            + "."
        )
    elif rankings:
        notes.append("Every metric orders the hypotheses alike: " + ranking_text(next(iter(distinct))) + ".")
    return SideBySide(
        pd.DataFrame(list(score_rows.values())),
        pd.DataFrame(list(evidence_rows.values())),
        rankings,
        tuple(notes),
        dict(skipped or {}),
    )
