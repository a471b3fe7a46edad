"""Handouts: a lesson — the sentences it was built on, every step with its formulas, tables and drawings, the common
mistakes, the metric's limitations card and, optionally, its exercises as a worksheet — as one self-contained HTML
file and as a PDF.

The HTML holds no script and loads nothing: CSS is inline, drawings are inline SVG (:mod:`rendering.figure_svg`),
formulas are MathML (which browsers draw natively) when ``latex2mathml`` is installed (the ``handout`` extra), else
their LaTeX source. User text reaches it only escaped: as HTML text (``html.escape``), inside Markdown rendered with raw
HTML disabled, or through a lesson's own HTML (built with ``escape_html``); the result is refused if a ``<script``
tag appears all the same.

The PDF is written by ``fpdf2`` (pure Python: no browser on the server), with the formulas as plain text, the drawings
as the same SVG and a Unicode font from the system (:data:`FONT_PATHS`; CJK through Noto Sans CJK when installed).
"""

from __future__ import annotations

import html
import importlib.util
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from markdown_it import MarkdownIt

from rendering.exercises import Exercise
from rendering.figure_svg import figure_svg
from rendering.teach import Lesson, Step, num

_MARKDOWN = MarkdownIt("commonmark", {"html": False})  # raw HTML in Markdown stays text
_SCRIPT = re.compile(r"<\s*script", re.IGNORECASE)

CSS = """
body{font-family:"Noto Sans","Noto Sans CJK SC","Noto Sans CJK JP",system-ui,sans-serif;max-width:60rem;margin:2rem auto;
padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
.score{font-size:1.1rem}.summary{font-family:monospace;background:#f5f5f5;padding:.4rem .6rem;white-space:pre-wrap}
dl.pair{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.pair dt{font-weight:bold;color:#555}
dl.pair dd{margin:0;white-space:pre-wrap}
section.step{break-inside:avoid;page-break-inside:avoid;margin-top:1.2rem}
.formulas{margin:.6rem 0}.formulas math{display:block;margin:.3rem 0;font-size:1.1rem}
pre.tex{background:#f7f7f7;padding:.3rem .5rem;white-space:pre-wrap}
table{border-collapse:collapse;margin:.4rem 0;font-size:.85rem}td,th{border:1px solid #ccc;padding:.15rem .4rem}
th{background:#f0f0f0;text-align:left!important}caption{text-align:left;font-weight:bold;font-size:.85rem}
figure{margin:.5rem 0;overflow-x:auto}
.predict{border:1px dashed #999;padding:.4rem .6rem;margin:.5rem 0;background:#fffbea}
.predict li{margin:.3rem 0}.blank{display:inline-block;min-width:6rem;border-bottom:1px solid #333}
.card{background:#f4f8fb;padding:.2rem 1rem;border-left:4px solid #4a7fb0}
footer{margin-top:2rem;color:#777;font-size:.8rem}
@page{size:A4;margin:15mm}@media print{body{margin:0;max-width:none}a{color:inherit}}
"""


@dataclass(frozen=True)
class Pair:
    """The texts a lesson was built on."""

    hyp: str
    refs: tuple[str, ...]
    source: str | None = None

    def rows(self) -> list[tuple[str, str]]:
        rows = [("Source", self.source)] if self.source is not None else []
        rows.append(("Hypothesis", self.hyp))
        rows += [(f"Reference {k + 1}" if len(self.refs) > 1 else "Reference", r) for k, r in enumerate(self.refs)]
        return rows


class UnsafeHandout(ValueError):
    """A handout that would hold a script: a lesson put unescaped text into its HTML."""


def markdown_html(text: str) -> str:
    """Markdown (lesson prose, already escaped where it holds user text) as HTML, raw HTML kept as text."""
    return _MARKDOWN.render(text)


def formula_html(latex: str) -> str:
    """A formula as MathML (drawn by the browser, no script), or its LaTeX source without ``latex2mathml``."""
    try:
        from latex2mathml.converter import convert
    except ImportError:
        return f'<pre class="tex">{html.escape(latex)}</pre>'
    return convert(latex, display="block")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return num(value)
    return "" if value is None else str(value)


def table_html(label: str, frame: pd.DataFrame) -> str:
    """A step's table with its label as caption; every cell escaped (``to_html(escape=True)``)."""
    shown = frame.map(_cell) if len(frame) else frame
    table = shown.to_html(index=False, escape=True, border=0, na_rep="")
    caption = f"<caption>{html.escape(label)}</caption>"
    return re.sub(r"<table[^>]*>", lambda m: m.group(0) + caption, table, count=1)


def _worksheet(asked: Sequence[Exercise]) -> str:
    if not asked:
        return ""
    items = "".join(
        f"<li>{markdown_html(e.question).strip().removeprefix('<p>').removesuffix('</p>')} "
        f'<span class="blank"></span> <small>({html.escape(e.tolerance)})</small></li>'
        for e in asked
    )
    return f'<div class="predict"><strong>Predict before reading on:</strong><ol>{items}</ol></div>'


def step_html(step: Step, asked: Sequence[Exercise] = ()) -> str:
    parts = [_worksheet(asked), f"<h2>{html.escape(step.title)}</h2>"]
    if step.text:
        parts.append(markdown_html(step.text))
    if step.formulas:
        parts.append('<div class="formulas">' + "".join(formula_html(f) for f in step.formulas) + "</div>")
    parts += [table_html(t.label, t.frame) for t in step.tables]
    if step.figure is not None:
        parts.append(f"<figure>{figure_svg(step.figure)}</figure>")
    if step.html:
        parts.append(step.html)
    return '<section class="step">' + "".join(parts) + "</section>"


def handout_html(
    lesson: Lesson,
    pair: Pair | None = None,
    *,
    card: str | None = None,
    exercises: Sequence[Exercise] = (),
    settings: Sequence[str] = (),
    title: str = "",
) -> str:
    """The whole lesson as one HTML document (see the module's docstring for what it may hold)."""
    heading = html.escape(title or f"{lesson.name}, step by step")
    # A lesson of several sentences (corpus lessons, MQM) shows its texts in its own steps: no pair then.
    rows = pair.rows() if pair is not None else []
    pair_rows = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in rows)
    body = [
        f"<header><h1>{heading}</h1>",
        f'<p class="score">{html.escape(lesson.name)} = <strong>{html.escape(lesson.score_text)}</strong></p>',
        f'<dl class="pair">{pair_rows}</dl>' if pair_rows else "",
    ]
    if settings:
        body.append("<p>Settings: " + "; ".join(html.escape(s) for s in settings) + "</p>")
    if lesson.summary:
        body.append(f'<p class="summary">{html.escape(lesson.summary)}</p>')
    body.append("</header>")
    for k, step in enumerate(lesson.steps):
        body.append(step_html(step, [e for e in exercises if e.step == k]))
    if lesson.mistakes:
        body.append(
            '<section class="step"><h2>Common mistakes</h2><ul>'
            + "".join(f"<li>{markdown_html(m)}</li>" for m in lesson.mistakes)
            + "</ul></section>"
        )
    if card:
        body.append(f'<section class="step card"><h2>Limitations</h2>{markdown_html(card)}</section>')
    if exercises:
        answers = "".join(f"<li>{html.escape(e.key)}: {html.escape(e.shown())}</li>" for e in exercises)
        body.append(f'<section class="step"><h2>Answers</h2><ol>{answers}</ol></section>')
    notes = "".join(f"<p>{html.escape(n)}</p>" for n in lesson.notes)
    body.append(f"<footer>{notes}<p>Made with ScoreLens's Teach page.</p></footer>")
    document = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{heading}</title><style>{CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )
    if _SCRIPT.search(document):
        raise UnsafeHandout("the handout would hold a <script> tag: a lesson's HTML is not escaped")
    return document


# ---------------------------------------------------------------------------------------------------------------
# PDF

# Unicode fonts looked for, first found wins: Latin/Greek/maths, then CJK as a fallback (fonts-dejavu-core and
# fonts-noto-cjk on Debian/Ubuntu, the same files on Fedora; Arial Unicode on macOS).
FONT_PATHS: tuple[tuple[str, ...], ...] = (
    (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
        "/Library/Fonts/Arial Unicode.ttf",
    ),
    (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    ),
)


class HandoutUnavailable(RuntimeError):
    """The PDF cannot be made here; the message says what to install."""


def pdf_missing() -> str:
    """Why no PDF can be made here ("" when it can): fpdf2 or a Unicode font missing."""
    if importlib.util.find_spec("fpdf") is None:
        return 'A PDF needs fpdf2: pip install "scorelens[handout]" (the HTML prints to PDF from a browser too).'
    if fonts()[0] is None:
        return "A PDF needs a Unicode font on the server (fonts-dejavu-core); the HTML prints to PDF from a browser."
    return ""


def fonts() -> tuple[Path | None, Path | None]:
    """(the Unicode text font, the CJK fallback font) found on this machine."""
    found = [next((Path(p) for p in group if Path(p).is_file()), None) for group in FONT_PATHS]
    return found[0], found[1]


_LATEX_WORDS = {
    r"\cdot": "·", r"\times": "×", r"\le": "≤", r"\ge": "≥", r"\to": "→", r"\Rightarrow": "⇒", r"\infty": "∞",
    r"\sum": "Σ", r"\beta": "β", r"\alpha": "α", r"\gamma": "γ", r"\approx": "≈", r"\neq": "≠", r"\top": "ᵀ",
    r"\lVert": "‖", r"\rVert": "‖", r"\quad": "  ", r"\qquad": "    ", r"\;": " ", r"\,": " ", r"\ ": " ",
    r"\%": "%", r"\#": "#", r"\_": "_", r"\$": "$", r"\textbackslash": "\\", r"\^": "^", r"\~": "~",
}  # fmt: skip
_FRAC = re.compile(r"\\[dt]?frac\{((?:[^{}]|\{[^{}]*\})*)\}\{((?:[^{}]|\{[^{}]*\})*)\}")
_KEPT = {r"\{": "\ue000", r"\}": "\ue001", r"\&": "\ue002"}  # held in private-use characters meanwhile
_ACCENT = {"bar": "\u0304", "hat": "\u0302"}  # combining macron and circumflex: p̄, x̂
_WRAPPER = re.compile(r"\\(?:text|mathrm|mathit|mathbf|operatorname)\{((?:[^{}]|\{[^{}]*\})*)\}")


def plain_formula(latex: str) -> str:
    """A LaTeX formula as readable plain text (the PDF has no maths typesetting): fractions as (a)/(b), aligned lines
    as lines, Greek letters and operators as their Unicode characters."""
    text = latex.replace("\\\\", "\n")  # aligned and cases lines first: "\\ " is no "\ " (a space)
    for escaped, kept in _KEPT.items():  # user text's braces and ampersands are no LaTeX structure
        text = text.replace(escaped, kept)
    text = re.sub(r"\\begin\{(?:aligned|cases)\}|\\end\{(?:aligned|cases)\}", "", text)
    text = re.sub(
        r"\\(bar|hat)\s*(?:\{([^{}]*)\}|(\w))", lambda m: (m.group(2) or m.group(3)) + _ACCENT[m.group(1)], text
    )
    text = re.sub(r"\\(?:big|Big|bigg|Bigg|left|right)(?=[()\[\]|.])", "", text)
    for _ in range(6):  # nested fractions and wrappers, innermost first
        text = _WRAPPER.sub(lambda m: m.group(1), text)
        text = _FRAC.sub(lambda m: f"({m.group(1)})/({m.group(2)})", text)
    for word, char in sorted(_LATEX_WORDS.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(word, char)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)  # \log, \exp, \max, \min … as words
    text = text.replace("&", "").replace("{", "").replace("}", "")
    for escaped, kept in _KEPT.items():
        text = text.replace(kept, escaped[1:])
    return "\n".join(re.sub(r"\s+", " ", line).strip() for line in text.splitlines() if line.strip())


def handout_pdf(
    lesson: Lesson,
    pair: Pair | None = None,
    *,
    card: str | None = None,
    exercises: Sequence[Exercise] = (),
    settings: Sequence[str] = (),
    title: str = "",
) -> bytes:
    """The lesson as an A4 PDF (see the module's docstring); :class:`HandoutUnavailable` without ``fpdf2`` or a
    Unicode font."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise HandoutUnavailable('the PDF handout needs fpdf2: pip install "scorelens[handout]"') from None
    text_font, cjk_font = fonts()
    if text_font is None:
        raise HandoutUnavailable("no Unicode font found for the PDF (install fonts-dejavu-core)")
    pdf = FPDF(format="A4")
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(True, 15)
    pdf.add_font("text", fname=str(text_font))
    fallbacks = []
    if cjk_font is not None:
        pdf.add_font("cjk", fname=str(cjk_font))
        fallbacks.append("cjk")
    pdf.set_fallback_fonts(fallbacks)
    pdf.set_title(title or f"{lesson.name}, step by step")
    pdf.add_page()
    width = pdf.epw

    def write(text: str, size: float = 10, *, gap: float = 1.5, colour: tuple[int, int, int] = (34, 34, 34)) -> None:
        pdf.set_font("text", size=size)
        pdf.set_text_color(*colour)
        pdf.multi_cell(width, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(gap)

    write(title or f"{lesson.name}, step by step", 16, gap=2)
    write(f"{lesson.name} = {lesson.score_text}", 12)
    for label, value in pair.rows() if pair is not None else []:
        write(f"{label}: {value}", 10, gap=0.5)
    if settings:
        write("Settings: " + "; ".join(settings), 9)
    if lesson.summary:
        write(lesson.summary, 9, colour=(80, 80, 80))
    for k, step in enumerate(lesson.steps):
        asked = [e for e in exercises if e.step == k]
        if asked:
            lines = [f"{n + 1}. {_markdown_text(e.question)} ______ ({e.tolerance})" for n, e in enumerate(asked)]
            write("Predict before reading on:\n" + "\n".join(lines), 10, colour=(120, 90, 0))
        pdf.ln(2)
        write(step.title, 13, gap=1)
        if step.text:
            write(_markdown_text(step.text), 10)
        for formula in step.formulas:
            write(plain_formula(formula), 10, colour=(20, 50, 120))
        for table in step.tables:
            _pdf_table(pdf, table.label, table.frame)
        if step.figure is not None:
            svg = figure_svg(step.figure, "cjk" if cjk_font is not None else "text").encode()
            pdf.image(io.BytesIO(svg), w=min(width, _svg_width(svg) * 0.26))
            pdf.ln(2)
    if lesson.mistakes:
        write("Common mistakes", 13, gap=1)
        for mistake in lesson.mistakes:
            write("• " + _markdown_text(mistake), 10, gap=0.8)
    if card:
        write("Limitations", 13, gap=1)
        write(_markdown_text(card), 10)
    if exercises:
        write("Answers", 13, gap=1)
        write("\n".join(f"{e.key}: {e.shown()}" for e in exercises), 10)
    for note in lesson.notes:
        write(note, 8, colour=(110, 110, 110))
    return bytes(pdf.output())


def _svg_width(svg: bytes) -> float:
    match = re.search(rb'width="([\d.]+)"', svg)
    return float(match.group(1)) if match else 600.0


def _markdown_text(text: str) -> str:
    """Markdown prose as plain text: emphasis and backslash escapes removed (the PDF shows text, not Markdown)."""
    plain = re.sub(r"\*\*(.+?)\*\*|\*(.+?)\*", lambda m: m.group(1) or m.group(2), text)
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", plain)  # CommonMark: any ASCII punctuation may be escaped


def _pdf_table(pdf: Any, label: str, frame: pd.DataFrame) -> None:
    from fpdf.fonts import FontFace

    pdf.set_font("text", size=8)
    pdf.set_text_color(60, 60, 60)
    pdf.multi_cell(pdf.epw, 4, label, new_x="LMARGIN", new_y="NEXT")
    # Headings in the regular face: the fonts found are single faces, with no bold to add.
    headings = FontFace(emphasis="NONE", fill_color=(240, 240, 240))
    with pdf.table(text_align="LEFT", line_height=4.5, headings_style=headings) as table:
        table.row([str(c) for c in frame.columns])
        for _, row in frame.head(60).iterrows():
            table.row([_cell(v) for v in row])
    pdf.ln(2)
