"""rouge-score's BootstrapAggregator (low/mid/high of P, R, F): its numbers for a seed, from the library and the CLI."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from rouge_score import rouge_scorer, scoring

from metrics.cli.main import main
from metrics.core.registry import create
from metrics.stats.rouge_bootstrap import MEASURES, RougeBootstrapSettings, bootstrap_aggregate
from tests.support.corpora import slice_corpus
from tests.support.paths import DATA

CNNDM = DATA / "cnndm"


def _theirs(types, hyps, refs, confidence, n_samples, seed):
    """rouge-score's aggregate with its global random state seeded right before aggregate()."""
    scorer = rouge_scorer.RougeScorer(types)
    aggregator = scoring.BootstrapAggregator(confidence_interval=confidence, n_samples=n_samples)
    for i, hyp in enumerate(hyps):
        aggregator.add_scores(scorer.score_multi([s[i] for s in refs if s[i] is not None], hyp))
    np.random.seed(seed)
    return aggregator.aggregate()


def _as_tuples(aggregate):
    return [tuple(getattr(getattr(aggregate, part), m) for m in MEASURES) for part in ("low", "mid", "high")]


@pytest.mark.parametrize(
    ("types", "confidence", "n_samples", "seed"),
    [(["rouge1", "rouge2", "rougeL", "rougeLsum"], 0.95, 1000, 12345), (["rougeLsum", "rouge1"], 0.8, 300, 0)],
)
def test_equal_to_rouge_score_seeded_for_every_type_in_order(types, confidence, n_samples, seed):
    corpus = slice_corpus("cnndm")
    hyps = corpus.systems["pointer-gen-cov"]
    stats = {t: create(t).stats(hyps, corpus.refs) for t in types}
    before = np.random.get_state()[1].copy()
    ours = bootstrap_aggregate(stats, RougeBootstrapSettings(confidence, n_samples, seed))
    assert np.array_equal(np.random.get_state()[1], before)  # NumPy's global state is left alone
    theirs = _theirs(types, hyps, corpus.refs, confidence, n_samples, seed)
    assert list(ours) == types
    for t in types:
        assert _as_tuples(ours[t]) == [tuple(score) for score in theirs[t]], t
    # mid is the median of the bootstrap means, not the corpus score (the mean F)
    f_mean = create("rouge1").corpus_score(create("rouge1").stats(hyps, corpus.refs))
    assert ours["rouge1"].low.fmeasure < f_mean < ours["rouge1"].high.fmeasure and ours["rouge1"].mid.fmeasure != f_mean


def test_the_order_of_types_is_the_order_of_draws():
    corpus = slice_corpus("cnndm")
    hyps = corpus.systems["baseline"]
    one, two = (create(t).stats(hyps, corpus.refs) for t in ("rouge1", "rougeL"))
    alone = bootstrap_aggregate({"rougeL": two})["rougeL"]
    second = bootstrap_aggregate({"rouge1": one, "rougeL": two})["rougeL"]
    assert alone != second  # rougeL drew after rouge1's samples, as in rouge-score's one global stream
    assert _as_tuples(alone) == [tuple(s) for s in _theirs(["rougeL"], hyps, corpus.refs, 0.95, 1000, 12345)["rougeL"]]


def test_settings_are_checked_and_only_rouge_score_metrics_aggregate():
    with pytest.raises(ValueError, match=r"confidence level must lie in \[0, 1\]"):
        RougeBootstrapSettings(confidence=1.5)
    with pytest.raises(ValueError, match="bootstrap samples"):
        RougeBootstrapSettings(n_samples=0)
    bleu = create("bleu").stats(["a b c d"], [["a b c d"]])
    with pytest.raises(ValueError, match="only rouge-score's ROUGE aggregates"):
        bootstrap_aggregate({"bleu": bleu})


def _cli(capsys, *extra):
    systems = sorted(str(p) for p in (CNNDM / "sys").glob("*.sents.jsonl"))
    args = ["score", "--refs", str(CNNDM / "reference.sents.jsonl"), "--systems", *systems, *extra]
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_json_and_csv_carry_rouge_scores_own_intervals(capsys):
    """Per system, the numbers of np.random.seed(SEED) + rouge-score's aggregate() of the ROUGE types in the order of
    --metrics; BLEU, not a rouge-score metric, has none."""
    options = ["--metrics", "bleu,rougeLsum,rouge2", "--rouge-bootstrap", "0.9", "--n-bootstrap", "200", "--seed", "7"]
    code, out, _ = _cli(capsys, *options, "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["statistics"]["rouge_confidence"] == 0.9
    assert (document["statistics"]["n_bootstrap"], document["statistics"]["seed"]) == (200, 7)
    corpus = slice_corpus("cnndm")
    for system in document["systems"]:
        found = system["rouge_bootstrap"]
        assert list(found) == ["rougeLsum", "rouge2"]
        hyps = corpus.systems[system["name"]]
        theirs = _theirs(["rougeLsum", "rouge2"], hyps, corpus.refs, 0.9, 200, 7)
        for t in ("rougeLsum", "rouge2"):
            ours = [tuple(found[t][part][m] for m in MEASURES) for part in ("low", "mid", "high")]
            assert ours == [tuple(score) for score in theirs[t]], (system["name"], t)
    code, out, _ = _cli(capsys, *options, "--format", "csv")
    table = out.split("\n\n")
    rows = next(list(csv.DictReader(io.StringIO(t))) for t in table if t.startswith("metric,system,measure,low"))
    assert len(rows) == 3 * 2 * 3  # systems × ROUGE metrics × P/R/F
    first = rows[0]
    assert (first["confidence"], first["n_samples"], first["seed"]) == ("0.9", "200", "7")
    assert first["signature"].startswith("nrefs:1|type:rougeLsum")
    code, out, _ = _cli(capsys, *options)
    assert code == 0 and "rouge-score bootstrap aggregate (90%, 200 samples, seed 7)" in out


def test_cli_refuses_rouge_bootstrap_without_a_rouge_score_metric(capsys):
    code, _, err = _cli(capsys, "--metrics", "bleu,rougeW", "--rouge-bootstrap")
    assert code == 2 and "needs a rouge-score metric" in err
