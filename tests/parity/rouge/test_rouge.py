"""ROUGE-N/L/Lsum parity with rouge-score 0.1.2 on real summaries, captions and translations, and evidence that
adds up to the scores."""

from __future__ import annotations

import random
import re
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, tokenize
from rouge_score.rouge_scorer import _summary_level_lcs, _union_lcs, lcs_ind
from rouge_score.tokenizers import DefaultTokenizer

from metrics.core.caveats import Severity, Surface, language_caveats
from metrics.core.config import build_config
from metrics.core.registry import create
from metrics.core.selection import Selection
from metrics.families.rouge.lcs import (
    SentencePack,
    cell,
    lcs_length,
    lcs_pairs,
    lcs_pairs_from_table,
    lcs_rows,
    lcs_table,
    summary_lcs,
    union_lcs,
)
from metrics.families.rouge.metric import (
    COLUMNS,
    LcsEvidence,
    LsumEvidence,
    NgramEvidence,
    RougeConfig,
    RougeL,
    RougeLsum,
    RougeN,
    RougeNConfig,
    prf,
)
from metrics.families.rouge.tokenize import RougeTokenizer, discarded, losing, split_sentences
from metrics.io.inputs import read_segments
from metrics.kernels import pure_python
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import SHARED_DATA

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
FIELDS = ("precision", "recall", "fmeasure")


def _refs_of(corpus, i: int) -> list[str]:
    return [stream[i] for stream in corpus.refs if stream[i] is not None]


@cache
def _reference_scores(name: str, stemmer: bool, system: str) -> dict[str, np.ndarray]:
    """rouge-score's (P, R, F) of every segment, per type: ``score`` for one reference, ``score_multi`` for more."""
    corpus = slice_corpus(name)
    scorer = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=stemmer)
    results = []
    for i, hyp in enumerate(corpus.systems[system]):
        refs = _refs_of(corpus, i)
        results.append(scorer.score(refs[0], hyp) if len(refs) == 1 else scorer.score_multi(refs, hyp))
    return {t: np.array([[getattr(r[t], f) for f in FIELDS] for r in results]) for t in TYPES}


def _check_parity(name: str, stemmer: bool, systems: int | None = None) -> int:
    corpus = slice_corpus(name)
    checked = 0
    for system in list(corpus.systems)[:systems]:
        expected = _reference_scores(name, stemmer, system)
        hyps = corpus.systems[system]
        for rouge_type in TYPES:
            metric = create(rouge_type, {"stemmer": stemmer})
            stats = metric.stats(hyps, corpus.refs)
            ours = np.stack([stats.column(f) for f in FIELDS], axis=1)
            # Same operations in the same order: every segment's P, R and F are bit-identical.
            assert np.array_equal(ours, expected[rouge_type]), (name, system, rouge_type)
            assert np.array_equal(metric.segment_scores(stats), expected[rouge_type][:, 2])
            assert rel_close(metric.corpus_score(stats), float(np.mean(expected[rouge_type][:, 2])))
            checked += len(hyps)
    return checked


@pytest.mark.parametrize("stemmer", [False, True])
def test_parity_cnndm_multi_sentence_summaries(stemmer):
    corpus = slice_corpus("cnndm")
    assert all("\n" in r for r in corpus.refs[0][:20])  # Lsum really sees sentences
    systems = 2 if stemmer else 3
    assert _check_parity("cnndm", stemmer, systems=systems) == systems * 200 * 4


@pytest.mark.parametrize("stemmer", [False, True])
def test_parity_ted_single_sentences(stemmer):
    assert _check_parity("ted", stemmer) == 2 * 400 * 4


@pytest.mark.parametrize("stemmer", [False, True])
def test_parity_coco_four_references_score_multi(stemmer):
    corpus = slice_corpus("coco")
    assert len(corpus.refs) == 4
    systems = 2 if stemmer else 3  # rouge-score's uncached stemmer is the slow part
    assert _check_parity("coco", stemmer, systems=systems) == systems * 500 * 4


def test_best_reference_is_the_first_maximum_per_type():
    corpus = slice_corpus("coco")
    hyps = corpus.systems["Up-Down"][:200]
    chosen = {}
    for rouge_type in TYPES:
        metric = create(rouge_type)
        for i, hyp in enumerate(hyps):
            refs = _refs_of(corpus, i)
            row = metric.segment_row(hyp, refs)
            f = [metric.segment_row(hyp, [r])[2] for r in refs]
            assert row[COLUMNS.index("best_ref")] == int(np.argmax(f))
            assert row[2] == max(f)
            chosen.setdefault(rouge_type, []).append(int(row[-1]))
    # Types choose independently (rouge-score's score_multi), so the winners differ somewhere.
    assert chosen["rouge1"] != chosen["rouge2"]
    # Duplicated best references: the first one wins.
    assert create("rougeL").segment_row("a cat sat", ["a dog", "a cat sat", "a cat sat"])[-1] == 1.0


def test_golden_values_from_the_spec():
    """golden_values.json ``rouge_score_stem`` / ``rouge_score_nostem`` (rouge-score 0.1.2), as (P, R, F)."""
    golden = {
        True: (
            "The leaves fell; he went home.\nThe dogs were running quickly.",
            "Leaves were falling and he goes home.\nDogs run quickly.",
            {
                "rouge1": [0.7, 0.6363636363636364, 0.6666666666666666],
                "rouge2": [0.1111111111111111, 0.1, 0.10526315789473685],
                "rougeL": [0.6, 0.5454545454545454, 0.5714285714285713],
                "rougeLsum": [0.7, 0.6363636363636364, 0.6666666666666666],
            },
        ),
        False: (
            "the cat sat on the mat.\nit was happy",
            "the cat was happy\nthe cat sat on a mat",
            {
                "rouge1": [0.8, 0.8888888888888888, 0.8421052631578948],
                "rouge2": [0.4444444444444444, 0.5, 0.47058823529411764],
                "rougeL": [0.5, 0.5555555555555556, 0.5263157894736842],
                "rougeLsum": [0.7, 0.7777777777777778, 0.7368421052631577],
            },
        ),
    }
    for stemmer, (ref, hyp, values) in golden.items():
        for rouge_type, expected in values.items():
            row = create(rouge_type, {"stemmer": stemmer}).segment_row(hyp, [ref])
            assert row[:3].tolist() == expected, (stemmer, rouge_type)


def test_worked_example_union_lcs_is_four():
    """Lin (2004) §3.2: r = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5 → LCS∪(r, C) = w1 w2 w3 w5."""
    r = ["w1", "w2", "w3", "w4", "w5"]
    c1, c2 = ["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]
    assert lcs_pairs(r, c1) == ((0, 0), (1, 1))
    assert lcs_pairs(r, c2) == ((0, 0), (2, 1), (4, 4))
    assert union_lcs(r, [c1, c2]) == (0, 1, 2, 4)
    assert summary_lcs([r], [c1, c2])[0] == 4
    ref, hyp = "w1 w2 w3 w4 w5", "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5"
    explanation = RougeLsum().explain(hyp, [ref])
    sentence = explanation.chosen.evidence.sentences[0]
    assert (sentence.union, sentence.hits, sentence.clipped) == ((0, 1, 2, 4), (0, 1, 2, 4), ())
    assert sentence.lcs == (((0, 0), (1, 1)), ((0, 0), (2, 1), (4, 4)))
    assert explanation.chosen.evidence.hyp_sentences == ((0, 5), (5, 10))
    assert (explanation.recall, explanation.precision) == (4 / 5, 4 / 10)
    expected = rouge_scorer.RougeScorer(["rougeLsum"]).score(ref, hyp)["rougeLsum"]
    assert explanation.row[:3] == tuple(expected)
    # As one sentence (no newline) the same pair is plain ROUGE-L.
    one_line = hyp.replace("\n", " ")
    assert RougeLsum().segment_row(one_line, [ref]).tolist() == RougeL().segment_row(one_line, [ref]).tolist()


def test_clipping_drops_tokens_already_used():
    # "a" occurs once in the hypothesis but is on the LCS of both reference sentences: credited only once.
    explanation = RougeLsum().explain("x a y", ["a b\na c"])
    first, second = explanation.chosen.evidence.sentences
    assert (first.union, first.hits) == ((0,), (0,))
    assert (second.union, second.hits, second.clipped) == ((0,), (), (0,))
    assert explanation.chosen.hits == 1
    assert explanation.row[:3] == tuple(rouge_scorer.RougeScorer(["rougeLsum"]).score("a b\na c", "x a y")["rougeLsum"])


def test_lsum_equals_l_without_newlines():
    corpus = slice_corpus("ted")
    hyps = corpus.systems["sys1"]
    assert not any("\n" in h for h in hyps)
    lsum = RougeLsum().stats(hyps, corpus.refs)
    lcs = RougeL().stats(hyps, corpus.refs)
    assert np.array_equal(lsum.rows, lcs.rows)


def test_lsum_splits_on_newline_only_and_keeps_blank_lines():
    assert split_sentences("a b\n\n  \nc.\n") == [(0, "a b"), (5, "  "), (8, "c.")]
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    for ref, hyp in [("a b\n\n  \nc d", "c d\n .\na b"), ("a. b. c.", "c. b. a."), ("x\r\ny", "y\nx")]:
        assert RougeLsum().segment_row(hyp, [ref])[:3].tolist() == list(scorer.score(ref, hyp)["rougeLsum"])


def test_empty_and_punctuation_only_segments_score_zero_like_rouge_score():
    scorer = rouge_scorer.RougeScorer(list(TYPES))
    cases = [("", "a b"), ("a b", ""), ("...", "a b"), ("a", "a"), ("\n\n", "a\nb"), ("a b", " . \n , ")]
    for hyp, ref in cases:
        expected = scorer.score(ref, hyp)
        for rouge_type in TYPES:
            row = create(rouge_type).segment_row(hyp, [ref])
            assert row[:3].tolist() == [float(x) for x in expected[rouge_type]], (hyp, ref, rouge_type)


def test_rouge_n_for_every_order_rouge_score_accepts():
    corpus = slice_corpus("cnndm")
    hyps = corpus.systems["pointer-gen"][:40]
    for n in (3, 4, 9):
        scorer = rouge_scorer.RougeScorer([f"rouge{n}"])
        metric = create("rouge1", {"n": n})
        assert metric.name == f"ROUGE-{n}"
        for i, hyp in enumerate(hyps):
            expected = scorer.score(corpus.refs[0][i], hyp)[f"rouge{n}"]
            assert metric.segment_row(hyp, [corpus.refs[0][i]])[:3].tolist() == list(expected)


# ------------------------------------------------------------------------------------------ non-ASCII warning


def test_chinese_with_default_tokenizer_scores_like_rouge_score_and_warns():
    corpus = slice_corpus("wmt22-en-zh")
    hyps = corpus.systems["Online-B"]
    scorer = rouge_scorer.RougeScorer(list(TYPES))
    for rouge_type in TYPES:
        metric = create(rouge_type)
        stats = metric.stats(hyps, corpus.refs)
        expected = [scorer.score_multi(_refs_of(corpus, i), h)[rouge_type].fmeasure for i, h in enumerate(hyps)]
        assert np.array_equal(stats.column("fmeasure"), expected)
        assert not [n for n in stats.notes if "tokenizer" in str(n)]  # said once for all systems: a caveat
        (caveat,) = language_caveats([rouge_type], corpus.refs, [hyps])
        assert (caveat.affected, caveat.total, caveat.outputs_affected, caveat.outputs_total) == (400, 400, 200, 200)
        assert caveat.severity is Severity.WARNING and caveat.remedy is not None
        assert (caveat.remedy.name, caveat.remedy.value) == ("tokenizer", "unicode")
    # A purely Chinese pair has no tokens at all: 0, as rouge-score.
    i = next(i for i, h in enumerate(hyps) if h.isascii() is False and not any(c.isascii() and c.isalnum() for c in h))
    explanation = create("rouge1").explain(hyps[i], _refs_of(corpus, i))
    assert explanation.score == 0.0 and explanation.hyp_tokens == ()
    assert explanation.notes and "unicode" in explanation.notes[0]
    assert "".join(t.text for t in explanation.hyp_discarded) == "".join(c for c in hyps[i] if c.isalnum())
    for token in explanation.hyp_discarded:
        assert hyps[i][token.start : token.end] == token.text


def test_chinese_with_unicode_tokenizer_scores_and_does_not_warn():
    corpus = slice_corpus("wmt22-en-zh")
    hyps = corpus.systems["Online-B"]
    for rouge_type in TYPES:
        default = create(rouge_type).stats(hyps, corpus.refs)
        metric = create(rouge_type, {"tokenizer": "unicode"})
        stats = metric.stats(hyps, corpus.refs)
        assert not [n for n in stats.notes if "tokenizer" in str(n)]
        assert metric.corpus_score(stats) > 0.3
        assert metric.corpus_score(stats) > create(rouge_type).corpus_score(default)
        assert (stats.column("fmeasure") > 0).mean() > 0.9
    # Japanese too: kana and kanji are single tokens.
    ja = slice_corpus("wmt22-en-ja")
    metric = create("rougeL", {"tokenizer": "unicode"})
    assert metric.corpus_score(metric.stats(ja.systems["NT5"], ja.refs)) > 0.3
    assert RougeTokenizer("unicode").words("日本語のテキスト、カタカナ") == list("日本語のテキストカタカナ")
    explanation = create("rouge2", {"tokenizer": "unicode"}).explain("我们的订单来晚了。", ["您的订单晚了"])
    assert [m.ngram for m in explanation.chosen.evidence.matches] == [("的", "订"), ("订", "单"), ("晚", "了")]
    assert [m.hyp_spans for m in explanation.chosen.evidence.matches] == [((2, 4),), ((3, 5),), ((6, 8),)]
    assert explanation.notes == () and explanation.chosen.hits == 3


def test_the_caveat_counts_texts_losing_letters_once_for_all_systems():
    """References count once however many systems there are; outputs of every system count together."""
    refs = [["Crème brûlée", "plain", None], ["Zürich Zürichsee-Ufer", "naïve", "ok"]]
    outputs = [["Crème", "Ölmühle", "x"], ["a", "b", "c"]]
    (caveat,) = language_caveats(["rouge1", "rougeL"], refs, outputs)
    assert caveat.metrics == ("rouge1", "rougeL") and caveat.severity is Severity.WARNING
    assert (caveat.affected, caveat.total, caveat.outputs_affected, caveat.outputs_total) == (3, 5, 2, 6)
    assert caveat.examples == ("ü", "è", "û", "é", "ï")  # the commonest first: ü 3 times, è twice
    assert caveat.text(Surface.CLI).startswith(
        "3 of 5 references (60%) and 2 of 6 system outputs have letters ROUGE-1/2/L/Lsum's tokenizer drops (ü, è, û"
    )
    assert language_caveats(["rouge1"], refs, outputs, {"rouge": {"tokenizer": "unicode"}}) == ()
    assert language_caveats(["rouge1"], [["plain", "ascii"]], [["only"] * 2]) == ()


def test_unicode_tokenizer_keeps_accents_and_scripts_and_spans():
    tok = RougeTokenizer("unicode")
    text = "Café DÉJÀ-vu: naïve Straße, Ελληνικά 2024 k_9 한국어"
    tokens = tok.tokens(text)
    assert [t.text for t in tokens] == [
        "café", "déjà", "vu", "naïve", "straße", "ελληνικά", "2024", "k", "9", "한", "국", "어",
    ]  # fmt: skip
    for token in tokens:
        assert text[token.start : token.end].lower() == token.text
    assert [t.text for t in RougeTokenizer("default").tokens(text)][:4] == ["caf", "d", "j", "vu"]
    assert discarded(text)[0].text == "é"
    assert losing(["plain ascii, only", None, "naïve"]) == [2]
    # Kelvin sign and dotted capital I lowercase to ASCII: nothing is lost.
    assert losing(["\u212a \u0130"]) == [] and RougeTokenizer().words("\u212a \u0130") == ["k", "i"]


def test_discarded_letters_are_every_non_ascii_one_whose_lowercase_has_no_ascii():
    """Checked on every code point: what the default tokenizer loses is what ``discarded`` reports."""
    lost = [chr(c) for c in range(0x80, 0x110000) if chr(c).isalnum() and not re.search("[a-z0-9]", chr(c).lower())]
    text = "".join(chr(c) for c in range(0x80, 0x110000) if chr(c).isalnum())
    assert "".join(run.text for run in discarded(text)) == "".join(lost)
    chars = list(text) + ["\u212a\u0130"]
    lost_set = set(lost)
    expected = [k for k, c in enumerate(chars) if c in lost_set]
    assert losing(chars) == expected
    with pure_python():
        assert losing(chars) == expected
    assert [t.text for t in discarded("a\u00e9\u00e8\u212a\u00ef b")] == ["\u00e9\u00e8", "\u00ef"]


def test_unicode_tokenizer_equals_default_on_ascii_text():
    corpus = slice_corpus("cnndm")
    texts = corpus.systems["baseline"][:100] + corpus.refs[0][:100]
    for stemmer in (False, True):
        default, uni = RougeTokenizer("default", stemmer), RougeTokenizer("unicode", stemmer)
        for text in texts:
            if text.isascii():
                assert default.words(text) == uni.words(text)


# ------------------------------------------------------------------------------------------------- tokenizer


def test_default_tokenizer_equals_rouge_score_with_and_without_stemmer():
    corpus = slice_corpus("cnndm")
    texts = corpus.systems["pointer-gen-cov"][:150] + corpus.refs[0][:150] + slice_corpus("wmt22-de-en").refs[0][:100]
    texts += ["Café déjà-vu: the CAT's 3.5 kg; naïve İstanbul K-9", "skies dying lying news innings was dies 1990s"]
    for stemmer in (False, True):
        ours = RougeTokenizer("default", stemmer)
        theirs = DefaultTokenizer(use_stemmer=stemmer)
        for text in texts:
            words = ours.words(text)
            assert words == theirs.tokenize(text)
            assert [t.text for t in ours.tokens(text)] == words
    assert RougeTokenizer("default").words("Café déjà-vu: the CAT's 3.5 kg") == tokenize.tokenize(
        "Café déjà-vu: the CAT's 3.5 kg", None
    )
    stem = RougeTokenizer("default", stemmer=True)
    assert stem.words("was dies skies running") == ["was", "die", "sky", "run"]  # len ≤ 3 is never stemmed


def test_token_spans_point_into_the_original_text():
    tok = RougeTokenizer("default", stemmer=True)
    text = "İİ Running FAST, the Kelvin \u212a-9 dogs"  # "İ".lower() is two code points: offsets must still fit
    tokens = tok.tokens(text)
    assert [t.text for t in tokens] == ["i", "i", "run", "fast", "the", "kelvin", "k", "9", "dog"]
    assert [text[t.start : t.end] for t in tokens] == [
        "İ",
        "İ",
        "Running",
        "FAST",
        "the",
        "Kelvin",
        "\u212a",
        "9",
        "dogs",
    ]
    explanation = RougeLsum().explain("x y\nthe cat", ["The Cat\nsat"])
    hyp_tokens = explanation.hyp_tokens
    assert [(t.text, t.start, t.end) for t in hyp_tokens] == [("x", 0, 1), ("y", 2, 3), ("the", 4, 7), ("cat", 8, 11)]
    assert [(t.start, t.end) for t in explanation.chosen.ref_tokens] == [(0, 3), (4, 7), (8, 11)]


# ---------------------------------------------------------------------------------------------- explanations


def _sample(n: int = 25) -> list[tuple[str, list[str]]]:
    rng = random.Random(7)
    out = []
    for name in ("cnndm", "coco", "ted"):
        corpus = slice_corpus(name)
        for hyps in corpus.systems.values():
            for i in rng.sample(range(len(hyps)), n // 5):
                out.append((hyps[i], _refs_of(corpus, i)))
    return out


@pytest.mark.parametrize("stemmer", [False, True])
def test_explanations_add_up_to_the_statistics(stemmer):
    for hyp, refs in _sample():
        for rouge_type in TYPES:
            metric = create(rouge_type, {"stemmer": stemmer})
            explanation = metric.explain(hyp, refs)
            row = metric.segment_row(hyp, refs)
            assert explanation.row == tuple(row.tolist())
            assert explanation.score == row[2] == explanation.chosen.fmeasure
            assert (explanation.precision, explanation.recall) == (row[0], row[1])
            assert explanation.metric == rouge_type and explanation.best_ref == row[-1]
            hyp_words = [t.text for t in explanation.hyp_tokens]
            for k, ref_score in enumerate(explanation.references):
                ref_words = [t.text for t in ref_score.ref_tokens]
                assert prf(ref_score.hits, ref_score.hyp_total, ref_score.ref_total) == (
                    ref_score.precision,
                    ref_score.recall,
                    ref_score.fmeasure,
                )
                assert ref_score.fmeasure == metric.segment_row(hyp, [refs[k]])[2]
                evidence = ref_score.evidence
                if isinstance(evidence, NgramEvidence):
                    assert sum(m.clipped for m in evidence.matches) == ref_score.hits
                    for m in evidence.matches:
                        assert m.clipped == min(m.hyp_count, m.ref_count) > 0
                        assert len(m.hyp_positions) == m.hyp_count and len(m.ref_positions) == m.ref_count
                        for p in m.hyp_positions:
                            assert tuple(hyp_words[p : p + evidence.n]) == m.ngram
                        for a, b in m.hyp_spans + m.ref_spans:
                            assert 0 <= a < b
                        if not stemmer:  # the spans hold the words, only case and punctuation differ
                            for a, b in m.hyp_spans:
                                assert RougeTokenizer().words(hyp[a:b]) == list(m.ngram)
                        for p in m.ref_positions:
                            assert tuple(ref_words[p : p + evidence.n]) == m.ngram
                elif isinstance(evidence, LcsEvidence):
                    _check_lcs_evidence(evidence, ref_words, hyp_words, ref_score.hits)
                else:
                    _check_lsum_evidence(evidence, ref_score, explanation.hyp_tokens)


def _check_lcs_evidence(evidence: LcsEvidence, ref_words, hyp_words, hits: int) -> None:
    assert len(evidence.pairs) == hits == lcs_length(ref_words, hyp_words)
    assert all(ref_words[i] == hyp_words[j] for i, j in evidence.pairs)
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(evidence.pairs, evidence.pairs[1:], strict=False))
    table = evidence.dp_table()
    assert table.shape == (len(ref_words) + 1, len(hyp_words) + 1) and table[-1, -1] == hits
    assert evidence.pairs == lcs_pairs_from_table(table.tolist(), ref_words, hyp_words)
    assert [i for i, _ in evidence.pairs] == lcs_ind(ref_words, hyp_words)


def _check_lsum_evidence(evidence: LsumEvidence, ref_score, hyp_tokens) -> None:
    ref_words = [t.text for t in ref_score.ref_tokens]
    hyp_sents = [[t.text for t in hyp_tokens[a:b]] for a, b in evidence.hyp_sentences]
    assert sum(len(s.hits) for s in evidence.sentences) == ref_score.hits
    for sentence in evidence.sentences:
        words = ref_words[sentence.start : sentence.end]
        if hyp_sents and sum(map(len, hyp_sents)):
            assert [words[i] for i in sentence.union] == _union_lcs(words, hyp_sents)
        assert set(sentence.hits) <= set(sentence.union)
        assert sorted(sentence.hits + sentence.clipped) == list(sentence.union)
        for k, path in enumerate(sentence.lcs):
            assert path == lcs_pairs(words, hyp_sents[k])


def test_rouge_l_explanation_grid_heatmap():
    explanation = RougeL().explain("the cat was found under the bed", ["the cat was under the bed"])
    evidence = explanation.chosen.evidence
    assert evidence.pairs == ((0, 0), (1, 1), (2, 2), (3, 4), (4, 5), (5, 6))
    table = evidence.dp_table()
    assert table[-1, -1] == 6 and table[0].tolist() == [0] * 8
    assert explanation.score == pytest.approx(2 * 6 / 7 * 1 / (6 / 7 + 1))


def test_tie_breaking_goes_up_as_rouge_score():
    # Two LCS of length 1 ("a" or "b"); rouge-score's rule (up on ties) picks the reference's "a".
    assert lcs_pairs(["a", "b"], ["b", "a"]) == ((0, 1),)
    assert lcs_ind(["a", "b"], ["b", "a"]) == [0]
    assert lcs_pairs(["b", "a"], ["a", "b"]) == ((0, 1),)


# ------------------------------------------------------------------------------------------------------ LCS


tokens = st.lists(st.sampled_from("abcde"), max_size=18)


@settings(max_examples=300, deadline=None)
@given(tokens, tokens)
def test_bit_parallel_lcs_equals_the_dp_grid(ref, can):
    table = lcs_table(ref, can)
    assert lcs_length(ref, can) == table[-1][-1]
    rows = lcs_rows(ref, can)
    assert [[cell(rows, i, j) for j in range(len(can) + 1)] for i in range(len(ref) + 1)] == table
    assert lcs_pairs(ref, can) == lcs_pairs_from_table(table, ref, can)
    assert [i for i, _ in lcs_pairs(ref, can)] == lcs_ind(ref, can)


@settings(max_examples=200, deadline=None)
@given(st.lists(tokens, min_size=1, max_size=4), st.lists(tokens, min_size=1, max_size=4))
def test_summary_lcs_equals_rouge_score(ref_sents, can_sents):
    pack = SentencePack.of(can_sents)
    for ref in ref_sents:
        assert [list(p) for p in pack.lcs_paths(ref)] == [list(lcs_pairs(ref, c)) for c in can_sents]
    hits, details = summary_lcs(ref_sents, can_sents, evidence=True)
    m, n = sum(map(len, ref_sents)), sum(map(len, can_sents))
    expected = _summary_level_lcs(ref_sents, can_sents)
    if m and n:
        assert (hits / n, hits / m) == (expected.precision, expected.recall)
    assert sum(len(d.hits) for d in details) == hits


# --------------------------------------------------------------------------------------------- the contract


def test_options_reach_every_rouge_score_metric_and_bad_values_raise():
    metrics = Selection(
        ("rouge1", "rouge2", "rougeL", "rougeLsum"), {"rouge": {"stemmer": "true", "tokenizer": "unicode"}}
    ).build()
    for metric in metrics.values():
        assert metric.config.stemmer is True and metric.config.tokenizer == "unicode"
        assert "stem:yes" in metric.signature() and "tok:unicode" in metric.signature()
    assert isinstance(metrics["rouge2"], RougeN) and metrics["rouge2"].config.n == 2
    assert metrics["rougeLsum"].signature().startswith("type:rougeLsum|")
    with pytest.raises(ValueError, match="default, unicode"):
        create("rougeL", {"tokenizer": "spacy"})
    with pytest.raises(ValueError, match=r"outside \[1, 9\]"):
        create("rouge1", {"n": 0})
    with pytest.raises(ValueError, match=r"outside \[1, 9\]"):
        build_config(RougeNConfig, {"n": 10})
    with pytest.raises(ValueError, match="boolean"):
        create("rouge1", {"stemmer": "maybe"})
    with pytest.raises(ValueError, match="stemmer"):
        RougeConfig(stemmer="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="valid options"):
        create("rougeL", {"n": 2})
    with pytest.raises(ValueError, match="at least one reference"):
        RougeL().segment_row("a", [])
    with pytest.raises(ValueError, match="segments"):
        RougeL().stats(["a", "b"], [["a"]])


def test_score_pooled_is_vectorized_mean_f_and_inputs_are_not_mutated():
    corpus = slice_corpus("cnndm")
    hyps = list(corpus.systems["baseline"][:50])
    refs = [list(corpus.refs[0][:50])]
    before = (list(hyps), [list(refs[0])])
    metric = RougeLsum()
    stats = metric.stats(hyps, refs)
    assert (hyps, refs) == before
    assert stats.columns == COLUMNS and stats.aggregate == "mean" and stats.metric == "rougeLsum"
    assert metric.corpus_score(stats) == pytest.approx(stats.column("fmeasure").mean(), rel=1e-12)
    index = np.random.default_rng(0).integers(0, 50, size=(7, 50))
    pooled = stats.pooled(index)
    scores = metric.score_pooled(pooled)
    assert scores.shape == (7,)
    assert np.allclose(scores, stats.column("fmeasure")[index].mean(axis=1))
    assert metric.score_pooled(stats.pooled()).shape == ()
    assert metric.sentence_score(hyps[3], [refs[0][3]]) == stats.column("fmeasure")[3]


# ---------------------------------------------------------------------------------------------------- sweep


@pytest.mark.sweep
@pytest.mark.parametrize("stemmer", [False, True])
def test_sweep_full_cnndm_every_segment(stemmer):
    """All 11 490 CNN/DailyMail documents × 3 systems × 4 types equal rouge-score, segment by segment."""
    corpus = shared_corpus("cnndm_see2017", ["reference.sents.jsonl"])
    # sys/ holds each system twice; the .txt files have no sentence breaks, so read the .sents.jsonl ones.
    folder = SHARED_DATA / "cnndm_see2017" / "sys"
    systems = {p.name.split(".")[0]: list(read_segments(p).texts) for p in sorted(folder.glob("*.sents.jsonl"))}
    assert len(systems) == 3 and all(len(h) == 11490 for h in systems.values())
    scorer = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=stemmer)
    metrics = {t: create(t, {"stemmer": stemmer}) for t in TYPES}
    refs = corpus.refs[0]
    for name, hyps in systems.items():
        expected = [scorer.score(r, h) for r, h in zip(refs, hyps, strict=True)]
        for rouge_type, metric in metrics.items():
            stats = metric.stats(hyps, corpus.refs)
            theirs = np.array([[getattr(e[rouge_type], f) for f in FIELDS] for e in expected])
            ours = np.stack([stats.column(f) for f in FIELDS], axis=1)
            assert np.array_equal(ours, theirs), (name, rouge_type, int((ours != theirs).any(axis=1).sum()))
            assert rel_close(metric.corpus_score(stats), float(theirs[:, 2].mean()))


def test_lsum_warns_when_no_text_has_sentence_breaks():
    from metrics.families.rouge.metric import RougeLsum

    flat = RougeLsum().stats(["the cat sat . it was happy"], [["the cat sat on the mat . it was glad"]])
    assert any("equals ROUGE-L" in str(note) for note in flat.notes)
    split = RougeLsum().stats(["the cat sat .\nit was happy"], [["the cat sat on the mat .\nit was glad"]])
    assert not any("equals ROUGE-L" in str(note) for note in split.notes)
