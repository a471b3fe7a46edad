"""The Teach page's corpus, side-by-side, perplexity and MQM modes in the real browser: hostile text typed into
every box stays text — no script runs, no dialog opens, no request leaves the server — and each mode still draws
its lesson (the union LCS drawing, the MQM spans, the limitations card)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import Guard, idle
from tests.support.hostile import HTML_IMG, IMAGE, LATEX, SCRIPT

PAYLOAD = f"{HTML_IMG} {SCRIPT} {IMAGE} {LATEX}"


def fill(page: Any, label: str, text: str) -> None:
    box = page.get_by_label(label).first  # labels may hold Markdown (code spans): a unique prefix finds them
    box.fill(text)
    box.press("Control+Enter" if box.evaluate("e => e.tagName") == "TEXTAREA" else "Enter")
    idle(page)


def mode(page: Any, name: str) -> None:
    page.get_by_text(name, exact=True).click()
    idle(page)


@pytest.mark.slow
@pytest.mark.browser
def test_hostile_text_in_every_teaching_mode_stays_text(app_url: str, browser: Any) -> None:
    guard = Guard(app_url)
    page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 2400}))
    page.goto(app_url + "/teach")
    idle(page)

    mode(page, "Several sentences")
    page.locator("[data-testid='stSelectbox']:has-text('Lesson')").first.click()
    page.get_by_role("option", name="ROUGE-L against ROUGE-Lsum on a multi-sentence summary").click()
    idle(page)
    fill(page, "Hypothesis lines", f"the cat sat {PAYLOAD}\nthe mat")
    fill(page, "Reference lines", f"the cat sat on the mat {PAYLOAD}")
    assert page.locator(".cl-row").count() == 1  # the union drawing of the one reference sentence
    assert page.get_by_text("Limitations card (the same text as the docs' metric page)").count() == 1

    mode(page, "Metrics side by side")
    fill(page, "Hypotheses, one a line", f"{PAYLOAD} | the cat\nplain | {PAYLOAD}")
    assert page.get_by_text("Where they disagree").count() == 1

    mode(page, "Perplexity")
    fill(page, "Text to score (one sentence a line)", f"the cat {PAYLOAD}")

    mode(page, "MQM from error spans")
    fill(page, "Output (the translation the raters marked)", f"The cat {PAYLOAD}")
    fill(page, "Errors, one a line", f"{HTML_IMG} | major | {SCRIPT} | {HTML_IMG}\nr2 | none")
    assert page.locator(".sl-err").count() >= 1  # the span drawn on the output
    assert not page.locator("[data-testid='stException']").count()

    assert guard.dialogs == [] and guard.external == [] and not guard.script_ran(page)
    assert page.locator("img[src='x']").count() == 0
