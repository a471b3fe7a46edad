"""ScoreLens entry point: ``streamlit run app.py``. Routes to one page per user task, opening on the overview; the
frame (stylesheet and sidebar) is drawn here once per run, around the page."""

from __future__ import annotations

import streamlit as st

from dashboard.navigation import pages
from dashboard.sidebar import app_frame
from dashboard.upload_replies import keep_upload_replies

keep_upload_replies()
page = st.navigation(pages())
with app_frame():
    page.run()
