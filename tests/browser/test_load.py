"""Ten browser sessions at once on one server, each with data of its own (tests/support/load.py): every file and
click counts, no session sees another's data or slices, and the run reports the server's peak memory and the
slowest page. ``python -m benchmarks.load`` prints the same figures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.load import SERVER_OPTIONS, run_load
from tests.support.serving import streamlit_server

CHROMIUM = "/usr/bin/chromium"


@pytest.mark.slow
@pytest.mark.browser
def test_ten_concurrent_sessions_lose_no_input_and_see_only_their_own_data(tmp_path):
    pytest.importorskip("playwright.async_api")
    if not Path(CHROMIUM).exists():
        if os.environ.get("SCORELENS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser test required under CI but there is no Chromium at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with streamlit_server(SERVER_OPTIONS) as server:
        report = run_load(server.url, server.pid, tmp_path, sessions=10, clicks=7, chromium=CHROMIUM)
        printed = server.printed()
    print(report.summary())
    assert report.errors == [], report.errors
    assert report.leaks == [], report.leaks
    for session in report.sessions:  # every file listed, every click a segment on, the slice on the Analysis page
        assert (session.files_counted, session.moved, session.slices_seen) == (3, 7, 1), session
    assert "Traceback" not in printed, printed[-3000:]
    assert report.server_rss_peak_mb > report.server_rss_before_mb > 0
