"""nltk's corpus_bleu/sentence_bleu (smoothing methods 0-7) and the Google/TensorFlow compute_bleu."""

from __future__ import annotations

import math
import warnings

import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from metrics.core.base import segments_text
from metrics.families.bleu.metric import BLEU
from metrics.families.bleu.variants import GoogleBLEU, NltkBLEU
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close

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


WEIGHT_SETS = [(1.0,), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)]


@pytest.mark.parametrize("method", [0, 1, 5, 7])
@pytest.mark.parametrize("weights", [(0.4, 0.3, 0.2, 0.1), (0.7, 0.3), (0.1, 0.2, 0.3, 0.2, 0.2)])
def test_non_uniform_weights_equal_nltk(method, weights):
    corpus = slice_corpus("ted")
    hyps, hyp_tokens, refs = _nltk_inputs(corpus, "sys2", 120)
    ours = NltkBLEU(smoothing=method, weights=weights, max_ngram_order=len(weights))
    stats = ours.stats(hyps, [s[:120] for s in corpus.refs])
    fn = getattr(SMOOTH, f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rel_close(ours.corpus_score(stats), corpus_bleu(refs, hyp_tokens, weights, fn))
        seg = ours.segment_scores(stats)
        for i in range(0, 120, 3):
            assert rel_close(seg[i], sentence_bleu(refs[i], hyp_tokens[i], weights, fn)), (weights, i)
    assert f"w:{','.join(map(repr, weights))}" in ours.signature()


@pytest.mark.parametrize("method", [0, 2, 5])
def test_several_weight_sets_at_once_equal_nltk_lists(method):
    """nltk counts up to the longest set and smooths once over all orders, then scores each set: a shorter set
    under method5 sees the higher orders' smoothing, so it is not the same as scoring that set alone."""
    corpus = slice_corpus("ted")
    hyps, hyp_tokens, refs = _nltk_inputs(corpus, "sys1", 80)
    ours = NltkBLEU(smoothing=method)
    stats = ours.stats(hyps, [s[:80] for s in corpus.refs])
    fn = getattr(SMOOTH, f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = corpus_bleu(refs, hyp_tokens, WEIGHT_SETS, fn)
        assert len(expected) == 4
        for mine, theirs in zip(ours.corpus_scores(stats, WEIGHT_SETS), expected, strict=True):
            assert rel_close(mine, theirs)
        for i in range(0, 80, 7):
            expected = sentence_bleu(refs[i], hyp_tokens[i], WEIGHT_SETS, fn)
            for mine, theirs in zip(
                ours.sentence_scores(hyps[i], [r[i] for r in corpus.refs], WEIGHT_SETS), expected, strict=True
            ):
                assert rel_close(mine, theirs), i
    with pytest.raises(ValueError, match="longest weight set"):
        ours.corpus_scores(stats, [(0.5, 0.5)])


def test_weights_option_parsing_and_its_checks():
    assert NltkBLEU(weights="0.4, 0.3 0.2,0.1").config.weights == (0.4, 0.3, 0.2, 0.1)
    assert NltkBLEU(weights=[0.5, 0.5], max_ngram_order=2).config.weights == (0.5, 0.5)
    assert NltkBLEU(weights=(0.25,) * 4).signature() == NltkBLEU().signature()  # the uniform default, not marked
    with pytest.raises(ValueError, match="one weight per order"):
        NltkBLEU(weights="0.5,0.5")
    with pytest.raises(ValueError, match="outside"):
        NltkBLEU(weights="-0.5,0.5,0.5,0.5")
    with pytest.raises(ValueError, match="list of numbers"):
        NltkBLEU(weights="0.5,x,0.5,0.5")
    # auto_reweigh applies only to the weights (0.25,)*4, as in nltk
    short = (["the cat"], [["the cat"]])
    odd = (0.4, 0.3, 0.2, 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        uniform = corpus_bleu([[["the", "cat"]]], [["the", "cat"]], auto_reweigh=True)
        expected = corpus_bleu([[["the", "cat"]]], [["the", "cat"]], odd, auto_reweigh=True)
    assert NltkBLEU(auto_reweigh=True).score(*short) == uniform == 1.0
    assert NltkBLEU(auto_reweigh=True, weights=odd).score(*short) == expected < 1e-50


def test_no_overlap_warnings_are_notes_where_nltk_warns():
    corpus = slice_corpus("ted")
    hyps, hyp_tokens, refs = _nltk_inputs(corpus, "sys2", 150)
    ours = NltkBLEU()
    stats = ours.stats(hyps, [s[:150] for s in corpus.refs])
    warned = []
    for i in range(150):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sentence_bleu(refs[i], hyp_tokens[i])
        orders = sorted(int(str(w.message).split("0 counts of ")[1].split("-gram")[0]) for w in caught)
        explanation = ours.explain(hyps[i], [s[i] for s in corpus.refs])
        if orders:
            warned.append(i + 1)
            (note,) = explanation.notes
            named = ", ".join(f"{n}-" for n in orders[:-1]) + (" and " if len(orders) > 1 else "")
            assert note.startswith(f"the hypothesis contains 0 counts of {named}{orders[-1]}-gram overlaps"), note
        else:
            assert explanation.notes == (), i
    assert warned, "the slice has hypotheses nltk warns about"
    (note,) = stats.notes
    assert note.detail == segments_text(warned) and "sentence_bleu warns" in note.kind
    assert NltkBLEU(smoothing=1).stats(hyps, [s[:150] for s in corpus.refs]).notes == ()  # nltk warns in method0 only
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        corpus_bleu([[["a", "b", "c"]]], [["a", "x", "c"]])
    assert len(caught) == 3  # 2-, 3- and 4-gram
    (corpus_note,) = NltkBLEU().stats(["a x c"], [["a b c"]]).notes[1:]
    assert corpus_note.detail == "0 counts of 2-, 3- and 4-gram overlaps" and "corpus_bleu warns" in corpus_note.kind
