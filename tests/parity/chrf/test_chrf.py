"""chrF / chrF++ parity with sacrebleu 2.6.0 on real outputs, and evidence that adds up."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from metrics.families.chrf.metric import CHRF, split_punctuation
from tests.support import sacre
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.golden_values import GOLDEN_HYPS, GOLDEN_REFS1, GOLDEN_REFS2
from tests.support.parity import rel_close
from tests.support.paths import DATA

OPTIONS = [
    {},
    {"word_order": 2},
    {"eps_smoothing": True},
    {"whitespace": True, "lowercase": True},
    {"word_order": 2, "beta": 1},
]


def _check(corpus, options: dict, max_systems: int = 2) -> None:
    """Corpus score, every segment's statistics and sentence score equal sacrebleu's."""
    ours, theirs = CHRF(**options), SacreCHRF(**options)
    for name, hyps in list(corpus.systems.items())[:max_systems]:
        stats = ours.stats(hyps, corpus.refs)
        assert rel_close(ours.corpus_score(stats), theirs.corpus_score(hyps, corpus.refs).score), name
        their_rows = sacre.segment_stats(theirs, hyps, corpus.refs)
        assert stats.rows.tolist() == their_rows, name
        seg = ours.segment_scores(stats)
        for i, score in enumerate(sacre.segment_scores(theirs, their_rows)):
            assert rel_close(seg[i], score), (name, i)


@pytest.mark.parametrize("options", OPTIONS)
def test_parity_wmt22_de_en(options):
    _check(slice_corpus("wmt22-de-en"), options)


@pytest.mark.parametrize("name", ["wmt22-en-zh", "wmt22-en-ja", "ted"])
def test_parity_other_languages(name):
    _check(slice_corpus(name), {"word_order": 2}, 9)


def test_golden_values():
    golden = json.loads((DATA / "golden_values.json").read_text())
    two = [GOLDEN_REFS1, GOLDEN_REFS2]
    assert rel_close(CHRF().score(GOLDEN_HYPS, two), golden["sacrebleu_chrf_corpus_2refs"])
    assert rel_close(CHRF(word_order=2).score(GOLDEN_HYPS, two), golden["sacrebleu_chrfpp_corpus_2refs"])
    assert rel_close(
        CHRF(eps_smoothing=True).score(GOLDEN_HYPS, [GOLDEN_REFS1]), golden["sacrebleu_chrf_eps_corpus_1ref"]
    )
    assert rel_close(CHRF(whitespace=True).score(GOLDEN_HYPS, [GOLDEN_REFS1]), golden["sacrebleu_chrf_ws_corpus_1ref"])


def test_edge_cases():
    assert CHRF().sentence_score("", ["the cat"]) == 0.0
    assert CHRF().sentence_score("the cat", [""]) == 0.0
    assert CHRF(eps_smoothing=True).sentence_score("", [""]) == pytest.approx(1e-14, rel=1e-9)
    assert split_punctuation("(hi) a, .b") == ["(hi", ")", "a", ",", ".", "b"]


def test_explanation_adds_up_and_picks_best_reference():
    corpus = slice_corpus("wmt22-de-en")
    metric = CHRF(word_order=2)
    hyps = corpus.systems["LT22"]
    stats = metric.stats(hyps, corpus.refs)
    for i in range(0, 400, 13):
        refs = [r[i] for r in corpus.refs]
        ex = metric.explain(hyps[i], refs)
        assert ex.row == tuple(stats.rows[i])
        assert ex.score == max(ex.ref_scores) and ex.ref_scores[ex.best_ref] == ex.score
        for order in ex.orders:
            assert sum(c.matched for c in order.ngrams) == order.n_match
            assert sum(c.ref_count for c in order.ngrams) == order.n_ref
            hyp_total = sum(c.hyp_count for c in order.ngrams)
            assert order.n_hyp == (hyp_total if order.n_ref else 0)
            for c in order.ngrams:  # every occurrence is located, as the n-gram itself
                assert len(c.hyp_spans) == c.hyp_count
                for start, end in c.hyp_spans:
                    assert "".join(hyps[i][start:end].split()) == c.ngram.replace(" ", "")
        assert [o.kind for o in ex.orders] == ["char"] * 6 + ["word"] * 2
        assert ex.combination.orders == sum(1 for o in ex.orders if o.n_hyp and o.n_ref)  # type: ignore[union-attr]


def test_bad_options():
    with pytest.raises(ValueError, match="valid options"):
        CHRF(order=3)
    with pytest.raises(ValueError, match="char_order"):
        CHRF(char_order=0)


@pytest.mark.sweep
def test_sweep_full_wmt22():
    _check(shared_corpus("wmt22/de-en", ["ref.A.txt", "ref.B.txt"]), {"word_order": 2}, 9)
