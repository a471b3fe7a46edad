"""Names a prepared file or workspace may carry — Markdown images and links, bare addresses, HTML, scripts, LaTeX
(``tests.support.hostile``) — in every name the app shows: each page, each Analysis section, the Data page with
hostile uploads pending, and the Teach page on a hostile segment render them as text. Every Markdown string of the
run (bodies, headings, captions, labels, button labels, tabs, expanders, radio and pill options, help, column help)
that carries user text is checked: no unescaped markup, no address, logo or icon Streamlit would turn into a link
or an image. The real browser's view of the same workspace is tests/browser/test_hostile_names.py."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import keys
from metrics.core.registry import SPECS
from rendering.text import WORD_JOINER
from tests.support.hostile import (
    FILE_NAMES,
    HTML_IMG,
    IMAGE,
    METRIC_NAMES,
    assert_user_text_inert,
    hostile_strings,
    hostile_workspace,
    inert_problems,
)
from tests.support.ui import ANALYSIS_SECTIONS as SECTIONS
from tests.support.ui import app, shown


def _hostile_app(page: str, **state: object) -> AppTest:
    data, settings = hostile_workspace()
    at = app(page, data, list(settings.metrics), **state)
    at.session_state[keys.SLICES] = settings.slices
    at.session_state[keys.METADATA] = settings.metadata
    at.session_state[keys.BASELINE] = HTML_IMG
    return at


def _checked(at: AppTest, where: str) -> int:
    assert not at.exception, (where, at.exception)
    count = assert_user_text_inert(at, where)
    assert count, f"{where}: no user text shown at all, so nothing was checked"
    return count


@pytest.mark.parametrize(
    "page", ["pages/overview.py", "pages/data.py", "pages/explorer.py", "pages/segment.py", "pages/teach.py"]
)
def test_every_page_shows_hostile_names_as_text(page):
    at = _hostile_app(page, ex_diff_metric=IMAGE, seg_metric=METRIC_NAMES[1]).run(timeout=120)
    _checked(at, page)


@pytest.mark.parametrize("section", SECTIONS)
def test_every_analysis_section_shows_hostile_names_as_text(section):
    at = _hostile_app("pages/analysis.py", an_section=section).run(timeout=120)
    _checked(at, section)


def test_pending_uploads_with_hostile_file_and_metric_names_are_shown_as_text():
    """File names (a file chooser cannot send '/') in the upload report, and an external metric's name in the
    button that adds it."""
    at = _hostile_app("pages/data.py").run(timeout=120)
    n = len(hostile_workspace()[0])
    files = [(f"{name}.txt", "\n".join(f"line {i}" for i in range(n)).encode(), "text/plain") for name in FILE_NAMES]
    at.file_uploader(key="up_systems").set_value(files)
    systems = list(hostile_workspace()[0].systems)
    wide = "\n".join(["\t".join(systems), *("\t".join(["0.5"] * len(systems)) for _ in range(n))]).encode()
    metric = "![evil](evil.invalid)"  # a metric name has no spaces, ':' or '=' (signature fields)
    at.file_uploader(key="up_external").set_value([(f"{metric}.tsv", wide, "text/tab-separated-values")])
    at.run(timeout=120)
    seen = " ".join(shown(s).replace(WORD_JOINER, "") for s in hostile_strings(at))
    for name in [*FILE_NAMES, f"Add metric {metric}"]:
        assert name in seen, name  # reported, literally
    _checked(at, "data page with uploads")


def test_teach_on_a_hostile_segment_shows_it_as_text():
    at = _hostile_app("pages/teach.py").run(timeout=120)
    at.selectbox(key=keys.TEACH_DS_SYSTEM.name).set_value(HTML_IMG)
    at.button(key="teach_ds_load").click().run(timeout=120)
    assert HTML_IMG in at.session_state[keys.TEACH_HYP.name]
    for metric_id in [m for m in ("bleu", "chrf", "ter", "rougeL") if m in SPECS]:
        at.selectbox(key=keys.TEACH_METRIC.name).set_value(metric_id).run(timeout=120)
        _checked(at, f"teach {metric_id}")


def test_the_check_finds_what_the_app_once_showed():
    """The check itself: a button label, a heading and a caption as the app wrote them before escaping every name
    and defusing addresses fail it."""
    assert inert_problems("Remove ![evil](//evil.invalid/e4.png)")
    assert inert_problems(r"**http\://evil\.invalid/x** — BLEU 1.0")
    assert inert_problems(r"**www\.evil\.invalid**") and inert_problems(r"evil@evil\.invalid")
    assert not inert_problems("**http\u2060\\://evil\\.invalid/x** — BLEU 1.0")
