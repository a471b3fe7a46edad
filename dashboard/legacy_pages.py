"""The one place ScoreLens reaches into Streamlit's internals: leaving its legacy ``pages/`` mode.

A ``pages/`` folder beside the entry point puts a fresh server (and every AppTest run) in Streamlit's legacy
multipage mode, which lasts until ``app.py`` calls ``st.navigation``. In that mode a deep link (``/data``) runs the
page file *instead of* ``app.py``, so the app's routing and frame never start and the session shows the legacy menu.
(URL paths unlike the file names do not help: the legacy router then answers "page not found" before handing over.)
Streamlit has no public switch for this; tests/test_app_smoke.py fails the day it no longer needs one.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def hand_routing_to_app() -> None:
    """Called by a page that ``app.py`` did not run: if the legacy mode ran it, leave the mode and rerun, so that
    this and every later run goes through ``app.py``, which routes to the same page (page ids are their URL paths
    in both modes). A page run on its own (``AppTest.from_file("pages/…")``) is not in the mode and goes on."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
