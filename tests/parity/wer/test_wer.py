"""WER/CER parity with jiwer 4.0 (corpus, every segment, hit/substitution/deletion/insertion counts and the
alignment chunks) and the behaviour on empty, multi-reference and very long input."""

from __future__ import annotations

import random
import time

import jiwer
import numpy as np
import pytest
from rapidfuzz.distance import Levenshtein

from metrics.core.edits import EditOp
from metrics.core.registry import create
from metrics.families.wer.metric import CER, MER, WER, WIL, WIP, ErrorRateConfig, WordMeasure, WordMeasureExplanation
from tests.support.corpora import SLICES, shared_corpus, slice_corpus
from tests.support.parity import rel_close


def jiwer_chunks(alignment: list[jiwer.AlignmentChunk]) -> list[tuple[str, int, int, int, int]]:
    return [(a.type, a.ref_start_idx, a.ref_end_idx, a.hyp_start_idx, a.hyp_end_idx) for a in alignment]


_JIWER_TYPES = {
    EditOp.MATCH: "equal",
    EditOp.SUBSTITUTE: "substitute",
    EditOp.INSERT: "insert",
    EditOp.DELETE: "delete",
}


def our_chunks(metric: WER | CER, hyp: str, ref: str) -> list[tuple[str, int, int, int, int]]:
    chunks = metric.explain(hyp, [ref]).chosen.chunks
    assert chunks is not None
    return [(_JIWER_TYPES[c.type], c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in chunks]


@pytest.mark.parametrize("name", list(SLICES))
def test_parity_every_slice(name: str) -> None:
    corpus = slice_corpus(name)
    ref = corpus.refs[0]
    for hyps in corpus.systems.values():
        for metric, process, rate in [(WER(), jiwer.process_words, "wer"), (CER(), jiwer.process_characters, "cer")]:
            stats = metric.stats(hyps, [ref])
            whole = process(ref, hyps)
            assert rel_close(metric.corpus_score(stats), getattr(whole, rate))
            pooled = stats.pooled()
            assert pooled[2:6].tolist() == [whole.hits, whole.substitutions, whole.deletions, whole.insertions]
            for i, score in enumerate(metric.segment_scores(stats)):
                one = process(ref[i], hyps[i])
                assert rel_close(score, getattr(one, rate)), i
                assert stats.rows[i, 2:6].tolist() == [one.hits, one.substitutions, one.deletions, one.insertions]
            for i in range(0, len(hyps), 9):  # alignments: jiwer's chunks, tie-breaks included
                assert our_chunks(metric, hyps[i], ref[i]) == jiwer_chunks(whole.alignments[i]), i


def test_jiwer_transform_traps() -> None:
    # a single tab is not a word separator in jiwer's default transform; two whitespace characters are
    assert WER().symbols(" a\tb  c\u00a0 d ") == ["a\tb", "c", "d"]
    assert WER().score(["a\tb c"], [["a b c"]]) == jiwer.wer("a b c", "a\tb c") == 2 / 3
    assert CER().symbols("  a  b ") == "a  b"
    assert CER().score(["a  b"], [["a b"]]) == jiwer.cer("a b", "a  b")
    assert WER().score(["The cat"], [["the cat"]]) == 0.5  # case-sensitive by default
    lower = jiwer.Compose([jiwer.ToLowerCase(), jiwer.wer_default])
    hyps, refs = ["The CAT sat", "ÀB c"], ["the cat  sat on", "àb C"]
    expected = jiwer.wer(refs, hyps, reference_transform=lower, hypothesis_transform=lower)
    assert rel_close(WER(lowercase=True).score(hyps, [refs]), expected)


def test_empty_references_and_hypotheses() -> None:
    # jiwer: with no reference words at all the "rate" is the number of inserted words
    assert WER().score(["a b c"], [[""]]) == jiwer.wer("", "a b c") == 3
    assert WER().score(["a b c", "x"], [["", "x"]]) == jiwer.wer(["", "x"], ["a b c", "x"]) == 3.0
    assert WER().score([""], [["a b"]]) == jiwer.wer("a b", "") == 1.0
    assert WER().score([""], [[""]]) == jiwer.wer("", "") == 0
    assert CER().score([""], [["ab"]]) == jiwer.cer("ab", "") == 1.0
    assert CER().score(["ab"], [["  "]]) == jiwer.cer("  ", "ab") == 2
    ex = WER().explain("a b", [""])
    assert ex.chosen.chunks is not None and [c.type for c in ex.chosen.chunks] == [EditOp.INSERT]


def test_several_references_take_fewest_edits_and_average_length() -> None:
    metric = WER()
    row = metric.segment_row("the cat sat", ["a cat sat on the mat", "the cat sat down"])
    assert row[0] == 1 and row[1] == 5.0  # fewest edits (1, reference 2), average length (6 + 4) / 2
    ex = metric.explain("the cat sat", ["a cat sat on the mat", "the cat sat down"])
    assert ex.best_ref == 1 and ex.score == 0.2 and [r.edits for r in ex.references] == [4, 1]
    tie = metric.explain("x", ["y", "z"])
    assert tie.best_ref == 0  # first reference wins ties


def test_explanation_adds_up_and_points_into_the_text() -> None:
    corpus = slice_corpus("ted")
    hyps, ref = corpus.systems["sys2"], corpus.refs[0]
    for metric in (WER(), CER()):
        stats = metric.stats(hyps, [ref])
        for i in range(0, len(hyps), 5):
            ex = metric.explain(hyps[i], [ref[i]])
            assert ex.row == tuple(stats.rows[i]) and ex.score == metric.segment_scores(stats)[i]
            chosen = ex.chosen
            assert chosen.chunks is not None and sum(c.errors for c in chosen.chunks) == chosen.edits == ex.edits
            assert chosen.matches + chosen.substitutions + chosen.deletions == chosen.ref_len
            assert chosen.matches + chosen.substitutions + chosen.insertions == len(ex.hyp_tokens)
            for token in ex.hyp_tokens:
                assert hyps[i][token.start : token.end] == token.text
            for token in chosen.tokens:
                assert ref[i][token.start : token.end] == token.text


MEASURES = [(MER(), "mer"), (WIL(), "wil"), (WIP(), "wip")]


@pytest.mark.parametrize("name", list(SLICES))
def test_mer_wil_wip_parity_every_slice(name: str) -> None:
    """jiwer's process_words pools H, S, D, I over the corpus and derives MER, WIL and WIP from them; so do we."""
    corpus = slice_corpus(name)
    ref = corpus.refs[0]
    for hyps in corpus.systems.values():
        whole = jiwer.process_words(ref, hyps)
        for metric, measure in MEASURES:
            stats = metric.stats(hyps, [ref])
            assert rel_close(metric.corpus_score(stats), getattr(whole, measure)), measure
            segments = metric.segment_scores(stats)
            for i in range(0, len(hyps), 7):
                assert rel_close(segments[i], getattr(jiwer.process_words(ref[i], hyps[i]), measure)), (measure, i)


def test_mer_wil_wip_edge_cases_and_registration() -> None:
    for refs, hyps in [([""], ["a b"]), ([""], [""]), (["a b"], [""]), (["", "x"], ["", "y z"]), (["a"], ["a"])]:
        for metric, measure in MEASURES:
            assert metric.score(hyps, [refs]) == getattr(jiwer, measure)(refs, hyps), (measure, refs, hyps)
    assert [create(m).name for m in ("mer", "wil", "wip")] == ["MER", "WIL", "WIP"]
    assert (MER.higher_is_better, WIL.higher_is_better, WIP.higher_is_better) == (False, False, True)
    assert create("mer").signature().startswith("measure:mer|case:mixed|unit:word|tr:default")
    # the wer family's options reach them, and their explanation is WER's alignment with the measure
    ex = create("wip", {"lowercase": True}).explain("The cat sat", ["the cat sat down", "a cat"])
    assert isinstance(ex, WordMeasureExplanation) and ex.measure is WordMeasure.WIP
    chosen = ex.references[ex.best_ref]
    assert (chosen.matches, chosen.deletions) == (3, 1) and ex.score == (3 / 4) * (3 / 3)


def test_a_segment_too_long_to_count_is_nan_for_the_measures() -> None:
    rng = random.Random(2)
    ref = " ".join(rng.choice("abcdefgh") for _ in range(3000))
    hyp = " ".join(rng.choice("abcdefgh") for _ in range(3000))
    stats = MER(max_cells=10_000).stats([hyp, "a b"], [[ref, "a b"]])
    assert stats.column("bounded").tolist() == [1.0, 0.0]
    scores = MER(max_cells=10_000).segment_scores(stats)
    assert np.isnan(scores[0]) and scores[1] == 0.0 and np.isnan(MER().corpus_score(stats))


TRANSFORM_TEXTS = [
    ("She won't say it's   over; let's GO!", "she will not say it is over let us go"),
    ("\tI can't  — won’t… they'd've «left».  ", "i can not won’t they would have left"),
    ("«¿Qué?» dijo él,\u00a0 ‘no’.", "qué dijo él no"),
    ("a\tb  c", "a b c"),
]


@pytest.mark.parametrize(
    "options",
    [
        {"remove_punctuation": True},
        {"expand_contractions": True},
        {"lowercase": True, "expand_contractions": True, "remove_punctuation": True},
        {"collapse_spaces": False},
        {"strip": False},
        {"collapse_spaces": False, "strip": False, "remove_punctuation": True},
    ],
)
def test_transforms_equal_jiwer_composed_in_the_documented_order(options) -> None:
    steps = [
        (options.get("lowercase", False), jiwer.ToLowerCase()),
        (options.get("expand_contractions", False), jiwer.ExpandCommonEnglishContractions()),
        (options.get("remove_punctuation", False), jiwer.RemovePunctuation()),
    ]
    for metric_cls, collapse_default, reduce in [
        (WER, True, jiwer.ReduceToListOfListOfWords()),
        (CER, False, jiwer.ReduceToListOfListOfChars()),
    ]:
        chosen = [t for on, t in steps if on]
        chosen += [jiwer.RemoveMultipleSpaces()] if options.get("collapse_spaces", collapse_default) else []
        chosen += [jiwer.Strip()] if options.get("strip", True) else []
        transform = jiwer.Compose([*chosen, reduce])
        metric = metric_cls(**options)
        hyps, refs = [h for _, h in TRANSFORM_TEXTS], [r for r, _ in TRANSFORM_TEXTS]
        corpus = slice_corpus("ted")
        hyps += corpus.systems["sys1"][:40]
        refs += corpus.refs[0][:40]
        expected = jiwer.process_words(refs, hyps, reference_transform=transform, hypothesis_transform=transform)
        stats = metric.stats(hyps, [refs])
        assert rel_close(metric.corpus_score(stats), expected.wer), (metric_cls, options)
        assert stats.pooled()[2:6].tolist() == [
            expected.hits,
            expected.substitutions,
            expected.deletions,
            expected.insertions,
        ]
        jiwer_default = metric.config == metric_cls(lowercase=metric.config.lowercase).config
        assert ("tr:default" in metric.signature()) == jiwer_default


def test_transforms_mark_the_signature_in_their_order() -> None:
    assert (
        "tr:contractions+nopunct+collapse+strip" in WER(remove_punctuation=True, expand_contractions=True).signature()
    )
    assert "tr:strip" in WER(collapse_spaces=False).signature() and "tr:default" in CER().signature()
    assert "tr:collapse+strip" in CER(collapse_spaces=True).signature()
    assert "tr:none" in CER(strip=False).signature()
    assert WER().symbols("can't stop, won't stop") == ["can't", "stop,", "won't", "stop"]
    words = WER(expand_contractions=True, remove_punctuation=True).symbols("can't stop, won't stop")
    assert words == ["can", "not", "stop", "will", "not", "stop"]


def test_signature_options_and_registry() -> None:
    assert WER().signature() == "case:mixed|unit:word|tr:default|multiref:min-edits|version:jiwer-4.0.0"
    assert "unit:char" in CER().signature() and "case:lc" in CER(lowercase=True).signature()
    assert WER.higher_is_better is False and CER.higher_is_better is False
    assert isinstance(create("wer"), WER) and isinstance(create("cer", {"lowercase": "true"}), CER)
    with pytest.raises(ValueError, match="boolean"):
        ErrorRateConfig(lowercase="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_cells"):
        WER(max_cells=0)
    with pytest.raises(ValueError, match="at least one reference"):
        WER().stats(["a"], [[None]])


def test_long_lines_exact_within_the_band() -> None:
    """Above max_cells the distance is still exact when the band proves it, with a full alignment."""
    rng = random.Random(4)
    words = [rng.choice(["alpha", "beta", "gamma", "delta", "eps"]) for _ in range(10_000)]
    hyp = words[:]
    for _ in range(40):
        hyp[rng.randrange(len(hyp))] = "zeta"
    ref_text, hyp_text = " ".join(words), " ".join(hyp)
    metric = WER(max_cells=1_000_000)  # far below 10 000²
    stats = metric.stats([hyp_text], [[ref_text]])
    assert stats.notes == () and stats.rows[0, 6] == 0
    assert rel_close(metric.corpus_score(stats), jiwer.wer(ref_text, hyp_text))
    ex = metric.explain(hyp_text, [ref_text])
    assert ex.chosen.chunks is not None and sum(c.errors for c in ex.chosen.chunks) == ex.edits


def test_giant_line_is_bounded_and_reported() -> None:
    """A giant line whose distance is beyond the band: an upper bound, never silent, and it stays quick."""
    rng = random.Random(6)
    ref = "".join(rng.choice("abcdefgh ") for _ in range(40_000))
    hyp = "".join(rng.choice("abcdefgh ") for _ in range(40_000))
    metric = CER(max_cells=50_000_000)
    start = time.perf_counter()
    stats = metric.stats([hyp, "same"], [[ref, "same"]])
    assert time.perf_counter() - start < 120  # a hang guard, not a timing assertion
    assert stats.column("bounded").tolist() == [1.0, 0.0]
    assert len(stats.notes) == 1 and "segment 1:" in str(stats.notes[0]) and "upper bound" in str(stats.notes[0])
    ex = metric.explain(hyp, [ref])
    assert ex.chosen.chunks is None and ex.notes and ex.chosen.bounded
    exact = Levenshtein.distance(ref, hyp)  # what jiwer would compute, slowly
    assert ex.chosen.lower_bound == 50_000_000 // 40_000 + 1 <= exact <= ex.edits
    assert ex.edits < 1.2 * exact  # proportional chunks of random text lose little


@pytest.mark.sweep
def test_sweep_full_sets() -> None:
    for folder, ref_file in [("wmt22/de-en", "ref.A.txt"), ("compare-mt/ted", "ref.txt")]:
        corpus = shared_corpus(folder, [ref_file])
        for hyps in corpus.systems.values():
            for metric, fn in [(WER(), jiwer.wer), (CER(), jiwer.cer)]:
                stats = metric.stats(hyps, corpus.refs)
                assert rel_close(metric.corpus_score(stats), fn(corpus.refs[0], hyps))
                segment = metric.segment_scores(stats)
                for i in np.linspace(0, len(hyps) - 1, 50).astype(int):
                    assert rel_close(segment[i], fn(corpus.refs[0][i], hyps[i]))
