"""In Chromium: paragraph-level WMT23 he-en with its doc_id/domain metadata loaded on the Data page, filtered by
domain in the Explorer with the slice form open — it stays open while the filter changes — and saved as a slice the
Analysis page lists (tests/data/wmt23-he-en-para-meta)."""

from __future__ import annotations

import pytest

from tests.support.browser import choose_files, idle
from tests.support.paths import DATA

FOLDER = DATA / "wmt23-he-en-para-meta"
SYSTEMS = ("GPT4-5shot", "NLLB_Greedy", "ONLINE-A", "ZengHuiMT")


@pytest.mark.slow
@pytest.mark.browser
def test_metadata_filter_saved_as_a_slice_in_chromium(app_url, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    choose_files(page, "References", [FOLDER / "ref.A.txt", FOLDER / "ref.B.txt"])
    choose_files(page, "System outputs", [FOLDER / "sys" / f"{name}.txt" for name in SYSTEMS])
    page.get_by_text("ZengHuiMT.txt").last.wait_for(timeout=30_000)
    page.get_by_role("button", name="Replace the loaded data with these files").click()
    page.get_by_text("Uploaded files").first.wait_for(timeout=60_000)
    idle(page)

    page.get_by_role("tab", name="Segment metadata").click()
    choose_files(page, "Segment metadata", [FOLDER / "meta.tsv"])
    page.get_by_role("button", name="Attach this metadata").click()
    page.get_by_text("segment metadata meta.tsv attached").first.wait_for(timeout=30_000)
    idle(page)

    page.get_by_role("link", name="Explorer").click()
    page.get_by_role("heading", name="Sentence explorer").wait_for(timeout=90_000)
    idle(page)
    page.get_by_text("Save the filtered segments as a slice").first.click()
    name = page.get_by_label("Slice name")
    name.wait_for(timeout=30_000)
    assert name.input_value() == "slice 1"  # pre-filled with a name no slice has
    page.get_by_label("domain (metadata) is one of").click()
    page.get_by_role("option", name="user_review").click()
    page.keyboard.press("Escape")
    page.get_by_text("38 of 80 segments").first.wait_for(timeout=60_000)
    idle(page)
    assert name.is_visible()  # the form stayed open while the filter changed
    page.get_by_text("Filters: domain is 'user_review'").first.wait_for(timeout=30_000)
    page.get_by_role("button", name="Save slice").click()
    page.get_by_text("Saved slice slice 1 (38 segments).").wait_for(timeout=30_000)
    assert page.get_by_label("Slice name").input_value() == "slice 2"

    page.get_by_role("link", name="Analysis").click()
    page.get_by_role("heading", name="Error analysis").wait_for(timeout=90_000)
    page.get_by_text("Segment metadata: meta.tsv (doc_id, domain)").first.wait_for(timeout=30_000)
    page.get_by_text("Slices", exact=True).click()
    page.get_by_text("38 segments; domain is 'user_review'").first.wait_for(timeout=120_000)
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()
