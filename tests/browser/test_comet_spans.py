"""xCOMET's error spans in the real browser at 1400 px: a seeded xCOMET checkpoint (tests/support/comet_checkpoints.py)
offered by the server's ``SCORELENS_MODELS``, a workspace of WMT22 de-en (tests/data/wmt22-de-en: source, three
systems, one reference) scoring ``comet`` with it; the Segment view draws the spans on every output, each with its
tooltip, the legend and xCOMET's parts, nothing runs that the text holds, and a screenshot is kept
(artifacts/segment_comet_spans.png)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.browser import Guard, choose_files, idle
from tests.support.paths import DATA, ROOT
from tests.support.serving import streamlit_server

pytestmark = [pytest.mark.neural, pytest.mark.slow, pytest.mark.browser]
pytest.importorskip("torch")

ARTIFACTS = ROOT / "artifacts"
DE_EN = DATA / "wmt22-de-en"
SYSTEMS = ("JDExploreAcademy", "Online-B", "PROMT")
SEGMENTS = 6
HOSTILE = ' <script>window.__spans_ran = 1</script> <img src=x onerror="window.__spans_ran = 1">'


def _lines(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").splitlines()[:SEGMENTS])


def test_segment_view_draws_xcomet_spans_at_1400_px(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from dashboard import workspace
    from dashboard.dataset import Dataset
    from tests.support.comet_checkpoints import BY_NAME, build

    model = build(BY_NAME["xcomet"], tmp_path / "xcomet-seeded")
    listing = tmp_path / "models.json"
    listing.write_text(json.dumps({"comet.model": {"xCOMET (seeded test model)": str(model)}}), encoding="utf-8")
    systems = {name: _lines(DE_EN / "sys" / f"{name}.txt") for name in SYSTEMS}
    systems["PROMT"] = (systems["PROMT"][0] + HOSTILE, *systems["PROMT"][1:])
    data = Dataset("WMT22 de-en, 6 segments", systems, (_lines(DE_EN / "ref.A.txt"),), ("ref.A",),
                   source=_lines(DE_EN / "src.txt"))  # fmt: skip
    saved = tmp_path / "workspace.json"
    settings = workspace.Settings(("comet",), {"comet": {"model": str(model)}}, {})
    saved.write_text(workspace.dumps(data, settings), encoding="utf-8")

    env = {**os.environ, "SCORELENS_MODELS": str(listing), "HF_HUB_OFFLINE": "1"}
    with streamlit_server(env=env) as server:
        guard = Guard(server.url)
        page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 1000}))
        page.goto(f"{server.url}/data")
        page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
        page.get_by_role("tab", name="Workspace file").click()
        choose_files(page, "Load a workspace file", [saved])
        page.get_by_role("button", name="Load workspace", exact=True).click()
        page.get_by_text("WMT22 de-en, 6 segments").first.wait_for(timeout=60_000)
        idle(page)
        page.get_by_role("link", name="Segment", exact=True).click()
        page.wait_for_function(  # every system's card drawn
            f"document.querySelectorAll('.sl-spans + .sl-legend').length === {len(SYSTEMS)}", timeout=180_000
        )
        idle(page)
        outputs = page.locator(".sl-spans", has=page.locator(".sl-err"))
        assert outputs.count() >= 1, server.printed()
        first = page.locator(".sl-err").first
        title = first.get_attribute("title") or ""
        assert title.startswith("xcomet-seeded: ") and "confidence" in title, title
        assert page.locator(".sl-legend", has_text="severity:").count() == len(SYSTEMS)
        assert page.locator(".sl-legend", has_text="1. xcomet-seeded").count() == outputs.count()
        assert page.get_by_text("mqm", exact=True).count() >= 1
        page.get_by_text(HOSTILE.strip()[:30]).first.wait_for(timeout=10_000)  # drawn as text
        assert page.evaluate("() => window.__spans_ran === undefined")
        assert page.locator("[data-testid='stException']").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        # The page scrolls inside Streamlit's main block, not the window: bring the cards into view for the picture.
        page.get_by_text("Signature of the segment scores").first.scroll_into_view_if_needed()
        page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollBy(0, 260)")
        page.wait_for_timeout(500)
        page.screenshot(path=str(ARTIFACTS / "segment_comet_spans.png"))
        assert guard.external == []
        page.close()
