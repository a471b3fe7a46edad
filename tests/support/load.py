"""Many browser sessions on one ``streamlit run app.py`` at once, as a class sharing a server uses it.

Each session (a Chromium context of its own: its own cookies, its own Streamlit session) gets data no other session
has — a reference and two systems whose names and words carry the session's number — and then, all sessions at the
same time: chooses the reference and the systems in quick succession (without waiting for the first to be
acknowledged), loads them, steps through segments with a burst of clicks, opens the Overview and Explorer, saves a
slice and finds it on the Analysis page. Every input is checked to have counted (every file listed, every click a
segment on), and every page a session sees is searched for the other sessions' system names, words and slice
names. The server's resident memory (its process tree) is sampled all along; every page load is timed.

Used by ``tests/browser/test_load.py`` and ``python -m benchmarks.load``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEGMENTS = 12
# No file watcher: a load run is about the server, not about edits made meanwhile (which would offer a rerun).
SERVER_OPTIONS = ("--server.headless", "true", "--server.fileWatcherType", "none")
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
WAIT_MS = 180_000  # a page may take long under load; the figures say how long it did


def tag(index: int) -> str:
    """What marks session ``index``'s data: in its system and slice names and in every line of its files."""
    return f"sess{index:02d}"


def system_names(index: int) -> tuple[str, str]:
    return (f"{tag(index)}-alpha", f"{tag(index)}-beta")


def slice_name(index: int) -> str:
    return f"{tag(index)}-slice"


def write_files(folder: Path, index: int) -> tuple[Path, list[Path]]:
    """Session ``index``'s reference and system files under ``folder``: ``SEGMENTS`` lines each, every line naming
    the session and its segment, the systems differing from the reference (and each other) in a word or two."""
    folder.mkdir(parents=True, exist_ok=True)
    mark = tag(index)
    ref = folder / f"{mark}-ref.txt"
    ref.write_text("".join(f"{mark} line {k} the cat sat on the mat today\n" for k in range(SEGMENTS)), "utf-8")
    systems = []
    for n, name in enumerate(system_names(index)):
        path = folder / f"{name}.txt"
        words = ("a cat sat on a mat today", "the dog sat on the mat")[n]
        path.write_text("".join(f"{mark} line {k} {words}\n" for k in range(SEGMENTS)), "utf-8")
        systems.append(path)
    return ref, systems


@dataclass
class SessionReport:
    index: int
    files_chosen: int = 0
    files_counted: int = 0
    clicks: int = 0
    moved: int = 0
    slices_saved: int = 0
    slices_seen: int = 0
    leaks: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    loads: dict[str, float] = field(default_factory=dict)  # seconds from request to the page's content, per page

    @property
    def lost(self) -> int:
        """Inputs that did not count: files not listed, clicks that moved nothing, a slice not found."""
        return (
            (self.files_chosen - self.files_counted)
            + (self.clicks - self.moved)
            + (self.slices_saved - self.slices_seen)
        )


@dataclass(frozen=True)
class LoadReport:
    sessions: tuple[SessionReport, ...]
    server_rss_before_mb: float
    server_rss_peak_mb: float
    wall_s: float

    @property
    def slowest(self) -> tuple[str, float]:
        """The slowest page load of any session: ``(page, seconds)``."""
        return max(((p, s) for r in self.sessions for p, s in r.loads.items()), key=lambda ps: ps[1])

    @property
    def lost(self) -> int:
        return sum(r.lost for r in self.sessions)

    @property
    def leaks(self) -> list[str]:
        return [leak for r in self.sessions for leak in r.leaks]

    @property
    def errors(self) -> list[str]:
        return [error for r in self.sessions for error in r.errors]

    def summary(self) -> str:
        page, seconds = self.slowest
        inputs = sum(r.files_chosen + r.clicks + r.slices_saved for r in self.sessions)
        return (
            f"{len(self.sessions)} sessions in {self.wall_s:.0f} s: {inputs} inputs, {self.lost} lost; "
            f"{len(self.leaks)} leaks; {len(self.errors)} errors; server memory {self.server_rss_before_mb:.0f} MB "
            f"before, {self.server_rss_peak_mb:.0f} MB at peak; slowest page {page} {seconds:.1f} s"
        )


def tree_rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` and its descendants, in MB (from /proc; 0 once it has ended)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return total / 1024


@contextmanager
def peak_rss(pid: int, every: float = 0.1) -> Iterator[list[float]]:
    """Sample ``pid``'s tree's memory in a thread while the block runs; the list holds the peak in MB."""
    peak = [tree_rss_mb(pid)]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(every):
            peak[0] = max(peak[0], tree_rss_mb(pid))

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield peak
    finally:
        done.set()
        thread.join()


def _foreign_marks(index: int, sessions: int) -> list[str]:
    return [tag(k) for k in range(sessions) if k != index]


async def _check(page: Any, report: SessionReport, sessions: int, where: str) -> None:
    """Search what the page shows (its text and every box's value) for the other sessions' marks, and for an
    exception box. (The data grids draw on a canvas; their rows come from the same session state as the text.)"""
    values = await page.locator("input, textarea").evaluate_all("(boxes) => boxes.map((box) => box.value)")
    text = "\n".join([await page.inner_text("body"), *values])
    report.leaks += [
        f"{tag(report.index)} saw {mark} on {where}" for mark in _foreign_marks(report.index, sessions) if mark in text
    ]
    if await page.locator("[data-testid='stException']").count():
        report.errors.append(f"{tag(report.index)}: an exception on {where}")


async def _open(page: Any, report: SessionReport, name: str, ready: Any) -> None:
    """Open page ``name`` through the app's navigation and time it until ``ready`` (a locator) is drawn."""
    start = time.perf_counter()
    await page.locator("[data-testid='stSidebarNav']").get_by_role("link", name=name, exact=True).click()
    await ready.first.wait_for(timeout=WAIT_MS)
    report.loads[name] = time.perf_counter() - start


async def _choose(page: Any, label: str, files: list[Path]) -> None:
    async with page.expect_file_chooser() as chooser:
        await page.locator(f"section[aria-label='{label}']").get_by_test_id("stBaseButton-secondary").click()
    await (await chooser.value).set_files([str(f) for f in files])


async def _settled_segment(page: Any) -> int:
    """The segment number the view shows once the page stopped running and the number held for 1.5 s."""
    box = page.get_by_role("spinbutton", name=f"Segment (1–{SEGMENTS})")
    value, since = None, time.time()
    deadline = since + WAIT_MS / 1000
    while time.time() < deadline:
        shown = await box.input_value()
        now = int(shown) if shown else None  # empty while a run replaces the box
        running = await page.locator("[data-testid='stStatusWidget']").count() > 0
        if now != value or running:
            value, since = now, time.time()
        elif now is not None and time.time() - since > 1.5:
            return now
        await page.wait_for_timeout(150)
    raise AssertionError("the segment view did not settle")


async def one_session(browser: Any, url: str, folder: Path, index: int, sessions: int, clicks: int) -> SessionReport:
    report = SessionReport(index)
    ref, systems = write_files(folder, index)
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(WAIT_MS)
    page = await context.new_page()
    try:
        start = time.perf_counter()
        await page.goto(f"{url}/data")
        await page.get_by_role("heading", name="Data").wait_for(timeout=WAIT_MS)
        report.loads["Data (first)"] = time.perf_counter() - start

        # the systems are chosen right after the reference, before the server has answered it
        await _choose(page, "References", [ref])
        await _choose(page, "System outputs", systems)
        report.files_chosen = 1 + len(systems)
        load = page.get_by_role("button", name="Replace the loaded data with these files")
        await load.wait_for(timeout=WAIT_MS)
        for path in (ref, *systems):
            try:
                await page.get_by_text(f"✓ {path.name}: {SEGMENTS} segments").wait_for(timeout=20_000)
                report.files_counted += 1
            except Exception:  # noqa: BLE001 - a file that never shows is a lost input, counted here
                report.errors.append(f"{tag(index)}: {path.name} was never listed")
        await load.click()
        await page.get_by_text("Uploaded files").first.wait_for(timeout=WAIT_MS)
        for n, name in enumerate(system_names(index), start=1):  # the old names show until the run ends
            await page.get_by_label(f"System {n}").and_(page.locator(f"[value='{name}']")).wait_for(timeout=WAIT_MS)
        await _check(page, report, sessions, "Data")

        await _open(page, report, "Overview", page.get_by_text("nrefs:1"))
        await _check(page, report, sessions, "Overview")

        await _open(page, report, "Segment", page.get_by_role("heading", name="Segment view"))
        await page.get_by_text(f"{tag(index)} line 0").first.wait_for(timeout=WAIT_MS)
        before = await _settled_segment(page)
        step_up = page.locator("[data-testid='stMain'] [data-testid='stNumberInputStepUp']").first
        for _ in range(clicks):
            await step_up.click()
            await page.wait_for_timeout(40)
        report.clicks = clicks
        after = await _settled_segment(page)
        report.moved = after - before
        await page.get_by_text(f"{tag(index)} line {after - 1}").first.wait_for(timeout=WAIT_MS)
        await _check(page, report, sessions, "Segment")

        await _open(page, report, "Explorer", page.get_by_role("heading", name="Sentence explorer"))
        await page.get_by_text("Save the filtered segments").first.click()
        await page.get_by_label("Slice name").fill(slice_name(index))
        await page.get_by_label("Slice name").press("Enter")
        await page.get_by_role("button", name="Save slice").click()
        report.slices_saved = 1
        await page.get_by_text(f"Saved slice {slice_name(index)}").wait_for(timeout=WAIT_MS)
        await _check(page, report, sessions, "Explorer")

        await _open(page, report, "Analysis", page.get_by_role("heading", name="Error analysis"))
        await page.get_by_text("Slices", exact=True).click()
        await page.get_by_text(slice_name(index), exact=True).first.wait_for(timeout=WAIT_MS)
        report.slices_seen = 1
        await _check(page, report, sessions, "Analysis")
    except Exception as err:  # noqa: BLE001 - one session's failure is a finding of the run, reported with it
        report.errors.append(f"{tag(index)}: {type(err).__name__}: {str(err).splitlines()[0]}")
    finally:
        await context.close()
    return report


async def _all_sessions(url: str, folder: Path, sessions: int, clicks: int, chromium: str) -> list[SessionReport]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=BROWSER_ARGS, headless=True)
        try:
            return await asyncio.gather(
                *(one_session(browser, url, folder, k, sessions, clicks) for k in range(sessions))
            )
        finally:
            await browser.close()


def run_load(url: str, pid: int, folder: Path, sessions: int = 10, clicks: int = 7, chromium: str = "") -> LoadReport:
    """Run ``sessions`` sessions at once against the server at ``url`` (process ``pid``); files go to ``folder``."""
    before = tree_rss_mb(pid)
    start = time.perf_counter()
    with peak_rss(pid) as peak:
        reports = asyncio.run(_all_sessions(url, folder, sessions, clicks, chromium or "/usr/bin/chromium"))
    return LoadReport(tuple(reports), before, peak[0], time.perf_counter() - start)
