"""The view of BERTScore evidence: the token-similarity matrix of the candidate against one reference as a heatmap,
with each token's greedy match marked (candidate → reference for precision, reference → candidate for recall),
both sentences as heat strips of their tokens' best similarity, and the tokens' (idf) weights."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from metrics.core.tokens import Token
from metrics.families.bertscore.metric import BERTScoreExplanation, ReferenceMatch
from rendering.edits_html import counts_html
from rendering.figures import PATH_COLOURS
from rendering.heat_strip import heat_strip_html
from rendering.parts import Part, note
from rendering.text import escape_plotly
from rendering.view import ViewOptions, evidence_view

MAX_SIDE = 80  # tokens per side drawn in the heatmap


def _shown_reference(ex: BERTScoreExplanation, options: ViewOptions) -> int:
    if options.reference is not None and 0 <= options.reference < len(ex.references):
        return options.reference
    if ex.best_ref is not None:
        return ex.best_ref
    column = {"P": "precision", "R": "recall", "F": "f1"}[ex.reported]
    values = [getattr(m, column) for m in ex.references]
    return values.index(max(values))


def _labels(tokens: Sequence[Token]) -> list[str]:
    return [f"{k}:{escape_plotly(t.text)}" for k, t in enumerate(tokens)]


def similarity_figure(ex: BERTScoreExplanation, match: ReferenceMatch, limit: int = MAX_SIDE) -> tuple[go.Figure, str]:
    """Heatmap of cosine similarities (rows: candidate tokens, columns: reference tokens) with the greedy matches:
    ● each candidate token's best reference token (precision), ○ each reference token's best candidate token (recall)."""
    rows, cols = min(len(ex.hyp_tokens), limit), min(len(match.tokens), limit)
    cut = ""
    if rows < len(ex.hyp_tokens) or cols < len(match.tokens):
        cut = f"The matrix has {len(ex.hyp_tokens)} × {len(match.tokens)} tokens; the first {rows} × {cols} are drawn."
    y, x = _labels(ex.hyp_tokens)[:rows], _labels(match.tokens)[:cols]
    z = match.similarity[:rows, :cols]
    fig = go.Figure(
        go.Heatmap(
            z=z, x=x, y=y, colorscale="Greens", zmin=float(min(0.0, z.min())) if z.size else 0.0, zmax=1.0,
            colorbar={"title": "cos", "thickness": 10},
            hovertemplate="candidate %{y} · reference %{x}: %{z:.4f}<extra></extra>",
        )
    )  # fmt: skip
    precision = [(i, j) for i, j in enumerate(match.hyp_match) if i < rows and j < cols]
    recall = [(i, j) for j, i in enumerate(match.ref_match) if i < rows and j < cols]
    for pairs, name, symbol, colour in (
        (precision, "candidate token's best match (P)", "circle", PATH_COLOURS[0]),
        (recall, "reference token's best match (R)", "circle-open", PATH_COLOURS[1]),
    ):
        fig.add_trace(
            go.Scatter(
                x=[x[j] for _, j in pairs], y=[y[i] for i, _ in pairs], mode="markers", name=name,
                marker={"symbol": symbol, "size": 11 if symbol == "circle-open" else 7, "color": colour,
                        "line": {"width": 2, "color": colour}},
                hovertemplate="%{y} ↔ %{x}<extra></extra>",
            )
        )  # fmt: skip
    size = 20
    fig.update_xaxes(side="top", tickangle=-60, type="category")
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_layout(
        width=max(380, 160 + size * cols),
        height=max(300, 140 + size * rows),
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        legend={"orientation": "h", "y": -0.02, "yanchor": "top"},
    )
    return fig, cut


def _strip(tokens: Sequence[Token], best: Sequence[float], partner: Sequence[Token], match: Sequence[int],
           weights: Sequence[float]) -> str:  # fmt: skip
    titles = [
        f"{t.text}: best match {partner[j].text!r} cos {s:.4f}; weight {w:.4f}"
        for t, s, j, w in zip(tokens, best, match, weights, strict=True)
    ]
    return heat_strip_html([t.text for t in tokens], best, titles, low=0.0, high=1.0, ramp="good")


def _weights_table(tokens: Sequence[Token], weights: Sequence[float], best: Sequence[float],
                   partner: Sequence[Token], match: Sequence[int]) -> pd.DataFrame:  # fmt: skip
    total = sum(weights)
    rows = [
        {
            "token": t.text,
            "weight": w,
            "share": w / total if total else float("nan"),
            "best match": partner[j].text,
            "cosine": s,
            "contribution": (w / total) * s if total else float("nan"),
        }
        for t, w, s, j in zip(tokens, weights, best, match, strict=True)
    ]
    return pd.DataFrame(rows, columns=["token", "weight", "share", "best match", "cosine", "contribution"])


@evidence_view.register(BERTScoreExplanation)
def _bertscore(ex: BERTScoreExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    del hyp, refs
    k = _shown_reference(ex, options)
    match = ex.references[k]
    hyp_best, ref_best = match.hyp_best, match.ref_best
    fig, cut = similarity_figure(ex, match)
    weight = "idf" if ex.idf else "weight (1; 0 for [CLS]/[SEP])"
    scored = " (as scored)" if k == ex.best_ref else ""
    parts = [
        Part("html", _strip(ex.hyp_tokens, hyp_best, match.tokens, match.hyp_match, ex.hyp_weights),
             "Candidate tokens: best cosine similarity with a reference token (precision)"),
        Part("html", _strip(match.tokens, ref_best, ex.hyp_tokens, match.ref_match, match.weights),
             f"Reference {k + 1}{scored} tokens: best cosine similarity with a candidate token (recall)"),
        Part("html", counts_html([
            ("P", f"{match.precision:.4f}"), ("R", f"{match.recall:.4f}"), ("F", f"{match.f1:.4f}"),
            ("segment (max over references)", f"P {ex.precision:.4f} · R {ex.recall:.4f} · F {ex.f1:.4f}"),
        ])),
        Part("figure", fig, "Cosine similarity of every candidate × reference token; ● greedy match for P, ○ for R"),
        Part("table", _weights_table(ex.hyp_tokens, ex.hyp_weights, hyp_best, match.tokens, match.hyp_match),
             f"Candidate tokens: {weight}, share of the weight, best match (precision terms)", detail=True),
        Part("table", _weights_table(match.tokens, match.weights, ref_best, ex.hyp_tokens, match.ref_match),
             f"Reference {k + 1} tokens: {weight}, share of the weight, best match (recall terms)", detail=True),
    ]  # fmt: skip
    if cut:
        parts.append(note(cut))
    model = f"{ex.model}, layer {ex.layers}" + (f"; idf over {ex.idf_documents} reference sentences" if ex.idf else "")
    parts.append(note(f"Model: {model}."))
    return parts + [note(n) for n in ex.notes]
