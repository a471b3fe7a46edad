"""The MQM lesson: a segment's MQM score from raters' error spans — each error's weight and the rule that gives it,
each rater's sum, the mean over raters, the sign — every number from :mod:`metrics.annotations.mqm` (the code that
scores MQM files), so the lesson and the MQM metric cannot disagree.

Annotations are typed one error a line, ``rater | severity | category | erroneous text``: the text is looked up in
the output (its first occurrence) to draw the span, and an error without text (an omission) counts unlocated, as
in WMT's files. ``rater | none`` records a rater who found no error: a rated segment with a zero sum, which the
mean over raters counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from metrics.annotations.model import AnnotatedError, Rating
from metrics.annotations.mqm import MqmWeights, error_weights, segment_mqm
from metrics.core.spans import ErrorSpan, Severity
from rendering.spans import spans_html, spans_legend
from rendering.teach import Lesson, Step, Table, latex_text, tex

NO_ERROR = "none"


@dataclass(frozen=True)
class MqmExample:
    source: str
    target: str
    annotations: str


EXAMPLE = MqmExample(
    "Der Ausschuss hat das Budget nicht genehmigt, es wird für Schulen ausgegeben.",
    "The committee has approved the budget, it will be spend for schools.",
    "rater1 | major | Accuracy/Mistranslation | has approved\n"
    "rater1 | minor | Fluency/Grammar | spend\n"
    "rater1 | minor | Fluency/Punctuation | ,\n"
    "rater2 | major | Accuracy/Omission |\n"
    "rater2 | minor | Fluency/Grammar | spend\n"
    "rater3 | none",
)


def _rule(weights: MqmWeights, severity: Severity, category: str | None) -> str:
    """Which of WMT's rules gives the weight: the exceptions first, as :meth:`MqmWeights.weight` applies them."""
    weight = weights.weight(severity, category)
    if severity in (Severity.MAJOR, Severity.CRITICAL) and weight == weights.non_translation:
        return "non-translation"
    if severity is Severity.MINOR and weight == weights.minor_punctuation != weights.minor:
        return "minor punctuation"
    return severity.value


def parse(target: str, text: str) -> tuple[Rating, ...]:
    """The ratings of the typed lines, one per rater in order of first appearance (``ValueError`` names a bad line)."""
    errors: dict[str, list[AnnotatedError]] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        rater = parts[0]
        if not rater:
            raise ValueError(f"line {number}: name the rater first (rater | severity | category | text)")
        first_line.setdefault(rater, number)
        found = errors.setdefault(rater, [])
        if len(parts) == 2 and parts[1].lower() == NO_ERROR:
            continue
        if len(parts) < 3:
            raise ValueError(f"line {number}: expected rater | severity | category | text, or rater | none")
        try:
            severity = Severity(parts[1].lower())
        except ValueError:
            names = ", ".join(s.value for s in Severity)
            raise ValueError(f"line {number}: severity {parts[1]!r} is not one of {names}") from None
        category = parts[2] or None
        marked = parts[3] if len(parts) > 3 else ""
        start = target.find(marked) if marked else -1
        if marked and start < 0:
            raise ValueError(f"line {number}: {marked!r} is not in the output")
        span = (
            ErrorSpan(start, start + len(marked), marked, severity, origin=rater, category=category) if marked else None
        )
        found.append(AnnotatedError(severity, category, span, number, reason="" if span else "no text marked"))
    if not errors:
        raise ValueError("type at least one rater's line (rater | severity | category | text, or rater | none)")
    return tuple(Rating(rater, tuple(found), first_line[rater]) for rater, found in errors.items())


def mqm_lesson(target: str, annotations: str, weights: MqmWeights | None = None) -> Lesson:
    weights = weights or MqmWeights()
    ratings = parse(target, annotations)
    numbers: dict[str, float] = {}
    rows = []
    for rating in ratings:
        for error in rating.errors:
            weight = weights.weight(error.severity, error.category)
            rows.append(
                {
                    "rater": rating.rater,
                    "severity": error.severity.value,
                    "category": error.category or "",
                    "text": error.span.text if error.span else "(not located)",
                    "weight": weight,
                    "rule": _rule(weights, error.severity, error.category),
                }
            )
            numbers[f"weight, line {error.line}"] = weight
    spans = [e.span for r in ratings for e in r.errors if e.span is not None]
    lanes = tuple(r.rater for r in ratings if any(e.span for e in r.errors))
    sums = [error_weights(r.errors, weights) for r in ratings]
    for rating, total in zip(ratings, sums, strict=True):
        numbers[f"sum of {rating.rater}"] = total
    score = segment_mqm(ratings, weights)
    mean = -score
    numbers["mean over raters"] = mean
    numbers["MQM"] = score
    sum_rows = [
        {"rater": r.rater, "errors": len(r.errors), "sum of weights": s} for r, s in zip(ratings, sums, strict=True)
    ]
    steps = (
        Step(
            "1. The errors and their weights",
            "Each error weighs by its severity — WMT's weights: Major 5, Minor 1, Neutral 0 — with two exceptions: "
            "a Minor Fluency/Punctuation error weighs 0.1, and a Major Non-translation (a whole garbled segment) 25. "
            "Critical has no WMT weight; ScoreLens weighs it 10, as xCOMET does. An error whose text was not marked "
            "(an omission) still counts.",
            formulas=(
                rf"w(e) = \begin{{cases}} {weights.non_translation:g} & \text{{non-transl.}} \\ "
                rf"{weights.minor_punctuation:g} & \text{{minor punct.}} \\ {weights.critical:g} & \text{{critical}} \\ "
                rf"{weights.major:g},\ {weights.minor:g},\ {weights.neutral:g} & \text{{maj., min., neutr.}} \end{{cases}}",
            ),
            tables=(
                Table(
                    "errors", pd.DataFrame(rows, columns=["rater", "severity", "category", "text", "weight", "rule"])
                ),
            ),
            html=(spans_html(target, spans, lanes=lanes) + spans_legend(lanes)) if spans else "",
        ),
        Step(
            "2. Each rater's sum",
            "A rater's penalty for the segment is the sum of the weights of their errors; a rater who found no "
            "error contributes 0 and still counts in the mean.",
            formulas=tuple(
                latex_text(r.rater)
                + ": "
                + (" + ".join(tex(weights.weight(e.severity, e.category), 2) for e in r.errors) or "0")
                + rf" = {tex(s, 2)}"
                for r, s in zip(ratings, sums, strict=True)
            ),
            tables=(Table("raters", pd.DataFrame(sum_rows)),),
        ),
        Step(
            "3. The mean over raters, and the sign",
            "The segment's MQM is the mean of the raters' sums, **negated**: 0 is a segment without error and "
            "−5 one major error, so higher is better, as mt-metrics-eval stores it. Google's README tables print "
            "the positive penalty: read the sign before comparing numbers from two sources.",
            formulas=(
                rf"\bar s = \frac{{1}}{{{len(ratings)}}}\big("
                + " + ".join(tex(s, 2) for s in sums)
                + rf"\big) = {tex(mean)}",
                rf"\mathrm{{MQM}} = -\bar s = {tex(score)}",
            ),
        ),
    )
    return Lesson(
        "MQM",
        score,
        f"{score:.4f}",
        steps,
        numbers,
        f"MQM = −mean({', '.join(f'{s:g}' for s in sums)}) = {score:.4f}; weights {weights.signature()}",
        notes=("Weights and rules of metrics.annotations.mqm, the code that scores MQM files.",),
    )
