"""The app's pages, declared once: one per user task, in the menu's order (the first opens by default).

``app.py`` routes with :func:`pages`; a page opens another with :func:`switch_to`, never by a file path. The URL
paths are the ones the pages had when Streamlit named them from their files (``/Data``, ``/Explorer`` …), so
bookmarks keep working.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import streamlit as st

PAGES_DIR = Path(__file__).resolve().parent.parent / "pages"


class Task(Enum):
    OVERVIEW = "overview"
    DATA = "data"
    ANALYSIS = "analysis"
    EXPLORER = "explorer"
    SEGMENT = "segment"
    TEACH = "teach"


@dataclass(frozen=True)
class PageSpec:
    task: Task
    title: str
    icon: str
    url_path: str

    @property
    def file(self) -> Path:
        """The page's script; absolute, so that it resolves the same under ``app.py`` and in a page run alone."""
        return PAGES_DIR / f"{self.task.value}.py"


PAGES: tuple[PageSpec, ...] = (
    PageSpec(Task.OVERVIEW, "Overview", "📊", "Overview"),
    PageSpec(Task.DATA, "Data", "📂", "Data"),
    PageSpec(Task.ANALYSIS, "Analysis", "🔍", "Analysis"),
    PageSpec(Task.EXPLORER, "Explorer", "📋", "Explorer"),
    PageSpec(Task.SEGMENT, "Segment", "🔬", "Segment"),
    PageSpec(Task.TEACH, "Teach", "🎓", "Teach"),
)
_BY_TASK = {spec.task: spec for spec in PAGES}


def page(task: Task) -> st.Page:
    """The ``st.Page`` of ``task`` (built inside a run: Streamlit resolves its file against the running app)."""
    spec = _BY_TASK[task]
    return st.Page(spec.file, title=spec.title, icon=spec.icon, url_path=spec.url_path, default=spec is PAGES[0])


def pages() -> list[st.Page]:
    return [page(spec.task) for spec in PAGES]


def switch_to(task: Task) -> None:
    st.switch_page(page(task))
