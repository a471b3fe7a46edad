"""Handouts (rendering.handout, rendering.figure_svg): every step, table and drawing of a lesson in one HTML file with
no script and nothing loaded, user text escaped; the PDF with an embedded font that draws CJK text."""

from __future__ import annotations

import sys
from html.parser import HTMLParser

import plotly.graph_objects as go
import pytest

from rendering import exercises, handout, teach
from rendering.figure_svg import figure_svg
from rendering.teach_classics import CLASSICS
from rendering.teach_figures import alignment, lcs_grid
from tests.unit.rendering.test_teach import READY, lesson_for

HOSTILE = 'the cat <script>alert(1)</script> <img src=x onerror="alert(2)"> & **bold** $x$ is on the mat'
LOADS = {"src", "href", "srcset", "action", "formaction", "data", "poster", "xlink:href"}


class _Tags(HTMLParser):
    """Every start tag and attribute of a document (text, escaped or not, is no tag)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


def no_script_nothing_loaded(document: str) -> None:
    parser = _Tags()
    parser.feed(document)
    names = {tag for tag, _ in parser.tags}
    assert not names & {"script", "iframe", "object", "embed", "img", "link", "base", "form"}, names
    for tag, attrs in parser.tags:
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name)
            assert name not in LOADS, (tag, name, value)
            assert "javascript:" not in (value or "").lower()
    assert not any("url(" in s or "@import" in s for s in parser.styles)


CASES = [(c, m) for c in CLASSICS for m in c.metrics if m in READY and not teach.reads_source(m)]


@pytest.mark.parametrize(("classic", "metric_id"), CASES, ids=[f"{c.key}-{m}" for c, m in CASES])
def test_every_classic_handout_holds_every_step(classic, metric_id):
    lesson, _ = lesson_for(metric_id, classic.hyp, classic.refs)
    asked = exercises.for_lesson(lesson)
    document = handout.handout_html(lesson, handout.Pair(classic.hyp, classic.refs), exercises=asked)
    no_script_nothing_loaded(document)
    for step in lesson.steps:
        assert f"<h2>{handout.html.escape(step.title)}</h2>" in document
        for table in step.tables:
            assert f"<caption>{handout.html.escape(table.label)}</caption>" in document
    figures = sum(step.figure is not None for step in lesson.steps)
    assert document.count("<svg") == figures + sum("<svg" in step.html for step in lesson.steps)
    assert document.count('<div class="predict">') == len({e.step for e in asked})
    assert "<h2>Answers</h2>" in document if asked else True


@pytest.mark.parametrize("metric_id", ["bleu", "chrf", "ter", "rougeL", "meteor", "cider"])
def test_user_text_is_escaped_in_the_handout(metric_id):
    if metric_id not in READY:
        pytest.skip(f"{metric_id} has no lesson here")
    refs = ("there is a cat <b>on</b> the mat & more",)
    lesson, _ = lesson_for(metric_id, HOSTILE, refs)
    document = handout.handout_html(
        lesson, handout.Pair(HOSTILE, refs, "<script>src</script>"), settings=("tokenize: 13a → <char>",)
    )
    no_script_nothing_loaded(document)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in document
    assert "<b>on</b>" not in document and "<img" not in document


def test_formulas_are_mathml_or_latex_source():
    lesson, _ = lesson_for("bleu", "the cat is on the mat", ("there is a cat on the mat",))
    pair = handout.Pair("the cat is on the mat", ("there is a cat on the mat",))
    try:
        import latex2mathml  # noqa: F401

        assert "<math" in handout.handout_html(lesson, pair)
    except ImportError:
        pass
    saved = sys.modules.get("latex2mathml.converter")
    sys.modules["latex2mathml.converter"] = None  # type: ignore[assignment]  # as if not installed
    try:
        document = handout.handout_html(lesson, pair)
    finally:
        if saved is None:
            sys.modules.pop("latex2mathml.converter")
        else:
            sys.modules["latex2mathml.converter"] = saved
    assert "<math" not in document and r'<pre class="tex">\mathrm{BLEU} = BP \cdot \bar p</pre>' in document


def test_a_card_and_mistakes_are_markdown_without_raw_html():
    lesson, _ = lesson_for("ter", "a b", ("a c",))
    card = "**Rewards.** edits <script>x</script>\n\n- one\n- two"
    document = handout.handout_html(lesson, handout.Pair("a b", ("a c",)), card=card)
    assert "<strong>Rewards.</strong>" in document and "<li>one</li>" in document
    assert "&lt;script&gt;x&lt;/script&gt;" in document


def test_a_lesson_html_with_a_script_is_refused():
    lesson = teach.Lesson("x", 0.0, "0", (teach.Step("1. s", html="<script>alert(1)</script>"),), {})
    with pytest.raises(handout.UnsafeHandout):
        handout.handout_html(lesson, handout.Pair("a", ("b",)))


def test_figures_draw_as_svg_with_escaped_labels():
    words = ["<b>x</b>", "a&b", '"q"']
    grid = lcs_grid([[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2]], words[:2], words, [(0, 0), (1, 1)], trail=[(2, 3)])
    svg = figure_svg(grid)
    assert svg.count("<rect") >= 12 + 2  # the cells and the two path squares
    assert "&lt;b&gt;x&lt;/b&gt;" in svg and "a&amp;b" in svg and "&quot;q&quot;" in svg
    assert "<b>" not in svg
    drawing = figure_svg(alignment(words, words, [(0, 0, "exact"), (1, 2, "stem")], {0: 0, 1: 1}))
    assert drawing.count("<polyline") == 2 and drawing.count("<circle") == 6
    assert "&lt;b&gt;x&lt;/b&gt;" in drawing and ">hypothesis<" in drawing
    assert figure_svg(go.Figure()).startswith("<svg")


@pytest.mark.parametrize(
    ("latex", "plain"),
    [
        (r"p_1 = \frac{2}{7} = 0.2857", "p_1 = (2)/(7) = 0.2857"),
        (r"\mathrm{BLEU} = BP \cdot \bar p", "BLEU = BP · p\u0304"),
        (r"\begin{aligned} a &= 1 \\ &= \frac{\frac{1}{2}}{3} \end{aligned}", "a = 1\n= ((1)/(2))/(3)"),
        (r"c = 2 \le r = 6 \;\Rightarrow\; BP = e^{1 - 6/2}", "c = 2 ≤ r = 6 ⇒ BP = e^1 - 6/2"),
        (r"\text{edits} = \text{shifts} + S", "edits = shifts + S"),
        (teach.latex_text("a {b} & c_d $ 50% #1 ~ ^ \\"), "a {b} & c_d $ 50% #1 ~ ^ \\"),
    ],
)
def test_plain_formulas_for_the_pdf(latex, plain):
    assert handout.plain_formula(latex) == plain


def test_pdf_embeds_a_font_that_draws_cjk():
    pytest.importorskip("fpdf", reason="the handout extra (fpdf2) is not installed")
    text_font, cjk_font = handout.fonts()
    if text_font is None:
        pytest.skip("no Unicode font on this machine")
    hyp, refs = "猫 が マット の 上 に いる", ("マット の 上 に 猫 が いる",)
    lesson, _ = lesson_for("rougeL", hyp, refs, tokenizer="unicode")
    pdf = handout.handout_pdf(lesson, handout.Pair(hyp, refs), exercises=exercises.for_lesson(lesson))
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/FontFile2" in pdf  # an embedded TrueType font, not a core font without CJK glyphs
    if cjk_font is not None:
        assert b"NotoSansCJK" in pdf
    assert b"/JavaScript" not in pdf and b"/JS" not in pdf
    assert handout.pdf_missing() == ""


def _lessons_of_other_modes() -> list[tuple[str, teach.Lesson]]:
    from rendering.lessons.corpus import EXAMPLES, corpus_lesson
    from rendering.lessons.mqm_scoring import EXAMPLE as MQM
    from rendering.lessons.mqm_scoring import mqm_lesson
    from rendering.lessons.perplexity import EXAMPLE as PPL
    from rendering.lessons.perplexity import perplexity_lesson

    built = [(topic.value, corpus_lesson(topic, e.hyp, e.ref)) for topic, e in EXAMPLES.items()]
    built.append(("perplexity", perplexity_lesson(PPL.training, PPL.test, PPL.k)))
    built.append(("mqm", mqm_lesson(MQM.target, MQM.annotations)))
    return built


def test_lessons_built_outside_build_lesson_get_exercises_and_handouts():
    """Corpus lessons, perplexity and MQM carry no explanation: their exercises are one per number they derive,
    and their handout holds every step."""
    for name, lesson in _lessons_of_other_modes():
        asked = exercises.for_lesson(lesson)
        assert asked, name
        assert all(any(e.answer == v for v in lesson.numbers.values()) for e in asked), name
        document = handout.handout_html(lesson, exercises=asked, card="**Rewards.** x")
        no_script_nothing_loaded(document)
        for step in lesson.steps:
            assert f"<h2>{handout.html.escape(step.title)}</h2>" in document, (name, step.title)
