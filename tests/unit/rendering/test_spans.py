"""Error spans drawn on a text (rendering.spans): every character drawn once and in order, each piece carrying
exactly the spans that cover it, several origins on lines of their own, source-side spans on the source, offsets as
code points (non-BMP, combining marks, CJK), and user text escaped everywhere (content and tooltips)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from metrics.core.spans import ErrorSpan, Severity, Side
from rendering.spans import BAR, TINT, origins, spans_html, spans_legend


class Pieces(HTMLParser):
    """The drawn text as (text, title, style) pieces, in order; a caret marker counts as a piece of its own."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[str, str | None, str | None, str]] = []
        self.open: list[tuple[str | None, str | None, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.open.append((found.get("title"), found.get("style"), found.get("class") or ""))

    def handle_endtag(self, tag: str) -> None:
        self.open.pop()

    def handle_data(self, data: str) -> None:
        title, style, css = self.open[-1] if self.open else (None, None, "")
        self.pieces.append((data, title, style, css))


def pieces(drawn: str) -> list[tuple[str, str | None, str | None, str]]:
    parser = Pieces()
    parser.feed(drawn)
    return parser.pieces


def text_of(drawn: str) -> str:
    return "".join(t for t, _, _, css in pieces(drawn) if css != "sl-err-point")


def covered(drawn: str) -> list[tuple[str, str]]:
    """(piece text, tooltip) of every marked piece."""
    return [(t, title or "") for t, title, _, css in pieces(drawn) if css == "sl-err"]


def test_overlapping_spans_cut_the_text_at_every_boundary() -> None:
    text = "The quick brown fox jumps"
    spans = (
        ErrorSpan(4, 15, "quick brown", Severity.MINOR, origin="xCOMET", confidence=0.625),
        ErrorSpan(10, 19, "brown fox", Severity.MAJOR, origin="rater A", category="Accuracy/Mistranslation"),
    )
    drawn = spans_html(text, spans)
    assert text_of(drawn) == text
    marked = covered(drawn)
    assert [t for t, _ in marked] == ["quick ", "brown", " fox"]
    assert marked[0][1] == "xCOMET: minor · confidence 0.625"
    assert marked[1][1] == "xCOMET: minor · confidence 0.625\nrater A: major · Accuracy/Mistranslation"
    assert marked[2][1] == "rater A: major · Accuracy/Mistranslation"
    styles = [style or "" for _, _, style, css in pieces(drawn) if css == "sl-err"]
    # The tint is the worst span's; each origin's bar keeps its line: xCOMET nearest the text, rater A below it.
    assert styles[0].endswith(f"{TINT[Severity.MINOR]};padding-bottom:10px")
    assert f"linear-gradient({BAR[Severity.MINOR]},{BAR[Severity.MINOR]}) 0 calc(100% - 5px)" in styles[1]
    assert f"linear-gradient({BAR[Severity.MAJOR]},{BAR[Severity.MAJOR]}) 0 calc(100% - 0px)" in styles[1]
    assert TINT[Severity.MAJOR] in styles[1] and BAR[Severity.MINOR] not in styles[2]
    assert "calc(100% - 0px)" in styles[2] and "calc(100% - 5px)" not in styles[2]


def test_one_origin_overlapping_itself_takes_its_worst_severity() -> None:
    spans = (
        ErrorSpan(0, 4, "abcd", Severity.MINOR, origin="m"),
        ErrorSpan(2, 6, "cdef", Severity.CRITICAL, origin="m"),
    )
    drawn = spans_html("abcdefg", spans)
    middle = [style for t, _, style, _ in pieces(drawn) if t == "cd"][0] or ""
    assert BAR[Severity.CRITICAL] in middle and BAR[Severity.MINOR] not in middle
    assert text_of(drawn) == "abcdefg"


def test_hostile_text_is_escaped_in_content_and_tooltips() -> None:
    text = 'ok <script>alert("x")</script> & done'
    start = text.index("<script>")
    spans = (ErrorSpan(start, start + 8, "<script>", Severity.CRITICAL, origin='<b onmouseover="x">', category="<i>"),)
    drawn = spans_html(text, spans)
    assert "<script>" not in drawn and "<b " not in drawn and "<i>" not in drawn
    assert text_of(drawn) == text
    assert covered(drawn) == [("<script>", '<b onmouseover="x">: critical · <i>')]
    legend = spans_legend(origins(spans))
    assert "<b " not in legend and html.escape('<b onmouseover="x">') in legend


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("a 😀 b 😀😀 c", 2, 3),  # non-BMP: one code point each
        ("a 😀 b 😀😀 c", 6, 8),
        ("cafe\u0301 au lait", 3, 5),  # e + combining acute: the span covers both code points
        ("cafe\u0301 au lait", 4, 5),  # the combining mark alone, as a producer may mark it
        ("我们今天去北京。", 4, 7),  # CJK
        ("👩‍👩‍👧 family", 0, 5),  # a ZWJ sequence
    ],
)
def test_offsets_are_code_points(text: str, start: int, end: int) -> None:
    span = ErrorSpan(start, end, text[start:end], Severity.MAJOR, origin="m")
    drawn = spans_html(text, (span,))
    assert text_of(drawn) == text
    assert [t for t, _ in covered(drawn)] == [text[start:end]]
    before = "".join(t for t, _, _, css in pieces(drawn)[:1] if css != "sl-err")
    assert before == text[:start]


def test_source_spans_are_drawn_on_the_source_only() -> None:
    source, output = "Der Hund bellt laut.", "The dog barks."
    spans = (
        ErrorSpan(15, 19, "laut", Severity.MAJOR, side=Side.SOURCE, origin="rater", category="Accuracy/Omission"),
        ErrorSpan(4, 7, "dog", Severity.MINOR, origin="model"),
    )
    lanes = origins(spans)
    on_source = spans_html(source, spans, Side.SOURCE, lanes)
    on_output = spans_html(output, spans, Side.TARGET, lanes)
    assert [t for t, _ in covered(on_source)] == ["laut"]
    assert [t for t, _ in covered(on_output)] == ["dog"]
    # The same origin sits on the same line on both texts: rater first (its span came first), model second.
    assert "calc(100% - 5px)" in (pieces(on_source)[1][2] or "")
    assert "calc(100% - 0px)" in ([s for t, _, s, _ in pieces(on_output) if t == "dog"][0] or "")


def test_a_span_of_no_characters_is_a_caret() -> None:
    spans = (ErrorSpan(3, 3, "", Severity.MAJOR, origin="rater", category="Accuracy/Omission"),)
    drawn = spans_html("abcdef", spans)
    marks = [(t, title) for t, title, _, css in pieces(drawn) if css == "sl-err-point"]
    assert marks == [("‸", "rater: major · Accuracy/Omission (between characters)")]
    assert text_of(drawn) == "abcdef" and drawn.index("‸") > drawn.index("abc")


def test_the_producers_own_text_is_said_when_it_differs() -> None:
    spans = (ErrorSpan(0, 5, "hello", Severity.MINOR, origin="m"),)
    assert covered(spans_html("Hello world", spans))[0][1] == "m: minor (its text: 'hello')"


def test_a_span_past_the_text_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"\[3, 12\).*past the end of its text \(5 characters\)"):
        spans_html("short", (ErrorSpan(3, 12, "rt and more", Severity.MINOR, origin="m"),))


def test_no_spans_draw_the_plain_escaped_text() -> None:
    drawn = spans_html("a < b", ())
    assert re.fullmatch(r'<div class="sl-text sl-spans" style="">a &lt; b</div>', drawn)


def test_legend_names_every_severity_and_the_lines() -> None:
    legend = spans_legend(("xCOMET-XL", "rater 1"))
    for severity in Severity:
        assert f">{severity.value}<" in legend
    assert "1. xCOMET-XL, 2. rater 1" in legend
    assert "nearest first: 1. xCOMET-XL</div>" in spans_legend(("xCOMET-XL",))
    assert "lines under the text" not in spans_legend(())
