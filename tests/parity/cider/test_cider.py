"""CIDEr-D parity with pycocoevalcap 1.2 ``Cider`` on raw text (every image and the corpus), golden values, evidence.

``Cider`` called directly splits raw text on spaces: ``tokenize="split"`` here. The default, PTB tokenization as
``COCOEvalCap`` runs it, is held to pycocoevalcap in ``test_ptb.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from metrics import create
from metrics.families.cider.metric import CiderD, document_frequencies
from tests.support.cider import reference
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.parity import rel_close

# parity.md §8.3, measured with pycocoevalcap 1.2 (golden_values.json: coco_ciderD).
GOLDEN_GTS = {
    1: ["a man riding a horse", "a person on a horse", "man rides brown horse"],
    2: ["two dogs playing in snow", "dogs play in the snow"],
    3: ["a red car parked", "a car on the street"],
}
GOLDEN_RES = {1: "a man on a horse", 2: "dogs", 3: "a red car parked on the street"}
GOLDEN_SCORE = 2.7949805343967604
GOLDEN_PER_IMAGE = [2.823446322238416, 0.9397771751206513, 4.621718105831214]


def as_streams(gts: dict[int, list[str]]) -> list[list[str | None]]:
    """Per-image reference lists → reference streams, ``None`` where an image has fewer references."""
    keys = list(gts)
    width = max(len(v) for v in gts.values())
    return [[gts[k][j] if j < len(gts[k]) else None for k in keys] for j in range(width)]


def assert_parity(metric: CiderD, hyps: list[str], refs: list[list[str | None]], sigma: float = 6.0) -> None:
    ref_score, ref_scores = reference(hyps, refs, sigma)
    stats = metric.stats(hyps, refs)
    ours = metric.segment_scores(stats)
    assert len(ours) == len(ref_scores)
    bad = [i for i, (a, b) in enumerate(zip(ours, ref_scores, strict=True)) if not rel_close(a, b)]
    assert not bad, f"{len(bad)} images differ, first {bad[0]}: {ours[bad[0]]} vs {ref_scores[bad[0]]}"
    assert rel_close(metric.corpus_score(stats), ref_score)


@pytest.fixture(scope="module")
def coco():
    return slice_corpus("coco")


def test_parity_coco_every_system_every_image(coco) -> None:
    metric = CiderD(tokenize="split")
    assert len(coco.systems) == 5 and len(coco.refs) == 4
    for hyps in coco.systems.values():
        assert_parity(metric, hyps, coco.refs)


def test_parity_coco_bit_exact(coco) -> None:
    # Same primitives in the same order as pycocoevalcap: equal floats, not merely close ones.
    hyps = coco.systems["VinVL-large"]
    _, ref_scores = reference(hyps, coco.refs)
    metric = CiderD(tokenize="split")
    assert np.array_equal(metric.segment_scores(metric.stats(hyps, coco.refs)), ref_scores)


def test_parity_sigma_and_uneven_references(coco) -> None:
    hyps = coco.systems["Up-Down"][:120]
    refs = [stream[:120] for stream in coco.refs]
    # Drop some references: images with 1..4 references divide by their own count.
    refs[3] = [None if i % 3 == 0 else r for i, r in enumerate(refs[3])]
    refs[2] = [None if i % 5 == 0 else r for i, r in enumerate(refs[2])]
    assert_parity(CiderD(sigma=3.0, tokenize="split"), hyps, refs, sigma=3.0)
    assert_parity(CiderD(tokenize="split"), hyps, refs)


def test_golden_values() -> None:
    metric = CiderD(tokenize="split")
    hyps = [GOLDEN_RES[k] for k in GOLDEN_GTS]
    stats = metric.stats(hyps, as_streams(GOLDEN_GTS))
    assert metric.corpus_score(stats) == GOLDEN_SCORE
    assert list(metric.segment_scores(stats)) == GOLDEN_PER_IMAGE


def test_one_image_corpus_is_zero() -> None:
    metric = CiderD(tokenize="split")
    refs = [["a man riding a horse"], ["a person on a horse"]]
    stats = metric.stats(["a man riding a horse"], refs)
    assert metric.corpus_score(stats) == 0.0
    assert reference(["a man riding a horse"], refs)[0] == 0.0
    assert any("one-image corpus" in str(note) for note in stats.notes)


def test_edge_cases_match_reference() -> None:
    hyps = ["", "a a a a", "dogs", "x"]
    refs = [["a dog", "a a", "dogs", ""], ["two dogs", "", "dogs play", "y z"]]
    assert_parity(CiderD(tokenize="split"), hyps, refs)


def test_explanation_adds_up(coco) -> None:
    metric = CiderD(tokenize="split")
    hyps = coco.systems["Human"]
    stats = metric.stats(hyps, coco.refs)
    rows = metric.segment_scores(stats)
    df = metric.document_frequencies
    assert df is not None and df.images == 500
    for i in (0, 7, 123, 499):
        refs = [stream[i] for stream in coco.refs]
        ex = metric.explain(hyps[i], refs)
        assert ex.score == rows[i] == ex.row[0]
        assert ex.log_images == math.log(500)
        assert ex.length == max(len(hyps[i].split()) - 1, 0)
        for order, grams in enumerate(ex.grams, start=1):
            assert all(len(g.gram) == order for g in grams)
            assert sum(g.tf for g in grams) == max(len(hyps[i].split()) - order + 1, 0)
            for g in grams:
                assert g.df == df.df(g.gram)
                assert g.idf == pytest.approx(ex.log_images - math.log(max(1, g.df)), abs=1e-12)
                assert g.weight == g.tf * g.idf
            assert ex.norms[order - 1] == pytest.approx(math.sqrt(sum(g.weight**2 for g in grams)), rel=1e-12)
        for j in range(4):
            totals = 0.0
            for ref in ex.references:
                sim = ref.orders[j]
                assert sim.dot == pytest.approx(sum(t.contribution for t in sim.terms), rel=1e-12, abs=1e-15)
                for t in sim.terms:
                    assert t.contribution == min(t.hyp_weight, t.ref_weight) * t.ref_weight
                assert ref.delta == ex.length - ref.length
                assert ref.penalty == math.e ** (-(ref.delta**2) / 72.0)
                assert sim.value == pytest.approx(sim.cosine * ref.penalty, rel=1e-15)
                if sim.hyp_norm and sim.ref_norm:
                    assert sim.cosine == pytest.approx(sim.dot / (sim.hyp_norm * sim.ref_norm), rel=1e-12)
                totals += sim.value
            assert totals == pytest.approx(ex.per_order[j], rel=1e-12)
        assert ex.score == pytest.approx(np.mean(ex.per_order) / len(refs) * 10, rel=1e-14)


def test_explain_uses_document_frequencies_of_the_bound_corpus(coco) -> None:
    refs = [stream[:50] for stream in coco.refs]
    hyps = coco.systems["Up-Down"][:50]
    metric = CiderD(tokenize="split")
    with pytest.raises(ValueError, match="prepare"):
        metric.explain(hyps[0], [r[0] for r in refs])
    metric.prepare(refs)
    first = metric.explain(hyps[0], [r[0] for r in refs])
    # Explicit document frequencies of the same corpus give the same evidence; another corpus changes weights.
    same = metric.explain(hyps[0], [r[0] for r in refs], df=document_frequencies(refs, "split"))
    assert same.score == first.score == reference(hyps, refs)[1][0]
    other = metric.explain(hyps[0], [r[0] for r in refs], df=document_frequencies([s[:10] for s in refs], "split"))
    assert other.images == 10 and other.score != first.score


def test_inputs_untouched_and_validated(coco) -> None:
    hyps = list(coco.systems["Human"][:5])
    refs = [list(s[:5]) for s in coco.refs]
    copies = (list(hyps), [list(s) for s in refs])
    CiderD(tokenize="split").stats(hyps, refs)
    assert (hyps, refs) == copies
    with pytest.raises(ValueError):
        CiderD(tokenize="split").stats(hyps, [s[:4] for s in refs])
    with pytest.raises(ValueError, match="no reference"):
        CiderD(tokenize="split").stats(["a", "b"], [["x", None]])


@pytest.mark.parametrize("options", [{"sigma": 0}, {"sigma": -1.0}, {"sigma": "abc"}, {"n": 3}, {"sigma": "inf"}])
def test_bad_options(options) -> None:
    with pytest.raises(ValueError):
        CiderD(**options)


def test_registry_and_signature(coco) -> None:
    metric = create("cider")
    assert isinstance(metric, CiderD) and metric.higher_is_better
    metric.stats(coco.systems["Human"][:3], [s[:3] for s in coco.refs])
    assert metric.signature() == "tok:ptb|df:corpus|n:4|sigma:6|ref:pycocoevalcap-1.2|version:scorelens-0.1.0"
    raw = CiderD(tokenize="split")
    assert raw.signature() == "tok:split|df:corpus|n:4|sigma:6|ref:pycocoevalcap-1.2|version:scorelens-0.1.0"


def test_raw_text_is_flagged(coco) -> None:
    hyps, refs = coco.systems["Up-Down"][:20], [s[:20] for s in coco.refs]
    assert any(
        "not the number COCO caption papers report" in str(n) for n in CiderD(tokenize="split").stats(hyps, refs).notes
    )
    assert not CiderD().stats(hyps, refs).notes


@pytest.mark.sweep
def test_parity_full_mscoco_thumb() -> None:
    corpus = shared_corpus("mscoco_thumb", [f"ref.{k}.txt" for k in range(4)])
    metric = CiderD(tokenize="split")
    for hyps in corpus.systems.values():
        assert_parity(metric, hyps, corpus.refs)
