"""The app's pages, declared once: one per user task, in the menu's order (the first opens by default).

``app.py`` routes with :func:`pages`; a page opens another with :func:`switch_to`, never by a file path. A page's
URL path is its file's name (``/data``, ``/explorer`` …; the overview, the default page, is also ``/``); the URLs
of older versions (``/Data``) lead to the same pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import streamlit as st

from dashboard import keys

PAGES_DIR = Path(__file__).resolve().parent.parent / "pages"


class Task(Enum):
    OVERVIEW = "overview"
    DATA = "data"
    ANALYSIS = "analysis"
    META = "meta"
    EXPLORER = "explorer"
    SEGMENT = "segment"
    TEACH = "teach"


@dataclass(frozen=True)
class PageSpec:
    task: Task
    title: str

    @property
    def url_path(self) -> str:
        """The file's name, as Streamlit's legacy ``pages/`` mode names it too (see ``dashboard.legacy_pages``)."""
        return self.task.value

    @property
    def file(self) -> Path:
        """The page's script; absolute, so that it resolves the same under ``app.py`` and in a page run alone."""
        return PAGES_DIR / f"{self.task.value}.py"


PAGES: tuple[PageSpec, ...] = (
    PageSpec(Task.OVERVIEW, "Overview"),
    PageSpec(Task.DATA, "Data"),
    PageSpec(Task.ANALYSIS, "Analysis"),
    PageSpec(Task.META, "Meta-evaluation"),
    PageSpec(Task.EXPLORER, "Explorer"),
    PageSpec(Task.SEGMENT, "Segment"),
    PageSpec(Task.TEACH, "Teach"),
)
_BY_TASK = {spec.task: spec for spec in PAGES}


def page(task: Task) -> st.Page:
    """The ``st.Page`` of ``task`` (built inside a run: Streamlit resolves its file against the running app)."""
    spec = _BY_TASK[task]
    return st.Page(spec.file, title=spec.title, url_path=spec.url_path, default=spec is PAGES[0])


def pages() -> list[st.Page]:
    """Every page, then each under its URL of the time the files were named ``0_Data.py`` … (``/Data``), out of the
    menu, so that bookmarks keep working."""
    old_urls = [st.Page(s.file, title=s.title, url_path=s.title, visibility="hidden") for s in PAGES]
    return [*(page(spec.task) for spec in PAGES), *old_urls]


def switch_to(task: Task) -> None:
    st.switch_page(page(task))


def request(task: Task) -> None:
    """From a button's callback: open ``task``'s page at the next run of the page (or fragment) that drew the
    button, which calls :func:`follow_request` first. A callback cannot switch pages itself; acting in it keeps the
    click however busy the server is."""
    st.session_state[keys.PAGE_REQUEST] = task.value


def follow_request() -> None:
    """Open the page a callback asked for, if any."""
    requested = st.session_state.pop(keys.PAGE_REQUEST, None)
    if requested is not None:
        switch_to(Task(requested))
