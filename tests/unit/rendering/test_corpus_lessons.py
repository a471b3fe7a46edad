"""Corpus-level lessons: every number equals the reference implementation (sacrebleu, rouge-score, nltk), and
sacrebleu's log-of-zero sentinel is never printed as a number."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from rouge_score.rouge_scorer import RougeScorer

from rendering.lessons.corpus import EXAMPLES, CorpusTopic, corpus_lesson, lines, union_drawing
from rendering.lessons.corpus import _metric as corpus_metric
from tests.support.meteor import nltk_scores

BLEU_TEXTS = [
    (EXAMPLES[CorpusTopic.BLEU_POOLING].hyp, EXAMPLES[CorpusTopic.BLEU_POOLING].ref),
    ("a b c d e f g\nthe the the\nshort", "a b c d x f g h i\nthe cat sat\nshort one here"),
    ("今天 天气 很 好\n我们 去 公园", "今天 天气 不错\n我们 一起 去 公园"),
]


@pytest.mark.parametrize(("hyp", "ref"), BLEU_TEXTS)
def test_bleu_corpus_lesson_equals_sacrebleu(hyp: str, ref: str) -> None:
    hyps, refs = lines(hyp), lines(ref)
    lesson = corpus_lesson(CorpusTopic.BLEU_POOLING, hyp, ref)
    corpus = sacrebleu.corpus_bleu(hyps, [refs])
    assert abs(lesson.score - corpus.score) < 1e-9
    assert abs(lesson.numbers["corpus BLEU"] - corpus.score) < 1e-9
    for n, p in enumerate(corpus.precisions, start=1):
        assert abs(lesson.numbers[f"pooled p{n}"] * 100 - p) < 1e-9
    assert abs(lesson.numbers["pooled BP"] - corpus.bp) < 1e-12
    strict = sacrebleu.BLEU(smooth_method="none", effective_order=False)
    sentence = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    for k, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        assert abs(lesson.numbers[f"sentence BLEU {k + 1}"] - sentence[k]) < 1e-9
        assert abs(lesson.numbers[f"unsmoothed BLEU {k + 1}"] - strict.sentence_score(h, [r]).score) < 1e-9
    assert abs(lesson.numbers["mean of sentence BLEU"] - sum(sentence) / len(sentence)) < 1e-9


def test_bleu_corpus_is_not_the_mean_and_the_sentinel_is_a_log_of_zero() -> None:
    example = EXAMPLES[CorpusTopic.BLEU_POOLING]
    lesson = corpus_lesson(CorpusTopic.BLEU_POOLING, example.hyp, example.ref)
    assert abs(lesson.numbers["corpus BLEU"] - lesson.numbers["mean of sentence BLEU"]) > 10
    table = lesson.steps[3].tables[0].frame
    cells = [str(v) for v in table.to_numpy().ravel()]
    # Pair 2 ("it rained" / "it was raining") has no matching bigram: its log is −∞, never the sentinel's digits.
    assert table.loc[1, "log p2"] == "−∞ (log 0)"
    assert not any("9999999999" in c for c in cells)
    assert "−9999999999" in lesson.steps[3].text  # named for what it is
    assert lesson.numbers["unsmoothed BLEU 2"] == 0.0
    assert lesson.numbers["sentence BLEU 2"] > 0  # exp smoothing and effective order


def test_bleu_corpus_refuses_unpaired_lines() -> None:
    with pytest.raises(ValueError, match="one reference per line"):
        corpus_lesson(CorpusTopic.BLEU_POOLING, "a\nb", "a")


ROUGE_TEXTS = [
    (EXAMPLES[CorpusTopic.ROUGE_LSUM].hyp, EXAMPLES[CorpusTopic.ROUGE_LSUM].ref),
    ("the cat sat .\nthe cat sat on the mat .", "the cat sat on the mat ."),
    ("b a\nc d e\na b", "a b c\nd e"),
]


@pytest.mark.parametrize(("hyp", "ref"), ROUGE_TEXTS)
def test_rouge_lsum_lesson_equals_rouge_score(hyp: str, ref: str) -> None:
    lesson = corpus_lesson(CorpusTopic.ROUGE_LSUM, hyp, ref)
    scores = RougeScorer(["rougeL", "rougeLsum"]).score("\n".join(lines(ref)), "\n".join(lines(hyp)))
    assert abs(lesson.numbers["ROUGE-L F1"] - scores["rougeL"].fmeasure) < 1e-12
    assert abs(lesson.numbers["ROUGE-Lsum F1"] - scores["rougeLsum"].fmeasure) < 1e-12
    assert abs(lesson.numbers["ROUGE-Lsum P"] - scores["rougeLsum"].precision) < 1e-12
    assert abs(lesson.numbers["ROUGE-Lsum R"] - scores["rougeLsum"].recall) < 1e-12


def test_union_lcs_is_not_the_sum_of_lcs_lengths() -> None:
    # Both summary sentences cover "the cat sat": the pairs' LCS lengths add to 3 + 6 = 9, the union holds 6 words.
    lesson = corpus_lesson(CorpusTopic.ROUGE_LSUM, *ROUGE_TEXTS[1])
    assert lesson.numbers["sum of sentence-pair LCS lengths"] == 9
    assert lesson.numbers["union LCS words"] == 6
    assert lesson.numbers["ROUGE-Lsum hits"] == 6


def test_union_drawing_marks_words_and_escapes() -> None:
    metric = corpus_metric("rougeLsum", {"tokenizer": "unicode"})
    html = union_drawing(metric.explain("x<b>y\nthe cat", ["the cat\n<script>"]))
    assert "<script>" not in html and "<b>y" not in html
    assert '<span class="cl-hit">the</span><sup>2</sup>' in html
    assert '<span class="cl-off">script</span>' in html


METEOR_TEXTS = [
    (EXAMPLES[CorpusTopic.METEOR_PARAGRAPH].hyp, EXAMPLES[CorpusTopic.METEOR_PARAGRAPH].ref),
    ("on the mat sat the cat\nthe dog barked", "the cat sat on the mat\nthe dog barked loudly"),
]


@pytest.mark.parametrize(("hyp", "ref"), METEOR_TEXTS)
def test_meteor_paragraph_lesson_equals_nltk(hyp: str, ref: str, nltk_wordnet) -> None:  # type: ignore[no-untyped-def]
    hyps, refs = lines(hyp), lines(ref)
    lesson = corpus_lesson(CorpusTopic.METEOR_PARAGRAPH, hyp, ref)
    sentences = nltk_scores(hyps, [refs], nltk_wordnet)
    (paragraph,) = nltk_scores([" ".join(hyps)], [[" ".join(refs)]], nltk_wordnet)
    assert abs(lesson.numbers["paragraph METEOR"] - paragraph) < 1e-12
    for k, s in enumerate(sentences):
        assert abs(lesson.numbers[f"sentence METEOR {k + 1}"] - s) < 1e-12
    assert abs(lesson.numbers["mean of sentence METEOR"] - sum(sentences) / len(sentences)) < 1e-12
    m, ch = lesson.numbers["paragraph matches"], lesson.numbers["paragraph chunks"]
    assert math.isclose(lesson.numbers["paragraph penalty"], 0.5 * (ch / m) ** 3)


def test_tokenizer_option_reaches_the_lesson() -> None:
    hyp, ref = "今天天气很好。\n我们去公园散步吧。", "今天的天气很不错。\n我们一起去公园散步。"
    plain = corpus_lesson(CorpusTopic.BLEU_POOLING, hyp, ref)
    zh = corpus_lesson(CorpusTopic.BLEU_POOLING, hyp, ref, {"tokenize": "zh"})
    assert plain.score == 0.0  # one 13a token per line, and no line matches
    assert abs(zh.score - sacrebleu.corpus_bleu(lines(hyp), [lines(ref)], tokenize="zh").score) < 1e-9
    assert zh.score > 0
    summary = corpus_lesson(
        CorpusTopic.ROUGE_LSUM, "今天 天气\n我们 去", "今天 天气 好\n我们 去 公园", {"tokenizer": "unicode"}
    )
    assert summary.score > 0


def test_meteor_example_runs_chunks_across_sentence_boundaries() -> None:
    example = EXAMPLES[CorpusTopic.METEOR_PARAGRAPH]
    lesson = corpus_lesson(CorpusTopic.METEOR_PARAGRAPH, example.hyp, example.ref)
    # "hill | for many years it was empty | the children said" runs on: 6 chunks alone, 4 in the paragraph.
    assert (lesson.numbers["sum of sentence chunks"], lesson.numbers["paragraph chunks"]) == (6, 4)
