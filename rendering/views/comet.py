"""The view of COMET-family evidence: the triple the model read (source, output, reference — or none, for a
reference-free model) with its error spans drawn where it marked them (xCOMET: on the output), its score, and for
xCOMET the parts its score mixes with their weights."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.core.spans import Side
from metrics.families.comet.explanation import XCOMET_WEIGHTS, CometExplanation, Estimator
from rendering.edits_html import counts_html
from rendering.ngram_view import plain_html
from rendering.parts import Part, note
from rendering.spans import origins, spans_html, spans_legend
from rendering.view import ViewOptions, evidence_view

ESTIMATOR_WORDS = {
    Estimator.REGRESSION: "regression estimator: output, source and reference are encoded one by one, pooled into "
    "sentence embeddings and combined by a feed-forward regressor",
    Estimator.UNIFIED: "unified estimator: the output and its source are encoded together (one joint input) and a "
    "feed-forward head reads the first token's embedding",
    Estimator.XCOMET: "xCOMET: a unified estimator that also tags each output word piece with an error severity; "
    "its score mixes regression scores with an MQM-like score of those tags",
}


def mix(parts: Sequence[tuple[str, float]]) -> tuple[list[tuple[str, float, float]], float]:
    """xCOMET's parts with the weight each takes — the regression parts capped at 1 (unbabel-comet's
    ``XCOMETMetric.predict_step``); without a reference the ``src`` part takes the three regression weights — and
    their weighted sum."""
    weights = dict(XCOMET_WEIGHTS)
    names = {name for name, _ in parts}
    if "ref" not in names:
        weights["src"] = weights["src"] + weights["ref"] + weights["unified"]
    rows = [(name, min(value, 1.0) if name != "mqm" else value, weights[name]) for name, value in parts]
    return rows, sum(value * weight for _, value, weight in rows)


def parts_items(parts: Sequence[tuple[str, float]]) -> list[tuple[str, str]]:
    """The label–value items of xCOMET's mix: each part with its weight, then the sum."""
    rows, total = mix(parts)
    items = [(name, f"{value:.4f} × {weight:g}") for name, value, weight in rows]
    capped = [name for (name, value), (_, used, _) in zip(parts, rows, strict=True) if used != value]
    if capped:
        items.append(("capped at 1", ", ".join(capped)))
    items.append(("Σ", f"{total:.4f}"))
    return items


def spans_table(ex: CometExplanation) -> pd.DataFrame:
    """One row per span: where it lies, what it covers, how sure the model was, and the model's own text of it
    (unbabel-comet decodes the span's word pieces: lowercased by an uncased model, with ``[CLS]`` at the start)."""
    decoded = ex.span_texts if len(ex.span_texts) == len(ex.spans) else ("",) * len(ex.spans)
    rows = [
        {"side": s.side.value, "start": s.start, "end": s.end, "text": s.text, "severity": s.severity.value,
         "confidence": s.confidence, "origin": s.origin, "model's text": d}
        for s, d in zip(ex.spans, decoded, strict=True)
    ]  # fmt: skip
    return pd.DataFrame(
        rows, columns=["side", "start", "end", "text", "severity", "confidence", "origin", "model's text"]
    )


@evidence_view.register(CometExplanation)
def _comet(ex: CometExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    del hyp, refs, options  # the explanation holds the triple the model read
    lanes = origins(ex.spans)
    # The page shows the segment's source and references once; here they are detail, unless the source carries
    # spans of this output (an omission marked there).
    marked = any(span.side is Side.SOURCE for span in ex.spans)
    source = spans_html(ex.source, ex.spans, side=Side.SOURCE, lanes=lanes)
    parts = [Part("html", source, "Source the model read", detail=not marked)]
    tagged = ex.estimator is Estimator.XCOMET
    parts.append(
        Part(
            "html",
            spans_html(ex.hypothesis, ex.spans, lanes=lanes) + (spans_legend(lanes) if tagged or ex.spans else ""),
            f"Output the model read{', with its error spans' if tagged else ''}",
        )
    )
    if ex.reference is None:
        parts.append(note("Reference-free: the model read no reference for this score."))
    else:
        parts.append(Part("html", plain_html(ex.reference), "Reference the model read", detail=True))
    items = [("score", f"{ex.score:.4f}")]
    if ex.parts:
        items += parts_items(ex.parts)
    if tagged:
        items.append(("error spans", str(len(ex.spans))))
    parts.append(Part("html", counts_html(items)))
    if ex.spans:
        parts.append(Part("table", spans_table(ex), "Error spans: offsets are characters of their text", detail=True))
    if tagged and not ex.spans:
        parts.append(note("The model marked no error in this output."))
    if ex.truncated:
        parts.append(note("An input was longer than the encoder reads: it was cut, so the score ignores its end."))
    parts.append(note(f"Model: {ex.model} ({ESTIMATOR_WORDS[ex.estimator]})."))
    return parts + [note(n) for n in ex.notes]
