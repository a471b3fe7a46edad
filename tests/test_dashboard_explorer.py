"""Sentence explorer: per-sentence scores of every system and metric; filters by text, length, score range and
the difference between two systems; sorting; choosing a row opens the segment view."""

from __future__ import annotations

import numpy as np
import pytest
from dashboard_support import (
    SCRIPT,
    app,
    assert_escaped_markdown,
    hostile_dataset,
    markdown_bodies,
    small_dataset,
)
from sacrebleu.metrics import BLEU

SCORE_COLUMNS = ["alpha · BLEU", "beta · BLEU", "gamma · BLEU", "alpha · chrF2", "beta · chrF2", "gamma · chrF2"]


@pytest.fixture
def explorer():
    at = app("app.py", small_dataset(), ["bleu", "chrf"]).run()
    at.switch_page("pages/2_Explorer.py").run()
    assert not at.exception, at.exception
    return at


def table(at):
    return at.dataframe[0].value


def test_every_system_and_metric_has_a_column_with_sentence_scores(explorer):
    frame = table(explorer)
    assert [c for c in frame.columns if "·" in c] == SCORE_COLUMNS
    data = small_dataset()
    expected = [
        BLEU(effective_order=True).sentence_score(h, [r]).score
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
    assert explorer.number_input(key=f"segment_box:{first_row_segment - 1}").value == first_row_segment


def test_number_fallback_opens_the_segment_view(explorer):
    explorer.number_input(key="ex_goto").set_value(3).run()
    explorer.button(key="ex_open").click().run()
    assert [t.value for t in explorer.title] == ["Segment view"]
    assert explorer.session_state["segment"] == 2


def test_explorer_escapes_hostile_text():
    at = app("pages/2_Explorer.py", hostile_dataset(), ["bleu"]).run()
    assert not at.exception
    for body in markdown_bodies(at):
        assert_escaped_markdown(body)
    assert f"{SCRIPT} · BLEU" in table(at).columns
