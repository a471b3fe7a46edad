"""The COMET lesson and view on seeded checkpoints (tests/support/comet_checkpoints.py, built from the packaged
MiniLM): the lesson's numbers are the metric's for the same triple, the feature blocks are what their names say,
and xCOMET's spans and mix on the view add up to its score."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from metrics.core.registry import create
from metrics.core.spans import Side
from rendering import lessons
from rendering.evidence import explanation_parts
from rendering.lessons.comet import blocks
from rendering.views.comet import mix
from tests.support.comet_checkpoints import BY_NAME, build

pytestmark = pytest.mark.neural
torch = pytest.importorskip("torch")

SOURCE = "Die Katze <b>sitzt</b> auf der Matte, 😀 café."
OUTPUT = "The cat <script>sits</script> on the the mat mat, 😀 café."
REFERENCE = "The cat is sitting on the mat, 😀 café."


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("comet")
    return {name: build(BY_NAME[name], root / name) for name in ("regression", "xcomet")}


def test_the_lesson_numbers_are_the_metrics_for_the_same_triple(folders: dict[str, Path]) -> None:
    metric = create("comet", {"model": str(folders["regression"])})
    row = float(metric.source_stats([OUTPUT], [SOURCE], [[REFERENCE]]).rows[0, 0])
    lesson = lessons.build_lesson(metric, OUTPUT, [REFERENCE], source=SOURCE)
    assert lesson.score == metric.explain_source(OUTPUT, SOURCE, [REFERENCE]).score
    assert lesson.numbers["COMET"] == lesson.score
    assert lesson.numbers["regressor output"] == pytest.approx(row, abs=1e-6)
    assert lesson.score == pytest.approx(row, abs=1e-6)
    derivation = metric.derive(OUTPUT, SOURCE, REFERENCE)
    h, s, r = (sentence.embedding for sentence in derivation.sentences)
    named = dict(blocks(derivation))
    assert np.array_equal(named["h"], h) and np.array_equal(named["r"], r)
    assert np.allclose(named["h⊙r"], h * r, atol=0) and np.allclose(named["|h−s|"], np.abs(h - s), atol=0)
    assert lesson.numbers["‖hypothesis‖"] == pytest.approx(float(np.linalg.norm(h.astype(np.float64))), abs=1e-9)
    assert lesson.numbers["‖|h−r|‖"] == pytest.approx(float(np.linalg.norm(np.abs(h - r).astype(np.float64))))
    weights = [lesson.numbers[f"layer {k} weight"] for k in range(len(derivation.layer_weights))]
    assert weights == list(derivation.layer_weights) and sum(weights) == pytest.approx(1.0, abs=1e-6)
    layers = next(t.frame for step in lesson.steps for t in step.tables if t.label == "layers")
    assert list(layers["outputs"]) == [64, 32, 1]  # the seeded regressor's hidden sizes, then the score
    for step in lesson.steps:  # user text only escaped: Markdown, formulas, HTML
        assert not re.search(r"(?<!\\)[<$\[]", step.text), step.text
        assert all("script" not in formula for formula in step.formulas)
        bare = re.sub(r"</?(span|div|b)\b[^>]*>", "", step.html)
        assert "<" not in bare


def test_the_xcomet_view_draws_the_models_spans_and_its_mix(folders: dict[str, Path]) -> None:
    metric = create("comet", {"model": str(folders["xcomet"])})
    explanation = metric.explain_source(OUTPUT, SOURCE, [REFERENCE])
    assert explanation.spans, "the seeded tagger marks some word pieces"
    for span in explanation.spans:
        assert span.side is Side.TARGET and span.text == OUTPUT[span.start : span.end]
    _, total = mix(explanation.parts)
    assert total == pytest.approx(explanation.score, abs=1e-6)
    parts = explanation_parts(explanation, OUTPUT, [REFERENCE])
    output = next(p.payload for p in parts if p.title.startswith("Output the model read"))
    assert output.count('class="sl-err"') >= len(explanation.spans) and "<script>" not in output
    table = next(p.payload for p in parts if p.kind == "table")
    assert list(table["text"]) == [s.text for s in explanation.spans]
    assert list(table["model's text"]) == list(explanation.span_texts)
    lesson = lessons.build_lesson(metric, OUTPUT, [REFERENCE], source=SOURCE)
    assert lesson.score == explanation.score and lesson.steps[0].title == "1. What the model read"


def test_a_lesson_without_a_source_says_what_is_missing(folders: dict[str, Path]) -> None:
    metric = create("comet", {"model": str(folders["regression"])})
    with pytest.raises(ValueError, match="COMET needs the source"):
        lessons.build_lesson(metric, OUTPUT, [REFERENCE], source="  ")


def test_a_score_over_several_references_says_what_it_combines(folders: dict[str, Path]) -> None:
    metric = create("comet", {"model": str(folders["regression"]), "references": "mean"})
    other = "A cat sat on a mat."
    lesson = lessons.build_lesson(metric, OUTPUT, [REFERENCE, other], source=SOURCE)
    each = [metric.derive(OUTPUT, SOURCE, r).score for r in (REFERENCE, other)]
    assert lesson.score == pytest.approx(sum(each) / 2, abs=1e-6)
    assert lesson.numbers["regressor output"] == each[0]  # the reference shown: the first, under "mean"
    assert "the score combines several references" in lesson.steps[5].text
