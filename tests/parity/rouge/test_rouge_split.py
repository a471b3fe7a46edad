"""ROUGE-Lsum with ``split=rules``: rouge-score's ROUGE-Lsum on text split the same way beforehand, named in the
signature, offsets into the user's text, and close to the human sentence splits of CNN/DailyMail."""

from __future__ import annotations

import numpy as np
import pytest
from rouge_score import rouge_scorer

from metrics.core.registry import create
from metrics.core.selection import OptionError, Selection
from metrics.core.sentences import SPLITTER, sentence_spans, split_text
from metrics.families.rouge.metric import LsumEvidence, RougeLsum
from metrics.kernels import pure_python
from tests.support.corpora import slice_corpus

FIELDS = ("precision", "recall", "fmeasure")


def _flat(texts: list[str]) -> list[str]:
    """The texts as a .txt upload gives them: their sentences joined by spaces."""
    return [text.replace("\n", " ") for text in texts]


def _rouge_score(hyps: list[str], refs: list[str], stemmer: bool) -> np.ndarray:
    """rouge-score's ROUGE-Lsum (P, R, F) on the texts split by the splitter beforehand, one sentence a line."""
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=stemmer)
    lined = [("\n".join(split_text(r)), "\n".join(split_text(h))) for h, r in zip(hyps, refs, strict=True)]
    scores = [scorer.score(r, h)["rougeLsum"] for r, h in lined]
    return np.array([[getattr(s, f) for f in FIELDS] for s in scores])


@pytest.mark.parametrize("stemmer", [False, True])
def test_split_lsum_equals_rouge_score_on_text_split_beforehand(stemmer):
    corpus = slice_corpus("cnndm")
    refs = _flat(corpus.refs[0])
    # the user's own lines stay boundaries: every tenth reference keeps its newlines
    refs = [corpus.refs[0][i] if i % 10 == 0 else ref for i, ref in enumerate(refs)]
    metric = create("rougeLsum", {"split": "rules", "stemmer": stemmer})
    for system in ("baseline", "pointer-gen-cov"):
        hyps = _flat(corpus.systems[system])
        expected = _rouge_score(hyps, refs, stemmer)
        stats = metric.stats(hyps, [refs])
        ours = np.stack([stats.column(f) for f in FIELDS], axis=1)
        assert np.abs(ours - expected).max() <= 1e-9  # in fact bit-identical
        assert np.array_equal(ours, expected)
        with pure_python():
            assert np.array_equal(
                create("rougeLsum", {"split": "rules", "stemmer": stemmer}).stats(hyps, [refs]).rows, stats.rows
            )
        assert metric.segment_row(hyps[7], [refs[7]]).tolist() == stats.rows[7].tolist()


def test_split_brings_lsum_from_rouge_l_back_to_the_human_split_score():
    """On the 200 summaries of tests/data/cnndm given as plain text: ROUGE-Lsum equals ROUGE-L without a split, and
    with ``split=rules`` is within 0.0006 of the score on the human sentence splits (full set: within 0.00011 for
    each of the three systems, where ROUGE-L is 0.054-0.090 lower)."""
    corpus = slice_corpus("cnndm")
    refs = [_flat(corpus.refs[0])]
    lines, rules = RougeLsum(), RougeLsum(split="rules")
    expected = {"baseline": 0.00054090, "pointer-gen": 0.00041918, "pointer-gen-cov": 0.00051283}
    for system, hyps in corpus.systems.items():
        gold = lines.corpus_score(lines.stats(hyps, corpus.refs))
        split = rules.corpus_score(rules.stats(_flat(hyps), refs))
        flat = lines.corpus_score(lines.stats(_flat(hyps), refs))
        assert split - gold == pytest.approx(expected[system], abs=1e-8)
        assert gold - flat > 0.03


def test_signature_names_the_splitter_and_only_lsum_takes_the_option():
    assert SPLITTER == "rules-v1"
    assert "|split:rules-v1|" in create("rougeLsum", {"split": "rules"}).signature()
    assert "|split:newlines|" in create("rougeLsum").signature()
    assert "split" not in create("rougeL").signature() and "split" not in create("rouge1").signature()
    metrics = Selection(("rouge1", "rougeLsum"), {"rouge": {"split": "rules"}}).build()
    assert metrics["rougeLsum"].config.split == "rules"
    with pytest.raises(OptionError, match="rouge.split"):
        Selection(("rouge1", "rougeL"), {"rouge": {"split": "rules"}}).build()
    with pytest.raises(ValueError, match="newlines, rules"):
        create("rougeLsum", {"split": "nltk"})


def test_explanation_sentences_are_the_splitters_with_offsets_into_the_users_text():
    hyp = "Dr. Smith came home. He slept at 3 p.m. today."
    ref = "Dr. Smith went home.\nHe slept. It rained."
    metric = RougeLsum(split="rules")
    explanation = metric.explain(hyp, [ref])
    evidence = explanation.chosen.evidence
    assert isinstance(evidence, LsumEvidence)
    words = [t.text for t in explanation.hyp_tokens]
    assert [words[a:b] for a, b in evidence.hyp_sentences] == [
        ["dr", "smith", "came", "home"],
        ["he", "slept", "at", "3", "p", "m", "today"],
    ]
    tokens = explanation.chosen.ref_tokens
    assert [(s.start, s.end) for s in evidence.sentences] == [(0, 4), (4, 6), (6, 8)]
    assert [ref[t.start : t.end] for t in tokens] == ["Dr", "Smith", "went", "home", "He", "slept", "It", "rained"]
    assert [hyp[t.start : t.end] for t in explanation.hyp_tokens][4:6] == ["He", "slept"]
    assert explanation.row == tuple(metric.segment_row(hyp, [ref]).tolist())
    assert len(sentence_spans(ref)) == 3


def test_lsum_equals_l_note_points_to_the_option_and_is_gone_with_it():
    hyps, refs = ["It was happy. The cat sat."], [["The cat sat on the mat. It was glad."]]
    flat = RougeLsum().stats(hyps, refs)
    [note] = [str(n) for n in flat.notes if "equals ROUGE-L" in str(n)]
    assert "rouge.split=rules" in note and "Sentence split" in note
    split = RougeLsum(split="rules").stats(hyps, refs)
    assert not [n for n in split.notes if "equals ROUGE-L" in str(n)]
    assert (flat.rows[0][3], split.rows[0][3]) == (3, 5)  # LCS "the cat sat"; unions "the cat sat" + "it was"
