"""Drive the real app in a real browser: ``streamlit run app.py`` in Chromium through Playwright.

Skips with a printed reason where Chromium or Playwright is missing, except under CI (``SCORELENS_REQUIRE_BROWSER=1``,
set by ``.ci/run``), where a missing browser is a failure (fixtures: tests/browser/conftest.py).
"""

from __future__ import annotations

import re
import time

import pytest

from dashboard.navigation import PAGES
from tests.support.browser import choose_files as _choose_files
from tests.support.browser import idle as _idle
from tests.support.paths import ROOT
from tests.support.serving import streamlit_server

ARTIFACTS = ROOT / "artifacts"


@pytest.mark.browser
def test_overview_table_in_chromium(app_url, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    start = time.perf_counter()
    page.goto(app_url)
    page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=90_000)
    page.locator("[data-testid='stDataFrame'] canvas").first.wait_for(timeout=30_000)
    page.get_by_text("nrefs:2").first.wait_for(timeout=30_000)
    elapsed = time.perf_counter() - start
    print(f"first table after {elapsed:.1f} s")
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("Signatures").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(1500)  # the data grid paints its canvas after it is attached
    page.screenshot(path=str(ARTIFACTS / "overview.png"), full_page=True)
    page.close()


SAMPLE = ROOT / "assets" / "samples" / "wmt22-de-en"


@pytest.mark.browser
def test_upload_overview_explorer_and_segment_in_chromium(app_url, browser):
    """Upload a reference and three systems through the file chooser, then open the overview, the explorer and,
    by clicking a row, the segment view; screenshot each. Navigation uses the app's links (one session)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    _choose_files(page, "References", [SAMPLE / "ref.A.txt"])
    _choose_files(page, "System outputs", [SAMPLE / "sys" / f"{n}.txt" for n in ("LT22", "Online-B", "PROMT")])
    page.get_by_text("PROMT.txt").last.wait_for(timeout=30_000)
    load = page.get_by_role("button", name="Replace the loaded data with these files")
    load.wait_for(timeout=30_000)
    load.click()
    page.get_by_text("Uploaded files").first.wait_for(timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "data.png"))

    start = time.perf_counter()
    page.get_by_role("link", name="Overview", exact=True).click()
    page.get_by_text("nrefs:1").first.wait_for(timeout=120_000)
    page.locator("[data-testid='stDataFrame'] canvas").first.wait_for(timeout=30_000)
    print(f"overview of the uploaded files after {time.perf_counter() - start:.1f} s")
    assert page.locator("[data-testid='stException']").count() == 0
    page.wait_for_timeout(1500)
    page.screenshot(path=str(ARTIFACTS / "upload_overview.png"))

    page.get_by_role("link", name="Explorer").click()
    page.get_by_role("heading", name="Sentence explorer").wait_for(timeout=60_000)
    grid = page.locator("[data-testid='stDataFrame']").first
    grid.locator("canvas").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    grid.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "explorer.png"))
    box = grid.bounding_box()
    assert box is not None
    start = time.perf_counter()
    page.mouse.click(box["x"] + 16, box["y"] + 36 + 5 * 35 + 17)  # the row marker of the sixth row (segment 6)
    page.get_by_role("heading", name="Segment view").wait_for(timeout=60_000)
    page.get_by_text("1-gram precision").first.wait_for(timeout=60_000)
    print(f"segment view after the row click {time.perf_counter() - start:.2f} s")
    assert page.get_by_label("Segment (1–300)").input_value() == "6"
    assert page.locator("[data-testid='stException']").count() == 0
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.wait_for_timeout(1000)
    page.screenshot(path=str(ARTIFACTS / "segment.png"))
    page.close()


@pytest.mark.slow
@pytest.mark.browser
def test_sidebar_options_survive_page_switches_in_chromium(app_url, browser):
    """app.py draws the sidebar once around every page, so an option set on one page holds on the others."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(app_url)
    page.get_by_text("nrefs:2").first.wait_for(timeout=90_000)
    sidebar = page.locator("[data-testid='stSidebar']")
    sidebar.get_by_text("bleu options").click()
    sidebar.get_by_text("Lowercase").first.click()
    page.get_by_text("case:lc").first.wait_for(timeout=60_000)
    page.get_by_role("link", name="Explorer").click()
    page.get_by_role("heading", name="Sentence explorer").wait_for(timeout=60_000)
    assert sidebar.get_by_role("checkbox", name="Lowercase").first.is_checked()
    page.get_by_role("link", name="Overview", exact=True).click()
    page.get_by_text("case:lc").first.wait_for(timeout=60_000)
    assert sidebar.locator("[data-testid='stMultiSelect']").count() == 1
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("path, heading", [("data", "Data"), ("explorer", "Sentence explorer")])
def test_deep_link_as_first_request_keeps_the_app_navigation(browser, path, heading):
    """A fresh server whose first request is a page's URL runs that page through app.py: its sessions, and every
    later one, get the app's navigation (no legacy "app" entry; Overview first) with the page's frame."""
    with streamlit_server() as server:
        for url in (f"{server.url}/{path}", server.url):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.get_by_role("heading", name=heading if url != server.url else "ScoreLens — overview").wait_for(
                timeout=90_000
            )
            links = page.locator("[data-testid='stSidebarNav'] a")
            links.first.wait_for(timeout=30_000)
            names = [link.inner_text().split("\n")[-1].strip() for link in links.all()]
            assert names == [spec.title for spec in PAGES], names
            page.locator("[data-testid='stSidebar'] [data-testid='stMultiSelect']").wait_for(timeout=30_000)
            assert page.locator("[data-testid='stException']").count() == 0
            assert page.get_by_text("Page not found").count() == 0
            page.close()


def _hidden_by_scrolling(page, selector: str) -> dict[str, int]:
    """How many pixels of the first element matching ``selector`` are out of view inside its own scroller (the data
    grid scrolls inside its frame): ``{"x": …, "y": …}``, both 0 when everything is in view."""
    return page.evaluate(
        """(selector) => {
            const scroller = document.querySelector(selector).querySelector('.dvn-scroller');
            return {x: scroller.scrollWidth - scroller.clientWidth, y: scroller.scrollHeight - scroller.clientHeight};
        }""",
        selector,
    )


@pytest.mark.slow
@pytest.mark.browser
def test_overview_shows_every_system_and_metric_column_of_fifteen_systems(app_url, browser, tmp_path):
    """15 systems (five WMT22 systems, three runs each) under the default metrics: the overview's table shows all 15
    rows and every column without scrolling, inside the page's width."""
    files = []
    for run in (1, 2, 3):
        for path in sorted((SAMPLE / "sys").glob("*.txt")):
            files.append(tmp_path / f"{path.stem} run {run}.txt")
            files[-1].write_bytes(path.read_bytes())
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    _choose_files(page, "References", [SAMPLE / "ref.A.txt"])
    _choose_files(page, "System outputs", files)
    page.get_by_text(files[-1].name).last.wait_for(timeout=30_000)
    page.get_by_role("button", name="Replace the loaded data with these files").click()
    page.get_by_text("Uploaded files").first.wait_for(timeout=60_000)
    page.get_by_role("link", name="Overview", exact=True).click()
    page.get_by_text("nrefs:1").first.wait_for(timeout=120_000)
    table = page.locator("[data-testid='stDataFrame']").first
    table.locator("canvas").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    rows = table.locator("[role='row']")
    assert rows.count() == 16  # the header and every system
    header = rows.first.inner_text()
    for label in ("BLEU", "chrF2", "TER", "95% CI", "p"):
        assert label in header, header
    assert _hidden_by_scrolling(page, "[data-testid='stDataFrame']") == {"x": 0, "y": 0}
    box, main = table.bounding_box(), page.locator("[data-testid='stMain']").bounding_box()
    assert box is not None and main is not None and box["x"] + box["width"] <= main["x"] + main["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1400, "height": 1600})
    page.screenshot(path=str(ARTIFACTS / "overview_15_systems.png"))
    page.close()


@pytest.mark.browser
def test_a_quote_in_an_uploaded_file_name_stays_a_quote(app_url, browser, tmp_path):
    """Browsers send a file name's double quote as %22 (HTML's multipart form encoding); the system is named as the
    file is, quote and all, and other characters pass untouched."""
    upload = tmp_path / 'my "best" run é&%20.txt'
    upload.write_bytes((SAMPLE / "sys" / "LT22.txt").read_bytes())
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    _choose_files(page, "System outputs", [upload])
    page.get_by_text(f"✓ {upload.name}: 300 segments").wait_for(timeout=30_000)
    page.get_by_role("button", name="Add these systems to the loaded data").click()
    page.get_by_label("System 6").wait_for(timeout=30_000)
    assert page.get_by_label("System 6").input_value() == 'my "best" run é&%20'
    page.close()


def _settled(page, box, timeout: float = 90) -> int:
    """The segment number the page shows once it has stopped running and the number held still for 1.5 s."""
    deadline, value, since = time.time() + timeout, None, time.time()
    while time.time() < deadline:
        now = int(box.first.input_value()) if box.count() == 1 else None  # two while a run replaces it
        running = page.locator("[data-testid='stStatusWidget']").count() > 0
        if now != value or running:
            value, since = now, time.time()
        elif now is not None and time.time() - since > 1.5:
            return now
        page.wait_for_timeout(150)
    raise AssertionError(f"the segment view did not settle within {timeout:.0f} s")


@pytest.mark.slow
@pytest.mark.browser
def test_next_clicks_of_eight_concurrent_sessions_are_not_lost(app_url, browser):
    """Eight sessions on one server step through segments at once with the segment box's +. Every click counts:
    the browser counts them and sends the number it reached, so a burst of three clicks faster than the loaded
    server answers moves exactly three segments (Streamlit folded a burst of button clicks into one), and the
    view never moves backwards."""
    sessions = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in range(8)]
    boxes = [page.get_by_label("Segment (1–300)") for page in sessions]
    steps = [page.locator("[data-testid='stMain'] [data-testid='stNumberInputStepUp']").first for page in sessions]
    for page in sessions:
        page.goto(f"{app_url}/segment")
    for page in sessions:
        page.get_by_text("1-gram precision").first.wait_for(timeout=120_000)
    shown = [_settled(page, box) for page, box in zip(sessions, boxes, strict=True)]
    for _ in range(3):
        for step in steps:
            step.click()
        now = [_settled(page, box) for page, box in zip(sessions, boxes, strict=True)]
        assert now == [s + 1 for s in shown]
        shown = now
    for _ in range(2):
        for _ in range(3):
            for page, step in zip(sessions, steps, strict=True):
                step.click()
                page.wait_for_timeout(30)
        now = [_settled(page, box) for page, box in zip(sessions, boxes, strict=True)]
        assert now == [s + 3 for s in shown], (shown, now)
        shown = now
    assert not any(page.locator("[data-testid='stException']").count() for page in sessions)
    for page in sessions:
        page.close()


@pytest.mark.slow
@pytest.mark.browser
def test_long_scoring_shows_segments_and_stops_keeping_what_finished(app_url, browser, tmp_path):
    """A workspace of 200 CNN/DailyMail summaries joined ten to a segment, two systems, BLEU and TER: the progress bar counts segments; Stop
    (after TER on the first system finished) leaves the page usable with BLEU and says what was not computed; the
    sidebar shows the workspace's metrics (not the ones the browser showed before); Continue computes only the
    rest."""
    import re

    from dashboard import workspace
    from dashboard.dataset import Dataset
    from metrics.io.inputs import read_segments

    folder = ROOT / "tests" / "data" / "cnndm"

    def documents(texts: tuple[str, ...]) -> tuple[str, ...]:  # ten summaries a segment: TER takes seconds
        return tuple(" ".join(texts[i : i + 10]) for i in range(0, len(texts), 10))

    systems = {
        p.name.split(".")[0]: documents(read_segments(p).texts) for p in sorted((folder / "sys").glob("*.sents.jsonl"))
    }
    first, second = list(systems)[:2]
    data = Dataset(
        "CNN/DM slice",
        {first: systems[first], second: systems[second]},
        (documents(read_segments(folder / "reference.sents.jsonl").texts),),
        ("reference",),
    )
    saved = tmp_path / "workspace.json"
    saved.write_text(workspace.dumps(data, workspace.Settings(("bleu", "ter"), {}, {})), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    page.get_by_role("tab", name="Workspace file").click()
    _choose_files(page, "Load a workspace file", [saved])
    page.get_by_role("button", name="Load workspace", exact=True).click()
    page.get_by_text("CNN/DM slice").first.wait_for(timeout=60_000)
    sidebar_metrics = page.locator("[data-testid='stSidebar'] [data-testid='stMultiSelect']")
    # the loaded settings give the metric box a new key: until the rerun ends, the browser still shows the old box
    page.wait_for_function(
        "document.querySelectorAll(\"[data-testid='stSidebar'] [data-testid='stMultiSelect']\").length === 1",
        timeout=60_000,
    )
    assert sidebar_metrics.inner_text().split("\n")[-2:] == ["BLEU (sacrebleu)", "TER (sacrebleu)"]

    page.get_by_role("link", name="Overview", exact=True).click()
    page.get_by_text(re.compile(rf"Scoring: TER on {first}: [\d,]+ of 20 segments · result 3 of 4")).wait_for(
        timeout=60_000
    )
    page.get_by_text("result 4 of 4").first.wait_for(timeout=60_000)  # TER on the first system is done
    page.get_by_role("button", name="Stop computing").click()
    page.get_by_text(f"Scoring was stopped; not computed: TER on {second}.").wait_for(timeout=30_000)
    page.get_by_text("nrefs:1|case:mixed|eff:no|tok:13a").first.wait_for(timeout=60_000)  # BLEU's signature
    assert page.get_by_text("TER on").count() == 1  # the note; no progress bar left
    assert page.locator("[data-testid='stException']").count() == 0
    page.get_by_role("link", name="Explorer").click()
    page.get_by_role("heading", name="Sentence explorer").wait_for(timeout=60_000)
    page.get_by_text(f"Scoring was stopped; not computed: TER on {second}.").wait_for(timeout=30_000)

    page.get_by_role("link", name="Overview", exact=True).click()
    page.get_by_role("button", name="Continue").click()
    # only what was left is computed (its progress line may come and go faster than a poll on an idle machine)
    page.get_by_text("nrefs:1|case:lc|tok:tercom").first.wait_for(timeout=120_000)
    assert page.get_by_text("Scoring was stopped").count() == 0
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()


@pytest.mark.slow
@pytest.mark.browser
def test_analysis_page_in_chromium(app_url, browser):
    """The Analysis page on the bundled sample: bucket chart and table, then the n-gram section; screenshot each."""
    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(app_url)
    page.get_by_text("nrefs:2").first.wait_for(timeout=90_000)
    start = time.perf_counter()
    page.get_by_role("link", name="Analysis").click()
    page.get_by_role("heading", name="Error analysis").wait_for(timeout=60_000)
    page.locator("[data-testid='stPlotlyChart']").first.wait_for(timeout=120_000)
    page.locator("[data-testid='stDataFrame'] canvas").first.wait_for(timeout=60_000)
    print(f"analysis buckets after {time.perf_counter() - start:.1f} s")
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("reference length (BLEU tokens (tok:13a))").count() >= 1
    page.wait_for_timeout(1500)
    page.screenshot(path=str(ARTIFACTS / "analysis_buckets.png"), full_page=True)
    page.get_by_text("N-grams A vs B", exact=True).click()
    page.get_by_text("matches more").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)
    assert page.locator("[data-testid='stException']").count() == 0
    page.screenshot(path=str(ARTIFACTS / "analysis_ngrams.png"), full_page=True)
    page.close()


def _cut_off(page, selector: str) -> list[dict[str, int]]:
    """For every element matching ``selector`` that is drawn (not folded away): how many pixels of it lie outside
    its parent's box, and how many are hidden in a scroller (data grids scroll inside ``.dvn-scroller``) across and
    down; all zeros when it is wholly in view."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter((el) => !el.closest('details:not([open])'))
            .map((el) => {
                const box = el.getBoundingClientRect(), frame = el.parentElement.getBoundingClientRect();
                const scroller = el.querySelector('.dvn-scroller') || el.parentElement;
                return {right: Math.max(0, Math.round(box.right - frame.right)),
                        across: Math.max(0, scroller.scrollWidth - scroller.clientWidth),
                        down: Math.max(0, scroller.scrollHeight - scroller.clientHeight)};
            })""",
        selector,
    )


@pytest.mark.slow
@pytest.mark.browser
def test_evidence_is_wholly_visible_at_1400_px_with_three_columns(app_url, browser):
    """Segment 10 (15–19 tokens per output) at the default three columns in a 1400 px window: each system's METEOR
    alignment shows every token (it showed 4 of 17), and the CIDEr-D tables show every column."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app_url}/segment")
    page.get_by_text("1-gram precision").first.wait_for(timeout=120_000)
    box = page.locator("[data-testid='stSidebar'] [data-testid='stMultiSelect'] input").first
    for name in ("METEOR", "CIDEr-D"):
        box.click()
        box.fill(name)
        page.keyboard.press("Enter")
        page.wait_for_timeout(1000)
    page.keyboard.press("Escape")
    page.locator("[data-testid='stSidebar']").get_by_role("button", name="Apply").click()  # the box is a form
    _idle(page)
    number = page.get_by_label("Segment (1–300)")
    number.fill("10")
    number.press("Enter")
    page.get_by_label("Segment (1–300)").and_(page.locator("[value='10']")).wait_for(timeout=60_000)
    ARTIFACTS.mkdir(exist_ok=True)
    for name, selector, count in (
        ("METEOR", "img[alt='word alignment']", 5),
        ("CIDEr-D", "[data-testid='stMain'] [data-testid='stDataFrame']", 11),  # the scores, two tables per system
    ):
        page.get_by_label("Evidence of").click()
        page.get_by_role("option", name=name).first.click()
        page.get_by_text(f"{name}, continued").first.wait_for(timeout=120_000)
        page.get_by_text("Explaining").wait_for(state="detached", timeout=120_000)
        page.wait_for_timeout(2000)
        assert _cut_off(page, selector) == [{"right": 0, "across": 0, "down": 0}] * count
        page.set_viewport_size({"width": 1400, "height": 3200})
        page.wait_for_timeout(1000)
        page.screenshot(path=str(ARTIFACTS / f"segment_{name.lower()}_three_columns.png"))
        page.set_viewport_size({"width": 1400, "height": 1000})
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()


def _select(page, label: str, option: str) -> None:
    """Choose ``option`` in the select box labelled ``label``."""
    page.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def _selected(page, label: str) -> str:
    return page.get_by_role("combobox", name=label, exact=True).input_value()


@pytest.mark.slow
@pytest.mark.browser
def test_explorer_and_analysis_choices_survive_a_visit_to_a_segment(app_url, browser):
    """The error-analysis loop: choose systems, a filter and a sort in the Explorer and a section and systems in
    Analysis, open a segment, come back: every choice is still set (Streamlit forgets a widget's state when a run
    does not draw it; dashboard.keys keeps them)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app_url}/explorer")
    page.get_by_role("heading", name="Sentence explorer").wait_for(timeout=90_000)
    _idle(page)
    _select(page, "Compare system A", "PROMT")
    _idle(page)
    _select(page, "with system B", "Online-B")
    _idle(page)
    text = page.get_by_label("Text contains")
    text.fill("the")
    text.press("Enter")
    _idle(page)
    _select(page, "Sort by", "PROMT · chrF2")
    _idle(page)
    page.get_by_text("Descending").click()
    _idle(page)
    page.get_by_role("button", name=re.compile(r"^#\d+$")).first.click()  # the first row of the side-by-side list
    page.get_by_role("heading", name="Segment view").wait_for(timeout=60_000)
    _idle(page)

    page.get_by_role("link", name="Analysis").click()
    page.get_by_role("heading", name="Error analysis").wait_for(timeout=60_000)
    _idle(page)
    page.get_by_text("N-grams A vs B", exact=True).click()
    _idle(page)
    _select(page, "System A", "Lan-Bridge")
    _idle(page)
    _select(page, "System B", "LT22")
    _idle(page)
    page.get_by_role("link", name="Segment").click()
    page.get_by_role("heading", name="Segment view").wait_for(timeout=60_000)
    _idle(page)

    page.get_by_role("link", name="Explorer").click()
    page.get_by_role("heading", name="Sentence explorer").wait_for(timeout=60_000)
    _idle(page)
    assert (_selected(page, "Compare system A"), _selected(page, "with system B")) == ("PROMT", "Online-B")
    assert page.get_by_label("Text contains").input_value() == "the"
    assert _selected(page, "Sort by") == "PROMT · chrF2"
    assert page.get_by_label("Descending").is_checked()

    page.get_by_role("link", name="Analysis").click()
    page.get_by_role("heading", name="Error analysis").wait_for(timeout=60_000)
    _idle(page)
    page.get_by_text("matches more").first.wait_for(timeout=30_000)  # the n-gram section, not the first one
    assert (_selected(page, "System A"), _selected(page, "System B")) == ("Lan-Bridge", "LT22")
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()


@pytest.mark.slow
@pytest.mark.browser
def test_a_paragraph_translation_upload_is_read_as_translation_and_one_click_changes_it(app_url, browser):
    """WMT23 he-en paragraphs (2–3 sentences, ~58 words a reference): the Data page shows the task read from the
    outputs with its reason; one click on summarization puts ROUGE in the sidebar's metric box."""
    para = ROOT / "tests" / "data" / "wmt23-he-en-para-src"
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    page.goto(f"{app_url}/data")
    page.get_by_role("heading", name="Data").wait_for(timeout=90_000)
    _choose_files(page, "References", [para / "ref.A.txt", para / "ref.B.txt"])
    _choose_files(page, "System outputs", sorted((para / "sys").glob("*.txt")))
    page.get_by_text("NLLB_Greedy.txt").last.wait_for(timeout=30_000)
    page.get_by_role("button", name="Replace the loaded data with these files").click()
    page.get_by_text("Uploaded files").first.wait_for(timeout=60_000)
    task = page.get_by_role("radiogroup", name="Task (sets the default metrics)")
    task.wait_for(timeout=30_000)
    assert task.get_by_role("radio", name="translation").is_checked()
    page.get_by_text("the outputs' lengths follow the references'").first.wait_for(timeout=30_000)
    sidebar = page.locator("[data-testid='stSidebar']")
    assert sidebar.get_by_text("BLEU (sacrebleu)").count() >= 1 and sidebar.get_by_text("ROUGE-1").count() == 0
    task.get_by_text("summarization").click()
    sidebar.get_by_text("ROUGE-1 (rouge-score)").first.wait_for(timeout=30_000)
    page.get_by_text("Detected: translation").first.wait_for(timeout=30_000)
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()
