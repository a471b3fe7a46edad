"""Escaping user text for HTML and Markdown: nothing a user uploads is ever interpreted as markup."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

# Every character Markdown (CommonMark + GitHub extensions + Streamlit's LaTeX and colour syntax) gives meaning.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:&\"'=^])")
# What Streamlit turns into a link or an image in the text a Markdown parser leaves (escapes already undone), so that
# a backslash cannot stop it: GitHub's autolink literals (``scheme://``, ``www.``, an address's ``@``), its logo
# (``:streamlit:``) and Material icons (``:material/name:``). An invisible word joiner (U+2060) between the
# characters does, and the text still reads and wraps as typed.
_SELF_MARKUP = re.compile(r"(?=://)|(?<=[Ww][Ww][Ww])(?=\.)|(?=@)|(?<=:)(?=material[/_]|streamlit:)")
WORD_JOINER = "\u2060"


def escape_html(text: str) -> str:
    """HTML-escape text, quotes included, for element content and attribute values alike."""
    return html.escape(text, quote=True)


def escape_plotly(text: str) -> str:
    """Escape text for a plotly label, title or hover text. Plotly reads a few HTML tags there (``<b>``,
    ``<a href>``…) and decodes only ``&amp;``, ``&lt;``, ``&gt;`` and a few other named entities (numeric ones too):
    ``&quot;`` would show literally, so only the three characters that can make or end a tag or an entity are
    escaped; without a ``<`` no tag can form, so quotes are safe as they are."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_markdown(text: str) -> str:
    """Backslash-escape Markdown, HTML and LaTeX syntax, and break what would become a link or an image by itself (a
    bare ``http://…``, ``www.…`` or e-mail address, ``:streamlit:``, ``:material/…:``), so that text is shown
    literally by ``st.markdown`` and every other element that renders Markdown (labels, captions, headings, tabs,
    expanders, radio options, help)."""
    defused = _SELF_MARKUP.sub(WORD_JOINER, text)
    return _MD_SPECIAL.sub(r"\\\1", defused).replace("\n", "  \n")


@dataclass(frozen=True)
class Span:
    """A highlighted region ``[start, end)`` of a text, with a CSS class and a tooltip."""

    start: int
    end: int
    css_class: str
    title: str = ""


def highlight(text: str, spans: Sequence[Span]) -> str:
    """``text`` as escaped HTML with ``spans`` wrapped in ``<span>``; overlapping spans keep the earliest start.

    Spans come from metric evidence (token offsets), the text from the user: both are escaped here, once.
    """
    out: list[str] = []
    cursor = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if span.start < cursor or span.end <= span.start or span.end > len(text):
            continue
        out.append(escape_html(text[cursor : span.start]))
        title = f' title="{escape_html(span.title)}"' if span.title else ""
        out.append(
            f'<span class="{escape_html(span.css_class)}"{title}>{escape_html(text[span.start : span.end])}</span>'
        )
        cursor = span.end
    out.append(escape_html(text[cursor:]))
    return "".join(out)
