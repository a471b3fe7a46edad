"""The Teach page's exercise set link, prediction and handout in a real browser: a class opens a link carrying a set
whose sentences are hostile, predicts a number, and downloads the handout; the handout opens from disk showing every
step and drawing, runs no script, loads nothing, and the PDF is a PDF."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from dashboard.navigation import Task
from dashboard.teach_sets import SetItem, TeachSet, to_json, to_link
from rendering import lessons, teach
from tests.support.browser import HEADINGS, Guard, idle

HYP = "police <script>window.__evil=1</script> killed <img src=x onerror=window.__evil=2> the gunman"
REFS = ("police kill the gunman & <b>more</b>",)


SET_BOX = "Exercise set: prepare exercises for a class, or open one"


def choose_set(page: Any, path: Path) -> None:
    """Pick ``path`` in the set file's uploader (opening its expander: a message above it re-draws it closed)."""
    button = page.get_by_test_id("stFileUploader").filter(has_text="Open a set file (JSON)")
    button = button.get_by_test_id("stBaseButton-secondary")
    if not button.is_visible():
        page.get_by_text(SET_BOX).click()
        idle(page)
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files([str(path)])


def _lesson() -> teach.Lesson:
    chosen, _ = teach.what_if("rougeL", {})
    return lessons.build_lesson(chosen.metric("rougeL"), HYP, REFS)


@pytest.mark.slow
@pytest.mark.browser
def test_a_class_link_a_prediction_and_the_handout(app_url, browser, tmp_path):
    ready, _ = lessons.lesson_status()
    if "rougeL" not in ready:
        pytest.skip("no ROUGE-L lesson here")
    guard = Guard(app_url)
    page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 1100}, accept_downloads=True))
    link = to_link(TeachSet("LCS", (SetItem("rougeL", HYP, REFS, ("lcs",), "Subsequence, not substring"),)))
    page.goto(f"{app_url}/teach?set={link}")
    page.get_by_role("heading", name=HEADINGS[Task.TEACH]).wait_for(timeout=90_000)
    idle(page)
    page.get_by_text("Subsequence, not substring").wait_for()
    page.get_by_label("Your prediction").fill("2")
    page.get_by_role("button", name="Check").click()
    idle(page)
    page.get_by_text("longest common substring").first.wait_for()  # the named mistake: "the gunman" is 2 long
    page.get_by_text("Handout: this lesson as a file to print or share").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download HTML").click()
    saved = tmp_path / "handout.html"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert "<script" not in text.lower() and "&lt;script&gt;window.__evil=1" in text

    handout = browser.new_page(viewport={"width": 1400, "height": 1100})
    requests: list[str] = []
    handout.on("request", lambda request: requests.append(request.url))
    dialogs: list[str] = []
    handout.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    handout.goto(saved.as_uri())
    handout.wait_for_load_state("load")
    for step in _lesson().steps:
        assert handout.get_by_role("heading", name=step.title, exact=True).is_visible(), step.title
    assert handout.evaluate("document.querySelectorAll('script').length") == 0
    assert handout.evaluate("typeof window.__evil") == "undefined"
    assert handout.evaluate("document.querySelectorAll('img, iframe, object, embed, link[href]').length") == 0
    assert handout.evaluate("document.querySelectorAll('figure svg rect').length") > 10  # the LCS grid is drawn
    assert HYP in handout.evaluate("document.body.innerText")  # the sentence, as text
    assert requests == [saved.as_uri()] and not dialogs
    if importlib.util.find_spec("latex2mathml") is not None:
        assert handout.evaluate("document.querySelectorAll('math').length") > 3

    if importlib.util.find_spec("fpdf") is not None:
        with page.expect_download() as download:
            page.get_by_role("button", name="Download PDF").click()
        pdf = tmp_path / "handout.pdf"
        download.value.save_as(pdf)
        assert pdf.read_bytes().startswith(b"%PDF-")
    assert not guard.script_ran(page) and not guard.external and not guard.dialogs


@pytest.mark.slow
@pytest.mark.browser
def test_a_set_file_opens_its_first_item_and_a_bad_file_is_refused_by_line(app_url, browser, tmp_path):
    guard = Guard(app_url)
    page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 1100}))
    page.goto(f"{app_url}/teach")
    page.get_by_role("heading", name=HEADINGS[Task.TEACH]).wait_for(timeout=90_000)
    idle(page)
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{\n  "scorelens_teach_set": 1,\n  "items": [\n    {"metric": "bleu", "hyp": 3, "refs": ["x"]}\n  ]\n}'
    )
    choose_set(page, bad)
    idle(page)
    page.get_by_text("line 4, items[0].hyp: must be text").wait_for()
    good = tmp_path / "set.json"
    good.write_text(to_json(TeachSet("Shifts", (SetItem("ter", "d e f a b c", ("a b c d e f",), ("shifts",)),))))
    choose_set(page, good)
    idle(page)
    page.get_by_text("How many shifts").wait_for()
    assert page.get_by_role("textbox", name="Hypothesis (system output)").input_value() == "d e f a b c"
    assert not guard.external and not guard.dialogs
