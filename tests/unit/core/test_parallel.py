"""Rows computed under ``--jobs``: forked workers, threads of a metric's own, and this process give the same bytes."""

from __future__ import annotations

from metrics.core.registry import create
from metrics.evaluate import evaluate
from tests.support.corpora import slice_corpus


def test_jobs_give_the_rows_of_one_process() -> None:
    corpus = slice_corpus("wmt22-de-en")
    ids = ["bleu", "chrf", "rouge1", "rougeL"]
    systems = dict(list(corpus.systems.items())[:3])
    one = evaluate(systems, corpus.refs, {m: create(m) for m in ids}, jobs=1)
    metrics = {m: create(m) for m in ids}
    metrics["rougeL"] = create("rougeL", {"stemmer": True})
    several = evaluate(systems, corpus.refs, metrics, jobs=2)
    stemmed = evaluate(systems, corpus.refs, {"rougeL": create("rougeL", {"stemmer": True})}, jobs=1)
    for name in systems:
        for m in ("bleu", "chrf", "rouge1"):
            assert several.system(name).stats[m].rows.tobytes() == one.system(name).stats[m].rows.tobytes()
        assert (
            several.system(name).stats["rougeL"].rows.tobytes() == stemmed.system(name).stats["rougeL"].rows.tobytes()
        )
