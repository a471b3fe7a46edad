"""Default metrics follow the data: summaries get ROUGE, captions CIDEr-D/BLEU/METEOR, translations BLEU/chrF/TER —
decided from the source, the outputs' lengths and, without either, the references' shape."""

from __future__ import annotations

import pytest

from metrics.core.defaults import Evidence, Task, choose_metrics, gather_evidence, profile_references, sentence_count
from metrics.core.registry import SPECS
from tests.support.corpora import Corpus, load_corpus, slice_corpus
from tests.support.paths import DATA, SHARED_DATA

MT = ("bleu", "chrf", "ter")
ROUGE = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def para() -> Corpus:
    """60 paragraphs of WMT23 he-en (2 references, source, 3 systems): 2–3 sentences, ~58 words a reference."""
    return load_corpus(DATA / "wmt23-he-en-para-src", ["ref.A.txt", "ref.B.txt"], "src.txt")


def _choice(corpus: Corpus, *, source: bool = True, outputs: bool = True):
    return choose_metrics(
        corpus.refs,
        available=SPECS,
        source=corpus.src if source else None,
        outputs=list(corpus.systems.values()) if outputs else (),
    )


def test_paragraph_translations_get_mt_metrics_from_every_kind_of_evidence():
    corpus = para()
    profile = profile_references(corpus.refs)
    assert profile.sentences >= 2 and profile.length >= 40  # the shape the old rule read as summaries
    with_source = _choice(corpus)
    assert with_source.task is Task.TRANSLATION and with_source.metrics == MT
    assert "source in Hebrew script, references in Latin" in with_source.reason
    outputs_only = _choice(corpus, source=False)
    assert outputs_only.task is Task.TRANSLATION and outputs_only.metrics == MT
    assert outputs_only.evidence.follows is not None and outputs_only.evidence.follows > 0.9
    assert "the outputs' lengths follow the references' (r = 0." in outputs_only.reason
    shape_only = _choice(corpus, source=False, outputs=False)
    assert shape_only.task is Task.TRANSLATION and shape_only.metrics == MT
    assert "a sentence or a paragraph" in shape_only.reason
    for choice in (with_source, outputs_only, shape_only):
        assert not set(choice.metrics) & set(ROUGE)


def test_summaries_and_captions_keep_their_tasks():
    summaries = _choice(slice_corpus("cnndm"))
    assert summaries.task is Task.SUMMARIZATION and summaries.metrics == ROUGE
    assert summaries.evidence.follows is not None and summaries.evidence.follows < 0.6
    assert "do not follow the references' (r = 0." in summaries.explain()
    captions = _choice(slice_corpus("coco"))
    assert captions.task is Task.CAPTIONING and captions.metrics == ("cider", "bleu", "meteor")
    assert captions.profile.references == 4 and "many short references" in captions.explain()
    assert _choice(slice_corpus("coco"), outputs=False).task is Task.CAPTIONING


def test_sentence_translation_sets_stay_translations():
    for name in ("wmt22-de-en", "wmt22-en-zh", "wmt22-en-ja", "ted"):
        corpus = slice_corpus(name)
        for outputs in (True, False):
            choice = _choice(corpus, outputs=outputs)
            assert choice.task is Task.TRANSLATION and choice.metrics == MT, (name, outputs)
    assert _choice(slice_corpus("wmt22-en-zh")).profile.unit == "characters"
    de_en = _choice(slice_corpus("wmt22-de-en"))  # one script on both sides: the language tells
    assert "the references read as English, the source does not" in de_en.reason


def test_references_far_shorter_than_their_source_are_summaries():
    article = " ".join(f"Sentence {k} of the article says something about the matter at hand." for k in range(40))
    refs = [[f"The article says something, item {k}." for k in range(30)]]
    choice = choose_metrics(refs, available=SPECS, source=[article] * 30)
    assert choice.task is Task.SUMMARIZATION and choice.metrics == ROUGE
    assert choice.evidence.source_ratio is not None and choice.evidence.source_ratio < 0.05
    assert "of their source's length (median), read as summaries" in choice.reason
    # the same source with references as long as it: a translation (same script, both English)
    choice = choose_metrics([[article] * 30], available=SPECS, source=[article] * 30)
    assert choice.task is Task.TRANSLATION and "about as long as their source (1.00)" in choice.reason


def test_chinese_references_are_measured_in_word_equivalents_against_a_source_in_words():
    corpus = slice_corpus("wmt22-en-zh")
    source = [" ".join(["word"] * max(1, round(len(r) / 2))) for r in corpus.refs[0]]  # one word per 2 characters
    evidence = gather_evidence(corpus.refs, source, [])
    assert evidence.source_ratio == pytest.approx(1.0, abs=0.1)
    assert evidence.source_script == "LATIN" and evidence.reference_script == "CJK"


def test_shape_alone_calls_only_clearly_long_references_summaries():
    sixty = [" ".join(["The cat sat on the mat and looked at the dog."] * 6)] * 10  # 6 sentences, 60 words
    choice = choose_metrics([sixty], available=SPECS)
    assert choice.task is Task.SUMMARIZATION and "many sentences" in choice.reason
    two = [" ".join(["word"] * 29) + ". " + " ".join(["word"] * 29) + "."] * 10  # 2 sentences, 58 words
    assert choose_metrics([two], available=SPECS).task is Task.TRANSLATION
    long = [" ".join(["word"] * 160)] * 10
    choice = choose_metrics([long], available=SPECS)
    assert choice.task is Task.SUMMARIZATION and "long (words)" in choice.reason
    three_short = [["a dog on a beach"] * 5] * 3
    assert choose_metrics(three_short, available=SPECS).task is Task.CAPTIONING
    three_long = [[" ".join(["word"] * 30)] * 5] * 3
    assert choose_metrics(three_long, available=SPECS).task is Task.TRANSLATION  # not short: no captions


def test_outputs_of_one_length_or_too_few_segments_say_nothing():
    refs = [["the cat sat on the mat ."] * 30]
    assert gather_evidence(refs, None, [["a b c"] * 30]) == Evidence()  # references of one length
    refs = [[" ".join(["w"] * (k + 1)) for k in range(10)]]
    assert gather_evidence(refs, None, refs).follows is None  # 10 segments: too few


def test_a_stated_task_wins_and_never_gets_a_letter_dropping_tokenizer():
    corpus = slice_corpus("wmt22-en-zh")
    choice = choose_metrics(corpus.refs, available=SPECS, task=Task.SUMMARIZATION)
    assert choice.task is Task.SUMMARIZATION and not choice.detected and choice.metrics == ROUGE
    assert choice.options == {"rouge": {"tokenizer": "unicode"}}
    assert choice.explain().startswith("summaries, as stated, so ROUGE-1/2/L/Lsum; ")
    assert "tokenizer drops letters of 100% of the references (" in choice.explain()
    # detected, the en-zh set is a translation: no ROUGE at all
    assert not set(_choice(corpus).metrics) & set(ROUGE)


def test_a_family_whose_tokenizer_drops_letters_and_has_no_way_out_is_left_out(monkeypatch):
    import dataclasses

    from metrics.core import caveats, registry
    from metrics.core.family import TextSupport

    rouge = registry.family_of("rouge1")
    without = dataclasses.replace(rouge, text=TextSupport(rouge.text.drops, None, ""))
    monkeypatch.setattr(caveats, "family_of", lambda m: without if m in ROUGE else registry.family_of(m))
    refs = [["Größe über alles, straße"] * 30]
    choice = choose_metrics(refs, available=SPECS, task=Task.SUMMARIZATION)
    assert choice.metrics == () and choice.options == {}
    assert "drops letters of 100% of the references (ß, ö, ü), so it is left out" in choice.explain()


def test_few_dropped_letters_leave_the_default_tokenizer():
    refs = [["plain English words here"] * 996 + ["a crème brûlée"] * 4]
    choice = choose_metrics(refs, available=SPECS, task=Task.SUMMARIZATION)
    assert choice.metrics == ROUGE and choice.options == {}


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

        folder = SHARED_DATA / "cnndm_see2017"
        refs = [list(read_segments(folder / "reference.txt").texts)]
        outputs = [list(read_segments(folder / "sys" / "pointer-gen.txt").texts)]
        assert choose_metrics(refs, available=SPECS, outputs=outputs).task is Task.SUMMARIZATION
