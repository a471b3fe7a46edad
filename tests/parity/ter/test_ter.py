"""TER parity with sacrebleu 2.6.0 (every segment, corpus, the shift sequence and the final edit trace) and the
consistency of its evidence. sacrebleu's TER is slow, so the default run uses subsets; ``-m sweep`` runs full sets.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics import lib_ter

from metrics.core.edits import EditOp
from metrics.core.registry import create
from metrics.families.ter.metric import TER, TERConfig
from metrics.families.ter.search import SearchBudget, ter_pair
from metrics.families.ter.tokenizer import TercomTokenizer
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.parity import rel_close

# Golden values (shared/spec/golden_values.json, from sacrebleu 2.6.0; inputs from shared/spec/golden_gen.py).
GOLD_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
GOLD_REFS1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
GOLD_REFS2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]
GOLD_CASES = [
    ("aaaa bbbb cccc dddd", "aaaa bbbb cccc dddd", 0.0),
    ("dddd eeee ffff", "aaaa bbbb cccc", 100.0),
    ("", "a", 100.0),
    ("d e f g h a b c", "a b c d e f g h", 12.5),
    ("a", "", 100.0),
]
# sacrebleu's trace letters follow tercom: it deletes a hypothesis word the reference lacks (an INSERT step)
_TRACE_CHAR = {EditOp.MATCH: " ", EditOp.SUBSTITUTE: "s", EditOp.INSERT: "d", EditOp.DELETE: "i"}


def sacre_rows(hyps: list[str], refs: list[list[str]], **options: bool) -> np.ndarray:
    return np.array(SacreTER(**options)._extract_corpus_statistics(hyps, refs), dtype=np.float64)


def subset(corpus_name: str, step: int, limit: int) -> tuple[dict[str, list[str]], list[list[str]]]:
    corpus = slice_corpus(corpus_name)
    keep = list(range(0, len(corpus.refs[0]), step))[:limit]
    systems = {name: [hyps[i] for i in keep] for name, hyps in corpus.systems.items()}
    return systems, [[stream[i] for i in keep] for stream in corpus.refs]


def check_parity(hyps: list[str], refs: list[list[str]], **options: bool) -> None:
    ours = TER(**options)
    stats = ours.stats(hyps, refs)
    theirs = sacre_rows(hyps, refs, **options)
    np.testing.assert_array_equal(stats.rows[:, :2], theirs)  # [min edits, average ref length], exactly
    expected = SacreTER(**options).corpus_score(hyps, refs)
    assert rel_close(ours.corpus_score(stats), expected.score)
    for i, score in enumerate(ours.segment_scores(stats)):
        one = SacreTER(**options)._compute_score_from_stats(list(theirs[i]))
        assert rel_close(score, one.score), i


def sacre_trace(hyp: list[str], ref: list[str]) -> tuple[list[list[str]], str]:
    """sacrebleu's own loop (``translation_edit_rate``), keeping what it throws away."""
    if not ref:
        return [], "d" * len(hyp)
    cached = lib_ter.BeamEditDistance(ref)
    words, checked, applied = hyp, 0, []
    while True:
        delta, shifted, checked = lib_ter._shift(words, ref, cached, checked)
        if checked >= lib_ter._MAX_SHIFT_CANDIDATES or delta <= 0:
            break
        applied.append(shifted)
        words = shifted
    return applied, cached(words)[1]


# ---------------------------------------------------------------- golden values and sacrebleu's own test cases


def test_golden_corpus_two_references() -> None:
    metric = TER()
    stats = metric.stats(GOLD_HYPS, [GOLD_REFS1, GOLD_REFS2])
    assert metric.corpus_score(stats) == pytest.approx(40.0, rel=1e-12)
    pooled = stats.pooled()
    assert pooled[0] == 6 and pooled[1] == 15.0


def test_golden_cases() -> None:
    for hyp, ref, expected in GOLD_CASES:
        assert TER().score([hyp], [[ref]]) == expected, (hyp, ref)


def test_golden_normalized_case_sensitive() -> None:
    score = TER(normalized=True, case_sensitive=True).score(GOLD_HYPS, [GOLD_REFS1])
    assert rel_close(score, 41.17647058823529)


def test_one_shift_explained() -> None:
    ex = TER().explain("d e f g h a b c", ["a b c d e f g h"])
    ref = ex.chosen
    assert ex.edits == 1 and ref.edits == 1 and len(ref.shifts) == 1
    shift = ref.shifts[0]
    assert shift.words == ("a", "b", "c") and shift.start == 5 and shift.target == 0 and shift.dest == 0
    assert shift.after == ("a", "b", "c", "d", "e", "f", "g", "h")
    assert shift.distance_before == 6 and shift.distance_after == 0 and shift.gain == 6
    assert [t.start for t in shift.tokens] == [10, 12, 14]  # spans into the original hypothesis
    assert all(e.op is EditOp.MATCH for e in ref.alignment)


def test_signature_and_direction() -> None:
    assert TER().signature() == "case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
    sig = TER(normalized=True, case_sensitive=True, no_punct=True, asian_support=True).signature()
    assert sig == "case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:2.6.0"
    assert TER.higher_is_better is False
    metric = create("ter", {"normalized": "true"})
    assert isinstance(metric, TER) and metric.config.normalized is True


def test_lowercases_by_default() -> None:
    assert TER().score(["The CAT"], [["the cat"]]) == 0.0
    assert TER(case_sensitive=True).score(["The CAT"], [["the cat"]]) == 100.0


@pytest.mark.parametrize(
    "text", ["これはペンです。漢字テスト", "The U.S. costs $3.50, it's John's &amp; co.\nNext-line"]
)
def test_tokenizer_matches_sacrebleu(text: str) -> None:
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTok

    for flags in [(False, False, False, False), (True, False, False, False), (True, True, True, True),
                  (False, True, True, False), (True, False, True, True)]:  # fmt: skip
        assert TercomTokenizer(*flags)(text) == SacreTok(*flags)(text), flags


# ------------------------------------------------------------------------------------ real-data parity


def test_parity_wmt22_de_en_two_references() -> None:
    systems, refs = subset("wmt22-de-en", 4, 100)
    for hyps in list(systems.values())[:2]:
        check_parity(hyps, refs)


def test_parity_ted_single_reference() -> None:
    systems, refs = subset("ted", 4, 100)
    check_parity(systems["sys1"], refs)


def test_parity_en_zh_asian_normalized() -> None:
    systems, refs = subset("wmt22-en-zh", 8, 25)
    check_parity(systems["Online-B"], refs, asian_support=True, normalized=True)


@pytest.mark.parametrize(
    "options",
    [dict(case_sensitive=True), dict(no_punct=True), dict(normalized=True), dict(normalized=True, no_punct=True)],
)
def test_parity_options(options: dict[str, bool]) -> None:
    systems, refs = subset("wmt22-de-en", 10, 40)
    check_parity(systems["Online-B"], refs, **options)


def test_shift_sequence_and_trace_equal_sacrebleus() -> None:
    """The evidence is the search sacrebleu runs: same shifts in the same order, same final DP trace."""
    systems, refs = subset("wmt22-de-en", 8, 50)
    metric = TER()
    shifted_segments = 0
    for hyps in list(systems.values())[:2]:
        for i, hyp in enumerate(hyps):
            ex = metric.explain(hyp, [refs[0][i], refs[1][i]])
            for k, result in enumerate(ex.references):
                hyp_words = list(t.text for t in ex.hyp_tokens)
                ref_words = list(t.text for t in result.tokens)
                applied, trace = sacre_trace(hyp_words, ref_words)
                assert [list(s.after) for s in result.shifts] == applied, (i, k)
                assert "".join(_TRACE_CHAR[e.op] for e in result.alignment) == trace, (i, k)
                shifted_segments += bool(applied)
    assert shifted_segments > 10  # the slice really exercises shifts


def test_random_pairs_against_lib_ter() -> None:
    """Small vocabularies make ties, many shifts, the 1000-candidate cap and band-limited DP cells."""
    rng = random.Random(11)
    banded = 0
    for _ in range(30):
        vocab = [f"w{i}" for i in range(rng.choice([2, 3, 6, 15]))]
        m = rng.choice([3, 12, 24, 30, 40])
        ref = [rng.choice(vocab) for _ in range(m)]
        hyp = ref[:]
        for _ in range(rng.randint(0, 6)):
            i, j, length = rng.randrange(len(hyp)), rng.randrange(len(hyp)), rng.randint(1, 5)
            block = hyp[i : i + length]
            del hyp[i : i + length]
            hyp[j:j] = block
        for _ in range(rng.randint(0, 25)):
            hyp.insert(rng.randrange(len(hyp) + 1), rng.choice(vocab))
        if rng.random() < 0.3:  # unrelated: distances beyond the band's reach
            hyp = [rng.choice(vocab) for _ in range(rng.choice([1, 30, 35]))]
        trace = ter_pair(hyp, ref)
        assert (trace.edits, trace.ref_len) == lib_ter.translation_edit_rate(hyp, ref), (hyp, ref)
        assert len(trace.shifts) + sum(s.op.is_error for s in trace.alignment) == trace.edits
        banded += trace.distance > 23 and m > 24
    assert banded > 0
    # a repetitive pair reaches the 1000-candidate cap; the shift found in that round is discarded
    rng = random.Random(0)
    hyp = [rng.choice("abcd") for _ in range(50)]
    ref = [rng.choice("abcd") for _ in range(40)]
    trace = ter_pair(hyp, ref)
    assert trace.candidate_cap_hit and trace.candidates >= 1000
    assert (trace.edits, trace.ref_len) == lib_ter.translation_edit_rate(hyp, ref)


# ------------------------------------------------------------------------------------ evidence


def test_explanation_adds_up_on_every_segment() -> None:
    corpus = slice_corpus("wmt22-de-en")
    metric = TER()
    hyps = corpus.systems["Online-B"]
    stats = metric.stats(hyps, corpus.refs)
    scores = metric.segment_scores(stats)
    for i, hyp in enumerate(hyps):
        refs = [stream[i] for stream in corpus.refs]
        ex = metric.explain(hyp, refs)
        assert ex.row == tuple(stats.rows[i]) and ex.score == scores[i]
        assert ex.edits == min(r.edits for r in ex.references) == ex.chosen.edits
        assert ex.best_ref == [r.edits for r in ex.references].index(ex.edits)
        for r in ex.references:
            errors = sum(e.op.is_error for e in r.alignment)
            assert len(r.shifts) + errors == r.edits
            assert r.substitutions + r.deletions + r.insertions == errors
            assert r.matches + r.substitutions + r.deletions == r.ref_len
            assert r.matches + r.substitutions + r.insertions == len(ex.hyp_tokens)
            assert sorted(t.start for t in r.hypothesis) == sorted(t.start for t in ex.hyp_tokens)
            for s in r.shifts:  # each shift turns `before` into `after` and lowers the distance
                block = s.before[s.start : s.start + s.length]
                rest = s.before[: s.start] + s.before[s.start + s.length :]
                assert s.after == rest[: s.dest] + block + rest[s.dest :] and s.words == block and s.gain > 0
            for e in r.alignment:
                token = r.hypothesis[e.hyp_index] if e.hyp_index is not None else None
                if token is not None and token.located:
                    assert hyp[token.start : token.end].lower() == token.text
        chosen = ex.chosen
        # the columns keep tercom's names: its deletions are the hypothesis words the reference lacks (insertions)
        assert stats.rows[i][2:6].tolist() == [len(chosen.shifts), chosen.substitutions, chosen.insertions,
                                              chosen.deletions]  # fmt: skip
        recomputed = 100 * (ex.edits / ex.avg_ref_len) if ex.avg_ref_len else (100.0 if ex.edits else 0.0)
        assert recomputed == ex.score


# ------------------------------------------------------------------------------------ bad input


def test_empty_sides() -> None:
    metric = TER()
    assert metric.stats(["", "a b", ""], [["x y z", "", ""]]).rows[:, :2].tolist() == [[3, 3], [2, 0], [0, 0]]
    assert metric.score([""], [[""]]) == 0.0
    ex = metric.explain("a b", [""])
    assert [e.op for e in ex.chosen.alignment] == [EditOp.INSERT, EditOp.INSERT] and ex.score == 100.0
    ex = metric.explain("   ", ["x y"])
    assert [e.op for e in ex.chosen.alignment] == [EditOp.DELETE, EditOp.DELETE] and ex.hyp_tokens == ()


def test_no_reference_and_bad_options() -> None:
    with pytest.raises(ValueError, match="at least one reference"):
        TER().stats(["a"], [[None]])
    with pytest.raises(ValueError, match="boolean"):
        TERConfig(normalized="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="search_budget"):
        TER(search_budget=-1)
    with pytest.raises(ValueError, match="unknown option"):
        create("ter", {"lowercase": True})


def test_long_line_stays_exact_and_responsive() -> None:
    """A 10 000-token line: sacrebleu would take many minutes; here it is exact and takes seconds."""
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(400)]
    ref = [rng.choice(vocab) for _ in range(10_000)]
    hyp = ref[:]
    for _ in range(300):
        hyp[rng.randrange(len(hyp))] = rng.choice(vocab)
    block = hyp[5000:5004]
    del hyp[5000:5004]
    hyp[5030:5030] = block
    start = time.perf_counter()
    trace = ter_pair(hyp, ref)
    assert time.perf_counter() - start < 120  # generous: a hang guard, not a timing assertion
    assert not trace.budget_exhausted and trace.ref_len == 10_000
    assert len(trace.shifts) + sum(s.op.is_error for s in trace.alignment) == trace.edits
    assert trace.edits <= 302  # the moved block back costs one shift, each substitution one edit


def test_budget_stop_is_reported_never_silent() -> None:
    hyp = ["d", "e", "f", "g", "h", "a", "b", "c"]
    ref = ["a", "b", "c", "d", "e", "f", "g", "h"]
    assert ter_pair(hyp, ref).edits == 1
    stopped = ter_pair(hyp, ref, SearchBudget(0))
    assert stopped.budget_exhausted and stopped.edits == 6 and stopped.shifts == ()
    metric = TER(search_budget=0)
    stats = metric.stats([" ".join(hyp), "a b"], [[" ".join(ref), "a b"]])
    assert stats.column("budget_stops").tolist() == [1.0, 0.0]
    assert (
        len(stats.notes) == 1 and "1 segment(s) (1)" in str(stats.notes[0]) and "search_budget" in str(stats.notes[0])
    )
    assert metric.explain(" ".join(hyp), [" ".join(ref)]).notes
    assert "budget:0" in metric.signature()


def test_long_line_search_is_bounded_and_reported() -> None:
    """A line as long as TER reads (metrics.core.limits.TER; a longer one is cut there, see tests/unit/core/
    test_limits.py): the search stops on the budget, the score says so."""
    words, swaps, budget = 1_200, 25, 2_000_000
    rng = random.Random(2)
    vocab = [f"w{i}" for i in range(50)]
    ref = " ".join(rng.choice(vocab) for _ in range(words))
    tokens = ref.split()
    for _ in range(swaps):
        i = rng.randrange(len(tokens) - 5)
        tokens[i : i + 2] = tokens[i : i + 2][::-1]
    hyp = " ".join(tokens)
    small = TER(search_budget=budget)
    stats = small.stats([hyp], [[ref]])
    assert stats.rows[0, 6] == 1 and stats.rows[0, 1] == words
    assert len(stats.notes) == 1 and "may be higher" in str(stats.notes[0])
    full = TER().stats([hyp], [[ref]])  # the default budget finishes this one (the candidate cap ends it)
    assert full.rows[0, 6] == 0 and full.notes == () and full.rows[0, 0] < stats.rows[0, 0] <= 2 * swaps


# ------------------------------------------------------------------------------------ wide sweep


@pytest.mark.sweep
def test_sweep_full_wmt22_de_en() -> None:
    corpus = shared_corpus("wmt22/de-en", ["ref.A.txt", "ref.B.txt"])
    for hyps in corpus.systems.values():
        check_parity(hyps, corpus.refs)


@pytest.mark.sweep
def test_sweep_full_wmt22_en_zh_asian() -> None:
    corpus = shared_corpus("wmt22/en-zh", ["ref.A.txt", "ref.B.txt"])
    for hyps in list(corpus.systems.values())[:3]:
        check_parity(hyps, corpus.refs, asian_support=True, normalized=True)
