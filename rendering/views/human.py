"""The view of a human score's segment (MQM, ESA): the score, how it was made from the ratings (each rater's errors
and weights, or their 0–100 scores), and every error with its place; the spans themselves are drawn above it on the
Segment view, one line per rater (:mod:`rendering.annotations`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from metrics.annotations.metric import AnnotationExplanation, HumanScore
from metrics.annotations.mqm import MqmWeights, error_weights
from rendering.edits_html import counts_html
from rendering.parts import Part, note
from rendering.view import ViewOptions, evidence_view


def errors_table(ex: AnnotationExplanation, weights: MqmWeights | None) -> pd.DataFrame:
    """One row per error of every rating: rater, severity, category, where it is, its text, its MQM weight."""
    rows = []
    for rating in ex.ratings:
        for error in rating.errors:
            span = error.span
            rows.append(
                {
                    "rater": rating.rater,
                    "severity": error.severity.value,
                    "category": error.category or "",
                    "side": span.side.value if span else "",
                    "start": span.start if span else None,
                    "end": span.end if span else None,
                    "text": span.text if span else f"(not located: {error.reason})",
                    **({"weight": weights.weight(error.severity, error.category)} if weights else {}),
                    "comment": error.comment,
                    "file line": error.line,
                }
            )
    return pd.DataFrame(rows)


@evidence_view.register(AnnotationExplanation)
def _human(ex: AnnotationExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    del hyp, refs, options
    if not ex.ratings:
        return [note(f"{ex.name}: nobody rated this output; the segment is left out of {ex.system}'s score.")]
    # the explanation carries the weights as their signature, the form MqmWeights.parse reads
    weights = MqmWeights.parse(ex.weights) if ex.weights else None
    items = [("score", f"{ex.score + 0.0:.4g}"), ("ratings", str(len(ex.ratings)))]
    if ex.kind is HumanScore.MQM and weights is not None:
        items += [
            (r.rater, f"{-error_weights(r.errors, weights) + 0.0:g} ({len(r.errors)} errors)") for r in ex.ratings
        ]
        how = "minus the mean over raters of each rater's sum of error weights"
    else:
        items += [(r.rater, "—" if r.score is None else f"{r.score:g}") for r in ex.ratings]
        how = "the mean of the raters' scores"
    parts = [Part("html", counts_html(items), f"{ex.name}: {how}")]
    table = errors_table(ex, weights)
    if len(table):
        parts.append(Part("table", table, "The raters' errors (offsets: characters of their side's text)"))
    else:
        parts.append(note("The raters marked no error."))
    parts.append(
        note(f"From {Path(ex.source).name}, line {ex.line}." + (f" Weights: {ex.weights}." if ex.weights else ""))
    )
    return parts
