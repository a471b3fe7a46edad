"""nltk's corpus_bleu/sentence_bleu (smoothing methods 0-7) and the Google/TensorFlow compute_bleu."""

from __future__ import annotations

import math
import warnings

import pytest
from conftest import rel_close, slice_corpus
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from metrics.bleu.metric import BLEU
from metrics.bleu.variants import GoogleBLEU, NltkBLEU

SMOOTH = SmoothingFunction()


def _nltk_inputs(corpus, system: str, n: int):
    hyps = corpus.systems[system][:n]
    refs = [[stream[i].split() for stream in corpus.refs] for i in range(n)]
    return hyps, [h.split() for h in hyps], refs


@pytest.mark.parametrize("method", range(8))
def test_corpus_and_sentence_parity_with_nltk_on_ted(method):
    corpus = slice_corpus("ted")  # Moses-tokenized, as nltk expects pre-tokenized input
    hyps, hyp_tokens, refs = _nltk_inputs(corpus, "sys2", 150)
    ours = NltkBLEU(smoothing=method)
    stats = ours.stats(hyps, [s[:150] for s in corpus.refs])
    fn = getattr(SMOOTH, f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rel_close(ours.corpus_score(stats), corpus_bleu(refs, hyp_tokens, smoothing_function=fn))
        seg = ours.segment_scores(stats)
        for i in range(150):
            try:
                expected = sentence_bleu(refs[i], hyp_tokens[i], smoothing_function=fn)
            except AssertionError:  # method6 refuses a zero trigram precision
                assert math.isnan(seg[i])
                continue
            assert rel_close(seg[i], expected), (method, i)


def test_methods_5_to_7_depend_on_the_last_segment_like_nltk():
    corpus = slice_corpus("ted")
    hyps, hyp_tokens, refs = _nltk_inputs(corpus, "sys1", 40)
    ref_streams = [s[:40] for s in corpus.refs]
    for method in (5, 7):
        ours = NltkBLEU(smoothing=method)
        forward = ours.score(hyps, ref_streams)
        backward = ours.score(hyps[::-1], [s[::-1] for s in ref_streams])
        fn = getattr(SMOOTH, f"method{method}")
        assert rel_close(backward, corpus_bleu(refs[::-1], hyp_tokens[::-1], smoothing_function=fn))
        assert forward != backward


def test_method6_zero_trigram_is_a_value_error_for_the_corpus_and_nan_for_a_segment():
    metric = NltkBLEU(smoothing=6)
    with pytest.raises(ValueError, match="trigram"):
        metric.score(["a b c d"], [["a x b y"]])
    assert math.isnan(metric.sentence_score("a b c d", ["a x b y"]))


def test_zero_unigram_matches_score_zero():
    assert NltkBLEU().sentence_score("x y z", ["a b c"]) == 0.0


def test_google_bleu_matches_its_formula_on_real_data():
    corpus = slice_corpus("wmt22-de-en")
    hyps = corpus.systems["LT22"]
    google = GoogleBLEU()
    stats = google.stats(hyps, corpus.refs)
    totals = stats.pooled()
    matches, possible = totals[2:6], totals[6:10]
    precisions = [m / p for m, p in zip(matches, possible, strict=True)]
    ratio = totals[0] / totals[1]
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    expected = math.exp(sum(0.25 * math.log(p) for p in precisions)) * bp
    assert rel_close(google.corpus_score(stats), expected)
    # The same counts as sacrebleu-style BLEU with the shortest reference and no tokenization.
    same = BLEU(tokenize="none", ref_length="shortest", smooth="none").stats(hyps, corpus.refs)
    assert same.rows.tolist() == stats.rows.tolist()
    assert rel_close(
        google.corpus_score(stats) * 100, BLEU(tokenize="none", ref_length="shortest", smooth="none").corpus_score(same)
    )


def test_google_bleu_add_one_smoothing_and_zero():
    smoothed = GoogleBLEU(smooth=True).explain("the cat", ["the cat sat"])
    # matches 2,1,0,0 of possible 2,1,0,0 -> (m+1)/(p+1) = 1,1,1,1; ratio 2/3 -> bp exp(1 - 1.5)
    assert rel_close(smoothed.score, math.exp(-0.5))
    assert GoogleBLEU().sentence_score("the cat", ["the cat sat"]) == 0.0
