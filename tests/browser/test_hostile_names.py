"""Hostile names in the real browser: a workspace whose every name is a payload (``tests.support.hostile``: Markdown
images and links, bare addresses, HTML with event handlers, scripts, LaTeX, ``javascript:`` links), loaded through
the Data page's file chooser under a hostile file name, plus system files with hostile names, shown on every page
and every Analysis section. Nothing they hold may become an image, a link, a formula or a script, open a dialog or
make a request; each view must show them as text. And an uncaught error shows a browser neither its message nor a
traceback with the server's paths."""

from __future__ import annotations

import time
from urllib.parse import unquote

import pytest

from dashboard.navigation import PAGES, Task
from rendering.text import WORD_JOINER
from tests.support.browser import HEADINGS, Guard, choose_files, idle
from tests.support.hostile import FILE_NAMES, PAYLOADS, SEGMENTS, hostile_workspace_json
from tests.support.paths import ROOT
from tests.support.serving import streamlit_server
from tests.support.ui import ANALYSIS_SECTIONS as SECTIONS

# Elements a payload could turn into: links (HTML and SVG), images, scripts, frames, formulas, event handlers.
MADE = """() => [...document.querySelectorAll(
        'a[href], a[*|href], img, image, script, iframe, object, embed, .katex, [onerror], [onload], [onclick], '
        + '[aria-label="bug_report icon"]')]
    .filter((el) => {
        const text = el.outerHTML + ' ' + (el.textContent || '');
        const src = el.getAttribute('src') || '';
        const href = el.getAttribute('href') || el.getAttribute('xlink:href') || '';
        const foreign = /^(https?:)?\\/\\//i.test(href) && !href.startsWith(location.origin);
        return /evil|javascript:/i.test(text.replace(/src="data:[^"]*"/g, '')) || foreign
            || el.getAttribute('alt') === 'Streamlit logo' || el.matches('[aria-label="bug_report icon"]')
            || (el.tagName === 'IMG' && src && !src.startsWith('data:') && !src.startsWith(location.origin));
    })
    .map((el) => el.outerHTML.slice(0, 160))"""


def _shown_payloads(page) -> set[str]:
    """The payloads the page shows as typed, in its text (word joiners left out)."""
    text = page.evaluate("() => document.body.innerText").replace(WORD_JOINER, "")
    return {payload for payload in PAYLOADS if payload in text}


@pytest.mark.slow
@pytest.mark.browser
def test_hostile_names_are_text_on_every_page(app_url, browser, tmp_path):
    guard = Guard(app_url)
    page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 1100}))
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    saved = tmp_path / "<img src=x onerror=alert('evil')>.json"
    saved.write_text(hostile_workspace_json(), encoding="utf-8")
    page.get_by_role("tab", name="Workspace file").click()
    choose_files(page, "Load a workspace file", [saved])
    page.get_by_role("button", name="Load workspace", exact=True).click()
    page.get_by_text("evil.invalid/bare.png").first.wait_for(timeout=60_000)  # the title, in the sidebar
    idle(page)
    files = []
    for name in FILE_NAMES:  # system outputs under hostile file names, added to the loaded data
        files.append(tmp_path / f"{name}.txt")
        files[-1].write_text("\n".join(s.upper() for s in SEGMENTS) + "\n", encoding="utf-8")
    page.get_by_role("tab", name="Upload files").click()
    choose_files(page, "System outputs", files)
    page.get_by_role("button", name="Add these systems to the loaded data").click()
    page.get_by_label(f"System {len(PAYLOADS) + len(FILE_NAMES)}").wait_for(timeout=60_000)
    idle(page)

    views: dict[str, set[str]] = {}
    start = time.perf_counter()

    def check(view: str) -> None:
        idle(page)
        assert page.locator("[data-testid='stException']").count() == 0, view
        made = page.evaluate(MADE)
        assert made == [], f"{view}: user text became markup: {made}"
        assert not guard.script_ran(page) and guard.dialogs == [], (view, guard.dialogs)
        assert guard.external == [], (view, guard.external)
        assert str(ROOT) not in page.evaluate("() => document.body.innerText"), f"{view} shows a server path"
        views[view] = _shown_payloads(page)

    for spec in PAGES:
        page.locator("[data-testid='stSidebarNav']").get_by_role("link", name=spec.title, exact=True).click()
        page.get_by_role("heading", name=HEADINGS[spec.task]).wait_for(timeout=90_000)
        if spec.task is Task.ANALYSIS:
            for section in SECTIONS:
                page.locator("[data-testid='stButtonGroup']").get_by_text(section, exact=True).click()
                check(f"Analysis · {section}")
        elif spec.task is Task.TEACH:
            page.get_by_text("…or take a segment of the loaded dataset").click()
            page.get_by_role("button", name="Use it").click()
            check("Teach")
        else:
            check(spec.title)
    shown = sum(len(found) for found in views.values())
    print(
        f"{len(PAYLOADS)} payloads × {len(views)} views = {len(PAYLOADS) * len(views)}; shown as text: {shown}; "
        f"images, links, formulas, scripts, dialogs, requests off the server: 0 ({time.perf_counter() - start:.0f} s)"
    )
    for view, found in views.items():
        print(f"  {view}: {len(found)} payloads shown as text")
    assert all(views.values()), views  # every view showed some payload, so every view was checked on one
    assert set().union(*views.values()) == set(PAYLOADS)
    page.close()


@pytest.mark.slow
@pytest.mark.browser
def test_an_uncaught_error_shows_no_message_and_no_server_path(browser, tmp_path):
    """The project's config (``client.showErrorDetails = "type"``) under ``streamlit run`` from the repository: an
    error the app does not catch shows its type, never its message or a traceback (both name server paths)."""
    script = tmp_path / "crash.py"
    script.write_text('raise RuntimeError(f"secret message from {__file__}")\n', encoding="utf-8")
    with streamlit_server(script=script) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server.url)
        box = page.locator("[data-testid='stException']")
        box.wait_for(timeout=60_000)
        shown = box.inner_text()
        print(f"the error box shows: {shown!r}")
        assert "RuntimeError" in shown
        text = page.evaluate("() => document.body.innerText")
        # Streamlit's "Ask Google" links carry what the box shows, quoted, and nothing more
        links = " ".join(unquote(a.get_attribute("href") or "") for a in box.locator("a[href]").all())
        for leak in ("secret message", str(tmp_path), str(ROOT), "Traceback", 'File "'):
            assert leak not in text and leak not in links, (leak, text, links)
        page.close()
