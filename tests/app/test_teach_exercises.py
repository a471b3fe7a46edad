"""The Teach page's exercise mode and exercise sets, driven through AppTest: a step waits for the prediction, the
verdict names the mistake, a set opens from a link (the set itself in the query) and refuses a bad one, naming why."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.teach_sets import SetItem, TeachSet, to_link
from tests.app.test_teach_page import PAGE, need, page, plain, type_pair

PAPINENI = ("the the the the the the the", ["the cat is on the mat", "there is a cat on the mat"])


def subheaders(at: AppTest) -> list[str]:
    return [s.value for s in at.subheader]


def predict(at: AppTest, key: str, typed: str) -> AppTest:
    at.text_input(key=f"teach_guess_{key}").set_value(typed)
    at.button(key="teach_drill_check").click().run()
    assert not at.exception, at.exception
    return at


def test_predict_then_reveal_waits_for_each_number_and_names_the_mistake():
    need("bleu")
    at = page()
    at.selectbox(key="teach_metric").set_value("bleu").run()
    type_pair(at, *PAPINENI)
    at.toggle(key="teach_drill").set_value(True).run()
    assert not at.exception, at.exception
    assert subheaders(at) == []  # the tokens step colours the clipped words: it waits for m1 and p1
    assert not at.metric  # the score comes last
    assert "Common mistakes" not in [e.label for e in at.expander]
    predict(at, "m1", "7")
    assert at.warning and "unclipped" in at.warning[0].value
    assert subheaders(at) == []  # p1 is still to predict before the same step
    predict(at, "p1", "2/7")
    assert "Right" in at.success[0].value
    assert subheaders(at)[0] == "1. Tokens" and subheaders(at)[1].startswith("2. 1-grams")
    at.text_input(key="teach_guess_m2").set_value("lots")
    at.button(key="teach_drill_check").click().run()
    assert "Type a number" in at.error[0].value and at.text_input(key="teach_guess_m2")  # asked again
    for _ in range(20):  # reveal the rest
        if not [b for b in at.button if b.key == "teach_drill_reveal"]:
            break
        at.button(key="teach_drill_reveal").click().run()
    assert at.metric and at.metric[0].value == "7.81"  # the score once every number is predicted (exp smoothing)
    assert any("predictions made" in s.value for s in at.success)
    assert "Common mistakes" in [e.label for e in at.expander]


def test_a_link_opens_its_set_with_the_chosen_exercises_only():
    need("ter")
    teach_set = TeachSet(
        "Shifts",
        (
            SetItem(
                "ter", "the cat sat on the mat", ("on the mat the cat sat",), ("edits", "nope"), "Count the shift!"
            ),
            SetItem("bleu", *PAPINENI[:1], tuple(PAPINENI[1]), ("m1",)),
        ),
    )
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["set"] = to_link(teach_set)
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="teach_metric").value == "ter"
    assert at.text_area(key="teach_hyp").value == "the cat sat on the mat"
    assert at.toggle(key="teach_drill").value
    assert any("Count the shift" in i.value for i in at.info)
    assert [t.key for t in at.text_input if t.key.startswith("teach_guess_")] == ["teach_guess_edits"]
    assert any("nope" in w.value and "shifts" in w.value for w in at.warning)  # the unknown key, and what is offered
    predict(at, "edits", "6")
    assert at.warning and "shifts" in at.warning[-1].value.lower() and "WER" in at.warning[-1].value
    # The picker opens the next item.
    at.selectbox(key="teach_set_pick").set_value(1).run()
    at.button(key="teach_set_open").click().run()
    assert at.selectbox(key="teach_metric").value == "bleu"
    assert [t.key for t in at.text_input if t.key.startswith("teach_guess_")] == ["teach_guess_m1"]


@pytest.mark.parametrize(
    ("value", "said"),
    [("v1.not-base64!!", "damaged"), ("http://example.com/set.json", "format"), ("v1." + "A" * 7000, "longer")],
)
def test_a_bad_link_is_refused_with_the_reason(value, said):
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["set"] = value
    at.run()
    assert not at.exception, at.exception
    assert any(said in e.value for e in at.error), [e.value for e in at.error]


def test_a_link_with_a_bad_field_names_it():
    import base64
    import zlib

    data = {"scorelens_teach_set": 1, "items": [{"metric": "bleu", "hyp": "a", "refs": "b"}]}
    packed = base64.urlsafe_b64encode(zlib.compress(json.dumps(data).encode())).decode().rstrip("=")
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["set"] = "v1." + packed
    at.run()
    assert any("line 1, items[0].refs: must be a list" in plain(e.value) for e in at.error), [e.value for e in at.error]


def test_the_teacher_builds_a_set_and_gets_its_file_and_link():
    need("bleu")
    at = page()
    at.selectbox(key="teach_metric").set_value("bleu").run()
    type_pair(at, *PAPINENI)
    at.text_input(key="teach_draft_title").set_value("Clipping")
    at.multiselect(key="teach_draft_pick").set_value(["m1", "p1"]).run()
    at.button(key="teach_draft_add").click().run()
    assert not at.exception, at.exception
    link = next(c.value for c in at.code if "?set=v1." in c.value)
    from dashboard.teach_sets import from_link

    opened = from_link(link.split("?set=", 1)[1])
    assert opened.title == "Clipping"
    assert opened.items == (SetItem("bleu", PAPINENI[0], tuple(PAPINENI[1]), ("m1", "p1")),)
    at.button(key="teach_draft_try").click().run()
    assert [t.key for t in at.text_input if t.key.startswith("teach_guess_")] == ["teach_guess_m1"]
