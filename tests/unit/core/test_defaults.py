"""Default metrics follow the data: summaries get ROUGE, captions CIDEr-D/BLEU/METEOR, translations BLEU/chrF/TER."""

from __future__ import annotations

from metrics.core.defaults import Task, choose_metrics, profile_references, sentence_count
from metrics.core.registry import SPECS
from tests.support.corpora import slice_corpus
from tests.support.paths import SHARED_DATA


def _choice(corpus: str):
    return choose_metrics(slice_corpus(corpus).refs, available=SPECS)


def test_real_corpora_get_their_tasks_metrics_and_the_reason():
    summaries = _choice("cnndm")
    assert summaries.task is Task.SUMMARIZATION
    assert summaries.metrics == ("rouge1", "rouge2", "rougeL", "rougeLsum")
    assert "3 sentence(s)" in summaries.explain() and "several sentences" in summaries.reason
    captions = _choice("coco")
    assert captions.task is Task.CAPTIONING and captions.metrics == ("cider", "bleu", "meteor")
    assert captions.profile.references == 4 and "many short references" in captions.explain()
    for corpus in ("wmt22-de-en", "wmt22-en-zh", "wmt22-en-ja", "ted"):
        choice = _choice(corpus)
        assert choice.task is Task.TRANSLATION and choice.metrics == ("bleu", "chrf", "ter"), corpus
    assert _choice("wmt22-en-zh").profile.unit == "characters"


def test_summaries_as_plain_lines_and_long_single_sentences_are_summaries():
    lines = [" ".join(["the cat sat on the mat ."] * 3)] * 10  # CNN/DM's .txt: sentences end in " . "
    assert choose_metrics([lines], available=SPECS).task is Task.SUMMARIZATION
    long = [" ".join(["word"] * 60)] * 10
    choice = choose_metrics([long], available=SPECS)
    assert choice.task is Task.SUMMARIZATION and "long (words)" in choice.reason
    three_short = [["a dog on a beach"] * 5] * 3
    assert choose_metrics(three_short, available=SPECS).task is Task.CAPTIONING
    three_long = [[" ".join(["word"] * 30)] * 5] * 3
    assert choose_metrics(three_long, available=SPECS).task is Task.TRANSLATION  # not short: no captions


def test_a_metric_that_is_not_installed_is_left_out_and_named():
    choice = choose_metrics(slice_corpus("coco").refs, available=[m for m in SPECS if m != "meteor"])
    assert choice.metrics == ("cider", "bleu") and choice.left_out == ("meteor",)
    assert "not installed here, so left out: meteor" in choice.explain()


def test_sentences_are_lines_or_sentence_ends():
    assert sentence_count("One. Two! Three?") == 3
    assert sentence_count("first line\nsecond line") == 2
    assert sentence_count("今天天气很好。我们去公园吧！") == 2
    assert sentence_count("no end mark") == 1 and sentence_count("") == 1
    assert sentence_count("3.5 million (U.S.) people") == 1  # no space after the dots


def test_missing_references_and_the_profile_sample():
    profile = profile_references([["a b c", None, "d e"], ["f", "g h", None]])
    assert profile.references == 1 and profile.length == 2
    if (SHARED_DATA / "cnndm_see2017").exists():  # the full 11,490 CNN/DM summaries are profiled from a sample
        from metrics.io.inputs import read_segments

        refs = [list(read_segments(SHARED_DATA / "cnndm_see2017" / "reference.txt").texts)]
        assert choose_metrics(refs, available=SPECS).task is Task.SUMMARIZATION
