"""BERTScore equals bert-score 0.3.13 on real WMT22 de-en segments with two references (P, R and F to 1e-6, with and
without idf), keeps bert-score's multi-reference and empty-sentence semantics, embeds each unique sentence once, and
its evidence (similarity matrix, greedy matches, weights) adds up to its scores. Needs the neural extra."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.corpora import slice_corpus

pytestmark = pytest.mark.neural

torch = pytest.importorskip("torch")
bert_score = pytest.importorskip("bert_score")

from metrics.core.registry import create  # noqa: E402
from metrics.evaluate import evaluate  # noqa: E402
from metrics.families.bertscore.encoder import default_model_path  # noqa: E402
from rendering.evidence import explanation_parts  # noqa: E402
from rendering.lessons import build_lesson  # noqa: E402
from rendering.teach import Context  # noqa: E402

SEGMENTS = 80  # 80 segments × 2 references: 160 pairs against bert-score per setting


@pytest.fixture(scope="module")
def corpus():
    c = slice_corpus("wmt22-de-en")
    systems = {name: c.systems[name][:SEGMENTS] for name in list(c.systems)[:1]}
    return systems, [stream[:SEGMENTS] for stream in c.refs]


def _reference(hyps, refs, idf):
    grouped = [[stream[i] for stream in refs] for i in range(len(hyps))]
    P, R, F = bert_score.score(hyps, grouped, model_type=str(default_model_path()), num_layers=6, idf=idf, nthreads=0)
    return np.stack([P.numpy(), R.numpy(), F.numpy()], axis=1).astype(np.float64)


@pytest.mark.parametrize("idf", [False, True])
def test_p_r_f_equal_bert_score_on_real_segments(corpus, idf):
    systems, refs = corpus
    metric = create("bertscore", {"idf": idf})
    for hyps in systems.values():
        ours = metric.stats(hyps, refs)
        expected = _reference(hyps, refs, idf)
        assert np.abs(ours.rows - expected).max() <= 1e-6
        for score, column in (("F", 2), ("P", 0), ("R", 1)):
            chosen = create("bertscore", {"idf": idf, "score": score})
            assert chosen.corpus_score(chosen.stats(hyps, refs)) == pytest.approx(expected[:, column].mean(), abs=1e-6)


def test_several_references_take_each_maximum_separately(corpus):
    systems, refs = corpus
    metric = create("bertscore")
    hyps = next(iter(systems.values()))
    stats = metric.stats(hyps, refs)
    mixed = 0
    for i in range(SEGMENTS):
        ex = metric.explain(hyps[i], [stream[i] for stream in refs])
        per_ref = np.array([[m.precision, m.recall, m.f1] for m in ex.references])
        assert ex.row == tuple(per_ref.max(axis=0)) == tuple(stats.rows[i])
        mixed += ex.best_ref is None
        if ex.best_ref is None:
            assert any("P from reference" in n for n in ex.notes)
    assert mixed > 0  # the slice has segments whose P and R come from different references


def test_empty_sentences_score_zero_and_the_cache_embeds_each_sentence_once(monkeypatch):
    metric = create("bertscore")
    stats = metric.stats(["", "a cat", "a cat"], [["a cat", "", "a cat"]])
    assert stats.rows[0].tolist() == [0.0, 0.0, 0.0] and stats.rows[1].tolist() == [0.0, 0.0, 0.0]
    assert stats.rows[2].tolist() == pytest.approx([1.0, 1.0, 1.0], abs=1e-6)
    calls = []
    encoder = metric.encoder
    original = encoder._embed
    monkeypatch.setattr(encoder, "_embed", lambda batch: calls.append(list(batch)) or original(batch))
    metric.stats(["a cat", "a dog sat here today"], [["a cat", "the dog sat here"]])
    assert calls == [["a dog sat here today", "the dog sat here"]]  # "a cat" was cached; longest first


def test_evidence_adds_up_and_the_lesson_follows_it(corpus):
    systems, refs = corpus
    metric = create("bertscore", {"idf": True})
    hyps = next(iter(systems.values()))
    metric.prepare(refs)
    segment_refs = [stream[5] for stream in refs]
    ex = metric.explain(hyps[5], segment_refs)
    match = ex.references[0]
    w = np.array(ex.hyp_weights, dtype=np.float32)
    best = match.similarity.max(axis=1)
    assert list(match.hyp_match) == list(match.similarity.argmax(axis=1))
    assert float((best * (w / w.sum())).sum()) == pytest.approx(match.precision, abs=1e-6)
    assert ex.hyp_tokens[0].text == "[CLS]" and ex.hyp_weights[0] == 0.0
    located = [t for t in ex.hyp_tokens if t.located]
    assert all(hyps[5][t.start : t.end].lower() == t.text.removeprefix("##") for t in located)
    parts = explanation_parts(ex, hyps[5], segment_refs, reference=1)
    kinds = [p.kind for p in parts]
    assert kinds.count("figure") == 1 and kinds.count("table") == 2 and "Reference 2" in parts[1].title
    heatmap = next(p.payload for p in parts if p.kind == "figure")
    assert np.array_equal(np.array(heatmap.data[0].z), ex.references[1].similarity)
    lesson = build_lesson(metric, hyps[5], segment_refs, Context(options={"baseline": 0.8}))
    assert lesson.score == ex.score
    assert lesson.numbers["rescaled with b = 0.8 (what-if)"] == pytest.approx((ex.score - 0.8) / 0.2)


def test_a_folder_that_is_not_a_model_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not a local Hugging Face model folder"):
        create("bertscore", {"model": str(tmp_path)}).stats(["a"], [["a"]])


# Two real WMT22 de-en pairs (LT22, segments 1431 and 1308) whose candidate has a token with a negative best
# similarity, and a longer pair that makes their batch pad them
PADDED_HYPS = [
    "Twilights on the Poor",
    "* How should the federal government function in the future?",
    "This is a considerably longer candidate sentence about the weather in Berlin today and tomorrow.",
]
PADDED_REFS = [
    "Zippers on arms and legs",
    "* How should the MBundestag function in the future?",
    "This is a considerably longer reference sentence about the weather in Berlin today, and tomorrow too.",
]


def test_the_zero_padding_of_bert_scores_batches_is_replayed():
    """Two real WMT22 de-en pairs (LT22, segments 1431 and 1308) whose candidate has a token with a negative best
    similarity: bert-score's batch pads their matrices with zeros, which floors that token at 0."""
    hyps, refs = PADDED_HYPS, PADDED_REFS
    expected = _reference(hyps, [refs], idf=False)
    metric = create("bertscore")
    stats = metric.system_stats("LT22", hyps, [refs])
    assert np.abs(stats.rows - expected).max() <= 1e-6
    alone = metric.explain(hyps[0], [refs[0]])
    assert abs(alone.precision - expected[0, 0]) > 1e-4  # a lone pair has no batch, so nothing is floored
    ex = metric.explain_segment("LT22", 0, hyps[0], [refs[0]])
    assert ex.row == tuple(stats.rows[0]) and ex.references[0].floored == (True, False)
    assert 0.0 in ex.references[0].hyp_best and any("zero padding" in n for n in ex.notes)


def test_jobs_compute_bertscore_here_so_its_explanations_keep_their_batch():
    """Under --jobs the lexical metrics' rows come from forked workers and BERTScore's from this process, after them:
    the rows of one process, and explain_segment finds the batch floors that scoring found."""
    systems = {"LT22": PADDED_HYPS, "reversed": PADDED_HYPS[::-1]}
    ids = ("bleu", "chrf", "bertscore")
    one = evaluate(systems, [PADDED_REFS], {m: create(m) for m in ids}, jobs=1)
    metrics = {m: create(m) for m in ids}
    several = evaluate(systems, [PADDED_REFS], metrics, jobs=2)
    for name in systems:
        for m in ids:
            np.testing.assert_array_equal(several.system(name).stats[m].rows, one.system(name).stats[m].rows)
    ex = metrics["bertscore"].explain_segment("LT22", 0, PADDED_HYPS[0], [PADDED_REFS[0]])
    assert ex.references[0].floored == (True, False) and not any("without its batch" in n for n in ex.notes)
