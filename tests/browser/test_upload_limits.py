"""What a user reads about upload limits in Chromium: every upload box of the Data page says the app's limit per file,
and the page states the same limits once — even on a server started with Streamlit's default ``maxUploadSize``
(200 MB, the "200MB per file" a user saw beside the app's "100 MB")."""

from __future__ import annotations

import pytest

from dashboard import intake, uploads
from tests.support.browser import chromium
from tests.support.serving import streamlit_server


@pytest.mark.browser
def test_every_upload_box_and_the_statement_say_the_same_limits():
    options = ("--server.headless", "true", "--server.maxUploadSize", "200")
    with streamlit_server(options) as server:
        for browser in chromium():
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{server.url}/data")
            page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
            statement = page.get_by_text("per file, and").first
            statement.wait_for(timeout=30_000)
            per_file = intake.limit_text(intake.MAX_UPLOAD_BYTES)
            in_all = intake.limit_text(uploads.MAX_SESSION_UPLOAD_BYTES)
            assert statement.inner_text().startswith(f"Up to {per_file} per file, and {in_all} in all"), (
                statement.inner_text()
            )
            boxes = page.locator("[data-testid='stFileUploaderDropzoneInstructions']")
            boxes.first.wait_for(timeout=30_000)
            texts = [boxes.nth(k).inner_text() for k in range(boxes.count())]
            assert len(texts) >= 3, texts  # references, system outputs, source (the other tabs' boxes too)
            assert all(text.startswith(f"{per_file.replace(' ', '')} per file") for text in texts), texts
            page.close()
