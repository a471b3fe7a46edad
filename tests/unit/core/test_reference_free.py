"""The source stream through the engines, and evaluation without references: a metric that reads the source gets
each segment's own source on every path (one process, forked jobs, the dask engine's partitions), and a metric that
needs what is not loaded is refused with :class:`MissingInput` naming it, before any work."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from metrics.core.base import MissingInput, check_corpus, explain_segment, missing_input, system_stats
from metrics.core.defaults import choose_metrics
from metrics.core.family import Task
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.families.external import External
from metrics.families.external.scores import ExternalScores
from metrics.io.inputs import read_segments
from tests.support.paths import DATA
from tests.support.source_metric import LengthRatio, LengthRatioWithRefs

DEEN = DATA / "wmt22-de-en"


@pytest.fixture(scope="module")
def corpus() -> tuple[dict[str, list[str]], list[str]]:
    """60 real segments of two systems and their (German) source."""
    source = list(read_segments(DEEN / "src.txt").texts)[:60]
    systems = {name: list(read_segments(DEEN / "sys" / f"{name}.txt").texts)[:60] for name in ("LT22", "PROMT")}
    return systems, source


def _expected(hyps: list[str], source: list[str]) -> float:
    out, src = sum(map(len, hyps)), sum(map(len, source))
    return 100.0 * min(out, src) / max(out, src)


def test_the_source_reaches_the_metric_in_one_process_and_in_forked_jobs(corpus):
    systems, source = corpus
    metrics = {"ratio": LengthRatio(), "again": LengthRatio()}  # two tasks: --jobs 2 forks
    one = evaluate(systems, [], metrics, source=source)
    forked = evaluate(systems, [], metrics, source=source, jobs=2)
    for name, hyps in systems.items():
        assert one.system(name).scores["ratio"] == pytest.approx(_expected(hyps, source), abs=1e-12)
        assert one.system(name).stats["ratio"].rows.tobytes() == forked.system(name).stats["ratio"].rows.tobytes()
    # segment 3's own source, not a neighbour's
    row = one.system("LT22").stats["ratio"].rows[3]
    assert tuple(row) == (len(systems["LT22"][3]), len(source[3]))
    assert one.signatures["ratio"] == "length-ratio|version:test"  # no nrefs field: it reads no references


def test_a_metric_that_needs_what_is_missing_is_refused_before_any_work(corpus):
    systems, source = corpus
    with pytest.raises(MissingInput, match="Length ratio needs the source: load a source file") as caught:
        evaluate(systems, [], {"ratio": LengthRatio()})
    assert caught.value.needs == "source"
    with pytest.raises(MissingInput, match="BLEU needs the references") as caught:
        evaluate(systems, [], {"ratio": LengthRatio(), "bleu": create("bleu")}, source=source)
    assert caught.value.needs == "references"
    with pytest.raises(MissingInput, match="needs the references"):
        evaluate(systems, [], {"both": LengthRatioWithRefs()}, source=source)
    with pytest.raises(ValueError, match="the source has 59 segments but there are 60"):
        evaluate(systems, [], {"ratio": LengthRatio()}, source=source[:59])


def test_missing_input_says_what_to_load_and_survives_a_process_boundary():
    assert missing_input(LengthRatio(), references=False, source=True) is None
    assert missing_input(create("bleu"), references=True, source=False) is None
    both = missing_input(LengthRatioWithRefs(), references=False, source=False)
    assert both is not None and both.needs == "source"  # the source first: it is what the metric is about
    copied = pickle.loads(pickle.dumps(MissingInput("BLEU", "references")))
    assert (type(copied), copied.metric, copied.needs, str(copied)) == (
        MissingInput,
        "BLEU",
        "references",
        "BLEU needs the references: load references",
    )


def test_no_reference_streams_are_well_formed_only_for_a_reader_of_none():
    check_corpus(["a"], [], "x", references=False)
    with pytest.raises(MissingInput, match="chrf needs the references"):
        create("chrf").stats(["a"], [])
    with pytest.raises(MissingInput):
        system_stats(create("cider"), "s", ["a"], [])
    with pytest.raises(TypeError, match="list of reference streams"):
        check_corpus(["a"], "ab", "x", references=False)  # type: ignore[arg-type]


def test_explanations_read_the_segment_s_source(corpus):
    systems, source = corpus
    found = explain_segment(LengthRatio(), "LT22", 5, systems["LT22"][5], [], source=source[5])
    assert found.row == (len(systems["LT22"][5]), len(source[5]))
    with pytest.raises(MissingInput, match="needs the source"):
        explain_segment(LengthRatio(), "LT22", 5, systems["LT22"][5], [])


def test_external_scores_and_a_corpus_file_perplexity_need_no_references(corpus, tmp_path):
    systems, _ = corpus
    values = {name: tuple(float(i % 5) for i in range(60)) for name in systems}
    lines = {name: tuple(range(1, 61)) for name in systems}
    external = External(ExternalScores("judge", "judge.tsv", values, lines))
    corpus_file = tmp_path / "corpus.txt"
    corpus_file.write_text("\n".join(systems["PROMT"]) + "\n", encoding="utf-8")
    perplexity = create("perplexity", {"corpus": str(corpus_file)})
    found = evaluate(systems, [], {"judge": external, "ppl": perplexity})
    assert found.system("LT22").scores["judge"] == pytest.approx(np.mean([i % 5 for i in range(60)]))
    trained_on_refs = evaluate(systems, [systems["PROMT"]], {"ppl": create("perplexity", {"corpus": str(corpus_file)})})
    assert found.system("LT22").scores["ppl"] == trained_on_refs.system("LT22").scores["ppl"]
    # a single segment's evidence needs no reference either
    assert perplexity.explain(systems["LT22"][0], []).row == tuple(found.system("LT22").stats["ppl"].rows[0])


def test_default_metrics_without_references_are_those_that_read_none(corpus):
    systems, source = corpus
    choice = choose_metrics([], source=source, outputs=list(systems.values()))
    assert choice.task is Task.TRANSLATION and choice.profile.describe() == "no references"
    for metric_id in choice.metrics:
        assert missing_input(create(metric_id), references=False, source=True) is None
    assert "bleu" not in choice.metrics
    assert choice.explain().startswith("no references: read as translation outputs; only metrics that read no")
    stated = choose_metrics([], task=Task.SUMMARIZATION)
    assert stated.task is Task.SUMMARIZATION and not stated.detected
