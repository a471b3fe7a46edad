"""The COMET lesson (Rei et al., EMNLP 2020; COMET-22, WMT 2022), as unbabel-comet's regression estimator computes
it: each sentence encoded alone, its encoder layers mixed, its tokens averaged into one sentence embedding, the six
blocks of the feature vector, the feed-forward regressor, the score — every number read from the metric's
:class:`~metrics.families.comet.explanation.CometDerivation` of the typed triple, the path that scores it.

The unified estimators (CometKiwi, xCOMET) read one joint encoding of the output and its source; their lesson shows
what the model read, its score, and for xCOMET its error spans and the mix of its parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd

from metrics.core.base import Metric
from metrics.core.spans import Side
from metrics.families.comet.explanation import CometDerivation, CometExplanation, Estimator, PooledSentence
from rendering.edits_html import counts_html
from rendering.ngram_view import plain_html
from rendering.spans import origins, spans_html, spans_legend
from rendering.teach import Context, Lesson, Step, Table, lesson, num, tex
from rendering.text import escape_html, escape_markdown
from rendering.views.comet import ESTIMATOR_WORDS, mix

SHOWN = 24  # embedding values drawn per sentence (MiniLM has 384, XLM-R large 1024)

# What each block of the feature vector tells the regressor, by its name in ``CometDerivation.feature_names``.
BLOCK_MEANING = {
    "h": "the output's embedding itself",
    "r": "the reference's embedding itself",
    "h⊙r": "element-wise product with the reference: large where both agree in sign and size",
    "|h−r|": "element-wise distance to the reference: large where they differ",
    "h⊙s": "element-wise product with the source",
    "|h−s|": "element-wise distance to the source",
}

MISTAKES = (
    "A COMET score is not a percentage or a probability: 0.85 does not mean 85 % correct, and a score above 1 or "
    "below 0 is no error.",
    "Scores of two COMET models (COMET-22 and CometKiwi, or two versions) cannot be compared or averaged: each has "
    "its own range.",
    "The source is an input, not decoration: the same output and reference with another source score differently.",
)


@runtime_checkable
class Derives(Protocol):
    """A COMET metric that can replay its regression estimator on one triple, step by step."""

    def derive(self, hyp: str, source: str, reference: str) -> CometDerivation: ...


def vector_html(values: np.ndarray, limit: int = SHOWN) -> str:
    """The first ``limit`` values of a vector as cells, red for positive and blue for negative, as strong as the
    value is large against the largest shown; each value in its tooltip."""
    shown = np.asarray(values, dtype=np.float64)[:limit]
    top = float(np.max(np.abs(shown))) if shown.size else 0.0
    cells = []
    for k, value in enumerate(shown):
        share = 0.0 if top == 0 else abs(float(value)) / top
        r, g, b = (198, 40, 40) if value > 0 else (21, 101, 192)
        mix_ = [round(255 + (c - 255) * share) for c in (r, g, b)]
        cells.append(
            f'<span class="sl-vec" style="background:rgb({mix_[0]},{mix_[1]},{mix_[2]})" '
            f'title="[{k}] {float(value):.4f}"></span>'
        )
    more = f" … {len(values) - limit} more" if len(values) > limit else ""
    return f'<div class="sl-vecs">{"".join(cells)}<span class="sl-note">{more}</span></div>'


def _norm(values: np.ndarray) -> float:
    return float(np.linalg.norm(np.asarray(values, dtype=np.float64)))


def _first(values: np.ndarray, k: int = 4) -> str:
    return ", ".join(f"{float(v):.4f}" for v in np.asarray(values)[:k]) + (" …" if len(values) > k else "")


def _sentences_html(sentences: Sequence[PooledSentence]) -> str:
    rows = "".join(
        f'<div class="sl-card-title">{escape_html(s.role)} · {len(s.tokens)} word pieces · '
        f"‖·‖ = {_norm(s.embedding):.4f}</div>{vector_html(s.embedding)}"
        for s in sentences
    )
    return f"<div>{rows}</div>"


def blocks(derivation: CometDerivation) -> list[tuple[str, np.ndarray]]:
    """The feature vector cut into its named blocks (equal sizes, in ``feature_names`` order)."""
    parts = np.split(np.asarray(derivation.features), len(derivation.feature_names))
    return list(zip(derivation.feature_names, parts, strict=True))


def _block_table(derivation: CometDerivation) -> pd.DataFrame:
    rows = [
        {"block": name, "size": len(block), "norm": _norm(block), "first values": _first(block),
         "meaning": BLOCK_MEANING.get(name, "")}
        for name, block in blocks(derivation)
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["block", "size", "norm", "first values", "meaning"])


def _regression_steps(ex: CometExplanation, d: CometDerivation, numbers: dict[str, float]) -> list[Step]:
    by_role = {s.role: s for s in d.sentences}
    tokens = pd.DataFrame(
        [{"sentence": s.role, "word pieces": " ".join(t.text for t in s.tokens)} for s in d.sentences]
    )
    steps = [
        Step(
            "1. Three sentences, encoded one by one",
            f"{escape_markdown(ex.model)} cuts the output (h), the source (s) and the reference (r) into word pieces "
            "and runs each through the encoder on its own: unlike the unified models, COMET-22 never reads two "
            "sentences in one input."
            + (" One input was longer than the encoder reads and was cut." if ex.truncated else ""),
            tables=(Table("word pieces", tokens),),
        )
    ]
    if d.layer_weights:
        weights = pd.DataFrame({"layer": range(len(d.layer_weights)), "weight": d.layer_weights})
        steps.append(
            Step(
                "2. Mixing the encoder's layers",
                "Each word piece's vector is a learned mix of every layer's output (the embedding layer is layer 0): "
                "weights normalised as the checkpoint says (softmax, or sparsemax, which can give a layer 0), scaled "
                f"by γ = {num(d.gamma)}. The model learned which layers carry what it needs.",
                formulas=(r"e_t = \gamma \sum_{k} s_k \, e_t^{(k)}, \quad s = \mathrm{softmax}(w)",),
                tables=(Table("layer weights", weights),),
            )
        )
        numbers.update({f"layer {k} weight": float(w) for k, w in enumerate(d.layer_weights)})
        numbers["γ"] = float(d.gamma)
    else:
        steps.append(Step("2. One encoder layer", "This checkpoint reads one layer of the encoder: no mix."))
    steps.append(
        Step(
            "3. Pooling: one vector per sentence",
            "The mixed vectors of a sentence's word pieces become one sentence embedding: COMET-22 averages them "
            "(padding left out; a checkpoint may say max or the first token instead). Below, the first values of "
            "each (red positive, blue negative; hover for the number) and its length.",
            formulas=(r"h = \frac{1}{n} \sum_{t=1}^{n} e_t",),
            html=_sentences_html(d.sentences),
        )
    )
    numbers.update({f"‖{s.role}‖": _norm(s.embedding) for s in d.sentences})
    dim = len(by_role["hypothesis"].embedding) if "hypothesis" in by_role else 0
    steps.append(
        Step(
            "4. The feature vector",
            f"Six blocks of {dim} numbers each, side by side ({len(d.features)} in all): the two embeddings, and what "
            "compares the output with the reference and with the source element by element.",
            formulas=(r"x = [\,h;\; r;\; h \odot r;\; |h - r|;\; h \odot s;\; |h - s|\,]",),
            tables=(Table("blocks", _block_table(d)),),
        )
    )
    numbers.update({f"‖{name}‖": _norm(block) for name, block in blocks(d)})
    layer_rows = [
        {"layer": k + 1, "outputs": len(out), "norm": _norm(out), "first values": _first(out)}
        for k, out in enumerate(d.layers)
    ]
    steps.append(
        Step(
            "5. The feed-forward regressor",
            f"{len(d.layers)} layers, each a linear map followed by a non-linearity (none after the last), bring "
            f"the {len(d.features)} features down to one number: the score.",
            formulas=(rf"\hat{{y}} = W_{{{len(d.layers)}}}\, \ldots\, \sigma(W_1 x + b_1) \ldots = {tex(d.score)}",),
            tables=(Table("layers", pd.DataFrame(layer_rows)),),
        )
    )
    numbers.update({f"layer {k + 1} ‖out‖": _norm(out) for k, out in enumerate(d.layers)})
    numbers["regressor output"] = d.score
    return steps


def _unified_steps(ex: CometExplanation) -> list[Step]:
    lanes = origins(ex.spans)
    read = plain_html(ex.reference) if ex.reference is not None else '<div class="sl-note">no reference</div>'
    html = (
        spans_html(ex.source, ex.spans, side=Side.SOURCE, lanes=lanes)
        + spans_html(ex.hypothesis, ex.spans, lanes=lanes)
        + (spans_legend(lanes) if ex.estimator is Estimator.XCOMET else "")
        + read
    )
    steps = [
        Step(
            "1. What the model read",
            f"{escape_markdown(ex.model)}: {escape_markdown(ESTIMATOR_WORDS[ex.estimator])}. Its layers mix output "
            "and source (and reference) inside one encoding, so there are no separate sentence embeddings to show: "
            "the step-by-step derivation is COMET-22's (the regression estimator).",
            html=html,
        )
    ]
    if ex.parts:
        rows, total = mix(ex.parts)
        frame = pd.DataFrame(rows, columns=["part", "score (capped at 1)", "weight"])
        steps.append(
            Step(
                "2. Mixing the parts",
                "xCOMET scores the output against the source, the reference and both, caps each at 1, adds an "
                "MQM-like score of its own error spans (1 − min(25, minor + 5·major + 10·critical)/25) and "
                "weights them.",
                formulas=(rf"\sum_i w_i\, p_i = {tex(total)}",),
                tables=(Table("parts", frame),),
            )
        )
    return steps


def _combined(ex: CometExplanation, derived: float | None) -> str:
    """What the score adds to the regressor's output on the reference shown: the scores against the other
    references it combines (the metric's ``references`` rule), in its notes."""
    if derived is None or derived == ex.score:
        return ""
    return (
        f" The regressor gave {num(derived)} against the reference shown; the score combines several references: "
        + escape_markdown("; ".join(ex.notes))
        + "."
    )


@lesson.register(CometExplanation)
def comet_lesson(
    explanation: CometExplanation, metric: Metric[Any, Any], hyp: str, refs: Sequence[str], context: Context
) -> Lesson:
    ex = explanation
    numbers: dict[str, float] = {}
    if ex.estimator is Estimator.REGRESSION and ex.reference is not None and isinstance(metric, Derives):
        steps = _regression_steps(ex, metric.derive(ex.hypothesis, ex.source, ex.reference), numbers)
    else:
        steps = _unified_steps(ex)
    steps.append(
        Step(
            f"{len(steps) + 1}. The score",
            f"{escape_markdown(metric.name)} reports {num(ex.score)} for this output. It is the regressor's number, "
            "not a probability: compare it only with scores of the same model."
            + _combined(ex, numbers.get("regressor output")),
            html=counts_html([("score", f"{ex.score:.4f}"), ("model", ex.model)]),
        )
    )
    numbers[metric.name] = ex.score
    return Lesson(
        metric.name,
        ex.score,
        f"{ex.score:.4f}",
        tuple(steps),
        numbers,
        f"{metric.name} = {ex.score:.4f} ({ex.model})",
        MISTAKES,
        (f"Signature: {metric.signature()}", *ex.notes),
    )
