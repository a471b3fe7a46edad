"""Shared pieces of the real-browser tests (tests/browser): Chromium through Playwright, a file chooser, waiting
for a run to end, and a guard that records (and stops) every request leaving the server, every dialog and every
script a page runs that the app did not write."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from dashboard.navigation import Task

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The heading each page opens with: it is drawn once the page's run has reached it.
HEADINGS = {
    Task.OVERVIEW: "ScoreLens — overview",
    Task.DATA: "Data",
    Task.ANALYSIS: "Error analysis",
    Task.META: "Meta-evaluation",
    Task.EXPLORER: "Sentence explorer",
    Task.SEGMENT: "Segment view",
    Task.TEACH: "Teach: watch a score being computed",
}
# Schemes that never reach a network: inline data, in-page objects, blank frames.
LOCAL_SCHEMES = ("data", "blob", "about")


def require_or_skip(reason: str) -> None:
    """Skip with a printed reason, except under CI (``SCORELENS_REQUIRE_BROWSER=1``, set by ``.ci/run``), where a
    missing browser is a failure."""
    if os.environ.get("SCORELENS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser test required under CI but {reason}")
    print(f"skipping real-browser test: {reason}")
    pytest.skip(reason)


def chromium() -> Iterator[Any]:
    """A headless Chromium for a fixture to yield (closed after), or a skip where Chromium or Playwright is
    missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require_or_skip("the playwright package is not installed")
    if not Path(CHROMIUM).exists():
        require_or_skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield instance
        instance.close()


def choose_files(page: Any, label: str, files: list[Path]) -> None:
    """Open the operating-system file chooser of the uploader labelled ``label`` and pick ``files``."""
    with page.expect_file_chooser() as chooser:
        page.locator(f"section[aria-label='{label}']").get_by_test_id("stBaseButton-secondary").click()
    chooser.value.set_files([str(f) for f in files])


def idle(page: Any) -> None:
    """Wait until the app has finished its run (and its fragments' runs)."""
    page.wait_for_timeout(500)
    page.wait_for_function("!document.querySelector(\"[data-testid='stStatusWidget']\")", timeout=90_000)
    page.wait_for_timeout(500)


@dataclass
class Guard:
    """Watches one page: every request (and WebSocket) to a host other than the server's is recorded and aborted,
    every dialog (``alert`` …) recorded and dismissed. ``window.__evil`` is the flag hostile test payloads set."""

    server: str  # the server's URL
    external: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def local(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in LOCAL_SCHEMES or parts.netloc == urlsplit(self.server).netloc

    def watch(self, page: Any) -> Any:
        def route(route: Any) -> None:
            if self.local(route.request.url):
                route.continue_()
            else:
                self._record(route.request.url)
                route.abort()

        page.route("**/*", route)
        page.on("request", lambda request: self._record(request.url))
        page.on("websocket", lambda socket: self._record(socket.url))
        page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        return page

    def _record(self, url: str) -> None:
        if not self.local(url) and url not in self.external:
            self.external.append(url)

    def script_ran(self, page: Any) -> bool:
        return bool(page.evaluate("() => window.__evil !== undefined"))
