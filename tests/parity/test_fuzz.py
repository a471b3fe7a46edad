"""Differential fuzzing: random Unicode into every metric, compared with the reference implementations, plus the
invariants every metric keeps.

Texts are built from pieces a tokenizer can trip on — combining marks, right-to-left letters and marks, CJK and
kana, emoji with skin tones and zero-width joiners, control characters, no-break and other Unicode spaces, empty
strings, tokens of hundreds of characters, HTML entities and mteval's ``<skipped>`` — joined by any kind of space.
Each property runs a bounded number of derandomized examples in the default test run; ``pytest -m fuzz`` runs
the same properties with many more (a long run).

Reference implementations (segment statistics and scores): sacrebleu 2.6.0 BLEU/chrF/TER, rouge-score 0.1.2,
nltk 3.10.4 METEOR, pycocoevalcap 1.2 CIDEr-D (per image, within its corpus), jiwer 4.0 WER/CER. Invariants, for
every registered metric: scoring never crashes, scores lie in the metric's range, the statistics of a concatenated
corpus are the concatenated statistics (CIDEr-D excepted: its document frequencies belong to the corpus), and
each segment's explanation holds the segment's statistics row and score.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from metrics.core.base import explain_segment, system_stats
from metrics.core.registry import SPECS, available_metrics, create
from metrics.families.bleu.metric import MECAB, MECAB_KO
from tests.support.parity import rel_close
from tests.support.text_only import reads_source

BOUNDED = 25  # examples per property in the default run
LONG = 1500  # examples per property behind the fuzz marker
RUNS = [pytest.param(BOUNDED, id="bounded"), pytest.param(LONG, id="long", marks=pytest.mark.fuzz)]

_COMBINING = [chr(c) for c in range(0x300, 0x370)]
_CONTROL = [chr(c) for c in (*range(0x01, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, 0x85, 0x200B, 0xFEFF)]
PIECES = st.one_of(
    st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=8),
    st.text(alphabet=string.ascii_lowercase[:6], min_size=1, max_size=3),  # short words that repeat across texts
    st.sampled_from([".", ",", "!", "?", "'", '"', "-", "(", ")", "&quot;", "&amp;", "<skipped>", "—", "«", "»", "…"]),
    st.text(alphabet="àéîõüßçñÅØæœİıΣσς", min_size=1, max_size=5),
    st.builds(str.__add__, st.sampled_from("aeiouAEn"), st.text(alphabet=_COMBINING, min_size=1, max_size=3)),
    st.text(
        alphabet="אבגדהוזחטיכלמנסעפצקרשת" + "ابتثجحخدذرزسشصضطظعغفقكلمنهوي" + "\u200f\u200e\u202b\u202c",
        min_size=1,
        max_size=6,
    ),
    st.text(
        alphabet="我爱北京天安门的一是不了人在有这中大来上国个到说们为子和你地出道也時年"
        + "ひらがなカタカナー"
        + "한국어안녕",
        min_size=1,
        max_size=5,
    ),
    st.sampled_from(["😀", "👍🏽", "👩\u200d💻", "👨\u200d👩\u200d👧\u200d👦", "🏳️\u200d🌈", "❤️", "🇩🇪", "1️⃣"]),
    st.text(alphabet=_CONTROL, min_size=1, max_size=2),
    st.text(alphabet="abcxyz", min_size=150, max_size=300),  # a very long token
    st.text(min_size=1, max_size=4),  # anything at all
)
SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\t", "\u00a0", "\u2009", "\u3000", "\u202f", "\u2028", "", "\n"])


@st.composite
def texts(draw: st.DrawFn, max_pieces: int = 10) -> str:
    pieces = draw(st.lists(PIECES, max_size=max_pieces))
    out = draw(st.sampled_from(["", " ", "\u00a0"]))
    for piece in pieces:
        out += piece + draw(SEPARATORS)
    return out


@st.composite
def segments(draw: st.DrawFn, max_refs: int = 3) -> tuple[str, list[str]]:
    """A hypothesis and 1..max_refs references; often sharing pieces, so that something matches."""
    shared = draw(st.lists(PIECES, min_size=1, max_size=6))
    pool = st.one_of(st.sampled_from(shared), PIECES)

    def text() -> str:
        return draw(st.sampled_from(["", " "])) + draw(SEPARATORS).join(draw(st.lists(pool, max_size=8)))

    hyp = draw(st.one_of(texts(), st.builds(lambda: text())))
    refs = [draw(st.one_of(texts(), st.builds(lambda: text()))) for _ in range(draw(st.integers(1, max_refs)))]
    return hyp, refs


@st.composite
def corpora(draw: st.DrawFn, max_segments: int = 4, max_refs: int = 2) -> tuple[list[str], list[list[str]]]:
    pairs = draw(st.lists(segments(max_refs=1), min_size=1, max_size=max_segments))
    n_refs = draw(st.integers(1, max_refs))
    hyps = [h for h, _ in pairs]
    refs = [[r[0] if k == 0 else draw(texts()) for _, r in pairs] for k in range(n_refs)]
    return hyps, refs


def run(examples: int, strategy: st.SearchStrategy[Any], check: Callable[[Any], None]) -> None:
    """``check`` on ``examples`` derandomized draws of ``strategy`` (no example database is written)."""
    property_test = settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )(given(strategy)(check))
    property_test()


def close(ours: float, theirs: float) -> bool:
    return (math.isnan(ours) and math.isnan(theirs)) or ours == theirs or rel_close(ours, theirs)


# --------------------------------------------------------------------------------------------- sacrebleu


@pytest.mark.parametrize("examples", RUNS)
def test_bleu_equals_sacrebleu(examples):
    from sacrebleu.metrics import BLEU as SacreBLEU

    from tests.support.sacre import segment_scores, segment_stats

    tokenizers = ["13a", "intl", "zh", "char", "none"]
    tokenizers += [name for name, needs in (("ja-mecab", MECAB), ("ko-mecab", MECAB_KO)) if needs.met()]

    def check(case: tuple[tuple[str, list[str]], str, bool]) -> None:
        (hyp, refs), tokenize, lowercase = case
        ours = create("bleu", {"tokenize": tokenize, "lowercase": lowercase})
        theirs = SacreBLEU(tokenize=tokenize, lowercase=lowercase, effective_order=True)
        streams = [[r] for r in refs]
        stats = ours.stats([hyp], streams)
        expected = segment_stats(theirs, [hyp], streams)
        assert stats.rows.tolist() == expected, (hyp, refs)
        assert close(float(ours.segment_scores(stats)[0]), segment_scores(theirs, expected)[0])

    run(examples, st.tuples(segments(), st.sampled_from(tokenizers), st.booleans()), check)


@pytest.mark.parametrize("examples", RUNS)
def test_chrf_equals_sacrebleu(examples):
    from sacrebleu.metrics import CHRF as SacreCHRF

    from tests.support.sacre import segment_stats

    def check(case: tuple[tuple[str, list[str]], int, bool]) -> None:
        (hyp, refs), word_order, lowercase = case
        ours = create("chrf", {"word_order": word_order, "lowercase": lowercase})
        theirs = SacreCHRF(word_order=word_order, lowercase=lowercase)
        streams = [[r] for r in refs]
        stats = ours.stats([hyp], streams)
        assert stats.rows.tolist() == segment_stats(theirs, [hyp], streams), (hyp, refs)
        assert close(float(ours.segment_scores(stats)[0]), theirs.sentence_score(hyp, refs).score)

    run(examples, st.tuples(segments(), st.sampled_from([0, 2]), st.booleans()), check)


@pytest.mark.parametrize("examples", RUNS)
def test_ter_equals_sacrebleu(examples):
    from sacrebleu.metrics import TER as SacreTER

    from tests.support.sacre import segment_stats

    def check(case: tuple[tuple[str, list[str]], tuple[bool, bool, bool, bool]]) -> None:
        (hyp, refs), (normalized, no_punct, asian, case_sensitive) = case
        options = {"normalized": normalized, "no_punct": no_punct, "asian_support": asian}
        ours = create("ter", {**options, "case_sensitive": case_sensitive})
        theirs = SacreTER(**options, case_sensitive=case_sensitive)
        streams = [[r] for r in refs]
        stats = ours.stats([hyp], streams)
        assert stats.rows[:, :2].tolist() == segment_stats(theirs, [hyp], streams), (hyp, refs)
        assert close(float(ours.segment_scores(stats)[0]), theirs.sentence_score(hyp, refs).score)

    run(examples, st.tuples(segments(), st.tuples(*[st.booleans()] * 4)), check)


# ------------------------------------------------------------------------------------- rouge-score, nltk


@pytest.mark.parametrize("examples", RUNS)
def test_rouge_equals_rouge_score(examples):
    from rouge_score.rouge_scorer import RougeScorer

    types = ("rouge1", "rouge2", "rougeL", "rougeLsum")

    def check(case: tuple[tuple[str, list[str]], bool]) -> None:
        (hyp, refs), stemmer = case
        scorer = RougeScorer(list(types), use_stemmer=stemmer)
        expected = scorer.score_multi(refs, hyp) if len(refs) > 1 else scorer.score(refs[0], hyp)
        for rouge_type in types:
            metric = create(rouge_type, {"stemmer": stemmer})
            row = metric.stats([hyp], [[r] for r in refs]).rows[0]
            theirs = expected[rouge_type]
            assert [close(a, b) for a, b in zip(row[:3], theirs, strict=True)] == [True] * 3, (rouge_type, hyp, refs)

    run(examples, st.tuples(segments(), st.booleans()), check)


@pytest.mark.parametrize("examples", RUNS)
def test_meteor_equals_nltk(examples, nltk_wordnet):  # noqa: F811
    from tests.support.meteor import nltk_scores

    metric = create("meteor")

    def check(case: tuple[str, list[str]]) -> None:
        hyp, refs = case
        ours = float(metric.segment_scores(metric.stats([hyp], [[r] for r in refs]))[0])
        assert close(ours, nltk_scores([hyp], [[r] for r in refs], nltk_wordnet)[0]), (hyp, refs)

    run(examples, segments(), check)


# ------------------------------------------------------------------------------------- pycocoevalcap, jiwer


@pytest.mark.parametrize("examples", RUNS)
def test_cider_equals_pycocoevalcap(examples):
    from tests.support.cider import reference

    metric = create("cider", {"tokenize": "split"})  # pycocoevalcap's Cider on raw text

    def check(corpus: tuple[list[str], list[list[str]]]) -> None:
        hyps, refs = corpus
        assume(all(r.split() for stream in refs for r in stream))  # pycocoevalcap needs a word in every reference
        _, theirs = reference(hyps, refs)
        ours = metric.segment_scores(metric.stats(hyps, refs))
        assert all(close(a, b) for a, b in zip(ours, theirs, strict=True)), (hyps, refs)

    run(examples, corpora(max_segments=4, max_refs=3), check)


@pytest.mark.parametrize("examples", RUNS)
def test_wer_cer_mer_wil_and_wip_equal_jiwer(examples):
    import jiwer

    wer, cer = create("wer"), create("cer")
    word_measures = {m: create(m) for m in ("mer", "wil", "wip")}

    def check(case: tuple[str, list[str]]) -> None:
        hyp, refs = case
        ref = refs[0]
        for metric, process, rate in ((wer, jiwer.process_words, "wer"), (cer, jiwer.process_characters, "cer")):
            try:
                theirs = process(ref, hyp)
            except (
                ValueError
            ):  # jiwer refuses a reference with nothing in it; ours is documented in metrics.families.wer
                continue
            stats = metric.stats([hyp], [[ref]])
            assert stats.rows[0, 2:6].tolist() == [
                theirs.hits,
                theirs.substitutions,
                theirs.deletions,
                theirs.insertions,
            ], (rate, hyp, ref)
            assert close(float(metric.segment_scores(stats)[0]), getattr(theirs, rate))
            if rate == "wer":
                for name, measure in word_measures.items():
                    assert close(measure.sentence_score(hyp, [ref]), getattr(theirs, name)), (name, hyp, ref)

    run(examples, segments(max_refs=1), check)


# ----------------------------------------------------------------------------------------------- invariants

# Score range of each metric on its own scale (None: unbounded).
RANGES: dict[str, tuple[float, float | None]] = {
    "bleu": (0, 100),
    "bleu-nltk": (0, 1),
    "bleu-google": (0, 1),
    "chrf": (0, 100),
    "chrf++": (0, 100),
    "ter": (0, None),
    "rouge1": (0, 1),
    "rouge2": (0, 1),
    "rougeL": (0, 1),
    "rougeLsum": (0, 1),
    "rougeW": (0, 1),
    "rougeS": (0, 1),
    "rougeSU": (0, 1),
    "meteor": (0, 1),
    "cider": (0, None),
    "characTER": (0, 1),
    "eed": (0, 1),
    "wer": (0, None),
    "cer": (0, None),
    "mer": (0, 1),
    "wil": (0, 1),
    "wip": (0, 1),
    "perplexity": (1, None),
    "bertscore": (-1, 1),
}
# Rows that depend on the rest of the corpus: CIDEr-D's document frequencies, the perplexity model trained on the
# corpus's references, and BERTScore's batches of pairs (bert-score's zero padding depends on the longest in a batch)
CORPUS_DEPENDENT = {"cider", "perplexity", "bertscore"}
# NaN where the reference implementation refuses the input (documented in each metric): compute_bleu divides by the
# reference length, nltk's method6 needs trigram matches
UNDEFINED = {"bleu-google", "bleu-nltk"}
# +inf where a word has probability 0 under the model (never counted in training, not even as <UNK>), as in nltk
INFINITE = {"perplexity"}


def test_every_metric_has_a_range():
    text_only = {m for m in SPECS if not reads_source(m)}
    assert set(RANGES) >= text_only, text_only - set(RANGES)


@pytest.mark.parametrize("examples", RUNS)
def test_invariants_of_every_metric(examples):
    check_invariants(examples, [m for m in available_metrics() if not SPECS[m].requires])


@pytest.mark.neural
def test_invariants_of_the_neural_metrics():
    ids = [m for m in available_metrics() if SPECS[m].requires and not reads_source(m)]
    if not ids:
        pytest.skip("the neural extra is not installed")
    check_invariants(BOUNDED, ids)


def check_invariants(examples: int, metric_ids: list[str]) -> None:
    """Scores in range, rows of a concatenated corpus concatenated, and each segment's explanation (as the app asks
    for it: by system and index) holding the segment's row and score."""
    built = {m: create(m) for m in metric_ids}

    def check(case: tuple[tuple[list[str], list[list[str]]], tuple[list[str], list[list[str]]]]) -> None:
        (hyps_a, refs_a), (hyps_b, refs_b) = case
        width = max(len(refs_a), len(refs_b))
        refs_a = [refs_a[k] if k < len(refs_a) else [None] * len(hyps_a) for k in range(width)]
        refs_b = [refs_b[k] if k < len(refs_b) else [None] * len(hyps_b) for k in range(width)]
        hyps, refs = hyps_a + hyps_b, [a + b for a, b in zip(refs_a, refs_b, strict=True)]
        for metric_id, metric in built.items():
            stats = system_stats(metric, "fuzz", hyps, refs)
            scores = np.asarray(metric.segment_scores(stats))
            low, high = RANGES[metric_id]
            corpus = metric.corpus_score(stats)
            for value in (*scores, corpus):
                if (math.isnan(value) and metric_id in UNDEFINED) or (value == math.inf and metric_id in INFINITE):
                    continue
                assert math.isfinite(value) and value >= low - 1e-9, (metric_id, value, hyps, refs)
                assert high is None or value <= high + 1e-9, (metric_id, value, hyps, refs)
            if metric_id not in CORPUS_DEPENDENT:
                parts = np.vstack([metric.stats(hyps_a, refs_a).rows, metric.stats(hyps_b, refs_b).rows])
                assert np.array_equal(parts, stats.rows), (metric_id, hyps, refs)
            metric.prepare(refs)
            for i, hyp in enumerate(hyps):
                seg_refs = [stream[i] for stream in refs if stream[i] is not None]
                explanation = explain_segment(metric, "fuzz", i, hyp, seg_refs)
                assert np.array_equal(np.asarray(explanation.row, dtype=np.float64), stats.rows[i]), (metric_id, i)
                assert close(explanation.score, float(scores[i])), (metric_id, i)

    run(examples, st.tuples(corpora(3, 2), corpora(2, 2)), check)
