"""METEOR parity with nltk 3.10.4 ``meteor_score`` and of the shipped WordNet index with nltk's WordNet reader.

nltk reads WordNet 3.0 from Debian's ``wordnet-base`` (``/usr/share/wordnet``) through a small reader subclass
(Debian ships neither ``lexnames`` nor ``index.sense``, and nltk 3.10 refuses paths outside ``nltk.data.path``);
tests that need it skip, saying why, when that directory is absent.
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from metrics.core.config import build_config
from metrics.core.registry import create
from metrics.families.meteor.metric import MatchStage, Meteor, MeteorConfig, meteor_from_counts
from metrics.families.meteor.wordnet import DATA_FILE, WordNetIndex, wordnet_index
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.meteor import WORDNET_DIR, nltk_scores
from tests.support.parity import rel_close
from tests.support.paths import ROOT

REF = "the cat sat on the mat"
TEXTBOOK = {
    "on the mat sat the cat": 0.5,
    "the cat was sat on the mat": 0.9653916211293262,
    "the cat sat on the mat": 0.9976851851851852,
}
NLTK_HYP1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
NLTK_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]


def nltk_lemma_names(wordnet, word: str) -> frozenset[str]:  # type: ignore[no-untyped-def]
    """What nltk's synonym stage collects for ``word`` (without adding ``word`` itself)."""
    return frozenset(
        lemma.name() for synset in wordnet.synsets(word) for lemma in synset.lemmas() if "_" not in lemma.name()
    )


# --- golden values -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hyp", list(TEXTBOOK))
def test_textbook_values(hyp: str) -> None:
    metric = Meteor()
    assert metric.sentence_score(hyp, [REF]) == TEXTBOOK[hyp]
    explanation = metric.explain(hyp, [REF])
    assert explanation.score == TEXTBOOK[hyp]
    assert explanation.recompute() == explanation.score


def test_textbook_evidence() -> None:
    metric = Meteor()
    swapped = metric.explain("on the mat sat the cat", [REF])
    # nltk's greedy "last hypothesis word takes the highest reference position" alignment, not the optimal one
    assert [(m.hyp_index, m.ref_index) for m in swapped.matches] == [(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)]
    assert (swapped.m, len(swapped.chunks), swapped.fmean, swapped.penalty) == (6, 6, 1.0, 0.5)
    was = metric.explain("the cat was sat on the mat", [REF])
    assert [(m.hyp_index, m.ref_index) for m in was.matches] == [(0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (6, 5)]
    assert {m.stage for m in was.matches} == {MatchStage.EXACT}
    assert [(c.hyp_start, c.hyp_end, c.ref_start, c.ref_end) for c in was.chunks] == [(0, 2, 0, 2), (3, 7, 2, 6)]
    assert was.precision == 6 / 7 and was.recall == 1.0 and was.fragmentation == 2 / 6
    assert was.formula() == "Score: 0.9654 = Fmean: 0.9836 × (1 − Penalty: 0.0185)"
    assert metric.explain(REF, [REF]).formula() == "Score: 0.9977 = Fmean: 1.0000 × (1 − Penalty: 0.0023)"
    assert metric.explain("dog", [REF]).formula() == "Score: 0.0000 (no matches)"
    assert metric.explain("", [REF]).formula() == "Score: 0.0000 (empty hypothesis)"


def test_nltk_docstring_example() -> None:
    metric = Meteor()
    assert metric.sentence_score(NLTK_HYP1, NLTK_REFS) == 0.6944444444444445
    assert metric.sentence_score(NLTK_HYP1, NLTK_REFS[:1]) == 0.6944444444444445
    assert metric.sentence_score("non matching hypothesis", ["this is a cat"]) == 0.0


def test_wordnet_sees_stems_as_nltk_does() -> None:
    """Synonyms are looked up for Porter stems, so many true synonyms are missed (values measured with nltk)."""
    metric = Meteor()
    assert metric.sentence_score("he walked rapidly", ["he walked quickly"]) == 0.625
    assert metric.sentence_score("a big house", ["a large house"]) == 0.3333333333333333  # big/large missed
    synonym = metric.explain("the dog barked", ["the hound barked"])
    assert synonym.score == 0.9814814814814815
    (match,) = [m for m in synonym.matches if m.stage is MatchStage.SYNONYM]
    assert (match.hyp_form, match.ref_form, match.hyp_index, match.ref_index) == ("dog", "hound", 1, 1)
    stemmed = metric.explain("The Cats were running", ["the cat was runs"])
    assert stemmed.score == 0.6388888888888888
    stages = {m.hyp_form: m.stage for m in stemmed.matches}
    assert stages == {"the": MatchStage.EXACT, "cat": MatchStage.STEM, "run": MatchStage.STEM}


# --- parity with nltk on real data ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["wmt22-de-en", "coco", "ted"])
def test_parity_on_slices(name: str, nltk_wordnet) -> None:  # type: ignore[no-untyped-def]
    corpus = slice_corpus(name)
    metric = Meteor()
    for system, hyps in corpus.systems.items():
        stats = metric.stats(hyps, corpus.refs)
        ours = metric.segment_scores(stats)
        theirs = nltk_scores(hyps, corpus.refs, nltk_wordnet)
        assert len(ours) == len(theirs) == len(hyps)
        bad = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if not rel_close(a, b)]
        assert not bad, f"{name}/{system}: segments {bad[:5]} differ, e.g. {ours[bad[0]]} vs {theirs[bad[0]]}"
        assert rel_close(metric.corpus_score(stats), sum(theirs) / len(theirs))


def test_parity_with_other_parameters(nltk_wordnet) -> None:  # type: ignore[no-untyped-def]
    corpus = slice_corpus("wmt22-de-en")
    hyps = corpus.systems["LT22"][:150]
    refs = [stream[:150] for stream in corpus.refs]
    for options in ({"alpha": 0.85, "beta": 0.2, "gamma": 0.6}, {"alpha": 1.0, "beta": 0.0, "gamma": 1.0}):
        metric = Meteor(**options)
        ours = metric.segment_scores(metric.stats(hyps, refs))
        theirs = nltk_scores(hyps, refs, nltk_wordnet, **options)
        assert all(rel_close(a, b) for a, b in zip(ours, theirs, strict=True)), options


def test_alignment_equals_nltk(nltk_wordnet) -> None:  # type: ignore[no-untyped-def]
    """Every (hypothesis, reference) index pair nltk aligns, in the same order, with the same leftovers."""
    from nltk.translate.meteor_score import align_words

    corpus = slice_corpus("wmt22-de-en")
    metric = Meteor()
    for hyp, ref in zip(corpus.systems["PROMT"][:200], corpus.refs[1][:200], strict=True):
        expected, _, _ = align_words(hyp.lower().split(), ref.lower().split(), wordnet=nltk_wordnet)
        matches = metric.explain(hyp, [ref]).matches
        assert [(m.hyp_index, m.ref_index) for m in matches] == expected


@pytest.mark.sweep
def test_parity_full_wmt22(nltk_wordnet) -> None:  # type: ignore[no-untyped-def]
    corpus = shared_corpus("wmt22/de-en", ["ref.A.txt", "ref.B.txt"])
    metric = Meteor()
    for system, hyps in corpus.systems.items():
        ours = metric.segment_scores(metric.stats(hyps, corpus.refs))
        theirs = nltk_scores(hyps, corpus.refs, nltk_wordnet)
        assert all(rel_close(a, b) for a, b in zip(ours, theirs, strict=True)), system


# --- the WordNet index ---------------------------------------------------------------------------------------


def _slice_vocabulary() -> set[str]:
    from nltk.stem.porter import PorterStemmer

    stemmer = PorterStemmer()
    words: set[str] = set()
    for name in ("wmt22-de-en", "coco", "ted", "cnndm"):
        corpus = slice_corpus(name)
        for texts in (*corpus.systems.values(), *corpus.refs):
            for text in texts:
                for word in text.split():
                    words.update((word, word.lower(), stemmer.stem(word.lower())))
    return words


def _wordnet_sample(stride: int) -> set[str]:
    """Every ``stride``-th index lemma with inflected and capitalised forms, plus every exception-list entry."""
    words: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        lemmas = sorted(line.split()[0] for line in (WORDNET_DIR / f"index.{pos}").open() if not line.startswith(" "))
        for lemma in lemmas[::stride]:
            words.update(lemma + suffix for suffix in ("", "s", "es", "ies", "ed", "ing", "er", "est", "men"))
            words.add(lemma.capitalize())
            if lemma.endswith("y"):
                words.add(lemma[:-1] + "ies")
        for line in (WORDNET_DIR / f"{pos}.exc").open():
            words.update(line.split())
    return words


def test_index_equals_nltk_wordnet(nltk_wordnet) -> None:  # type: ignore[no-untyped-def]
    index = WordNetIndex.load()
    words = sorted(_slice_vocabulary() | _wordnet_sample(stride=150))
    assert len(words) > 30_000
    differ = [w for w in words if index.lemma_names(w) != nltk_lemma_names(nltk_wordnet, w)]
    assert not differ, f"{len(differ)} words differ, e.g. {differ[:10]}"


def test_index_details() -> None:
    index = wordnet_index()
    assert index is wordnet_index()
    assert index.lemma_names("geese") >= {"goose"}  # noun exception list
    assert "say" in index.lemma_names("said")  # verb exception list
    assert "dog" in index.lemma_names("dogs")  # suffix rule
    assert {"WA", "Washington"} <= index.lemma_names("wa")  # case kept: never equals a lowercased word
    assert index.lemma_names("Party") == index.lemma_names("party")  # synsets() lowercases the query
    assert all("_" not in name for name in index.lemma_names("ice_cream"))
    assert index.lemma_names("") == frozenset() and index.lemma_names("qzxv") == frozenset()
    assert index.candidate_forms("churches", "n") == ["churches", "churche", "church"]
    assert index.candidate_forms("better", "a") == ["better", "good", "well"]  # exceptions switch rules off


@pytest.mark.sweep
def test_index_equals_nltk_wordnet_everywhere(nltk_wordnet) -> None:  # type: ignore[no-untyped-def]
    index = WordNetIndex.load()
    differ = [w for w in sorted(_wordnet_sample(stride=1)) if index.lemma_names(w) != nltk_lemma_names(nltk_wordnet, w)]
    assert not differ, differ[:10]


@pytest.mark.sweep
def test_shipped_index_is_rebuilt_exactly() -> None:
    if not (WORDNET_DIR / "index.noun").exists():
        pytest.skip(f"{WORDNET_DIR} is absent: install Debian's wordnet-base to rebuild the index")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_wordnet_index
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    data, licence = build_wordnet_index.build(WORDNET_DIR)
    assert data == DATA_FILE.read_bytes()
    assert licence == (DATA_FILE.parent / "WORDNET-LICENSE.txt").read_text(encoding="utf-8")
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in licence
    assert len(data) < 3_000_000


def test_offline_and_lazy() -> None:
    """A fresh interpreter with no nltk_data at all scores a segment that needs WordNet, and importing the
    metric does not read the index."""
    code = (
        "import nltk, sys\n"
        "nltk.data.path[:] = ['/nonexistent']\n"
        "import metrics.families.meteor.metric, metrics.families.meteor.wordnet\n"
        "assert metrics.families.meteor.wordnet._load_once.cache_info().currsize == 0\n"
        "print(metrics.families.meteor.metric.Meteor().sentence_score('the cat was sat on the mat', ['the cat sat on the mat']))\n"
        "assert type(nltk.corpus.wordnet).__name__ == 'LazyCorpusLoader'  # nltk's own WordNet never loaded\n"
    )
    env = {"NLTK_DATA": "/nonexistent", "PATH": "/usr/bin:/bin", "HOME": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0.9653916211293262"


# --- explanation ---------------------------------------------------------------------------------------------


def test_explanation_adds_up() -> None:
    corpus = slice_corpus("coco")
    metric = Meteor()
    hyps = corpus.systems["Up-Down"][:120]
    streams = [stream[:120] for stream in corpus.refs]
    rows = metric.stats(hyps, streams).rows
    for i, hyp in enumerate(hyps):
        refs = [stream[i] for stream in streams]
        explanation = metric.explain(hyp, refs)
        assert explanation.row == tuple(rows[i]) == tuple(metric.segment_row(hyp, refs))
        assert explanation.recompute() == explanation.score == rows[i][0]
        scores = [a.score for a in explanation.alignments]
        assert explanation.best_ref == scores.index(max(scores))
        for alignment in explanation.alignments:
            matches = alignment.matches
            assert [m.hyp_index for m in matches] == sorted({m.hyp_index for m in matches})
            assert len({m.ref_index for m in matches}) == len(matches)
            assert sum(len(c) for c in alignment.chunks) == alignment.m
            if matches:
                assert (1 - alignment.penalty) * alignment.fmean == alignment.score
                assert alignment.fragmentation == len(alignment.chunks) / alignment.m
            for m in matches:
                assert hyp[m.hyp_token.start : m.hyp_token.end] == m.hyp_token.text
                assert refs[alignment.index][m.ref_token.start : m.ref_token.end] == m.ref_token.text
                if m.stage is MatchStage.EXACT:
                    assert m.hyp_form == m.ref_form == m.hyp_token.text.lower()
                elif m.stage is MatchStage.STEM:
                    assert m.hyp_form == m.ref_form
                else:
                    assert m.hyp_form != m.ref_form


def test_ties_go_to_the_first_reference() -> None:
    explanation = Meteor().explain("a b c", ["a b c", "c b a", "a b c"])
    assert explanation.best_ref == 0
    assert explanation.alignments[0].score == explanation.alignments[2].score


def test_meteor_from_counts_matches_nltk_arithmetic() -> None:
    assert meteor_from_counts(6, 2, 7, 6, 0.9, 3.0, 0.5) == 0.9653916211293262
    assert meteor_from_counts(0, 0, 5, 5, 0.9, 3.0, 0.5) == 0.0
    assert meteor_from_counts(0, 0, 0, 5, 0.9, 3.0, 0.5) == 0.0


# --- inputs, options, contract -------------------------------------------------------------------------------


def test_input_handling() -> None:
    metric = Meteor()
    assert metric.sentence_score("", ["the cat"]) == 0.0
    assert metric.sentence_score("the cat", [""]) == 0.0
    assert metric.sentence_score("THE Cat", ["the cat"]) == metric.sentence_score("the cat", ["the cat"])
    assert metric.sentence_score("the\u00a0cat\u3000sat", [REF]) == metric.sentence_score("the cat sat", [REF])
    with pytest.raises(ValueError, match="at least one reference"):
        metric.segment_row("the cat", [])
    hyps, refs = ["a b", "c d"], [["a b", "c d"]]
    copies = (list(hyps), [list(refs[0])])
    metric.stats(hyps, refs)
    assert (hyps, refs) == copies
    with pytest.raises(ValueError):
        metric.stats(["a b"], [["a b", "c d"]])


def test_corpus_score_is_mean_of_segments() -> None:
    corpus = slice_corpus("ted")
    metric = Meteor()
    stats = metric.stats(corpus.systems["sys1"], corpus.refs)
    segments = metric.segment_scores(stats)
    assert metric.aggregate == "mean"
    assert rel_close(metric.corpus_score(stats), float(np.mean(segments)), 1e-12)
    index = np.arange(len(stats)).reshape(1, -1).repeat(3, axis=0)
    pooled = metric.score_pooled(stats.pooled(index))
    assert pooled.shape == (3,) and np.allclose(pooled, metric.corpus_score(stats))


@pytest.mark.parametrize(
    "options",
    [{"alpha": 1.5}, {"alpha": -0.1}, {"beta": -1}, {"gamma": 2}, {"alpha": float("nan")}, {"beta": math.inf}],
)
def test_bad_options(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(options))):
        Meteor(**options)


def test_options_from_command_line_strings() -> None:
    with pytest.raises(ValueError, match="alpha"):
        build_config(MeteorConfig, {"alpha": "high"})
    with pytest.raises(ValueError, match="valid options"):
        build_config(MeteorConfig, {"delta": "0.5"})
    metric = create("meteor", {"alpha": "0.85", "beta": "0.2", "gamma": "0.6"})
    assert isinstance(metric, Meteor)
    assert metric.config == MeteorConfig(alpha=0.85, beta=0.2, gamma=0.6)
    assert metric.signature() == (
        "case:lc|tok:split|stem:porter|syn:wordnet-3.0|alpha:0.85|beta:0.2|gamma:0.6|agg:mean"
        "|ref:nltk-3.10.4|version:scorelens-0.1.0"
    )
    assert Meteor().name == "METEOR" and Meteor().columns[0] == "meteor"


def test_tokens_are_nltk_inputs() -> None:
    """Lowercasing the whole text (fast) equals nltk's ``str.lower`` per ``split()`` token, whitespace and the
    context-dependent Greek final sigma included."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    metric = Meteor()
    for space in spaces:
        for text in (f"ΟΔΟΣ{space}ΣΑ", f"Α{space}ΣΒ", f"AΣ\u0301{space}b", f"İstanbul{space}KELVIN\u212a"):
            assert list(metric.tokenize(text)) == [word.lower() for word in text.split()]

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.sampled_from([*spaces, "Σ", "σ", "A", "İ", "\u0301", "\u00ad", "ß", "x"])))
    def same(text: str) -> None:
        assert list(Meteor().tokenize(text)) == [word.lower() for word in text.split()]

    same()
