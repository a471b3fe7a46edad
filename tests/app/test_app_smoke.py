"""The app opens on the bundled MT sample and every page runs without exception (Streamlit AppTest)."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from streamlit.testing.v1 import AppTest

from dashboard.samples import load_sample
from tests.support.paths import ROOT
from tests.support.ui import choose_metrics

PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))


def test_overview_shows_bundled_systems_and_sacrebleu_scores():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()  # the router opens the overview
    assert not at.exception
    table = at.dataframe[0].value
    data = load_sample("mt")
    assert sorted(table.index) == sorted(data.systems)
    assert list(table["BLEU"]) == sorted(table["BLEU"], reverse=True)  # best first under the first metric
    refs = [list(r) for r in data.refs]
    for name, hyps in data.systems.items():
        expected = SacreBLEU().corpus_score(list(hyps), refs).score
        assert table.loc[name, "BLEU"] == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_its_own_with_the_sidebar(page):
    at = AppTest.from_file(str(ROOT / page), default_timeout=120).run()
    assert not at.exception, at.exception
    assert at.sidebar.multiselect(key="metrics_box").value  # no app.py around it: the page drew the frame


def test_the_router_reaches_every_page():
    from dashboard import navigation

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    assert not at.exception
    routed = [spec.file.relative_to(ROOT).as_posix() for spec in navigation.PAGES]
    assert sorted(routed) == PAGES  # every file in pages/ is in the navigation, and nothing else
    for page in routed:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
        assert len(at.sidebar.multiselect) == 1, page  # app.py drew the sidebar; the page did not draw another


def test_sidebar_choices_survive_a_page_switch():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    choose_metrics(at, ["bleu", "chrf"]).run()
    at.sidebar.checkbox(key="opt:bleu:lowercase").check().run()
    lowercased = at.session_state["metric_options"]["bleu"]
    for page in ("pages/teach.py", "pages/explorer.py", "pages/overview.py"):
        at.switch_page(page).run()
        assert at.sidebar.multiselect(key="metrics_box").value == ["bleu", "chrf"], page
        assert at.sidebar.checkbox(key="opt:bleu:lowercase").value, page
        assert at.session_state["metric_options"]["bleu"] == lowercased


def test_overview_shows_the_metrics_warnings():
    from tests.support.ui import app

    at = app("pages/overview.py", load_sample("mt"), ["bleu", "rougeLsum"]).run()
    assert not at.exception
    texts = [w.value for w in at.warning]
    assert any("equals ROUGE" in t for t in texts), texts  # one-line texts: no sentence breaks
    # German umlauts of names dropped by rouge-score: 12 of 600 references, a note in proportion, not a warning
    notes = [c.value for c in at.caption if "tokenizer drops" in c.value]
    assert len(notes) == 1 and notes[0].startswith("Note: 12 of 600 references and 25 of 1,500 system outputs have")
    assert not any("tokenizer drops" in t for t in texts), texts


def test_option_widgets_take_their_bounds_from_the_metadata_and_errors_are_escaped():
    from tests.support.ui import app

    at = app("pages/overview.py", load_sample("mt"), ["bleu", "cider"]).run()
    order = at.sidebar.number_input(key="opt:bleu:max_ngram_order")
    assert (order.label, order.min, order.max, order.step) == ("Max n-gram order N", 1, 9, 1)
    assert "geometric mean" in order.help
    at.sidebar.number_input(key="opt:cider:sigma").set_value(0.0).run()  # σ > 0: an open bound the box cannot hold
    errors = [e.value for e in at.error]
    # The message went through Markdown escaping (its brackets are escaped).
    assert any("sigma" in e and r"outside \(0\.0, inf\]" in e for e in errors), errors
    assert "metric_options" not in at.session_state  # nothing was applied


def test_a_list_of_numbers_option_is_a_text_box_the_config_parses():
    from tests.support.ui import app

    at = app("pages/overview.py", load_sample("mt"), ["bleu-nltk"]).run()
    box = at.sidebar.text_input(key="opt:bleu-nltk:weights")
    assert box.value == "" and "one per order" in box.help
    box.set_value("0.5, 0.5").run()  # two weights for four orders: refused, and said
    assert any("one weight per order" in e.value for e in at.error)
    at.sidebar.text_input(key="opt:bleu-nltk:weights").set_value("0.4, 0.3, 0.2, 0.1").run()
    assert not at.exception and not at.error
    assert at.session_state["metric_options"]["bleu-nltk"] == {"weights": "0.4, 0.3, 0.2, 0.1"}


def test_streamlit_still_needs_the_legacy_pages_workaround(monkeypatch):
    """A ``pages/`` folder beside ``app.py`` still puts AppTest runs (and a fresh server) in Streamlit's legacy mode,
    which runs a page file instead of ``app.py`` (``dashboard.legacy_pages``). The day this fails, Streamlit no
    longer needs the workaround: delete ``dashboard/legacy_pages.py`` and its call in ``dashboard.sidebar``."""
    from streamlit.runtime.pages_manager import PagesManager

    from dashboard import legacy_pages

    monkeypatch.setattr(PagesManager, "__init__", PagesManager.__init__.__wrapped__)  # undo the tests' served mode
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    left: list[bool] = []
    monkeypatch.setattr(legacy_pages, "hand_routing_to_app", lambda: left.append(True))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page("pages/data.py").run()
    assert not at.exception
    assert PagesManager.uses_pages_directory and left, "Streamlit ran pages/data.py through app.py by itself"
