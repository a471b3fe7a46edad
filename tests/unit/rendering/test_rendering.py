"""Rendering helpers: escaping, highlighting, tables, exports and figures are pure functions of metric results."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pandas as pd
import pytest

from metrics.core.edits import EditOp
from metrics.core.registry import create
from metrics.core.tokens import Token
from metrics.evaluate import evaluate
from metrics.reports.archive import csv_zip
from metrics.reports.latex import escape_latex, to_latex
from metrics.reports.overview import overview_results
from metrics.reports.results import build_results, to_json
from metrics.stats.significance import Interval, PairResult
from rendering.alignment_svg import Chunk, Link, alignment_svg
from rendering.edits_html import Step, alignment_html
from rendering.figures import lcs_grid_figure, rankings_figure, ranks, scores_figure
from rendering.ngram_view import Occurrence, status_of, token_units, unit_spans
from rendering.tables import best_systems, groups_text, overview_table, sentence_scores, style_overview
from rendering.text import WORD_JOINER, Span, escape_markdown, highlight
from rendering.view import ViewOptions
from tests.support.ui import assert_safe_html, parse_html

HYPS = {
    "good": ["the cat sat on the mat", "a dog ran fast"],
    "bad": ["cat the", "dog"],
}
REFS = [["the cat sat on the mat", "a dog ran fast"]]


@pytest.fixture(scope="module")
def evaluation():
    return evaluate(HYPS, REFS, {"bleu": create("bleu"), "ter": create("ter")})


# ---------------------------------------------------------------------------------------------- escaping


def test_highlight_wraps_spans_and_escapes_everything():
    html = highlight("a <b> & c", [Span(2, 5, "sl-match", 'say "hi"')])
    assert html == 'a <span class="sl-match" title="say &quot;hi&quot;">&lt;b&gt;</span> &amp; c'


def test_highlight_skips_overlapping_and_out_of_range_spans():
    html = highlight("abcdef", [Span(0, 3, "x"), Span(2, 4, "y"), Span(5, 99, "z")])
    assert html == '<span class="x">abc</span>def'


def test_escape_markdown_neutralises_links_math_and_html():
    text = "[a](javascript:x) $x$ <b> *y* :red[z]"
    escaped = escape_markdown(text)
    for raw in ("[a]", "](", "$x$", "<b>", "*y*", ":red["):
        assert raw not in escaped
    assert escaped.replace("\\", "") == text


def test_escape_markdown_breaks_addresses_and_icons_that_would_make_themselves():
    """Streamlit finds GitHub's autolink literals, its logo and Material icons in the text after escapes are undone:
    a word joiner (invisible) goes between the characters that start one, and the text otherwise reads as typed."""
    for text, joined in (
        ("see http://evil.invalid/x", "http\u2060://"),
        ("HTTPS://evil.invalid", "HTTPS\u2060://"),
        ("www.evil.invalid", "www\u2060."),
        ("WWWW.evil.invalid", "WWWW\u2060."),
        ("mail evil@evil.invalid", "evil\u2060@"),
        ("logo :streamlit:", ":\u2060streamlit:"),
        ("icon :material/bug_report:", ":\u2060material/"),
    ):
        shown = escape_markdown(text).replace("\\", "")
        assert joined in shown and shown.replace(WORD_JOINER, "") == text
    assert escape_markdown("plain words: 1.5 www") == "plain words\\: 1\\.5 www"


def test_escape_latex():
    assert escape_latex("a_b & 50% $x$ {y} ~^\\") == (
        r"a\_b \& 50\% \$x\$ \{y\} \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )


# ------------------------------------------------------------------------------------------ n-gram spans


def test_status_of_credits_first_occurrences_then_clips():
    assert [status_of(k, 1, 1) for k in range(3)] == ["match", "clip", "clip"]
    assert status_of(0, 0, 0) == "miss"


def test_unit_spans_take_best_status_and_merge_tooltips():
    units = [(0, 3), (4, 7), (8, 11)]
    occ = [
        Occurrence(0, 2, "miss", "the cat"),
        Occurrence(1, 2, "match", "cat sat", ref=1),
    ]
    spans = unit_spans(units, occ)
    assert [(s.start, s.end, s.css_class) for s in spans] == [
        (0, 3, "sl-miss"),
        (4, 7, "sl-match sl-ref1"),
        (8, 11, "sl-match sl-ref1"),
    ]
    assert spans[1].title == "the cat\ncat sat"


def test_token_units_fall_back_to_tokens_when_a_token_was_rewritten():
    text, units = token_units("a &amp; b", (Token("a", 0, 1), Token("&", None, None), Token("b", 8, 9)))
    assert text == "a & b"
    assert units == [(0, 1), (2, 3), (4, 5)]


def test_bleu_highlight_counts_equal_the_clipped_matches():
    from rendering.views.ngrams import bleu_parts

    metric = create("bleu")
    hyp, refs = "the the the cat", ["the cat", "a cat"]
    ex = metric.explain(hyp, refs)
    html = bleu_parts(ex, hyp, refs, ViewOptions(order=1))[0].payload
    tags, _ = parse_html(html)
    classes = [attrs.get("class", "") for tag, attrs in tags if tag == "span" and "title" in attrs]  # not the legend
    matched = sum(c.startswith("sl-match") for c in classes)
    clipped = sum(c == "sl-clip" for c in classes)
    assert matched == ex.orders[0].correct == 2  # one "the" and "cat"
    assert clipped == 2  # two "the" over the reference count


def test_chrf_char_highlight_covers_only_non_space_characters():
    from rendering.views.ngrams import chrf_parts

    metric = create("chrf")
    hyp, refs = "ab cd", ["ab xy"]
    ex = metric.explain(hyp, refs)
    html = chrf_parts(ex, hyp, refs, ViewOptions(order=1))[0].payload
    tags, text = parse_html(html)
    assert "ab cd" in text
    spans = [attrs["class"] for tag, attrs in tags if tag == "span" and "title" in attrs]
    assert spans == ["sl-match sl-ref0", "sl-match sl-ref0", "sl-miss", "sl-miss"]  # a, b matched; c, d not


# ---------------------------------------------------------------------------------------- edits and svg


def test_alignment_html_marks_ops_and_escapes():
    html = alignment_html(
        [
            Step(EditOp.MATCH, "a", "a"),
            Step(EditOp.SUBSTITUTE, "<b>", "c"),
            Step(EditOp.INSERT, "e", None),
            Step(EditOp.DELETE, None, "d"),
        ]
    )
    text = assert_safe_html(html)
    assert "<b>" in text
    assert html.count("sl-sub") == 1 and html.count("sl-ins") == 1 and html.count("sl-del") == 1


def test_alignment_svg_draws_one_line_per_link_and_boxes_chunks():
    html = alignment_svg(
        ["a", "<b>", "c"], ["a", "c", "x"], [Link(0, 0, "exact"), Link(2, 1, "stem")], [Chunk(0, 1, 0, 1)]
    )
    tags, text = parse_html(html)
    assert [t for t, _ in tags].count("line") == 2
    assert [t for t, _ in tags].count("rect") == 2  # the chunk on both sides
    assert "<b>" in text
    assert_safe_html(html)


# ---------------------------------------------------------------------------------------- tables/exports


def test_overview_table_keeps_numeric_scores_and_marks_the_best(evaluation):
    table = overview_table(evaluation, {("good", "bleu"): (90.0, 100.0)}, {("bad", "bleu"): 0.001})
    assert table.loc["good", "BLEU"] == pytest.approx(100.0)
    assert table.loc["good", "BLEU 95% CI"] == "90.00–100.00"
    assert table.loc["good", "BLEU p"] == "—"
    assert table.loc["bad", "BLEU p"] == "0.0010"
    assert best_systems(evaluation) == {"bleu": ["good"], "ter": ["good"]}  # lowest TER wins
    styler = style_overview(table, evaluation)
    styler._compute()
    marked = {
        (table.index[r], table.columns[c]) for (r, c), css in styler.ctx.items() if ("font-weight", "bold") in css
    }
    assert marked == {("good", "BLEU"), ("good", "TER"), ("bad", "BLEU p")}


def test_groups_text():
    assert groups_text([["a", "b"], ["c"]]) == "{a, b} > {c}"


def test_exports_carry_signatures_and_escape_latex(evaluation):
    interval = Interval(100.0, 95.0, 90.0, 100.0, 5.0, 1000)
    pair = PairResult("BLEU", "content-id-1", "content-id-2", "bs", 0.001, -60.0, (-70.0, -50.0), 1000, 0.002)
    reports = {
        "bleu": {
            "intervals": {"good": interval, "bad": None},
            "pairs": {frozenset(("bad", "good")): pair},
            "groups": [["good"], ["bad"]],
        }
    }
    results = overview_results(evaluation, reports, {}, seed=1, n_resamples=1000, title="t")
    with zipfile.ZipFile(io.BytesIO(csv_zip(results))) as archive:
        assert archive.namelist() == ["scores.csv", "comparisons.csv", "groups.csv"]
        frames = {name: pd.read_csv(archive.open(name)) for name in archive.namelist()}
    assert csv_zip(results) == csv_zip(results)  # same results, same bytes
    scores = frames["scores.csv"]
    assert set(scores["signature"]) == set(results.signatures.values())
    assert results.signatures["bleu"].startswith("nrefs:1|bs:1000|seed:1|")
    assert scores.loc[(scores.system == "good") & (scores.metric == "bleu"), "ci_lo"].item() == 90.0
    assert np.isnan(scores.loc[(scores.system == "bad") & (scores.metric == "bleu"), "ci_lo"].item())
    comparison = frames["comparisons.csv"].iloc[0]
    # the pair's records name systems by content; the export names them as shown, input order first
    assert (comparison.baseline, comparison.system, comparison.p_corrected) == ("good", "bad", 0.002)
    document = json.loads(to_json(results))
    assert document["metrics"]["bleu"]["signature"].startswith("nrefs:1|")
    assert document["groups"]["bleu"] == [["good"], ["bad"]]
    latex = to_latex(results)
    assert r"good & \textbf{100.00 {\scriptsize $\pm$5.00}}" in latex
    assert r"\texttt{\footnotesize nrefs:1|bs:1000|seed:1|case:mixed" in latex
    renamed = evaluate({"a_b & c": HYPS["good"]}, REFS, {"bleu": create("bleu")})
    latex = to_latex(build_results(renamed))
    assert r"a\_b \& c & \textbf{100.00}" in latex
    assert "nrefs:1" in latex


def test_sentence_scores_one_column_per_system_and_metric(evaluation):
    frame = sentence_scores(evaluation, ["good", "bad"], ["bleu", "ter"])
    assert list(frame.columns) == ["good · BLEU", "bad · BLEU", "good · TER", "bad · TER"]
    assert list(frame.index) == [1, 2]
    np.testing.assert_allclose(frame["good · BLEU"], evaluation.system("good").segment_scores["bleu"])


# ---------------------------------------------------------------------------------------------- figures


def test_scores_figure_has_ci_whiskers_and_escaped_names():
    scores = {"<b>x</b>": {"bleu": 30.0}, "y": {"bleu": 20.0}}
    fig = scores_figure(scores, {"bleu": "BLEU"}, {("<b>x</b>", "bleu"): (28.0, 33.0)})
    trace = fig.data[0]
    assert list(trace.y) == ["&lt;b&gt;x&lt;/b&gt;", "y"]
    assert list(trace.error_x.array) == [3.0, 0] and list(trace.error_x.arrayminus) == [2.0, 0]


def test_ranks_handle_direction_and_ties():
    scores = {"a": {"ter": 10.0}, "b": {"ter": 5.0}, "c": {"ter": 5.0}}
    assert ranks(scores, "ter", higher_is_better=False) == {"a": 3, "b": 1, "c": 1}
    fig = rankings_figure(scores, {"ter": "TER"}, {"ter": False})
    assert [list(t.y) for t in fig.data] == [[3], [1], [1]]


def test_lcs_grid_is_capped_with_a_note():
    words = [f"w{i}" for i in range(30)]
    grid = np.zeros((31, 31))
    fig, note = lcs_grid_figure(words, words, grid, [[(i, i) for i in range(30)]], limit=10)
    assert np.asarray(fig.data[0].z).shape == (11, 11)
    assert len(fig.data[1].x) == 10
    assert "31 × 31" in note
