"""The MQM lesson: weights, rater sums, mean and sign from metrics.annotations.mqm, checked against WMT's rules
computed by hand (mt-metrics-eval's score_mqm weighting), and typed annotations read or refused line by line."""

from __future__ import annotations

import math

import pytest

from metrics.annotations.mqm import MqmWeights, segment_mqm
from rendering.lessons.mqm_scoring import EXAMPLE, mqm_lesson, parse


def test_example_numbers_follow_wmts_rules() -> None:
    lesson = mqm_lesson(EXAMPLE.target, EXAMPLE.annotations)
    # rater1: major 5 + minor 1 + minor punctuation 0.1; rater2: major (unlocated omission) 5 + minor 1; rater3: none.
    assert [lesson.numbers[f"weight, line {k}"] for k in range(1, 6)] == [5.0, 1.0, 0.1, 5.0, 1.0]
    assert math.isclose(lesson.numbers["sum of rater1"], 6.1)
    assert lesson.numbers["sum of rater2"] == 6.0
    assert lesson.numbers["sum of rater3"] == 0.0
    assert math.isclose(lesson.score, -(6.1 + 6.0 + 0.0) / 3, rel_tol=1e-12)
    assert lesson.score == segment_mqm(parse(EXAMPLE.target, EXAMPLE.annotations))
    assert lesson.steps[1].tables[0].frame["errors"].tolist() == [3, 2, 0]


def test_exceptions_and_edited_weights() -> None:
    text = "a | major | Non-translation! |\na | critical | Accuracy |\nb | minor | fluency/punctuation/quotes | x"
    lesson = mqm_lesson("x y", text)
    assert lesson.numbers["sum of a"] == 25 + 10
    assert lesson.numbers["sum of b"] == 0.1
    assert math.isclose(lesson.score, -(35 + 0.1) / 2)
    edited = mqm_lesson("x y", text, MqmWeights(non_translation=30, minor_punctuation=1))
    assert math.isclose(edited.score, -(40 + 1) / 2)
    rules = lesson.steps[0].tables[0].frame["rule"].tolist()
    assert rules == ["non-translation", "critical", "minor punctuation"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("r | awful | Accuracy | x", "severity 'awful'"),
        ("r | minor | Accuracy | zzz", "'zzz' is not in the output"),
        ("| minor | Accuracy | x", "name the rater"),
        ("r | minor", "expected rater"),
        ("", "at least one rater"),
    ],
)
def test_bad_lines_are_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        mqm_lesson("x y", text)


def test_user_text_is_escaped() -> None:
    lesson = mqm_lesson("<b>bold</b> x", "<i>r</i> | minor | <b>Acc</b> | <b>bold</b>")
    assert "<b>bold</b>" not in lesson.steps[0].html and "&lt;b&gt;bold" in lesson.steps[0].html
    assert r"\text{<i>r</i>}" in lesson.steps[1].formulas[0]  # KaTeX shows \text literally, never as HTML
