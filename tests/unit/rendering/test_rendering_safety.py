"""Every evidence view and figure shows hostile user text (scripts, event handlers, javascript: links, LaTeX)
as literal text: no tag, attribute or URL reaches the HTML except what the renderers emit themselves."""

from __future__ import annotations

import json
import re

import pytest

from metrics.core.explanation import Explanation
from metrics.core.registry import create
from rendering.evidence import explanation_parts, order_labels
from rendering.figures import rankings_figure, scores_figure
from rendering.ngram_view import plain_html
from tests.support.ui import HOSTILE_LINE, IMG, LINK, MATH, PAYLOADS, SCRIPT, assert_safe_html, installed_views

HYP = HOSTILE_LINE
REFS = [f"the cat sat {SCRIPT} on {IMG} the mat {LINK} and {MATH} .", f"a {LINK} cat {MATH} sat"]
METRICS = installed_views()


def _explain(metric_id: str):
    metric = create(metric_id)
    metric.prepare([[r, r] for r in REFS])  # two images, so CIDEr-D weights are not all zero
    return metric, metric.explain(HYP, REFS)


@pytest.mark.parametrize("metric_id", METRICS)
def test_evidence_views_show_hostile_text_literally(metric_id):
    metric, ex = _explain(metric_id)
    orders = range(1, len(order_labels(ex)) + 1) or [1]
    for order in orders:
        for reference in (None, 1):
            parts = explanation_parts(ex, HYP, REFS, order=order, reference=reference)
            texts = [assert_safe_html(p.payload) for p in parts if p.kind == "html"]
            shown = " ".join(texts)
            assert "<" in shown and ">" in shown  # markup characters were escaped, not dropped
            for p in parts:
                if p.kind == "figure":
                    spec = p.payload.to_json()
                    assert "<script" not in spec and "<img" not in spec
                    assert "\\u003cscript" not in spec and "\\u003cimg" not in spec
    hypothesis_views = [
        assert_safe_html(p.payload)
        for p in explanation_parts(ex, HYP, REFS)
        if p.kind == "html" and p.title.startswith("Hypothesis")
    ]
    for text in hypothesis_views:  # views of the hypothesis text keep it whole
        for payload in PAYLOADS:
            assert payload in text


def test_plain_text_escapes_and_an_explanation_without_a_view_is_refused():
    assert SCRIPT in assert_safe_html(plain_html(SCRIPT))
    with pytest.raises(LookupError, match="no evidence view"):
        explanation_parts(Explanation(score=1.0, row=(1.0,)), HYP, REFS)


def test_overview_figures_escape_system_names():
    scores = {SCRIPT: {"bleu": 1.0}, IMG: {"bleu": 2.0}, LINK: {"bleu": 3.0}}
    for fig in (scores_figure(scores, {"bleu": "BLEU"}), rankings_figure(scores, {"bleu": "BLEU"}, {"bleu": True})):
        spec = fig.to_json()
        assert "<script" not in spec and "<img" not in spec
        assert "&lt;script&gt;" in json.dumps(json.loads(spec))


# plotly.js's convertEntities: the named entities it decodes, and numeric ones; anything else shows literally.
_PLOTLY_ENTITIES = dict(mu="μ", amp="&", lt="<", gt=">", nbsp="\xa0", times="×", plusmn="±", deg="°")


def _plotly_shows(label: str) -> str:
    """What plotly displays for a label without tags (each entity decoded as plotly.js does)."""

    def decode(match: re.Match[str]) -> str:
        name = match.group(1)
        if name.startswith("#"):
            return chr(int(name[2:], 16) if name[1] == "x" else int(name[1:]))
        return _PLOTLY_ENTITIES.get(name, match.group(0))

    return re.sub(r"&(#\d+|#x[\da-fA-F]+|[a-z]+);", decode, label)


def test_figures_show_quotes_ampersands_and_brackets_in_names_as_typed():
    """A system called ``"big" & <small>`` is shown so in plotly (html.escape's ``&quot;`` is not an entity plotly
    decodes, so it would show literally), and no tag reaches the figure."""
    names = ['model "big" & <small>', "l'équipe &amp; co", "a&quot;b"]
    scores = {name: {"bleu": float(k)} for k, name in enumerate(names)}
    scatter = scores_figure(scores, {"bleu": 'BLEU "x"'})
    assert [_plotly_shows(y) for y in scatter.data[0].y] == names
    assert _plotly_shows(scatter.layout.annotations[0].text) == 'BLEU "x"'
    ranks = rankings_figure(scores, {"bleu": "BLEU"}, {"bleu": True})
    assert [_plotly_shows(trace.name) for trace in ranks.data] == names
    shown_text = [*scatter.data[0].y, *(trace.name for trace in ranks.data)]
    assert not any("<" in text for text in shown_text)
