"""EED: golden values measured with the compiled rwth-i6 library and torchmetrics (parity.md §10.3), a literal
one-cell-at-a-time restatement of §10.2/§10.3 as an oracle for both variants, pre-processing traps, evidence."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.spec_ports import eed_literal as literal
from metrics import create
from metrics.families.eed.metric import EED, _Costs, align, align_batch, preprocess
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.parity import rel_close

f32 = np.float32

# parity.md §10.3: torchmetrics' doc example. rwth values are the float32 results of libEED.so (measured).
DOC_HYPS = ["this is the prediction", "here is an other sample"]
DOC_REFS = ["this is the reference", "here is another one"]
GOLDEN_RWTH = [0.3764258623123169, 0.2222222238779068]
GOLDEN_PYTHON_5DP = [0.38346, 0.23207]


def test_golden_rwth_float32() -> None:
    metric = EED()
    scores = [metric.sentence_score(h, [r]) for h, r in zip(DOC_HYPS, DOC_REFS, strict=True)]
    assert scores == GOLDEN_RWTH


def test_golden_python_variant() -> None:
    metric = EED(variant="python")
    stats = metric.stats(DOC_HYPS, [DOC_REFS])
    assert [round(float(s), 5) for s in metric.segment_scores(stats)] == GOLDEN_PYTHON_5DP
    assert round(metric.corpus_score(stats), 4) == 0.3078


def test_identical_and_empty_differ_by_variant() -> None:
    rwth, python = EED(), EED(variant="python")
    text = "the cat sat on the mat"  # 22 characters → 24 with the padding spaces
    assert len(preprocess(text)) == 24
    assert rwth.sentence_score(text, [text]) == 0.0
    assert rel_close(python.sentence_score(text, [text]), 0.3 / 24.3, 1e-15)  # ρ / (|ref| + ρ) = 0.012345679
    assert rwth.sentence_score("", [""]) == 0.0
    assert rel_close(python.sentence_score("", [""]), 0.3 / 2.3, 1e-15)  # 0.1304


@pytest.mark.parametrize("variant", ["rwth", "python"])
def test_matches_literal_restatement_random(variant: str) -> None:
    rng = random.Random(11)
    costs = _Costs(EED(variant=variant).config)
    pairs = []
    for _ in range(150):
        h = " " + "".join(rng.choice("ab c.") for _ in range(rng.randint(0, 25))) + " "
        r = " " + "".join(rng.choice("ab c.") for _ in range(rng.randint(0, 25))) + " "
        pairs.append((h, r))
    expected = [literal(h, r, variant == "rwth") for h, r in pairs]
    assert [align(h, r, costs, False)[0] for h, r in pairs] == expected
    assert list(align_batch(pairs, costs)) == expected


@pytest.mark.parametrize("variant", ["rwth", "python"])
def test_matches_literal_restatement_real(variant: str) -> None:
    corpus = slice_corpus("wmt22-de-en")
    metric = EED(variant=variant)
    hyps = corpus.systems["PROMT"][:12]
    stats = metric.stats(hyps, [stream[:12] for stream in corpus.refs])
    for i, hyp in enumerate(hyps):
        best = min(
            literal(preprocess(hyp, "en", variant), preprocess(stream[i], "en", variant), variant == "rwth")
            for stream in corpus.refs
        )
        assert stats.rows[i, 0] == best


def test_variants_really_differ() -> None:
    # int-truncated argmin, column-0 exclusion and float32 change most sentences (parity.md §10.3).
    corpus = slice_corpus("wmt22-de-en")
    hyps = corpus.systems["LT22"][:40]
    refs = [corpus.refs[0][:40]]
    rwth = EED().segment_scores(EED().stats(hyps, refs))
    python = EED(variant="python").segment_scores(EED(variant="python").stats(hyps, refs))
    assert np.mean(rwth != python) > 0.8


def test_float32_matters() -> None:
    # The same recurrence in doubles with the rwth rules gives a different float on most real pairs.
    corpus = slice_corpus("ted")
    h, r = preprocess(corpus.systems["sys1"][3]), preprocess(corpus.refs[0][3])
    single = align(h, r, _Costs(EED().config), False)[0]
    assert single == literal(h, r, True)
    assert single == float(f32(single))


def test_explain_agrees_with_batched_stats_on_real_segments() -> None:
    corpus = slice_corpus("wmt22-de-en")
    for variant in ("rwth", "python"):
        metric = EED(variant=variant)
        hyps = corpus.systems["JDExploreAcademy"][:80]
        refs = [stream[:80] for stream in corpus.refs]
        stats = metric.stats(hyps, refs)
        for i in range(0, 80, 9):
            ex = metric.explain(hyps[i], [stream[i] for stream in refs])
            assert ex.score == stats.rows[i, 0] == ex.row[0]
            assert ex.best_ref == int(np.argmin([a.score for a in ex.references]))


def test_explanation_adds_up() -> None:
    for variant in ("rwth", "python"):
        metric = EED(variant=variant)
        ex = metric.explain("here is an other sample", ["here is another one"])
        a = ex.references[0]
        assert a.hypothesis == " here is an other sample " and a.reference == " here is another one "
        assert [s.char for s in a.steps] == list(a.reference)
        assert [s.long_jump for s in a.steps] == [c == " " for c in a.reference]
        # The visit counters are the argmin columns counted (from −1).
        counts = np.full(len(a.hypothesis) + 1, -1)
        for s in a.steps:
            counts[s.argmin] += 1
        assert tuple(counts) == a.visits
        columns = a.visits[1:] if variant == "rwth" else a.visits
        assert a.coverage == sum(1 if v < 0 else v for v in columns)
        if variant == "rwth":
            penalty = f32(0.3) * f32(a.coverage)
            recomputed = float(min(f32(1), (f32(a.errors) + penalty) / (f32(a.ref_length) + penalty)))
        else:
            penalty = 0.3 * a.coverage
            recomputed = min(1.0, (a.errors + penalty) / (a.ref_length + penalty))
        assert recomputed == ex.score


def test_rwth_argmin_is_truncated() -> None:
    # Row 3 (the middle space): column 4 holds 1.2, column 8 holds 1.0. C++ keeps its running minimum as
    # int(1.2) = 1, and 1.0 is not below 1, so column 4 stays the argmin (and sets the long-jump cap).
    rwth = EED().explain("on sat", ["a a"]).references[0].steps[2]
    python = EED(variant="python").explain("on sat", ["a a"]).references[0].steps[2]
    assert (rwth.argmin, rwth.value, rwth.long_jump, rwth.minimum) == (4, float(f32(1.2)), True, 1.0)
    assert (python.argmin, python.value) == (8, 1.0)
    # Same float32 arithmetic with an exact argmin would give 0.5211267471313477 (measured with the oracle).
    assert EED().sentence_score("on sat", ["a a"]) == 0.4769231081008911


def test_preprocessing_traps() -> None:
    assert preprocess("Hello, world. ") == " Hello , world . "
    assert preprocess("Mr Smith") == " Mr.mith "  # the greedy title regex: '.' is any character
    assert preprocess("i.e. this") == " i .e . this "  # the re-joining rules only see pre-spaced input
    assert preprocess("i . e . this") == " e.g. this "  # rwth bug: i . e . → e.g.
    assert preprocess("i . e . this", variant="python") == " i.e. this "  # torchmetrics fixed it
    assert preprocess("e . g . U . S .") == " e.g. U.S. "
    assert preprocess("3.5 and 4 , 5") == " 3 .5 and 4,5 "
    assert preprocess("ｱｲｳ  ", "ja") == " アイウ "  # NFKC, padded
    assert preprocess("ｱｲｳ  ", "ja", "python") == "アイウ"  # torchmetrics pads only English


def test_multiple_references_take_the_minimum() -> None:
    metric = EED()
    ex = metric.explain("the cat sat", ["a dog ran away", "the cat sat", "the cat"])
    assert ex.best_ref == 1 and ex.score == 0.0
    stats = metric.stats(["the cat sat", "x"], [["zzz", "x"], ["the cat sat", None]])
    assert list(stats.rows[:, 0]) == [0.0, 0.0]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab .,", max_size=20), st.text(alphabet="ab .,", max_size=20))
def test_scores_in_unit_interval_and_batch_equals_single(hyp: str, ref: str) -> None:
    for variant in ("rwth", "python"):
        costs = _Costs(EED(variant=variant).config)
        pair = (preprocess(hyp, "en", variant), preprocess(ref, "en", variant))
        single = align(*pair, costs, False)[0]
        assert 0.0 <= single <= 1.0
        assert align_batch([pair, pair[::-1], pair], costs)[[0, 2]].tolist() == [single, single]


def test_bound_is_reported_and_giant_lines_stay_responsive() -> None:
    rng = random.Random(5)
    vocab = ["the", "cat", "sat", "on", "mat", "a", "dog", "house"]
    giant = " ".join(rng.choice(vocab) for _ in range(10_000))
    other = " ".join(rng.choice(vocab) for _ in range(10_000))
    start = time.perf_counter()
    stats = EED().stats([giant, "a b"], [[other, "a b"]])
    assert time.perf_counter() - start < 5
    assert stats.rows[0, 0] == 1.0 and stats.rows[1, 0] == 0.0
    assert len(stats.notes) == 1 and "(1)" in str(stats.notes[0]) and "max_cells=20000000" in str(stats.notes[0])
    assert "not aligned" in EED().explain(giant, [other]).notes[0]
    start = time.perf_counter()
    assert 0.9 < EED().sentence_score(giant, ["the cat sat on the mat ."]) <= 1.0  # 60 000 × 26 cells: aligned
    assert time.perf_counter() - start < 10
    assert EED(max_cells=10).stats(["abc"], [["abd"]]).rows[0, 0] == 1.0


def test_registry_signature_and_direction() -> None:
    metric = create("eed")
    assert isinstance(metric, EED) and metric.higher_is_better is False
    assert metric.signature().startswith("variant:rwth|lang:en|refs:min|alpha:2|rho:0.3|del:0.2|ins:1|")
    assert create("eed", {"variant": "python"}).name == "EED (python)"


def test_inputs_untouched_and_validated() -> None:
    hyps, refs = ["a b", "c"], [["a c", "c"]]
    copies = (list(hyps), [list(r) for r in refs])
    EED().stats(hyps, refs)
    assert (hyps, refs) == copies
    with pytest.raises(ValueError, match="no reference"):
        EED().stats(["a"], [[None]])


@pytest.mark.parametrize(
    "options",
    [{"variant": "cpp"}, {"language": "de"}, {"rho": -1}, {"alpha": "x"}, {"max_cells": 0}, {"deletion": "inf"}],
)
def test_bad_options(options) -> None:
    with pytest.raises(ValueError):
        EED(**options)


@pytest.mark.sweep
@pytest.mark.parametrize("variant", ["rwth", "python"])
def test_batched_equals_single_pair_on_full_wmt22(variant: str) -> None:
    corpus = shared_corpus("wmt22/de-en", ["ref.A.txt", "ref.B.txt"])
    metric = EED(variant=variant)
    for name in ("Online-B", "LT22"):
        hyps = corpus.systems[name]
        stats = metric.stats(hyps, corpus.refs)
        assert stats.notes == ()
        for i in range(0, len(hyps), 10):
            assert metric.explain(hyps[i], [stream[i] for stream in corpus.refs]).score == stats.rows[i, 0]
