"""Shared helpers of the dashboard and rendering tests: hostile text, small datasets, and checks that HTML and
Markdown output show user text literally."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from dashboard import keys
from dashboard.dataset import Dataset
from metrics.core.registry import SPECS, available_metrics
from tests.support.paths import ROOT

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
LINK = "[click](javascript:alert(1))"
MATH = "$x$"
PAYLOADS = (SCRIPT, IMG, LINK, MATH)
# The Analysis page's sections, in its menu's order.
ANALYSIS_SECTIONS = (
    "Buckets",
    "Words by frequency",
    "N-grams A vs B",
    "Slices",
    "Documents",
    "Trust in differences",
    "Metric disagreement",
)
HOSTILE_LINE = f"the cat {SCRIPT} sat on {IMG} the mat {LINK} and {MATH} ."

# Tags and attributes our rendering functions emit; anything else in an HTML element came from user text.
ALLOWED_TAGS = {"div", "span", "b", "img", "style", "svg", "rect", "line", "text", "title"}
ALLOWED_ATTRS = {
    "class",
    "title",
    "style",
    "alt",
    "width",
    "height",
    "src",
    "x",
    "y",
    "x1",
    "x2",
    "y1",
    "y2",
    "rx",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "text-anchor",
    "font-size",
    "font-weight",
    "font-family",
    "xmlns",
    "viewbox",
    "role",
    "aria-label",
}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_html(body: str) -> tuple[list[tuple[str, dict[str, str | None]]], str]:
    """(tags with attributes, text content) of an HTML fragment; SVG images are decoded and included."""
    collector = _Collector()
    collector.feed(body)
    tags, text = list(collector.tags), "".join(collector.text)
    for tag, attrs in collector.tags:
        src = attrs.get("src") or ""
        if tag == "img" and src.startswith("data:image/svg+xml;base64,"):
            inner_tags, inner_text = parse_html(base64.b64decode(src.split(",", 1)[1]).decode("utf-8"))
            tags += inner_tags
            text += " " + inner_text
    return tags, text


def assert_safe_html(body: str) -> str:
    """Fail if ``body`` has a tag, attribute or URL our renderers never emit; return its text content."""
    tags, text = parse_html(body)
    for tag, attrs in tags:
        assert tag in ALLOWED_TAGS, f"unexpected <{tag}> in {body[:200]!r}"
        for name, value in attrs.items():
            assert name in ALLOWED_ATTRS, f"unexpected attribute {name}= on <{tag}>"
            assert not name.startswith("on")
            if name == "src":
                assert (value or "").startswith("data:image/svg+xml;base64,"), value
            assert "javascript:" not in (value or "").lower() or name == "title", (name, value)
    return text


def unescaped(body: str, specials: str = "<>$[]") -> list[int]:
    """Positions of ``specials`` in a Markdown body that no backslash escapes (the app never writes these itself)."""
    found, escaped = [], False
    for i, ch in enumerate(body):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in specials:
            found.append(i)
    return found


def assert_escaped_markdown(body: str) -> None:
    """No payload appears raw, and no HTML, LaTeX or link syntax is left unescaped in a Markdown body."""
    for payload in PAYLOADS:
        assert payload not in body, f"raw {payload!r} in Markdown {body!r}"
    assert unescaped(body) == [], f"unescaped markup in Markdown {body!r}"


def hostile_dataset(n: int = 3) -> Dataset:
    """Systems, references and source full of markup, scripts, links and LaTeX."""
    refs = tuple(f"{HOSTILE_LINE} number {i}" for i in range(n))
    return Dataset(
        title=f"title {SCRIPT} {MATH}",
        systems={
            SCRIPT: tuple(f"{HOSTILE_LINE} {i}" for i in range(n)),
            f"{LINK} {MATH}": tuple(f"a dog {IMG} ran {MATH} {i}" for i in range(n)),
        },
        refs=(refs, tuple(f"the dog {LINK} ran {i}" for i in range(n))),
        ref_names=(f"ref {IMG}", "ref2"),
        source=tuple(f"die Katze {SCRIPT} {MATH} {i}" for i in range(n)),
        default_metrics=("bleu",),
    )


def small_dataset() -> Dataset:
    refs = (
        "the cat sat on the mat .",
        "a dog ran in the park today .",
        "hello world",
        "he read the book quickly and left .",
    )
    return Dataset(
        title="small",
        systems={
            "alpha": ("the cat sat on the mat .", "a dog ran in a park .", "hello world", "he read a book and left ."),
            "beta": ("a cat sat on a mat", "the dog runs in the park today .", "hello", "quickly he read the book ."),
            "gamma": ("cat mat", "dog park", "world hello", "book read left"),
        },
        refs=(refs,),
        ref_names=("ref",),
        source=("die Katze", "ein Hund", "hallo Welt", "er las"),
        default_metrics=("bleu", "chrf"),
    )


def app(page: str, data: Dataset, metrics: list[str], **state: object) -> AppTest:
    """An AppTest of ``page`` (relative to the repository) with ``data`` and ``metrics`` preset, not yet run."""
    at = AppTest.from_file(str(ROOT / page), default_timeout=60)
    at.session_state["dataset"] = data
    at.session_state["metric_ids"] = list(metrics)
    at.session_state["segment"] = 0
    at.session_state["baseline"] = next(iter(data.systems))
    for key, value in state.items():
        at.session_state[key] = value
    return at


def html_bodies(at: AppTest) -> list[str]:
    return [element.proto.body for element in at.get("html")]


def markdown_bodies(at: AppTest) -> list[str]:
    bodies = [m.value for m in at.markdown] + [c.value for c in at.caption]
    bodies += [e.value for e in at.error] + [w.value for w in at.warning] + [i.value for i in at.info]
    return bodies


def plotly_specs(at: AppTest) -> list[str]:
    return [element.proto.spec for element in at.get("plotly_chart")]


def shown(markdown: str) -> str:
    """What a backslash-escaped Markdown body displays."""
    return re.sub(r"\\(.)", r"\1", markdown, flags=re.S)


# Every metric with a dedicated evidence view (metrics not installed are skipped by the tests).
ALL_VIEWS = (
    "bleu",
    "bleu-google",
    "bleu-nltk",
    "chrf",
    "chrf++",
    "rouge1",
    "rouge2",
    "rougeL",
    "rougeLsum",
    "rougeW",
    "rougeS",
    "rougeSU",
    "meteor",
    "ter",
    "wer",
    "cer",
    "cider",
    "characTER",
    "eed",
    "perplexity",
    "bertscore",
)


def installed_views() -> list:
    """The metrics of :data:`ALL_VIEWS` installed here; those needing the neural extra run under ``-m neural``."""
    return [
        pytest.param(m, marks=pytest.mark.neural) if SPECS[m].requires else m
        for m in ALL_VIEWS
        if m in available_metrics()
    ]


def with_downloads(at: AppTest) -> tuple[AppTest, dict[str, bytes]]:
    """Run ``at`` and keep the bytes of every download button, by file name, as the browser would receive them."""
    captured: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def capture(self, path_or_data, mimetype, kind, filename=None):
        captured[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MemoryMediaFileStorage, "load_and_get_id", capture)
        at.run()
    assert not at.exception, at.exception
    return at, captured


def setting_key(at: AppTest, name: str) -> str:
    """The key a settings widget (``metrics_box``, ``opt:…``, ``baseline_box``, ``resamples_box``) has now: loading
    data gives those widgets new keys (see :func:`dashboard.state.reset_widgets`)."""
    generation = at.session_state.get(keys.WIDGET_GENERATION, 0)
    return f"{name}@{generation}" if generation else name


def choose_metrics(at: AppTest, metric_ids: list[str]) -> AppTest:
    """Put ``metric_ids`` in the sidebar's metric box and press its Apply button (the box is in a form: its value
    reaches the app only with the button); the next ``run()`` applies them."""
    at.multiselect(key=setting_key(at, keys.METRICS_BOX)).set_value(metric_ids)
    at.button(key="metrics_apply").click()
    return at
