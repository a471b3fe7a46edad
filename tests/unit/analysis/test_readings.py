"""Readings that invite a wrong conclusion, fixed at the source, on real paragraph-level data (WMT23 he-en, 12
systems, two references): documents that flip a ranking are ranked by flips of significantly different pairs; a
slice chosen by a metric's scores is not tested on that metric."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from metrics.analysis.documents import differs, document_scores, ranking_flips
from metrics.analysis.scoring import BucketSettings, bucket_scores
from metrics.analysis.slices import ScoreCondition, Slice, by_slices, drop_circular_tests
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.io.metadata import read_metadata
from metrics.stats.significance import all_pairs, resamples_for
from tests.support.corpora import DATA, load_corpus
from tests.support.parity import rel_close

PARA = DATA / "wmt23-he-en-para"


@pytest.fixture(scope="module")
def para():
    corpus = load_corpus(PARA, ["ref.A.txt", "ref.B.txt"])
    metrics = {"bleu": create("bleu"), "ter": create("ter")}
    documents = read_metadata(Path(PARA / "meta.tsv"), len(corpus.refs[0])).column("doc_id")
    return corpus, evaluate(corpus.systems, corpus.refs, metrics), documents


def test_documents_rank_flips_of_significant_pairs_largest_reversal_first(para):
    corpus, evaluation, ids = para
    names = list(corpus.systems)
    assert len(names) == 12
    stats = {r.name: dict(r.stats) for r in evaluation.systems}
    found = document_scores(ids, evaluation.metrics, stats)
    corpus_scores = {r.name: dict(r.scores) for r in evaluation.systems}
    count = resamples_for(len(names) * (len(names) - 1) // 2)  # Holm over 66 pairs can reject
    significant = {}
    for m, metric in evaluation.metrics.items():
        tested = all_pairs(metric, {n: stats[n][m] for n in names}, "bs", count).pairs
        significant[m] = frozenset(frozenset((p.baseline, p.system)) for p in tested if differs(p, 0.05))
    assert len(significant["bleu"]) == 58  # of 66 pairs
    flips = ranking_flips(found, corpus_scores, {"bleu": True, "ter": False}, significant)
    bleu = [f for f in flips if f.metric == "bleu"]
    # every one of the 13 documents flips some pair of 12 systems; 11 reverse a significant difference
    assert len(found) == len(bleu) == 13
    strong = [f for f in bleu if f.significant]
    assert len(strong) == 11 and bleu[: len(strong)] == strong
    assert [f.reversal for f in strong] == sorted((f.reversal for f in strong), reverse=True)
    for f in bleu:
        assert set(f.significant) <= set(f.pairs)
        assert all(frozenset(p) in significant["bleu"] for p in f.significant)
        assert list(f.reversals) == sorted(f.reversals, reverse=True)
        doc = next(d for d in found if d.document == f.document)
        for (here, there), margin in zip(f.significant, f.reversals, strict=True):
            assert rel_close(margin, doc.scores[here]["bleu"] - doc.scores[there]["bleu"])
            assert corpus_scores[there]["bleu"] > corpus_scores[here]["bleu"]
    # the largest: ZengHuiMT, 3 BLEU above NLLB_MBR_BLEU on the corpus, 16.2 below it on a 6-paragraph document
    top = strong[0]
    assert (top.document, top.n_segments, top.significant[0]) == (
        "business-6713575.news",
        6,
        ("NLLB_MBR_BLEU", "ZengHuiMT"),
    )
    lines = list(next(d for d in found if d.document == top.document).segments)
    doc_bleu = {
        n: SacreBLEU()
        .corpus_score([corpus.systems[n][i] for i in lines], [[r[i] for i in lines] for r in corpus.refs])
        .score
        for n in ("NLLB_MBR_BLEU", "ZengHuiMT")
    }
    assert rel_close(top.reversal, doc_bleu["NLLB_MBR_BLEU"] - doc_bleu["ZengHuiMT"])
    assert round(top.reversal, 2) == 16.23
    # TER: lower is better, and the reversal is still how much better the corpus-worse system does here
    ter = [f for f in flips if f.metric == "ter" and f.significant]
    for f in ter:
        doc = next(d for d in found if d.document == f.document)
        for (here, there), margin in zip(f.significant, f.reversals, strict=True):
            assert margin > 0 and rel_close(margin, doc.scores[there]["ter"] - doc.scores[here]["ter"])
    # without significance, nothing is marked and the order is the share of pairs flipped
    plain = [f for f in ranking_flips(found, corpus_scores, {"bleu": True}) if f.metric == "bleu"]
    assert all(not f.significant and f.reversal == 0 for f in plain)
    assert [f.share for f in plain] == sorted((f.share for f in plain), reverse=True)


def test_a_slice_chosen_by_a_metric_does_not_test_that_metric(para):
    corpus, evaluation, _ = para
    stats = {r.name: dict(r.stats) for r in evaluation.systems}
    seg = {r.name: r.segment_scores for r in evaluation.systems}
    a, b = "ZengHuiMT", "GPT4-5shot"
    chosen = tuple(int(i) for i in np.flatnonzero(seg[a]["bleu"] - seg[b]["bleu"] <= -20))
    piece = Slice("A − B ≤ −20", "A − B · BLEU in −100–−20", chosen, (ScoreCondition("bleu", (a, b)),))
    (bucketing,) = by_slices((piece,), len(corpus.refs[0]))
    results, _ = bucket_scores(
        bucketing, evaluation.metrics, stats, baseline=b, settings=BucketSettings(n_bootstrap=200)
    )
    # the filter guarantees the finding: A is far below B under BLEU on these segments, "significantly"
    raw = results[0].score(a, "bleu")
    assert len(chosen) >= 10 and raw.difference is not None and raw.difference.hi < 0 and raw.p_value < 0.05
    (kept,) = drop_circular_tests(results, piece, b)
    assert kept.score(a, "bleu").p_value is None  # A vs B under BLEU: circular
    assert kept.score(a, "bleu").difference == raw.difference  # what the slice holds is still shown
    assert kept.score(a, "ter").p_value == results[0].score(a, "ter").p_value  # another metric is tested
    other = "ONLINE-A"  # neither system chose the slice: its test against B under BLEU is circular through B
    assert kept.score(other, "bleu").p_value is None
    assert piece.circular("bleu", (other, "ONLINE-B")) is None and piece.circular("ter", (a, b)) is None
    assert piece.circular("bleu", (a, "ONLINE-B")) == ScoreCondition("bleu", (a, b))
    assert results[0].score(a, "bleu").p_value is not None  # the caller's results are left as they were
    with pytest.raises(ValueError, match="names a metric"):
        ScoreCondition("bleu", ())
