"""Perplexity: the n-gram models give every token nltk 3.10.4's own probability (bit for bit) and every segment its
``lm.perplexity`` (1e-9 relative) on real WMT22 de-en outputs, trained on the references or a corpus file; the
corpus score comes from summed statistics; a causal LM loaded from a folder (a tiny random GPT-2 saved here) equals
a direct computation with the model's own loss."""

from __future__ import annotations

import math

import numpy as np
import pytest
from nltk.lm import KneserNeyInterpolated, Vocabulary, WittenBellInterpolated
from nltk.lm.preprocessing import pad_both_ends, padded_everygram_pipeline
from nltk.util import ngrams

from metrics.core.base import segments_text
from metrics.core.evaluation import full_signature
from metrics.core.registry import create
from rendering.evidence import explanation_parts
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close


@pytest.fixture(scope="module")
def wmt():
    c = slice_corpus("wmt22-de-en")
    return c.systems["LT22"], c.refs


def _nltk(cls, sentences, order, cutoff=2, **params):
    train, words = padded_everygram_pipeline(order, [s.split() for s in sentences])
    lm = cls(order, vocabulary=Vocabulary(unk_cutoff=cutoff), **params)
    lm.fit(train, words)
    return lm


@pytest.mark.parametrize(
    ("model", "cls", "order", "segments"),
    [("witten-bell", WittenBellInterpolated, 3, 400), ("witten-bell", WittenBellInterpolated, 1, 100),
     ("kneser-ney", KneserNeyInterpolated, 2, 40), ("kneser-ney", KneserNeyInterpolated, 3, 25)],
)  # fmt: skip
def test_every_probability_and_segment_equal_nltk(wmt, model, cls, order, segments):
    hyps, refs = wmt
    lm = _nltk(cls, [r for stream in refs for r in stream], order)
    metric = create("perplexity", {"model": model, "order": order})
    stats = metric.stats(hyps, refs)  # every segment; nltk scores only the first ones (its scoring is slow)
    scores = metric.segment_scores(stats)
    for i, hyp in enumerate(hyps[:segments]):
        grams = list(ngrams(pad_both_ends(hyp.split(), n=order), order))
        assert rel_close(scores[i], lm.perplexity(grams)), i
        if i < 10:
            ex = metric.explain(hyp, [stream[i] for stream in refs])
            assert list(ex.probabilities) == [lm.score(g[-1], g[:-1]) for g in grams]
    nll, count = stats.rows.sum(axis=0)
    assert metric.corpus_score(stats) == math.exp(nll / count)
    assert count == sum(len(h.split()) + order - 1 for h in hyps)


def test_a_corpus_file_trains_the_model_and_the_signature_says_so(tmp_path, wmt):
    hyps, refs = wmt
    corpus = tmp_path / "news.txt"
    corpus.write_text("\n".join(refs[1]) + "\n", encoding="utf-8")
    metric = create("perplexity", {"corpus": str(corpus), "order": 2})
    lm = _nltk(WittenBellInterpolated, refs[1], 2)
    scores = metric.segment_scores(metric.stats(hyps, refs))[:50]
    assert all(
        rel_close(s, lm.perplexity(ngrams(pad_both_ends(h.split(), n=2), 2)))
        for s, h in zip(scores, hyps[:50], strict=True)
    )
    assert not metric.traits.reads_references and full_signature(metric, refs).startswith(
        "lm:wb|order:2|unk:2|train:file:news.txt:sha256:"
    )
    assert full_signature(create("perplexity"), refs).startswith("nrefs:2|lm:wb|order:3|unk:2|train:refs|")
    with pytest.raises(ValueError, match="Kneser–Ney needs order ≥ 2"):
        create("perplexity", {"model": "kneser-ney", "order": 1})


def test_unknown_words_without_a_cutoff_are_infinitely_surprising(wmt):
    hyps, refs = wmt
    metric = create("perplexity", {"unk_cutoff": 1})
    texts = ["the zyxwvut", *hyps[1:]]
    stats = metric.stats(texts, refs)
    assert math.isinf(metric.corpus_score(stats))
    vocabulary = {w for stream in refs for r in stream for w in r.split()}
    unseen = [i + 1 for i, h in enumerate(texts) if any(w not in vocabulary for w in h.split())]
    infinite = [i + 1 for i, s in enumerate(metric.segment_scores(stats)) if math.isinf(s)]
    assert infinite == unseen and unseen[0] == 1
    assert [n.detail for n in stats.notes if "probability 0" in n.kind] == [segments_text(unseen)]
    ex = metric.explain("the zyxwvut", [refs[0][0]])
    assert ex.seen[1] == "<UNK>" and ex.probabilities[1] == 0.0  # <UNK> was never counted


def test_the_heat_strip_shows_every_token_with_its_surprisal(wmt):
    hyps, refs = wmt
    metric = create("perplexity")
    metric.prepare(refs)
    ex = metric.explain(hyps[3], [stream[3] for stream in refs])
    assert [t.text for t in ex.tokens] == [*hyps[3].split(), "</s>", "</s>"]
    assert ex.row == (sum(ex.surprisals), float(len(hyps[3].split()) + 2))
    assert all(hyps[3][t.start : t.end] == t.text for t in ex.tokens if t.located)
    parts = explanation_parts(ex, hyps[3], [])
    strip = parts[0].payload
    assert strip.count('class="sl-col"') == len(ex.tokens)
    assert f"{ex.surprisals[0] / math.log(2):.1f}" in strip


@pytest.mark.neural
def test_a_causal_lm_from_a_folder_equals_its_own_loss(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.support.tiny_models import TEXTS, tiny_gpt2

    texts = TEXTS
    model, fast = tiny_gpt2(tmp_path)

    metric = create("perplexity", {"model": "causal", "causal_model": str(tmp_path)})
    hyps = ["the cat ran in the park .", "", "hello the world the dog", "the " * 20]
    stats = metric.stats(hyps, [texts])
    eos = fast.eos_token_id
    for i, hyp in enumerate(hyps):
        ids = fast(hyp, add_special_tokens=False)["input_ids"]
        full = [eos, *ids, eos]
        if len(full) - 1 <= 16:
            with torch.no_grad():
                loss = model(torch.tensor([full]), labels=torch.tensor([full])).loss
            expected = float(loss) * (len(full) - 1)
            assert stats.rows[i, 0] == pytest.approx(expected, rel=1e-5) and stats.rows[i, 1] == len(full) - 1
    assert any("windows of 16" in str(n) for n in stats.notes)  # the last text is longer than the model's context
    ex = metric.explain(hyps[0], [texts[0]])
    assert "".join(hyps[0][t.start : t.end] for t in ex.tokens if t.located).replace(" ", "") == hyps[0].replace(
        " ", ""
    )
    assert not metric.traits.reads_references and metric.signature().startswith("lm:causal|model:")
    assert np.isfinite(metric.corpus_score(stats))


@pytest.mark.neural
def test_a_causal_lm_in_length_sorted_batches_gives_the_numbers_of_each_text_alone(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from metrics.families.perplexity import causal
    from tests.support.tiny_models import TEXTS, tiny_gpt2

    tiny_gpt2(tmp_path)
    hyps = [
        "the cat ran in the park .",
        "",
        "hello the world the dog",
        "the " * 20,
        "a dog",
        "the cat ran in the park .",
    ]
    options = {"model": "causal", "causal_model": str(tmp_path), "device": "cpu"}
    alone = create("perplexity", options)
    batched = create("perplexity", {**options, "batch_size": 4})
    seen: list[int] = []
    lm = batched._causal()
    sizes: list[int] = []
    lm.model.register_forward_pre_hook(lambda _m, args: sizes.append(args[0].shape[0]))
    rows = lm.score_all(hyps, 4, seen.append)
    assert sorted(sizes) == [1, 1, 4]  # the windowed text alone (twice: 2 windows), 4 short texts in one batch
    assert seen[-1] == len(hyps)
    assert rows[0] is rows[-1]  # a repeated text is scored once
    refs = [[*TEXTS, *TEXTS[:2]]]  # reference-free: any stream of the right length
    expected, found = alone.stats(hyps, refs), batched.stats(hyps, refs)
    np.testing.assert_allclose(found.rows, expected.rows, rtol=1e-6)
    assert [str(n) for n in found.notes] == [str(n) for n in expected.notes]
    assert "|batch:4|" in batched.signature() and "batch:" not in alone.signature()
    assert batched.explain(hyps[0], [refs[0][0]]).row == tuple(
        found.rows[0]
    )  # the explanation shows what the batch scored
    causal._models.clear()
