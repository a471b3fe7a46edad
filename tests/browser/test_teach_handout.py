"""The Teach page's exercise set link, prediction and handout in a real browser: a class opens a link carrying a set
whose sentences are hostile, predicts a number, and downloads the handout; the handout opens from disk showing every
step and drawing, runs no script, loads nothing, and the PDF is a PDF."""

from __future__ import annotations

import importlib.util

import pytest

from dashboard.navigation import Task
from dashboard.teach_sets import SetItem, TeachSet, to_link
from rendering import lessons, teach
from tests.support.browser import HEADINGS, Guard, idle

HYP = "police <script>window.__evil=1</script> killed <img src=x onerror=window.__evil=2> the gunman"
REFS = ("police kill the gunman & <b>more</b>",)


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
