"""One of the two places ScoreLens reaches into Streamlit's internals (the other: :mod:`dashboard.upload_replies`):
leaving its legacy ``pages/`` mode.

A ``pages/`` folder beside the entry point puts a fresh server (and every AppTest run) in Streamlit's legacy
multipage mode, which lasts until ``app.py`` calls ``st.navigation``. In that mode a deep link (``/data``) runs the
page file *instead of* ``app.py``, so the app's routing and frame never start and the session shows the legacy menu.
(URL paths unlike the file names do not help: the legacy router then answers "page not found" before handing over.)
Streamlit has no public switch for this; tests/app/test_app_smoke.py fails the day it no longer needs one. AppTest
enters the mode before every run, where the hand-over's rerun would swallow a button's click: the tests run with the
mode off (:func:`served_mode`), as a server is after its first request.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def hand_routing_to_app() -> None:
    """Called by a page that ``app.py`` did not run: if the legacy mode ran it, leave the mode and rerun, so that
    this and every later run goes through ``app.py``, which routes to the same page (page ids are their URL paths
    in both modes). A page run on its own (``AppTest.from_file("pages/…")``) is not in the mode and goes on."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


@contextmanager
def served_mode() -> Iterator[None]:
    """Within it, Streamlit never enters the legacy mode (for AppTest runs, which would enter it before each run)."""
    original = PagesManager.__init__

    @wraps(original)
    def without_legacy_mode(self: PagesManager, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = without_legacy_mode  # type: ignore[method-assign]
    try:
        yield
    finally:
        PagesManager.__init__ = original  # type: ignore[method-assign]
