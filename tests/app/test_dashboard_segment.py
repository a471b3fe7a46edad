"""Segment view: every system side by side with the evidence of the chosen metric, drawn from the metric's
explanation; navigation; hostile text stays literal in every evidence view."""

from __future__ import annotations

import pytest

from metrics.core.registry import create
from tests.support.ui import (
    IMG,
    LINK,
    MATH,
    SCRIPT,
    app,
    assert_escaped_markdown,
    assert_safe_html,
    hostile_dataset,
    html_bodies,
    installed_views,
    markdown_bodies,
    plotly_specs,
    shown,
    small_dataset,
)

VIEWS = installed_views()


def test_side_by_side_cards_with_bleu_evidence():
    data = small_dataset()
    at = app("pages/segment.py", data, ["bleu", "chrf"], segment=1).run()
    assert not at.exception, at.exception
    scores = at.dataframe[0].value
    bleu = create("bleu")
    for name, hyps in data.systems.items():
        expected = bleu.sentence_score(hyps[1], [data.refs[0][1]])
        assert scores.loc[name, "BLEU"] == pytest.approx(expected, rel=1e-9)
    cards = [shown(m.value) for m in at.markdown if " — BLEU " in shown(m.value)]
    assert [c.split(" — ")[0].strip("*") for c in cards] == ["alpha", "beta", "gamma"]
    texts = [assert_safe_html(body) for body in html_bodies(at)]
    assert any(t.endswith("a dog ran in a park .") for t in texts)  # alpha's output, highlighted
    assert sum("1-gram precision" in t for t in texts) == 3


def test_order_choice_and_navigation():
    at = app("pages/segment.py", small_dataset(), ["bleu"]).run()
    at.radio(key="seg_order:bleu").set_value("2-grams").run()
    assert sum("2-gram precision" in assert_safe_html(b) for b in html_bodies(at)) == 3
    box = at.number_input(key="segment_box:0")
    assert box.value == 1 and box.max == 4
    box.increment().run()
    assert at.session_state["segment"] == 1 and at.number_input(key="segment_box:0").value == 2
    at.number_input(key="segment_box:0").set_value(4).run()  # the box's own key stays: it counts on from there
    assert [n.key for n in at.number_input if n.key.startswith("segment_box")] == ["segment_box:0"]
    assert at.session_state["segment"] == 3
    at.number_input(key="segment_box:0").decrement().run()
    assert at.session_state["segment"] == 2


def test_a_segment_chosen_elsewhere_redraws_the_box():
    """A segment chosen by code (a row opened in the Explorer, a workspace) gives the box a new key, drawn from it;
    the browser's copy of the old box can then no longer send the view back."""
    at = app("pages/segment.py", small_dataset(), ["bleu"]).run()
    at.number_input(key="segment_box:0").increment().run()
    at.session_state["segment"] = 3
    at.session_state["segment_moves"] = 1
    at.run()
    assert [(n.key, n.value) for n in at.number_input if n.key.startswith("segment_box")] == [("segment_box:1", 4)]


def test_reference_choice_switches_the_per_reference_evidence():
    data = hostile_dataset()
    at = app("pages/segment.py", data, ["ter"]).run()
    at.selectbox(key="seg_ref").set_value(2).run()
    titles = [shown(c.value) for c in at.caption]
    assert "Against reference 2" in titles


@pytest.mark.parametrize("metric_id", VIEWS)
def test_every_evidence_view_shows_hostile_text_literally(metric_id):
    at = app("pages/segment.py", hostile_dataset(), [metric_id], seg_metric=metric_id).run()
    assert not at.exception, at.exception
    bodies = html_bodies(at)
    texts = [assert_safe_html(body) for body in bodies]
    everything = " ".join(texts)
    for payload in (SCRIPT, IMG, LINK, MATH):  # at least the source/reference/hypothesis panels keep them whole
        assert payload in everything
    for body in markdown_bodies(at):
        assert_escaped_markdown(body)
    for spec in plotly_specs(at):
        assert "<script" not in spec and "\\u003cscript" not in spec and "\\u003cimg" not in spec
    assert not any("could not be drawn" in shown(c.value) for c in at.caption)


def _blocks_inside_columns(at, kind: str) -> int:
    """How many elements of ``kind`` (``dataframe``, ``html``…) the page draws inside its layout columns."""
    return sum(len(column.get(kind)) for column in at.columns)


def test_wide_evidence_takes_a_full_row_and_one_column_keeps_everything_in_the_card():
    """METEOR's alignment drawing and its matches table, at three columns, sit in full-width blocks after the row
    of cards (at a third of a 1400 px window they were cut off after 4 of 17 tokens); the counts stay in the cards.
    """
    at = app("pages/segment.py", small_dataset(), ["meteor"], seg_metric="meteor", seg_cols=3).run()
    assert not at.exception, at.exception
    drawings = [b for b in html_bodies(at) if "word alignment" in b]
    assert len(drawings) == 3 and not any("word alignment" in b.proto.body for c in at.columns for b in c.get("html"))
    assert sum("Fmean" in b.proto.body for c in at.columns for b in c.get("html")) == 3  # counts stay in the cards
    assert _blocks_inside_columns(at, "dataframe") == 0
    continued = [shown(m.value) for m in at.markdown if "continued" in shown(m.value)]
    assert [c.split(" — ")[0].strip("*") for c in continued] == ["alpha", "beta", "gamma"]
    at.number_input(key="seg_cols").set_value(1).run()
    assert sum("word alignment" in b.proto.body for c in at.columns for b in c.get("html")) == 3
    assert _blocks_inside_columns(at, "dataframe") == 3  # each card's table of matches
    assert not [m for m in at.markdown if "continued" in shown(m.value)]


def test_a_perfect_short_output_scores_100_under_the_segment_signature():
    at = app("pages/segment.py", small_dataset(), ["bleu"], segment=2).run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value.loc["alpha", "BLEU"] == pytest.approx(100.0, rel=1e-9)  # "hello world" = its ref
    captions = [shown(c.value) for c in at.caption]
    assert any(c.startswith("Signature of the segment scores: nrefs:1|case:mixed|eff:yes|") for c in captions)
