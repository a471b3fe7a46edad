"""The perplexity lesson's add-k bigram model equals nltk's Lidstone(k, 2): every probability and the perplexity."""

from __future__ import annotations

import math

import pytest
from nltk.lm import Lidstone
from nltk.lm.preprocessing import pad_both_ends, padded_everygram_pipeline
from nltk.util import ngrams

from metrics.families.perplexity.addk import UNK, train
from rendering.lessons.perplexity import EXAMPLE, perplexity_lesson

TRAINING = [EXAMPLE.training, "今天 天气 很 好\n今天 下雨\n我们 去 公园", "a a a b\nb a"]
TESTS = [EXAMPLE.test, "今天 天气 不错\n我们 去 公园 吧", "a b c\nc"]


def nltk_model(training: str, k: float) -> Lidstone:
    sentences = [line.split() for line in training.splitlines() if line.strip()]
    train_data, vocab = padded_everygram_pipeline(2, sentences)
    lm = Lidstone(k, 2)
    lm.fit(train_data, vocab)
    return lm


@pytest.mark.parametrize("k", [1.0, 0.5, 0.01])
@pytest.mark.parametrize(("training", "test"), list(zip(TRAINING, TESTS, strict=True)))
def test_lesson_equals_nltk_lidstone(training: str, test: str, k: float) -> None:
    lm = nltk_model(training, k)
    lesson = perplexity_lesson(training, test, k)
    grams = [g for line in test.splitlines() if line.strip() for g in ngrams(pad_both_ends(line.split(), n=2), 2)]
    assert math.isclose(lesson.numbers["perplexity"], lm.perplexity(grams), rel_tol=1e-12)
    assert lesson.numbers["|V|"] == len(lm.vocab)
    for i, (h, w) in enumerate(grams):
        assert math.isclose(lesson.numbers[f"P(token {i + 1})"], lm.score(w, [h]), rel_tol=1e-12)
    assert math.isclose(math.log(lesson.numbers["perplexity"]), lesson.numbers["mean NLL (nats)"], rel_tol=1e-12)


def test_unseen_words_are_unk_and_the_uniform_model_has_perplexity_v() -> None:
    model = train([["a", "b"]], 1.0)
    (event,) = [e for e in model.events(["zebra"]) if e.word == "zebra"]
    assert event.seen == UNK and event.pair_count == 0
    # k huge: every probability tends to 1/|V|, the perplexity to |V| (the branching-factor reading).
    flat = perplexity_lesson("a b\nb c", "a b c", 1e9)
    assert math.isclose(flat.numbers["perplexity"], flat.numbers["|V|"], rel_tol=1e-6)


def test_k_zero_is_refused() -> None:
    with pytest.raises(ValueError, match="k must be positive"):
        perplexity_lesson("a b", "a", 0.0)
