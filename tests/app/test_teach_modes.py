"""The Teach page's modes beyond one pair, driven through AppTest: corpus lessons, metrics side by side, the
perplexity lesson — each with its numbers on the page and its limitations card, the docs' text."""

from __future__ import annotations

import sacrebleu
from streamlit.testing.v1 import AppTest

from rendering import cards
from rendering.lessons.corpus import EXAMPLES, CorpusTopic
from tests.support.paths import ROOT

PAGE = str(ROOT / "pages" / "teach.py")


def mode(name: str) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90).run()
    assert not at.exception, at.exception
    at.radio(key="teach_mode").set_value(name).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def markdown(at: AppTest) -> str:
    return "\n".join(e.value for e in at.markdown)


def card_shown(at: AppTest, name: str) -> bool:
    text = cards.card(name)
    return text is not None and any(e.value.strip() == text.strip() for e in at.markdown)


def test_pair_mode_ends_with_the_metric_card() -> None:
    at = AppTest.from_file(PAGE, default_timeout=90).run()
    assert not at.exception, at.exception
    at.selectbox(key="teach_metric").set_value("bleu").run()
    assert card_shown(at, "bleu")
    at.selectbox(key="teach_metric").set_value("rougeLsum").run()
    assert card_shown(at, "rouge")
    assert "not the sum of LCS lengths" in markdown(at)


def test_corpus_bleu_lesson_shows_sacrebleus_corpus_score_and_no_sentinel() -> None:
    at = mode("CORPUS")
    example = EXAMPLES[CorpusTopic.BLEU_POOLING]
    hyps, refs = example.hyp.splitlines(), example.ref.splitlines()
    assert at.metric[0].value == f"{sacrebleu.corpus_bleu(hyps, [refs]).score:.2f}"
    tables = [df.value for df in at.dataframe]
    assert any("−∞ (log 0)" in t.to_string() for t in tables)
    assert not any("9999999999" in t.to_string() for t in tables)
    assert card_shown(at, "bleu")


def test_corpus_topics_load_their_examples_and_refuse_unpaired_lines() -> None:
    at = mode("CORPUS")
    at.selectbox(key="teach_corpus_topic").set_value(CorpusTopic.ROUGE_LSUM.name).run()
    assert at.text_area(key="teach_corpus_hyp").value == EXAMPLES[CorpusTopic.ROUGE_LSUM].hyp
    drawn = [e.proto.body for e in at.get("html") if e.proto.body.startswith("<style>.cl-row")]
    assert len(drawn) == 1 and '<span class="cl-clip">robbery</span><sup>1</sup>' in drawn[0]  # the union LCS drawing
    assert card_shown(at, "rouge")
    at.selectbox(key="teach_corpus_topic").set_value(CorpusTopic.METEOR_PARAGRAPH.name).run()
    assert card_shown(at, "meteor")
    at.text_area(key="teach_corpus_ref").set_value("one line only").run()
    assert any("one reference per line" in e.value.replace("\\", "") for e in at.error)


def test_side_by_side_names_the_disagreement_and_the_left_out_metrics() -> None:
    at = mode("SIDE_BY_SIDE")
    text = markdown(at)
    assert "Not “paraphrase” alone first, as a reader puts it" in text
    assert "The point." in "\n".join(e.value for e in at.info)
    scores = at.dataframe[0].value
    assert list(scores["hypothesis"]) == ["paraphrase", "wrong meaning"]
    at.selectbox(key="teach_sbs_case").set_value("A word-order change: TER's shift against BLEU's n-grams").run()
    assert "adverb moved = one word wrong = verb moved" in at.dataframe[1].value.to_string()


def test_side_by_side_own_text_is_escaped() -> None:
    at = mode("SIDE_BY_SIDE")
    at.selectbox(key="teach_sbs_case").set_value("(your own text)").run()
    at.text_area(key="teach_sbs_hyps").set_value("**bold** | the cat\n<b>x</b> | a dog").run()
    assert not at.exception and not at.error
    text = markdown(at)
    assert "**bold**" not in text and r"\*\*bold\*\*" in text


def test_perplexity_lesson_and_its_k() -> None:
    at = mode("PERPLEXITY")
    first = at.metric[0].value
    assert first == "6.8005"
    at.number_input(key="teach_ppl_k").set_value(0.5).run()
    assert at.metric[0].value != first
    assert card_shown(at, "perplexity")


def test_mqm_lesson_weights_what_if_and_bad_line() -> None:
    at = mode("MQM")
    assert at.metric[0].value == "-4.0333"
    assert card_shown(at, "mqm")
    at.number_input(key="teach_mqm_weight_major").set_value(10.0).run()
    assert at.metric[0].value == f"{-(11.1 + 11 + 0) / 3:.4f}"
    at.text_area(key="teach_mqm_lines").set_value("r1 | severe | Accuracy | budget").run()
    assert any("severity 'severe'" in e.value.replace("\\", "") for e in at.error)
