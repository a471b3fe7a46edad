"""The Meta-evaluation page in Chromium at 1400 px: WMT23 he-en (tests/data: 40 segments, 12 systems, reference B)
uploaded on the Data page with WMT's MQM table (``mqm.seg.tsv``) attached as human scores; the page draws its tables
inside the window without an exception, a segment pair opens the Segment view, and screenshots go to
``artifacts/meta*.png``."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import Guard, choose_files, idle
from tests.support.paths import DATA, ROOT

HEEN = DATA / "wmt23-he-en"
META = DATA / "wmt23-he-en-meta"
ARTIFACTS = ROOT / "artifacts"


@pytest.mark.slow
@pytest.mark.browser
def test_meta_page_with_wmt_mqm_at_1400_px(app_url, browser):
    guard = Guard(app_url)
    page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 1600}))
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    choose_files(page, "References", [HEEN / "ref.B.txt"])
    files = sorted((HEEN / "sys").glob("*.txt"))
    choose_files(page, "System outputs", files)
    page.get_by_text(files[-1].name).last.wait_for(timeout=30_000)
    page.get_by_role("button", name="Replace the loaded data with these files").click()
    page.get_by_text("Uploaded files").first.wait_for(timeout=60_000)
    idle(page)
    page.get_by_role("tab", name="Human scores").click()
    choose_files(page, "Human scores (.jsonl, .tsv, .csv)", [META / "mqm.seg.tsv"])
    attach = page.get_by_role("button", name="Attach these human scores")
    attach.wait_for(timeout=30_000)
    attach.click()
    idle(page)

    page.get_by_role("link", name="Meta-evaluation", exact=True).click()
    page.get_by_role("heading", name="System level").wait_for(timeout=180_000)
    page.get_by_role("heading", name="Where each metric goes wrong").wait_for(timeout=60_000)
    idle(page)
    page.wait_for_timeout(1500)  # the grids paint after they are attached
    assert page.locator("[data-testid='stException']").count() == 0
    frame = page.locator("[data-testid='stDataFrame']").first
    box = frame.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1400
    page.screenshot(path=str(ARTIFACTS / "meta.png"), full_page=True)

    page.get_by_role("tab", name="Segment pairs").click()
    page.get_by_text("Segment pairs ordered against the humans").wait_for(timeout=30_000)
    first = page.get_by_role("button", name=re.compile(r"^line \d+: ")).first
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "meta_segment_pairs.png"))
    first.click()
    page.get_by_role("heading", name="Segment view").wait_for(timeout=60_000)
    idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    page.screenshot(path=str(ARTIFACTS / "meta_segment.png"))
    assert guard.external == []
    page.close()
