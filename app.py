"""ScoreLens entry point: ``streamlit run app.py``. Routes to one page per user task, opening on the overview."""

from __future__ import annotations

import streamlit as st

from app_pages import PAGES

st.navigation(
    [st.Page(path, title=title, icon=icon, default=i == 0) for i, (path, title, icon) in enumerate(PAGES)]
).run()
