"""Human error spans beside the metric evidence in the real browser at 1400 px: a workspace with MQM annotations
loaded on the Data page, the Segment view showing each output's raters' spans (tooltip: rater, severity, category)
above chrF's evidence of the same output, and a screenshot kept in artifacts/ —
WMT21 TED en→de (the bundled example's data) and zh→en (omissions marked on the Chinese source); and the bundled
example reached from the Data page in one click."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dashboard import annotation_io, workspace
from dashboard.dataset import Dataset
from dashboard.samples import load_sample
from metrics.annotations.model import Scheme
from tests.support.browser import Guard, choose_files, idle
from tests.support.paths import DATA, ROOT
from tests.support.serving import streamlit_server

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ARTIFACTS = ROOT / "artifacts"
ZH_EN = DATA / "wmt21-ted-zh-en-mqm"


def _zh_en() -> Dataset:
    def lines(path: Path) -> tuple[str, ...]:
        return tuple(path.read_text(encoding="utf-8").splitlines())

    systems = {p.stem: lines(p) for p in sorted((ZH_EN / "sys").iterdir())}
    data = Dataset("WMT21 TED zh-en, 8 segments", systems, (lines(ZH_EN / "ref.A.txt"),), ("ref.A",),
                   source=lines(ZH_EN / "src.txt"))  # fmt: skip
    ids = lines(ZH_EN / "ids.txt")
    marked = annotation_io.parse_annotation_upload(
        "mqm.tsv", (ZH_EN / "mqm.tsv").read_bytes(), Scheme.MQM, data, ids=ids
    )
    return data.with_annotations("mqm", marked)


def _open_segment(browser, tmp_path: Path, data: Dataset, segment: int, title: str, picture: str) -> None:  # type: ignore[no-untyped-def]
    saved = tmp_path / "workspace.json"
    settings = workspace.Settings(("chrf", *data.annotations), view={"segment": segment})
    saved.write_text(workspace.dumps(data, settings), encoding="utf-8")
    with streamlit_server() as server:
        guard = Guard(server.url)
        page = guard.watch(browser.new_page(viewport={"width": 1400, "height": 1000}))
        page.goto(f"{server.url}/data")
        page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
        page.get_by_role("tab", name="Workspace file").click()
        choose_files(page, "Load a workspace file", [saved])
        page.get_by_role("button", name="Load workspace", exact=True).click()
        page.get_by_text(title).first.wait_for(timeout=60_000)
        idle(page)
        page.get_by_role("link", name="Segment", exact=True).click()
        page.get_by_text("Human error spans on this output").first.wait_for(timeout=120_000)
        idle(page)
        n = len(data.systems)
        assert page.get_by_text("Human error spans on this output").count() == n, server.printed()
        assert page.locator(".sl-err[title^='rater']").count() >= 1, server.printed()
        assert page.get_by_text("1-gram precision").count() == 0  # chrF's evidence, not BLEU's
        assert page.locator(".sl-legend", has_text="severity:").count() >= n
        assert page.locator("[data-testid='stException']").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        # The page scrolls inside Streamlit's main block: the cards' tops (human spans, then chrF's evidence) in view.
        page.get_by_text("Human error spans on this output").first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollBy(0, -90)")
        page.wait_for_timeout(500)
        page.screenshot(path=str(ARTIFACTS / picture))
        assert guard.external == []
        page.close()


def test_segment_view_shows_mqm_spans_beside_chrf_evidence_en_de(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = load_sample("mqm")
    keep = ("Facebook-AI", "Nemo", "UEdin")
    for name in [s for s in data.systems if s not in keep]:
        data = data.without(name)
    _open_segment(browser, tmp_path, data, 0, "WMT21 TED English→German", "segment_mqm_spans_en_de.png")


def test_segment_view_marks_omissions_on_the_chinese_source_zh_en(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _zh_en()
    _open_segment(browser, tmp_path, data, 1, "WMT21 TED zh-en, 8 segments", "segment_mqm_spans_zh_en.png")


def test_the_bundled_mqm_example_shows_human_spans_after_one_click(app_url, browser) -> None:  # type: ignore[no-untyped-def]
    """A first-time user: Data → Bundled examples → the MQM example → Load example; the Segment view then draws
    the raters' spans on every output."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    page.get_by_role("tab", name="Bundled examples").click()
    page.get_by_role("combobox", name="Bundled example", exact=True).click()
    page.get_by_role("option", name="MQM error annotations").first.click()
    page.get_by_text("Default metrics: mqm, chrf, bleu").wait_for(timeout=30_000)
    page.get_by_role("button", name="Load example").click()
    page.get_by_text("WMT21 TED English→German with MQM error annotations").first.wait_for(timeout=60_000)
    idle(page)
    page.get_by_role("link", name="Segment", exact=True).click()
    page.get_by_text("Human error spans on this output").first.wait_for(timeout=120_000)
    idle(page)
    assert page.get_by_text("Human error spans on this output").count() == 5
    assert page.locator(".sl-err[title^='rater']").count() >= 5  # segment 1: every system has an error marked
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()


EN_ZH = DATA / "wmt22-en-zh"


def test_two_raters_spans_on_chinese_output_stay_apart(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A Chinese target (no MQM set with one is on this machine: a hand-made span file over WMT22 en→zh outputs):
    two raters' overlapping spans on one output, each on its own line, wrapped with the characters."""
    systems = {p.stem: tuple(p.read_text(encoding="utf-8").splitlines()[:4]) for p in sorted((EN_ZH / "sys").iterdir())}
    refs = tuple((EN_ZH / "ref.A.txt").read_text(encoding="utf-8").splitlines()[:4])
    data = Dataset("WMT22 en-zh, 4 segments", systems, (refs,), ("ref.A",))
    text = systems["Online-B"][1]
    records = [
        {"system": "Online-B", "segment": 1, "rater": "rater A", "start": 0, "end": text.index("，"),
         "severity": "minor", "category": "Style/Awkward"},
        {"system": "Online-B", "segment": 1, "rater": "rater B", "start": 2, "end": text.index("，") + 6,
         "severity": "major", "category": "Accuracy/Mistranslation"},
        {"system": "Lan-Bridge", "segment": 1, "rater": "rater A"},
    ]  # fmt: skip
    content = "\n".join(json.dumps(r, ensure_ascii=False) for r in records).encode()
    marked = annotation_io.parse_annotation_upload("spans.jsonl", content, Scheme.SPANS, data)
    _open_segment(
        browser,
        tmp_path,
        data.with_annotations("spans", marked),
        1,
        "WMT22 en-zh, 4 segments",
        "segment_spans_en_zh.png",
    )
