"""Hostile names: Markdown, HTML, LaTeX and bare addresses a prepared file or workspace may carry in every name the
app shows (systems, references, the title, external metrics, human scores, slices, metadata columns and values,
file names), a workspace made of them, and the check that a page shows them as text.

Every payload contains ``evil``, so a check can tell the user's strings from the app's own, and every active one
sets ``window.__evil`` or opens a dialog if it ever runs; every address is under ``evil.invalid``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
from streamlit.testing.v1 import AppTest

from dashboard import workspace
from dashboard.dataset import Dataset
from metrics.analysis.slices import Slice
from metrics.families.external.scores import ExternalScores
from metrics.io.metadata import Metadata
from metrics.stats.human import HumanScores
from tests.support.ui import unescaped

MARKER = "evil"
IMAGE = "![evil](//evil.invalid/e4.png)"
LINK = "[evil](http://evil.invalid/06.png)"
BARE_URL = "http://evil.invalid/bare.png"
WWW = "www.evil.invalid"
EMAIL = "evil@evil.invalid"
HTML_IMG = "<img src=x onerror=\"window.__evil=1;alert('evil')\">"
SCRIPT = "<script>window.__evil=1;alert('evil')</script>"
LATEX = r"$\href{javascript:window.__evil=1}{evil}$"
JS_LINK = "[evil](javascript:window.__evil=1)"
ICONS = ":streamlit: :material/bug_report: evil"  # Streamlit's logo (an image) and a Material icon
PAYLOADS = (IMAGE, LINK, BARE_URL, WWW, EMAIL, HTML_IMG, SCRIPT, LATEX, JS_LINK, ICONS)
# External metric names cannot hold spaces, commas, ':', '=' or '|' (they are signature fields).
METRIC_NAMES = (IMAGE, "<b>evil</b>", WWW)
# File names cannot hold '/': what a file chooser can upload.
FILE_NAMES = ("[evil](javascript:alert(1))", "<img src=x onerror=alert('evil')>", WWW, EMAIL, LATEX, ":streamlit: evil")

SEGMENTS = (
    "the cat sat on the mat .",
    "a dog ran in the park today .",
    "hello world , said the man .",
    "he read the book quickly and left .",
    "it rained all day in the city .",
    "she sang a song for her friends .",
)


def _variant(k: int) -> tuple[str, ...]:
    """System ``k``'s outputs: the references with word ``k`` of each dropped, so that scores differ, and a payload
    at the end (segment texts reach the Teach page's lessons and the evidence views)."""
    out = []
    for i, line in enumerate(SEGMENTS):
        words = line.split()
        del words[k % len(words)]
        out.append(" ".join([*words, PAYLOADS[(k + i) % len(PAYLOADS)]]))
    return tuple(out)


def hostile_workspace() -> tuple[Dataset, workspace.Settings]:
    """Every name the app shows is a payload: one system per payload, the references, the title, the source's,
    human scores', external metrics' names and provenance, slices, metadata columns and document ids."""
    systems = {payload: _variant(k) for k, payload in enumerate(PAYLOADS)}
    n = len(SEGMENTS)
    rng = np.random.default_rng(7)
    external = {
        name: ExternalScores(
            name=name,
            source=f"{BARE_URL} {IMAGE}.tsv",
            scores={s: tuple(float(v) for v in rng.random(n)) for s in systems},
            lines={s: tuple(range(1, n + 1)) for s in systems},
            provenance=f"{LINK} {HTML_IMG} {LATEX}",
        )
        for name in METRIC_NAMES
    }
    human = HumanScores({s: rng.random(n) for s in systems}, source=f"{IMAGE} {WWW}")
    data = Dataset(
        title=f"{IMAGE} {BARE_URL}",
        systems=systems,
        refs=(SEGMENTS, tuple(s.upper() for s in SEGMENTS)),
        ref_names=(f"{IMAGE} {JS_LINK}", f"{BARE_URL} {HTML_IMG}"),
        source=tuple(f"{SCRIPT} {s}" for s in SEGMENTS),
        default_metrics=("bleu", "chrf", *METRIC_NAMES),
        human=human,
        external=external,
    )
    doc_ids = (IMAGE, IMAGE, BARE_URL, BARE_URL, LATEX, LATEX)
    metadata = Metadata(
        f"{WWW}.tsv",
        ("doc_id", f"{LINK} {EMAIL}"),
        {"doc_id": doc_ids, f"{LINK} {EMAIL}": (HTML_IMG, SCRIPT, HTML_IMG, SCRIPT, JS_LINK, JS_LINK)},
    )
    slices = (Slice(IMAGE, f"{BARE_URL} {LATEX}", (0, 1, 2)), Slice(HTML_IMG, WWW, (3, 4, 5)))
    settings = workspace.Settings(
        metrics=("bleu", "chrf", *METRIC_NAMES), view={"baseline": HTML_IMG}, slices=slices, metadata=metadata
    )
    return data, settings


def hostile_workspace_json() -> str:
    return workspace.dumps(*hostile_workspace())


# ------------------------------------------------------------------------------------------ AppTest checks

# Elements whose text is shown as typed (no Markdown): code, preformatted text, HTML (sanitized by st.html).
_PLAIN = {"Code", "Text", "Html", "Json", "Exception"}
# String fields Streamlit renders as Markdown: bodies, labels, help, progress text; widgets' options are Markdown
# in radios and select-sliders and in pills and segmented controls (select boxes show theirs as text).
_MARKDOWN_FIELDS = {"body", "label", "help", "text"}


def markdown_strings(at: AppTest) -> Iterator[str]:
    """Every string of the app's element tree that the browser renders as Markdown."""

    def walk(node: Any) -> Iterator[str]:
        proto = getattr(node, "proto", None)
        if proto is not None and type(proto).__name__ not in _PLAIN and hasattr(proto, "DESCRIPTOR"):
            yield from _from_proto(proto)
        for child in getattr(node, "children", {}).values():
            yield from walk(child)

    yield from walk(at._tree)


def _from_proto(proto: Any) -> Iterator[str]:
    kind = type(proto).__name__
    for field in proto.DESCRIPTOR.fields:
        value = getattr(proto, field.name)
        if field.name in _MARKDOWN_FIELDS and isinstance(value, str):
            yield value
        elif field.name == "options" and kind in {"Radio", "Slider"}:
            yield from (str(option) for option in value)
        elif field.name == "options" and kind == "ButtonGroup":
            yield from (option.content for option in value)
        elif field.name == "column_config" and isinstance(value, str) and value:
            for config in json.loads(value).values():
                if isinstance(config, dict) and isinstance(config.get("help"), str):
                    yield config["help"]
        elif hasattr(value, "DESCRIPTOR") and proto.HasField(field.name):  # a nested message (not a repeated one)
            yield from _from_proto(value)


# What Streamlit's Markdown makes of the text escapes leave: GitHub's autolink literals (remark-gfm), its logo and
# Material icons.
_SELF_MARKUP = re.compile(r"(https?://|www(?=\.))|[-.\w+]@[-\w]|:streamlit:|:material[/_]", re.IGNORECASE)


def inert_problems(body: str) -> list[str]:
    """Why a Markdown string holding user text would not render as text: unescaped markup, or an address that
    would turn into a link, an image or an icon by itself. Empty when it is safe."""
    problems = [f"unescaped {body[i]!r} at {i}" for i in unescaped(body)]
    shown = re.sub(r"\\(.)", r"\1", body, flags=re.S)
    problems += [f"becomes markup: {m.group(0)!r}" for m in _SELF_MARKUP.finditer(shown)]
    return problems


def hostile_strings(at: AppTest) -> list[str]:
    """The Markdown strings of the run that carry user text (the payloads' marker)."""
    return [s for s in markdown_strings(at) if MARKER in s.lower()]


def assert_user_text_inert(at: AppTest, where: str) -> int:
    """Fail on any Markdown string of the run that would render user text as markup; return how many were checked."""
    checked = hostile_strings(at)
    bad = {s: problems for s in checked if (problems := inert_problems(s))}
    assert not bad, f"{where}: user text would render as markup: {bad}"
    return len(checked)
