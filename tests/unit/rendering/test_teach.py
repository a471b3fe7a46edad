"""Teaching lessons (rendering.teach*): the textbook numbers, derivations that add up to the metric's own score,
what-if comparisons and escaping of user text — without Streamlit (the page itself: tests/app/test_teach_page.py)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

import plotly.graph_objects as go
import pytest

from metrics.families.rouge.lcs import lcs_trail
from rendering import lessons, teach
from rendering.teach_classics import CLASSICS, FIRST, by_key, classics_for
from rendering.teach_figures import alignment, lcs_grid
from tests.support.parity import rel_close

READY, MISSING = lessons.lesson_status()
CORPUS = (
    ("a man riding a horse on the beach", "a dog runs on the grass", "two people ride horses"),
    ("a person on a horse", "a brown dog in a field", "people riding horses on a beach"),
)


def need(metric_id: str) -> None:
    if metric_id not in READY:
        pytest.skip(f"{metric_id}: {MISSING.get(metric_id, 'no lesson')}")
    if teach.reads_source(metric_id):
        pytest.skip(f"{metric_id} reads a source and a model: tests/unit/rendering/test_comet_lesson_neural.py")


def lesson_for(metric_id: str, hyp: str, refs: tuple[str, ...], **options: Any) -> tuple[teach.Lesson, Any]:
    need(metric_id)
    chosen, lesson_opts = teach.what_if(metric_id, options)
    metric = teach.prepared(chosen.metric(metric_id), CORPUS)
    context = teach.Context(CORPUS, "test corpus", lesson_opts)
    return lessons.build_lesson(metric, hyp, refs, context), metric


def formulas(lesson: teach.Lesson) -> str:
    return "\n".join(f for step in lesson.steps for f in step.formulas)


def table(lesson: teach.Lesson, label: str):  # type: ignore[no-untyped-def]
    for step in lesson.steps:
        for t in step.tables:
            if t.label == label:
                return t.frame
    raise KeyError(label)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


# ------------------------------------------------------------------------------------------------ the classics


def test_every_metric_opens_on_a_classic_that_names_it():
    for metric_id in READY:
        if teach.reads_source(metric_id):  # a classic is a pair: such a metric opens on the triple the user types
            assert not classics_for(metric_id), metric_id
            continue
        assert classics_for(metric_id), metric_id
        assert classics_for(metric_id)[0].key == FIRST[metric_id]
        assert metric_id in by_key(FIRST[metric_id]).metrics


@pytest.mark.parametrize("classic", CLASSICS, ids=lambda c: c.key)
def test_every_classic_lesson_adds_up_to_the_metric_score(classic):
    """For every metric a classic illustrates, the lesson's score is the metric's own sentence score."""
    for metric_id in classic.metrics:
        if metric_id not in READY:
            continue
        lesson, metric = lesson_for(metric_id, classic.hyp, classic.refs)
        assert lesson.score == pytest.approx(metric.sentence_score(classic.hyp, list(classic.refs)), rel=1e-12)
        assert lesson.numbers[teach.score_key(lesson)] == lesson.score
        assert lesson.mistakes and lesson.steps


def test_bleu_cat_reproduces_papineni_numbers():
    lesson, _ = lesson_for("bleu", "the cat the cat on the mat", ("the cat is on the mat", "there is a cat on the mat"))
    text = formulas(lesson)
    assert r"p_1 = \frac{5}{7} = 0.7143" in text
    assert r"p_2 = \frac{4}{6} = \frac{2}{3} = 0.6667" in text
    assert lesson.numbers["p1"] == pytest.approx(5 / 7) and lesson.numbers["p2"] == pytest.approx(2 / 3)
    assert lesson.numbers["p3"] == pytest.approx(2 / 5) and lesson.numbers["p4"] == pytest.approx(1 / 4)
    unigrams = table(lesson, "1-grams")
    assert unigrams.set_index("n-gram").loc["the", ["in hyp", "in ref 1", "in ref 2", "max ref", "clipped"]].tolist() == [
        3, 2, 1, 2, 2,
    ]  # fmt: skip
    assert unigrams["clipped"].sum() == 5 and unigrams["in hyp"].sum() == 7
    # the log-space geometric mean, recomputed from the displayed precisions, gives the score
    geo = math.exp(sum(math.log(lesson.numbers[f"p{n}"]) for n in range(1, 5)) / 4)
    assert rel_close(100 * lesson.numbers["brevity penalty BP"] * geo, lesson.score)
    assert lesson.score == pytest.approx(100 * (1 / 21) ** 0.25)
    assert lesson.numbers["reference length r"] == 7 and lesson.numbers["brevity penalty BP"] == 1.0


def test_bleu_clipping_classic():
    lesson, _ = lesson_for(
        "bleu", "the the the the the the the", ("the cat is on the mat", "there is a cat on the mat")
    )
    assert r"p_1 = \frac{2}{7} = 0.2857" in formulas(lesson)


def test_bleu_brevity_penalty_rule_and_smoothing_what_if():
    hyp, refs = "the cat sat on the", ("the cat", "a cat sat on the mat today")
    closest, _ = lesson_for("bleu", hyp, refs)
    shortest, _ = lesson_for("bleu", hyp, refs, ref_length="shortest")
    assert closest.numbers["reference length r"] == 7 and shortest.numbers["reference length r"] == 2
    assert closest.numbers["brevity penalty BP"] == pytest.approx(math.exp(1 - 7 / 5))
    assert shortest.numbers["brevity penalty BP"] == 1.0
    assert r"c = 5 < r = 7,\ c \le r \;\Rightarrow\; BP = e^{1 - 7/5}" in formulas(
        closest
    ) and r"c = 5 > r = 2 \;\Rightarrow\; BP = 1" in formulas(shortest)
    diff = teach.compare(shortest, closest)
    assert set(diff["quantity"]) == {"reference length r", "brevity penalty BP", "BLEU"}  # precisions stay
    exp, _ = lesson_for("bleu", "the cat sat a hat on", ("the cat sat on the mat",))
    none, _ = lesson_for("bleu", "the cat sat a hat on", ("the cat sat on the mat",), smooth="none")
    assert exp.numbers["matches m4"] == 0 and exp.numbers["p4"] == pytest.approx(1 / (2 * 3))
    assert r"\frac{1}{2^{1} \cdot 3}" in formulas(exp)
    assert none.score == 0.0 and none.numbers["p4"] == 0.0
    assert "−∞" in " ".join(s.text for s in none.steps)


def test_chrf_averages_precision_and_recall_before_f():
    from sacrebleu.metrics import CHRF

    hyp, refs = "the cat the cat on the mat", ("the cat is on the mat", "there is a cat on the mat")
    for options in ({}, {"beta": 3.0}, {"eps_smoothing": True}, {"word_order": 2}):
        need("chrf")
        lesson, _ = lesson_for("chrf", hyp, refs, **options)
        expected = CHRF(**options).sentence_score(hyp, list(refs)).score
        assert rel_close(lesson.score, expected), options
    lesson, metric = lesson_for("chrf", hyp, refs)
    explanation = metric.explain(hyp, list(refs))
    orders = [o for o in explanation.orders if o.n_hyp and o.n_ref]
    assert lesson.numbers["average P"] == pytest.approx(sum(o.precision for o in orders) / len(orders))
    p, r = lesson.numbers["average P"], lesson.numbers["average R"]
    assert rel_close(100 * 5 * p * r / (4 * p + r), lesson.score)
    frame = table(lesson, "char 1-grams")
    assert frame[frame["n-gram"] != "total"]["matched = min"].sum() == explanation.orders[0].n_match
    assert table(lesson, "references")["kept"].tolist() == [k == explanation.best_ref for k in range(2)]


def test_rouge_l_grid_path_and_lin_examples():
    need("rougeL")
    lesson, metric = lesson_for("rougeL", "police kill the gunman", ("police killed the gunman",))
    assert lesson.score == pytest.approx(3 / 4)
    assert r"P = \frac{\mathrm{hits}}{\text{hypothesis tokens}} = \frac{3}{4} = 0.7500" in formulas(lesson)
    grid_step = lesson.steps[1]
    assert isinstance(grid_step.figure, go.Figure)
    heat = grid_step.figure.data[0]
    assert heat.z[-1][-1] == 3  # T[m][n] is the LCS length
    ref_words = ("police", "killed", "the", "gunman")
    hyp_words = ("police", "kill", "the", "gunman")
    trail = lcs_trail(heat.z, ref_words, hyp_words)
    diagonal = [(i2, j2) for (i, j), (i2, j2) in zip(trail[:-1], trail[1:], strict=True) if (i2, j2) == (i - 1, j - 1)]
    assert (
        diagonal[::-1]
        == [(0, 0), (2, 2), (3, 3)]
        == list(metric.explain("police kill the gunman", ["police killed the gunman"]).chosen.evidence.pairs)
    )
    words = table(lesson, "LCS words")
    assert words["reference word"].tolist() == ["police", "the", "gunman"]
    other, _ = lesson_for("rougeL", "the gunman kill police", ("police killed the gunman",))
    assert other.score == pytest.approx(2 / 4)


def test_large_grids_are_listed_not_drawn():
    need("rougeL")
    words = " ".join(f"w{k % 17}" for k in range(80))
    lesson, _ = lesson_for("rougeL", words, (" ".join(reversed(words.split())),))
    step = lesson.steps[1]
    assert step.figure is None and "too large to draw" in step.text
    assert len(table(lesson, "LCS words")) == lesson.numbers["hits"]


def test_rouge_lsum_union_lcs_is_four():
    need("rougeLsum")
    lesson, _ = lesson_for("rougeLsum", "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", ("w1 w2 w3 w4 w5",))
    union = table(lesson, "union LCS")
    assert union["union LCS∪"].tolist() == ["w1 w2 w3 w5"]
    assert union["LCS with hyp sentence 1"].tolist() == ["w1 w2"]
    assert union["LCS with hyp sentence 2"].tolist() == ["w1 w3 w5"]
    assert r"|\mathrm{LCS}_\cup(r_1, C)| = 4" in formulas(lesson)
    assert lesson.numbers["R"] == pytest.approx(4 / 5) and lesson.numbers["P"] == pytest.approx(4 / 10)


def test_rouge_lsum_split_what_if_finds_the_sentences_of_one_line():
    need("rougeLsum")
    hyp, refs = "W1 w3 w5. W1 w2.", ("W1 w2 w3 w4 w5.",)
    flat, _ = lesson_for("rougeLsum", hyp, refs)
    split, _ = lesson_for("rougeLsum", hyp, refs, split="rules")
    assert "LCS with hyp sentence 2" not in table(flat, "union LCS")
    assert table(split, "union LCS")["union LCS∪"].tolist() == ["w1 w2 w3 w5"]
    assert (flat.numbers["R"], split.numbers["R"]) == (pytest.approx(3 / 5), pytest.approx(4 / 5))


def test_rouge_beta_is_a_lesson_only_what_if():
    need("rouge1")
    f1, _ = lesson_for("rouge1", "the cat the cat on the mat", ("the cat is on the mat",))
    f2, _ = lesson_for("rouge1", "the cat the cat on the mat", ("the cat is on the mat",), beta=2.0)
    assert f1.score == f2.score  # rouge-score reports F1 whatever β the lesson shows
    p, r = f2.numbers["P"], f2.numbers["R"]
    assert f2.numbers["F_β (β = 2, what-if)"] == pytest.approx(5 * p * r / (4 * p + r))
    assert any(c.lesson_only and c.name == "beta" for c in teach.controls("rouge1"))


def test_rouge_s_and_w_lin_examples():
    need("rougeS")
    s2, _ = lesson_for("rougeS", "police kill the gunman", ("police killed the gunman",))
    s4, _ = lesson_for("rougeS", "the gunman kill police", ("police killed the gunman",))
    assert s2.score == pytest.approx(3 / 6) and s4.score == pytest.approx(1 / 6)
    assert r"\alpha = 0.50 \;\Leftrightarrow\; \beta = \sqrt{(1-\alpha)/\alpha} = 1" in formulas(s2)
    units = table(s2, "reference 1")
    assert set(units["unit"]) - {"total"} == {"police … the", "police … gunman", "the … gunman"}
    need("rougeW")
    w1, _ = lesson_for("rougeW", "a b c d h i k", ("a b c d e f g",))
    w2, _ = lesson_for("rougeW", "a h b k c i d", ("a b c d e f g",))
    paths1, paths2 = table(w1, "paths"), table(w2, "paths")
    assert paths1["WLCS weight"].tolist() == [pytest.approx(4**1.2)] and paths2["WLCS weight"].tolist() == [4.0]
    assert w1.score == w2.score == pytest.approx(0.46161625813936513)  # ROUGE-1.5.5 counts reference runs


@pytest.mark.parametrize(
    ("hyp", "score"),
    [("on the mat sat the cat", 0.5), ("the cat was sat on the mat", 0.9653916211293262),
     ("the cat sat on the mat", 0.9976851851851852)],
)  # fmt: skip
def test_meteor_classics(hyp, score):
    lesson, _ = lesson_for("meteor", hyp, ("the cat sat on the mat",))
    assert lesson.score == pytest.approx(score, rel=1e-12)
    n = lesson.numbers
    assert rel_close(n["Fmean"] * (1 - n["penalty"]), lesson.score)
    assert n["penalty"] <= 0.5
    if hyp == "the cat was sat on the mat":
        assert lesson.summary == "Score: 0.9654 = Fmean: 0.9836 × (1 − Penalty: 0.0185)"
        assert r"F_{mean} = \frac{10 P R}{R + 9 P}" in formulas(lesson)
        assert r"P = \frac{m}{|hyp|} = \frac{6}{7} = 0.8571" in formulas(lesson)
    if hyp == "on the mat sat the cat":
        assert n["chunks"] == 6 and n["penalty"] == 0.5
        assert isinstance(lesson.steps[1].figure, go.Figure)


def test_meteor_stages_classic_uses_stem_and_synonym_matches():
    lesson, _ = lesson_for("meteor", "the cats were sitting on the rug", ("the cat sat on the carpet",))
    n = lesson.numbers
    assert (n["exact matches"], n["stem matches"], n["synonym matches"]) == (3, 1, 1)
    matches = table(lesson, "matches").set_index("hypothesis word")
    assert matches.loc["cats", "stage"] == "stem" and matches.loc["rug", "stage"] == "synonym"
    assert matches.loc["rug", "reference word"] == "carpet"
    assert lesson.score == pytest.approx(0.7934426229508196, rel=1e-12)  # nltk 3.10.4 with WordNet 3.0


def test_ter_shift_then_edits():
    from sacrebleu.metrics import TER

    for key in ("ter-saudi", "ter-block"):
        classic = by_key(key)
        lesson, _ = lesson_for("ter", classic.hyp, classic.refs)
        assert rel_close(lesson.score, TER().sentence_score(classic.hyp, list(classic.refs)).score)
        shift_steps = [s for s in lesson.steps if "Shift" in s.title]
        assert len(shift_steps) == lesson.numbers["shifts"] >= 1
        alignment_frame = table(lesson, "alignment")
        errors = int(alignment_frame["cost"].sum())
        assert errors + lesson.numbers["shifts"] == lesson.numbers["edits"]
        assert rel_close(100 * lesson.numbers["edits"] / lesson.numbers["average reference length"], lesson.score)
    block, _ = lesson_for("ter", "d e f g h a b c", ("a b c d e f g h",))
    assert block.score == 12.5 and block.numbers["shifts"] == 1


def test_cider_uses_document_frequencies_of_the_loaded_corpus():
    need("cider")
    hyp, refs = "a man riding a horse on the beach", ("a man rides a horse along the beach",)
    lesson, _ = lesson_for("cider", hyp, refs)
    unigrams = table(lesson, "1-grams").set_index("n-gram")
    images = len(CORPUS[0])

    def df(word: str) -> int:
        return sum(any(word in ref.split() for ref in (CORPUS[0][i], CORPUS[1][i])) for i in range(images))

    for word in ("a", "horse", "beach", "man", "riding"):
        assert unigrams.loc[word, "df"] == df(word)
        assert unigrams.loc[word, "idf"] == pytest.approx(math.log(images) - math.log(max(1, df(word))))
    assert lesson.numbers["images N"] == images
    per_order = [lesson.numbers[f"Σ similarity, order {k}"] for k in range(1, 5)]
    assert rel_close(10 * sum(per_order) / 4 / len(refs), lesson.score)


# ------------------------------------------------------------------------------------- controls and comparisons


def test_controls_follow_the_config_metadata():
    need("bleu")
    bleu = {c.name: c for c in teach.controls("bleu")}
    assert bleu["ref_length"].option.choices == ("closest", "shortest") and bleu["ref_length"].default == "closest"
    assert bleu["ref_length"].option.choice_label("shortest") == "shortest (Google/TensorFlow)"
    assert bleu["smooth"].kind == "choice" and bleu["lowercase"].kind == "bool"
    assert set(bleu["tokenize"].option.choices) >= {"13a", "intl", "char", "none"}
    order = bleu["max_ngram_order"].option
    assert (order.label, order.info.low, order.info.high, order.info.step) == ("Max n-gram order N", 1, 9, 1)
    assert not any(c.option.info.work_bound for name in ("ter", "wer", "eed") for c in teach.controls(name))
    assert "search_budget" not in {c.name for c in teach.controls("ter")}
    assert "word_order" not in teach.default_options("chrf++") and teach.default_options("chrf")["word_order"] == 0
    assert teach.changed_options({"tokenize": "char", "lowercase": False}, {"tokenize": "13a", "lowercase": False}) == [
        "tokenize: 13a → char"
    ]
    with pytest.raises(ValueError, match="smooth"):
        teach.what_if("bleu", {"smooth": "bogus"})


def test_bleu_lesson_of_a_short_hypothesis_says_what_effective_order_does():
    need("bleu")
    on, _ = lesson_for("bleu", "the cat sat", ("the cat sat",))
    off, _ = lesson_for("bleu", "the cat sat", ("the cat sat",), segment_effective_order=False)
    assert off.score == 0.0 and on.score == pytest.approx(100.0)
    four = next(step.text for step in off.steps if step.title.startswith("5. 4-grams"))
    assert "without effective order" in four and "makes the whole score 0" in four
    assert "leaves this one out of the mean" in next(step.text for step in on.steps if step.title.startswith("5. 4-"))
    assert "effective order off" in off.notes[0] and "sacrebleu.sentence_bleu" in on.notes[0]
    assert on.notes[0].endswith("|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0".removeprefix("|"))


def test_bleu_brevity_penalty_conclusion_takes_the_branch_of_its_formula():
    """c = r is the formula's c ≤ r branch (e^(1 − r/c) = e^0 = 1), not "c ≥ r ⇒ 1"; c > r is the branch of 1."""
    need("bleu")
    equal, _ = lesson_for("bleu", "the cat the cat on the mat", ("the cat is on the mat", "there is a cat on the mat"))
    step = next(s for s in equal.steps if s.title.endswith("Brevity penalty"))
    assert step.formulas[0] == r"BP = \begin{cases} 1 & c > r \\ e^{\,1 - r/c} & c \le r \end{cases}"
    assert step.formulas[1] == r"c = 7 = r = 7,\ c \le r \;\Rightarrow\; BP = e^{1 - 7/7} = e^{0} = 1"
    assert "c = r falls in the c ≤ r branch" in step.text and r"\ge" not in step.formulas[1]
    longer, _ = lesson_for("bleu", "the cat sat on the mat today", ("the cat sat on the mat",))
    step = next(s for s in longer.steps if s.title.endswith("Brevity penalty"))
    assert step.formulas[1] == r"c = 7 > r = 6 \;\Rightarrow\; BP = 1" and "falls in" not in step.text


def test_compare_lists_changed_quantities_and_always_the_score():
    need("bleu")
    a, _ = lesson_for("bleu", "The cat sat", ("the cat sat",))
    b, _ = lesson_for("bleu", "The cat sat", ("the cat sat",), lowercase=True)
    frame = teach.compare(b, a)
    rows = frame.set_index("quantity")
    assert rows.loc["matches m1", "before"] == 2 and rows.loc["matches m1", "now"] == 3
    assert rows.loc["BLEU", "now"] == pytest.approx(100.0)
    same = teach.compare(a, a)
    assert same["quantity"].tolist() == ["BLEU"] and same["change"].tolist() == [0.0]


# ---------------------------------------------------------------------------------------------------- escaping


EVIL = "<script>alert(1)</script> $x$ **b** \\frac{1}{2} [x](javascript:alert(1)) <img src=x onerror=alert(1)>"


@pytest.mark.parametrize("metric_id", READY)
def test_user_text_is_escaped_everywhere(metric_id):
    need(metric_id)
    lesson, _ = lesson_for(metric_id, EVIL + " the cat", (EVIL + " a cat", "the cat $y$ <b>bold</b>"))
    for step in lesson.steps:
        assert not re.search(r"(?<!\\)[<$\[]", step.text), step.text  # Markdown: every < $ [ backslash-escaped
        assert "**b**" not in step.text
        for formula in step.formulas:
            assert "script" not in formula and "$" not in formula and "alert" not in formula and "img" not in formula
        if step.html:
            bare = re.sub(r"<style>.*?</style>|</?(span|div)\b[^>]*>", "", step.html)
            assert "<" not in bare and "&lt;" in bare  # only our own tags are markup
        if step.figure is not None:
            for text in strings(json.loads(step.figure.to_json())["data"]):
                assert "<script" not in text and "<b>" not in text and "<img" not in text
    assert "<script" not in lesson.summary and "$x$" not in lesson.summary


def test_figures_and_latex_text_escape():
    fig = alignment(["<b>a</b>", "x"], ["<i>y</i>"], [(0, 0, "exact")])
    texts = list(strings(json.loads(fig.to_json())["data"]))
    assert any("&lt;b&gt;a&lt;/b&gt;" in t for t in texts) and not any("<b>" in t for t in texts)
    grid = lcs_grid([[0, 0], [0, 1]], ["<i>"], ["<i>"], [(0, 0)])
    assert "<i>" not in json.dumps(list(strings(json.loads(grid.to_json())["data"]))).replace("\\u003c", "<")
    assert teach.latex_text("$x$ & {y}_1 \\ 100%") == r"\text{\$x\$ \& \{y\}\_1 \textbackslash{} 100\%}"
