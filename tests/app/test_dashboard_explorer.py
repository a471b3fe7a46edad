"""Sentence explorer: per-sentence scores of every system and metric; filters by text, length, score range and
the difference between two systems; sorting; choosing a row opens the segment view."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from sacrebleu import sentence_bleu

from rendering.comparison import difference_spans
from tests.support.ui import (
    SCRIPT,
    app,
    assert_escaped_markdown,
    assert_safe_html,
    hostile_dataset,
    html_bodies,
    markdown_bodies,
    parse_html,
    small_dataset,
)

PAIR = '<div class="sl-pair">'
SCORE_COLUMNS = ["alpha · BLEU", "beta · BLEU", "gamma · BLEU", "alpha · chrF2", "beta · chrF2", "gamma · chrF2"]


@pytest.fixture
def explorer():
    at = app("app.py", small_dataset(), ["bleu", "chrf"]).run()
    at.switch_page("pages/explorer.py").run()
    assert not at.exception, at.exception
    return at


def table(at):
    return at.dataframe[0].value


def test_every_system_and_metric_has_a_column_with_sentence_scores(explorer):
    frame = table(explorer)
    lead = ["alpha − beta · BLEU", "alpha · BLEU", "beta · BLEU", "alpha output", "beta output"]
    assert list(frame.columns[:5]) == lead  # the two compared systems first
    assert sorted(c for c in frame.columns if "·" in c and "−" not in c) == sorted(SCORE_COLUMNS)
    np.testing.assert_allclose(frame["alpha − beta · BLEU"], frame["alpha · BLEU"] - frame["beta · BLEU"])
    assert list(frame["beta output"]) == list(small_dataset().systems["beta"])
    data = small_dataset()
    expected = [
        sentence_bleu(h, [r]).score  # the app's segment BLEU is sacrebleu.sentence_bleu's (effective order on)
        for h, r in zip(data.systems["beta"], data.refs[0], strict=True)
    ]
    np.testing.assert_allclose(frame["beta · BLEU"], expected, rtol=1e-9)
    assert list(frame["ref words"]) == [7, 8, 2, 8]
    assert list(frame.index) == [1, 2, 3, 4]


def test_text_and_length_filters(explorer):
    explorer.text_input(key="ex_text").set_value("DOG").run()
    assert list(table(explorer).index) == [2]
    explorer.text_input(key="ex_text").set_value("").run()
    explorer.slider(key="ex_len").set_value((7, 8)).run()
    assert list(table(explorer).index) == [1, 2, 4]


def test_score_range_filter(explorer):
    explorer.selectbox(key="ex_score_sys").set_value("gamma").run()
    explorer.selectbox(key="ex_score_metric").set_value("chrf").run()
    column = table(explorer)["gamma · chrF2"]
    cut = float(column.median())
    explorer.slider(key="ex_score_range:gamma · chrF2").set_value((cut, float(column.max()))).run()
    kept = table(explorer)["gamma · chrF2"]
    assert len(kept) < len(column) and (kept >= cut).all()


def test_difference_filter_and_sort(explorer):
    explorer.selectbox(key="ex_diff_a").set_value("alpha").run()
    explorer.selectbox(key="ex_diff_b").set_value("gamma").run()
    explorer.selectbox(key="ex_diff_metric").set_value("bleu").run()
    name = "alpha − gamma · BLEU"
    frame = table(explorer)
    assert list(frame.columns[:5]) == [name, "alpha · BLEU", "gamma · BLEU", "alpha output", "gamma output"]
    np.testing.assert_allclose(frame[name], frame["alpha · BLEU"] - frame["gamma · BLEU"])
    explorer.slider(key=f"ex_diff_range:{name}").set_value((50.0, float(frame[name].max()))).run()
    assert (table(explorer)[name] >= 50.0).all() and len(table(explorer)) < len(frame)
    explorer.slider(key=f"ex_diff_range:{name}").set_value((float(frame[name].min()), float(frame[name].max()))).run()
    explorer.selectbox(key="ex_sort").set_value(name).run()
    explorer.toggle(key="ex_desc").set_value(True).run()
    values = list(table(explorer)[name])
    assert values == sorted(values, reverse=True)


def test_choosing_a_row_opens_the_segment_view(explorer):
    explorer.selectbox(key="ex_sort").set_value("alpha · BLEU").run()
    first_row_segment = int(table(explorer).index[0])
    explorer.session_state["explorer_table"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    explorer.run()
    assert [t.value for t in explorer.title] == ["Segment view"]
    assert explorer.session_state["segment"] == first_row_segment - 1
    (box,) = [n for n in explorer.number_input if n.key.startswith("segment_box:")]
    assert box.value == first_row_segment


def test_number_fallback_opens_the_segment_view(explorer):
    explorer.number_input(key="ex_goto").set_value(3).run()
    explorer.button(key="ex_open").click().run()
    assert [t.value for t in explorer.title] == ["Segment view"]
    assert explorer.session_state["segment"] == 2


def test_explorer_escapes_hostile_text():
    at = app("pages/explorer.py", hostile_dataset(), ["bleu"]).run()
    assert not at.exception
    for body in markdown_bodies(at):
        assert_escaped_markdown(body)
    assert f"{SCRIPT} · BLEU" in table(at).columns
    bodies = [b for b in html_bodies(at) if b.startswith(PAIR)]
    assert bodies and all(SCRIPT in assert_safe_html(body) for body in bodies)  # shown as text, never as markup


def _marked(body: str, css_class: str) -> list[str]:
    """The texts of the spans of ``css_class`` in an HTML body."""
    spans = re.findall(rf'<span class="{css_class}"[^>]*>([^<]*)</span>', body)
    return [html.unescape(span) for span in spans]


def test_the_two_systems_side_by_side_with_their_differences_highlighted(explorer):
    """Every row of the comparison: A − B and both scores first, then each output with what the other lacks
    highlighted (whole runs of words, on the original text), and the reference."""
    bodies = [b for b in html_bodies(explorer) if b.startswith(PAIR)]
    assert len(bodies) == 4
    frame = table(explorer)
    first = bodies[0]
    _, text = parse_html(first)
    delta = frame.loc[1, "alpha − beta · BLEU"]
    assert text.startswith(f"A − B {delta:+.4f}A BLEU {frame.loc[1, 'alpha · BLEU']:.4f}")
    # alpha "the cat sat on the mat ." vs beta "a cat sat on a mat": each side's own words, run by run
    assert _marked(first, "sl-only-a") == ["the", "the", "."]
    assert _marked(first, "sl-only-b") == ["a", "a"]
    fourth = bodies[3]  # "he read a book and left ." vs "quickly he read the book ."
    assert _marked(fourth, "sl-only-a") == ["a", "and left"]
    assert _marked(fourth, "sl-only-b") == ["quickly", "the"]


def test_the_comparison_follows_the_sort_and_a_row_button_opens_the_segment(explorer):
    explorer.selectbox(key="ex_sort").set_value("alpha − beta · BLEU").run()
    order = [int(i) for i in table(explorer).index]
    buttons = [b for b in explorer.button if b.key.startswith("ex_row:")]
    assert [b.label for b in buttons] == [f"#{i}" for i in order]
    buttons[1].click().run()
    assert [t.value for t in explorer.title] == ["Segment view"]
    assert explorer.session_state["segment"] == order[1] - 1


def test_difference_spans_of_words_and_of_characters():
    a_spans, b_spans = difference_spans("the  big cat", "the cat", "words")
    assert [(s.start, s.end) for s in a_spans] == [(5, 8)] and b_spans == []
    a_spans, b_spans = difference_spans("我爱猫", "我喜欢猫", "characters")
    assert [(s.start, s.end) for s in a_spans] == [(1, 2)] and [(s.start, s.end) for s in b_spans] == [(1, 3)]
    assert difference_spans("same text", "same text") == ([], [])


def test_choices_survive_a_visit_to_the_segment_view(explorer):
    """Streamlit drops the state of widgets a run does not draw; the Explorer's and Analysis's choices come back."""
    explorer.selectbox(key="ex_diff_a").set_value("gamma").run()
    explorer.text_input(key="ex_text").set_value("the").run()
    explorer.selectbox(key="ex_sort").set_value("gamma · chrF2").run()
    explorer.toggle(key="ex_desc").set_value(True).run()
    explorer.switch_page("pages/analysis.py").run()
    explorer.selectbox(key="an_by").set_value("length-diff").run()
    explorer.switch_page("pages/segment.py").run()
    assert "ex_sort" not in explorer.session_state and "an_by" not in explorer.session_state  # forgotten widgets
    explorer.switch_page("pages/explorer.py").run()
    assert not explorer.exception, explorer.exception
    assert explorer.selectbox(key="ex_diff_a").value == "gamma" and explorer.text_input(key="ex_text").value == "the"
    assert explorer.selectbox(key="ex_sort").value == "gamma · chrF2" and explorer.toggle(key="ex_desc").value
    assert list(table(explorer).columns[:2]) == ["gamma − beta · BLEU", "gamma · BLEU"]
    explorer.switch_page("pages/analysis.py").run()
    assert explorer.selectbox(key="an_by").value == "length-diff"


def test_choices_are_forgotten_when_other_references_are_loaded(explorer):
    """Kept choices belong to the data they were made on: an example with other references starts afresh."""
    explorer.text_input(key="ex_text").set_value("the").run()
    explorer.toggle(key="ex_desc").set_value(True).run()
    explorer.switch_page("pages/data.py").run()
    explorer.button(key="load_sample").click().run()
    explorer.switch_page("pages/explorer.py").run()
    assert not explorer.exception, explorer.exception
    assert explorer.text_input(key="ex_text").value == "" and not explorer.toggle(key="ex_desc").value


def test_sorting_by_sentence_bleu_puts_a_perfect_two_word_output_first(explorer):
    """alpha's "hello world" equals its reference: sentence BLEU 100 (effective order, as sacrebleu.sentence_bleu),
    not 0 (it has no 3- or 4-gram), tied first with alpha's other exact output; the signatures shown are those of
    the segment scores."""
    explorer.selectbox(key="ex_sort").set_value("alpha · BLEU").run()
    explorer.toggle(key="ex_desc").set_value(True).run()
    frame = table(explorer)
    assert sorted(frame.index[:2]) == [1, 3] and frame.loc[3, "alpha output"] == "hello world"
    assert frame.loc[3, "alpha · BLEU"] == pytest.approx(100.0, rel=1e-9)
    (expander,) = [e for e in explorer.expander if e.label == "Signatures of the segment scores"]
    assert any("|eff:yes|" in c.value for c in expander.code)
