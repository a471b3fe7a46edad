"""The COMET view and lesson on hand-made explanations and derivations (no torch): the triple the model read, the
score and xCOMET's mix of parts, the spans on the right text, the lesson's numbers read from the derivation.
With a real checkpoint: tests/unit/rendering/test_comet_lesson_neural.py."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.core.spans import ErrorSpan, Severity, Side
from metrics.core.tokens import Token
from metrics.families.comet.explanation import (
    XCOMET_WEIGHTS,
    CometDerivation,
    CometExplanation,
    Estimator,
    PooledSentence,
)
from rendering import cards
from rendering.evidence import explanation_parts, has_view
from rendering.lessons.comet import BLOCK_MEANING, blocks, comet_lesson
from rendering.teach import Context, lesson_for
from rendering.views.comet import mix

SOURCE = "Der Hund <b>bellt</b>."
OUTPUT = "The dog <script>barks</script> 😀."
REFERENCE = "The dog barks."


def explanation(estimator: Estimator, **fields: object) -> CometExplanation:
    values: dict[str, object] = {
        "score": 0.8125,
        "row": (0.8125,),
        "model": "wmt22-comet-da",
        "estimator": estimator,
        "hypothesis": OUTPUT,
        "source": SOURCE,
        "reference": REFERENCE,
    }
    values.update(fields)
    return CometExplanation(**values)  # type: ignore[arg-type]


def html_of(parts: list) -> str:  # type: ignore[type-arg]
    return "".join(p.payload for p in parts if p.kind == "html")


def notes_of(parts: list) -> list[str]:  # type: ignore[type-arg]
    return [p.payload for p in parts if p.kind == "note"]


def test_the_view_is_registered_by_type() -> None:
    assert has_view(CometExplanation)
    assert lesson_for(CometExplanation) is comet_lesson


def test_the_regression_view_shows_the_triple_escaped() -> None:
    parts = explanation_parts(explanation(Estimator.REGRESSION), OUTPUT, [REFERENCE])
    drawn = html_of(parts)
    assert "&lt;script&gt;barks&lt;/script&gt; 😀." in drawn and "<script>" not in drawn
    assert "Der Hund &lt;b&gt;bellt&lt;/b&gt;." in drawn and "The dog barks." in drawn
    assert [p.title for p in parts if p.kind == "html"][:3] == [
        "Source the model read",
        "Output the model read",
        "Reference the model read",
    ]
    assert "<b>score</b> 0.8125" in drawn and "error spans" not in drawn and "sl-legend" not in drawn
    assert any(n.startswith("Model: wmt22-comet-da (regression estimator") for n in notes_of(parts))


def test_a_reference_free_model_says_so() -> None:
    parts = explanation_parts(explanation(Estimator.UNIFIED, reference=None), OUTPUT, [])
    assert "Reference-free: the model read no reference for this score." in notes_of(parts)
    assert "Reference the model read" not in [p.title for p in parts]


def test_truncation_is_said() -> None:
    parts = explanation_parts(explanation(Estimator.REGRESSION, truncated=True), OUTPUT, [REFERENCE])
    assert any("cut" in n for n in notes_of(parts))


def test_xcomet_shows_its_spans_and_the_mix_of_its_parts() -> None:
    start = OUTPUT.index("<script>")
    spans = (
        ErrorSpan(start, start + 8, "<script>", Severity.MAJOR, origin="xCOMET", confidence=0.75),
        ErrorSpan(4, 8, "Hund", Severity.MINOR, side=Side.SOURCE, origin="xCOMET", confidence=0.5),
    )
    parts_ = (("src", 0.5), ("ref", 1.25), ("unified", 0.75), ("mqm", 0.8))
    expected = 0.5 * 0.12 + 1.0 * 0.33 + 0.75 * 0.33 + 0.8 * 0.22  # ref capped at 1
    ex = explanation(Estimator.XCOMET, spans=spans, parts=parts_, score=expected)
    parts = explanation_parts(ex, OUTPUT, [REFERENCE])
    drawn = html_of(parts)
    assert 'title="xCOMET: major · confidence 0.750">&lt;script&gt;</span>' in drawn
    source_html = parts[0].payload
    assert 'title="xCOMET: minor · confidence 0.500">Hund</span>' in source_html  # on the source, not the output
    assert "<b>ref</b> 1.0000 × 0.33" in drawn and "<b>capped at 1</b> ref" in drawn
    assert f"<b>Σ</b> {expected:.4f}" in drawn and "<b>error spans</b> 2" in drawn and "sl-legend" in drawn


def test_xcomet_without_reference_gives_src_the_three_regression_weights() -> None:
    rows, total = mix((("src", 0.5), ("mqm", 0.8)))
    weights = dict(XCOMET_WEIGHTS)
    assert rows == [("src", 0.5, weights["src"] + weights["ref"] + weights["unified"]), ("mqm", 0.8, 0.22)]
    assert total == pytest.approx(0.5 * 0.78 + 0.8 * 0.22, abs=1e-12)


def test_xcomet_with_no_span_says_so() -> None:
    parts = explanation_parts(explanation(Estimator.XCOMET, parts=(("src", 0.9), ("mqm", 1.0))), OUTPUT, [])
    assert "The model marked no error in this output." in notes_of(parts)


# ------------------------------------------------------------------------------------------------ the lesson


def derivation() -> CometDerivation:
    rng = np.random.default_rng(7)
    h, s, r = (rng.normal(size=8).astype(np.float32) for _ in range(3))
    features = np.concatenate([h, r, h * r, np.abs(h - r), h * s, np.abs(h - s)])
    hidden = np.tanh(rng.normal(size=(5, 48)) @ features)
    sentences = tuple(
        PooledSentence(role, text, (Token(text.split()[0], 0, len(text.split()[0])),), vector)
        for role, text, vector in (("hypothesis", OUTPUT, h), ("source", SOURCE, s), ("reference", REFERENCE, r))
    )
    return CometDerivation(
        sentences=sentences,
        layer_weights=(0.1, 0.2, 0.3, 0.4),
        gamma=1.5,
        feature_names=("h", "r", "h⊙r", "|h−r|", "h⊙s", "|h−s|"),
        features=features,
        layers=(hidden, np.array([0.8125])),
        score=0.8125,
    )


class StandIn:
    """What the lesson asks of a COMET metric: its name, signature and derivation."""

    name = "COMET"

    def __init__(self, derived: CometDerivation) -> None:
        self.derived = derived
        self.asked: list[tuple[str, str, str]] = []

    def signature(self) -> str:
        return "comet|model:test"

    def derive(self, hyp: str, source: str, reference: str) -> CometDerivation:
        self.asked.append((hyp, source, reference))
        return self.derived


def test_the_regression_lesson_reads_the_derivation() -> None:
    d = derivation()
    metric = StandIn(d)
    lesson = comet_lesson(explanation(Estimator.REGRESSION), metric, OUTPUT, [REFERENCE], Context())  # type: ignore[arg-type]
    assert metric.asked == [(OUTPUT, SOURCE, REFERENCE)]
    assert lesson.score == 0.8125 and lesson.numbers["COMET"] == 0.8125 and lesson.numbers["regressor output"] == 0.8125
    h = d.sentences[0].embedding.astype(np.float64)
    assert lesson.numbers["‖hypothesis‖"] == pytest.approx(float(np.linalg.norm(h)), abs=1e-12)
    named = dict(blocks(d))
    assert np.array_equal(named["|h−s|"], np.abs(d.sentences[0].embedding - d.sentences[1].embedding))
    assert lesson.numbers["‖h⊙r‖"] == pytest.approx(float(np.linalg.norm(named["h⊙r"].astype(np.float64))))
    assert [lesson.numbers[f"layer {k} weight"] for k in range(4)] == [0.1, 0.2, 0.3, 0.4]
    assert lesson.numbers["γ"] == 1.5
    frame = next(t.frame for step in lesson.steps for t in step.tables if t.label == "blocks")
    assert list(frame["block"]) == list(BLOCK_MEANING) and list(frame["size"]) == [8] * 6
    layers = next(t.frame for step in lesson.steps for t in step.tables if t.label == "layers")
    assert list(layers["outputs"]) == [5, 1]
    assert "0.8125" in lesson.steps[4].formulas[0]
    assert "What COMET rewards" not in lesson.steps[-1].title  # the limitations card follows the lesson
    assert "not a probability" in (cards.card("comet") or "") and cards.card("cometkiwi") == cards.card("comet")
    assert "<script>" not in "".join(step.html for step in lesson.steps)


def test_the_unified_lesson_shows_what_the_model_read() -> None:
    ex = explanation(Estimator.XCOMET, reference=None, parts=(("src", 0.5), ("mqm", 0.8)), score=0.566)
    lesson = comet_lesson(ex, StandIn(derivation()), OUTPUT, [], Context())  # type: ignore[arg-type]
    assert [s.title for s in lesson.steps][:2] == ["1. What the model read", "2. Mixing the parts"]
    assert "no reference" in lesson.steps[0].html and "&lt;script&gt;" in lesson.steps[0].html
    assert lesson.numbers == {"COMET": 0.566}
