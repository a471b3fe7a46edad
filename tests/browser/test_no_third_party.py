"""Nothing a page loads comes from anywhere but the server: an offline classroom sees the whole app, and no visit
reaches a third party (Streamlit fetches Material Symbols for a ``:material/…:`` page or favicon icon from Google's
font CDN; the app uses no such icon, and its other icons are drawn with the font Streamlit serves itself)."""

from __future__ import annotations

import time

import pytest

from dashboard.navigation import PAGES
from tests.support.browser import HEADINGS, Guard, idle


@pytest.mark.browser
def test_every_page_loads_nothing_from_another_host(app_url, browser):
    """Open every page from the menu, in one session as a user would, each run to its end: no request (page, font,
    icon, image, WebSocket) goes to a host other than the server's, and the favicon is the server's own."""
    guard = Guard(app_url)
    page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 1000}))
    start = time.perf_counter()
    page.goto(app_url)
    for spec in PAGES:
        if spec is not PAGES[0]:
            page.locator("[data-testid='stSidebarNav']").get_by_role("link", name=spec.title, exact=True).click()
        page.get_by_role("heading", name=HEADINGS[spec.task]).wait_for(timeout=90_000)
        idle(page)
        assert page.locator("[data-testid='stException']").count() == 0, spec.title
    print(f"{len(PAGES)} pages in {time.perf_counter() - start:.1f} s; requests off the server: {guard.external}")
    favicon = page.evaluate("() => document.querySelector(\"link[rel='shortcut icon']\")?.href ?? ''")
    assert guard.local(favicon), favicon
    assert guard.external == []
    page.close()
