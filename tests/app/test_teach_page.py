"""The teaching page, driven through Streamlit's AppTest by widget key: every metric's classic shows the textbook
numbers, what-if controls update the derivation and say what changed, and user text is escaped on the page."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from rendering import lessons, teach
from rendering.teach_classics import by_key
from tests.support.paths import ROOT

PAGE = str(ROOT / "pages" / "teach.py")
READY, MISSING = lessons.lesson_status()


def need(metric_id: str) -> None:
    if metric_id not in READY:
        pytest.skip(f"{metric_id}: {MISSING.get(metric_id, 'no lesson')}")


def page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception, at.exception
    return at


def show(at: AppTest, metric_id: str, classic: str | None = None) -> AppTest:
    at.selectbox(key="teach_metric").set_value(metric_id).run()
    if classic is not None:
        at.selectbox(key="teach_classic").set_value(classic).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def latex(at: AppTest) -> str:
    return "\n".join(e.value for e in at.latex)


def code(at: AppTest) -> str:
    return "\n".join(e.value for e in at.code)


def score(at: AppTest) -> str:
    return at.metric[0].value


def plain(markdown: str) -> str:
    """Markdown as the reader sees it: backslash escapes removed."""
    return re.sub(r"\\(.)", r"\1", markdown)


def mistakes(at: AppTest) -> str:
    return "\n".join(m.value for e in at.expander if e.label == "Common mistakes" for m in e.markdown)


def changes(at: AppTest) -> Any:
    """The "What changed" table: quantity, before, now, change."""
    return next(f for f in frames(at) if list(f.columns) == ["quantity", "before", "now", "change"])


def frames(at: AppTest) -> list[Any]:
    return [d.value for d in at.dataframe]


def type_pair(at: AppTest, hyp: str, refs: list[str]) -> AppTest:
    at.number_input(key="teach_nrefs").set_value(len(refs))
    at.text_area(key="teach_hyp").set_value(hyp)
    at.run()
    for k, ref in enumerate(refs):
        at.text_area(key=f"teach_ref_{k}").set_value(ref)
    at.run()
    assert not at.exception, at.exception
    return at


def test_opens_on_the_bleu_classic_with_papineni_numbers():
    at = page()
    assert at.selectbox(key="teach_metric").value == "bleu"
    assert at.selectbox(key="teach_classic").value == "bleu-cat"
    assert at.text_area(key="teach_hyp").value == "the cat the cat on the mat"
    assert score(at) == "46.71"
    shown = latex(at)
    assert r"p_1 = \frac{5}{7} = 0.7143" in shown
    assert r"p_2 = \frac{4}{6} = \frac{2}{3} = 0.6667" in shown
    assert r"c = 7 = r = 7,\ c \le r \;\Rightarrow\; BP = e^{1 - 7/7} = e^{0} = 1" in shown
    assert r"\mathrm{BLEU} = 1 \cdot 46.7138 = 46.71" in shown  # sacrebleu takes the mean in percent
    unigrams = next(f for f in frames(at) if "clipped" in f and f["n-gram"].tolist() == ["the", "cat", "on", "mat"])
    assert unigrams["in hyp"].tolist() == [3, 2, 1, 1] and unigrams["clipped"].tolist() == [2, 1, 1, 1]
    assert "p1 = 5/7, p2 = 2/3" in plain(at.info[0].value)
    assert "What changed" not in [h.value for h in at.subheader]  # default settings: nothing to compare
    assert "geometric mean is taken over the **log** precisions" in mistakes(at)


CLASSICS = [
    ("bleu", "bleu-the", "7.81", [r"p_1 = \frac{2}{7} = 0.2857"], []),
    ("meteor", "meteor-scrambled", "0.5000", [r"ch = 6"], ["Score: 0.5000 = Fmean: 1.0000 × (1 − Penalty: 0.5000)"]),
    ("meteor", "meteor-was", "0.9654", [r"frac{6}{7}"], ["Score: 0.9654 = Fmean: 0.9836 × (1 − Penalty: 0.0185)"]),
    ("meteor", "meteor-stages", "0.7934", [r"ch = 2", r"\frac{5}{7}"], []),
    ("meteor", "meteor-same", "0.9977", [r"ch = 1"], ["Score: 0.9977 = Fmean: 1.0000 × (1 − Penalty: 0.0023)"]),
    ("rougeLsum", "rouge-union", "0.5333", [r"|\mathrm{LCS}_\cup(r_1, C)| = 4", r"\frac{4}{5} = 0.8000"], []),
    ("rougeL", "rouge-police-kill", "0.7500", [r"\mathrm{LCS} = T[4][4] = 3"], []),
    ("rougeL", "rouge-police-order", "0.5000", [r"\mathrm{LCS} = T[4][4] = 2"], []),
    ("rouge1", "rouge-police-kill", "0.7500", [r"\frac{3}{4} = 0.7500"], []),
    ("rouge2", "rouge-police-kill", "0.3333", [r"\frac{1}{3} = 0.3333"], []),
    ("rougeS", "rouge-police-kill", "0.5000", [r"\frac{3}{6} = \frac{1}{2} = 0.5000"], []),
    ("rougeS", "rouge-police-order", "0.1667", [r"\frac{1}{6} = 0.1667"], []),
    ("rougeSU", "rouge-police-kill", "0.5556", [], []),
    ("rougeW", "rouge-w-consecutive", "0.4616", [r"f(k) = k^{1.20}"], []),
    ("rougeW", "rouge-w-spread", "0.4616", [], []),
    ("ter", "ter-saudi", "30.77", [r"= 4", r"\frac{4}{13}"], ["TER = 30.77 (4 edits / 13 words)"]),
    ("ter", "ter-block", "12.50", [r"\frac{1}{8} = 12.50"], []),
]


def test_classics_show_their_textbook_numbers():
    """One session walks every metric's classics, as a teacher would."""
    at = page()
    shown = 0
    for metric_id, classic, value, formulas, codes in CLASSICS:
        if metric_id not in READY:
            continue
        show(at, metric_id, classic)
        assert at.text_area(key="teach_hyp").value == by_key(classic).hyp
        assert score(at) == value, (metric_id, classic)
        for snippet in formulas:
            assert snippet in latex(at), (metric_id, classic, snippet)
        for snippet in codes:
            assert snippet in code(at), (metric_id, classic, snippet)
        assert mistakes(at), metric_id
        shown += 1
    if not shown:
        pytest.skip("no metric of the classics is available")


def test_meteor_page_draws_the_alignment_and_says_the_penalty_is_at_most_half():
    need("meteor")
    at = show(page(), "meteor", "meteor-scrambled")
    assert len(at.get("plotly_chart")) == 1
    assert "at most γ = 0.5" in mistakes(at)
    matches = next(f for f in frames(at) if "forms compared" in f)
    assert len(matches) == 6 and set(matches["stage"]) == {"exact"}
    at = show(at, "meteor", "meteor-was")
    stages = next(f for f in frames(at) if "a pair matches when" in f).set_index("stage")
    assert stages["matches"].sum() == 6


def test_ter_lists_each_shift_then_each_edit():
    need("ter")
    at = show(page(), "ter", "ter-saudi")
    titles = [h.value for h in at.subheader]
    shifts = [t for t in titles if "Shift" in t]
    edits_at = next(i for i, t in enumerate(titles) if t.endswith("Edits"))
    assert shifts and all(titles.index(s) < edits_at for s in shifts)
    alignment = next(f for f in frames(at) if "operation" in f)
    assert int(alignment["cost"].sum()) + len(shifts) == 4


def test_cider_weights_come_from_the_loaded_dataset():
    need("cider")
    from dashboard.samples import load_sample
    from metrics.families.cider.metric import CiderD, caption_words

    at = show(page(), "cider", "cider-horse")
    classic = by_key("cider-horse")
    data = load_sample("mt")  # the page opens on the bundled MT sample
    cider = CiderD()
    cider.prepare([list(r) for r in data.refs])
    expected = cider.explain(classic.hyp, list(classic.refs)).score
    assert score(at) == f"{expected:.4f}"
    assert rf"\ln N = \ln {len(data)}" in latex(at)
    unigrams = next(f for f in frames(at) if "tf·idf" in f and "a" in f["n-gram"].tolist())
    words = [caption_words(list(ref), "ptb") for ref in data.refs]  # CIDEr-D's default: COCO's PTB tokens
    df_a = sum(any("a" in ref[i] for ref in words) for i in range(len(data)))
    assert unigrams.set_index("n-gram").loc["a", "df"] == df_a


def test_what_if_bleu_shows_what_changed():
    need("bleu")
    at = type_pair(show(page(), "bleu"), "the cat sat on the", ["the cat", "a cat sat on the mat today"])
    assert at.selectbox(key="teach_classic").value == "(your own text)"
    assert r"c = 5 < r = 7" in latex(at)
    before = score(at)
    at.selectbox(key="teach_bleu_ref_length").set_value("shortest").run()
    assert not at.exception
    assert r"c = 5 > r = 2 \;\Rightarrow\; BP = 1" in latex(at)
    assert "What changed" in [h.value for h in at.subheader]
    diff = changes(at).set_index("quantity")
    assert diff.loc["reference length r", "before"] == 7 and diff.loc["reference length r", "now"] == 2
    assert "p1" not in diff.index  # the precisions do not depend on the rule
    assert diff.loc["BLEU", "before"] == pytest.approx(float(before), abs=0.005)
    assert any("ref_length: closest → shortest" in plain(m.value) for m in at.markdown)
    # a second change can be compared with the previous settings instead of the defaults
    at.number_input(key="teach_bleu_max_ngram_order").set_value(2).run()
    at.radio(key="teach_compare").set_value("previous settings").run()
    diff = changes(at).set_index("quantity")
    assert "reference length r" not in diff.index  # the same as with the previous settings
    assert diff.loc["p3", "before"] == pytest.approx(2 / 3) and pd.isna(diff.loc["p3", "now"])
    assert any("max_ngram_order: 4 → 2" in plain(m.value) for m in at.markdown)
    at.button(key="teach_reset").click().run()
    assert at.selectbox(key="teach_bleu_smooth").value == "exp" and score(at) == before


def test_what_if_chrf_beta_and_meteor_parameters():
    need("chrf")
    from sacrebleu.metrics import CHRF

    at = show(page(), "chrf", "bleu-cat")
    classic = by_key("bleu-cat")
    assert score(at) == f"{CHRF().sentence_score(classic.hyp, list(classic.refs)).score:.2f}"
    at.number_input(key="teach_chrf_beta").set_value(3.0).run()
    assert score(at) == f"{CHRF(beta=3).sentence_score(classic.hyp, list(classic.refs)).score:.2f}"
    assert at.metric[0].label == "chrF3"
    at = show(at, "chrf++", "bleu-cat")
    assert score(at) == f"{CHRF(word_order=2).sentence_score(classic.hyp, list(classic.refs)).score:.2f}"
    assert any(t.label == "word 2-grams" for t in at.tabs)
    need("meteor")
    at = show(at, "meteor", "meteor-was")
    at.number_input(key="teach_meteor_gamma").set_value(0.3).run()
    # penalty = 0.3 · (2/6)^3, score = 60/61 · (1 − penalty)
    penalty = 0.3 * (2 / 6) ** 3
    assert code(at) == f"Score: {60 / 61 * (1 - penalty):.4f} = Fmean: 0.9836 × (1 − Penalty: {penalty:.4f})"


def _other_value(control: teach.Control) -> Any:
    option = control.option
    if control.kind == "choice":
        return next(c for c in reversed(option.offered()) if c != control.default)
    if control.kind == "bool":
        return not control.default
    step = option.info.step or 1
    value = step if control.default is None else control.default + step
    if option.info.high is not None and value > option.info.high:
        value = control.default - step
    return int(value) if control.kind == "int" else float(value)


def test_every_what_if_control_updates_the_derivation():
    at = page()
    # A metric reading the source needs a model the server offers: tests/app/test_comet_pages.py.
    for metric_id in (m for m in READY if not teach.reads_source(m)):
        show(at, metric_id)
        controls = teach.controls(metric_id)
        assert controls, metric_id
        for control in controls:
            widget = at.get(
                "selectbox" if control.kind == "choice" else "checkbox" if control.kind == "bool" else "number_input"
            )
            match = [w for w in widget if w.key == f"teach_{metric_id}_{control.name}"]
            assert match, (metric_id, control.name)
            match[0].set_value(_other_value(control))
        at.run()
        assert not at.exception, (metric_id, at.exception)
        assert not at.error, (metric_id, [e.value for e in at.error])
        assert "What changed" in [h.value for h in at.subheader], metric_id
        at.button(key="teach_reset").click().run()
        assert "What changed" in [h.value for h in at.subheader]  # now against the previous settings


@pytest.mark.parametrize("installed", [False, True], ids=["without MeCab", "with MeCab"])
def test_ja_mecab_is_offered_only_where_mecab_is_installed(monkeypatch, installed):
    import metrics.core.config

    need("bleu")
    monkeypatch.setattr(metrics.core.config, "_module_found", lambda module: installed or module != "MeCab")
    at = show(page(), "bleu")
    tokenizer = at.selectbox(key="teach_bleu_tokenize")
    assert any(label.startswith("ja-mecab") for label in tokenizer.options) == installed
    reasons = [plain(c.value) for c in at.main.caption if "Not offered here" in c.value]
    if installed:
        assert reasons == []
        return
    assert reasons == ["Not offered here: ja-mecab needs MeCab (pip install 'scorelens[ja]')"]
    control = next(c for c in teach.controls("bleu") if c.name == "tokenize")
    tokenizer.set_value(_other_value(control)).run()  # the what-if test's pick: the last tokenizer offered here
    assert tokenizer.value != "ja-mecab" and not at.exception and not at.error


def test_rouge_beta_changes_the_shown_f_beta_not_the_score():
    need("rouge1")
    at = show(page(), "rouge1", "bleu-cat")
    before = score(at)
    at.number_input(key="teach_rouge1_beta").set_value(2.0).run()
    assert score(at) == before
    assert r"F_{2} = \frac{5 \cdot " in latex(at)
    assert "F_β (β = 2, what-if)" in changes(at)["quantity"].tolist()


def test_switching_metric_loads_its_classic_but_keeps_typed_text():
    need("meteor")
    at = show(page(), "meteor")
    assert at.selectbox(key="teach_classic").value == "meteor-was"
    assert at.text_area(key="teach_hyp").value == "the cat was sat on the mat"
    at.text_area(key="teach_hyp").set_value("a cat sat on a mat").run()
    at = show(at, "bleu")
    assert at.selectbox(key="teach_classic").value == "(your own text)"
    assert at.text_area(key="teach_hyp").value == "a cat sat on a mat"


def test_a_segment_of_the_loaded_dataset_can_be_taught():
    from sacrebleu import sentence_bleu

    from dashboard.samples import load_sample

    data = load_sample("mt")
    system = list(data.systems)[1]
    at = page()
    at.selectbox(key="teach_ds_system").set_value(system)
    at.number_input(key="teach_ds_index").set_value(5)
    at.button(key="teach_ds_load").click().run()
    assert not at.exception, at.exception
    hyp, refs = data.systems[system][4], [r[4] for r in data.refs]
    assert at.text_area(key="teach_hyp").value == hyp
    assert [at.text_area(key=f"teach_ref_{k}").value for k in range(len(refs))] == refs
    assert at.selectbox(key="teach_classic").value == "(your own text)"
    assert score(at) == f"{sentence_bleu(hyp, refs).score:.2f}"


def test_reveal_step_by_step():
    """Step by step, the score and sacrebleu's summary are what the last step arrives at: after it, not above step 1."""
    at = page()
    total = len(at.subheader)
    assert len(at.metric) == 1 and "BLEU = 46.71" in code(at)  # all steps at once: the result leads
    at.toggle(key="teach_stepwise").set_value(True).run()
    assert len(at.subheader) == 1 and not at.metric and "BLEU = 46.71" not in code(at)
    slider = at.slider(key=next(s.key for s in at.slider if s.key.startswith("teach_upto")))
    slider.set_value(3).run()
    assert [h.value for h in at.subheader][-1].startswith("3.") and len(at.subheader) < total
    assert not at.metric and any("follows the last step" in c.value for c in at.caption)
    slider.set_value(slider.max).run()
    assert score(at) == "46.71" and "BLEU = 46.71" in code(at)
    # in page order: the last step's formulas, then the score, then its summary line
    order = [(e.type, getattr(e, "value", "")) for e in at.main if e.type in ("latex", "metric", "code")]
    last_formula = max(i for i, (kind, _) in enumerate(order) if kind == "latex")
    result = next(i for i, (kind, _) in enumerate(order) if kind == "metric")
    summary = next(i for i, (kind, value) in enumerate(order) if kind == "code" and value.startswith("BLEU = 46.71"))
    assert last_formula < result < summary


def test_metrics_without_a_lesson_are_not_offered_and_say_why():
    at = page()
    assert "wer" not in at.selectbox(key="teach_metric").options
    assert any("WER" in c.value and MISSING["wer"] in c.value for c in at.caption)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


EVIL = "<script>alert(1)</script> $x$ **b** [x](javascript:alert(1)) <img src=x onerror=alert(1)> the cat"


def test_user_text_is_escaped_on_the_page():
    at = type_pair(page(), EVIL, [EVIL.replace("cat", "dog"), "the <b>cat</b> $y$"])
    for metric_id in READY:
        show(at, metric_id)
        assert at.text_area(key="teach_hyp").value == EVIL  # typed text survives a change of metric
        for element in [*at.markdown, *at.caption, *at.info, *at.subheader]:
            assert not re.search(r"(?<!\\)[<$\[]", element.value), (metric_id, element.value)
        for element in at.latex:
            assert "script" not in element.value and "$" not in element.value.strip().strip("$"), metric_id
        for element in at.get("html"):
            body = re.sub(r"<style>.*?</style>|</?(span|div)\b[^>]*>", "", element.proto.body, flags=re.S)
            assert "<" not in body, metric_id
        for chart in at.get("plotly_chart"):
            spec = json.loads(chart.proto.spec)
            assert not any("<script" in s or "<b>" in s or "<img" in s for s in _strings(spec["data"])), metric_id


@pytest.mark.neural
def test_bertscore_draws_the_matrix_and_rescales_with_the_readers_baseline():
    need("bertscore")
    from metrics.core.registry import create

    hyp, ref = "the cat sat on the mat", "a cat was sitting on the mat"
    at = type_pair(show(page(), "bertscore"), hyp, [ref])
    expected = create("bertscore").explain(hyp, [ref])
    assert score(at) == f"{expected.score:.4f}"
    assert len(at.get("plotly_chart")) == 1  # the similarity matrix with its greedy matches
    candidate = next(f for f in frames(at) if "w·cos / Σw" in f and f["token"].iloc[1] == "the")
    assert candidate["w·cos / Σw"].sum() == pytest.approx(expected.precision, abs=1e-6)
    at.number_input(key="teach_bertscore_baseline").set_value(0.8).run()
    assert not at.exception, at.exception
    rescaled = (expected.score - 0.8) / 0.2
    assert rf"{{1 - 0.8000}} = {teach.tex(rescaled)}" in latex(at)
