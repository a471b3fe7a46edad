"""Exercises of the Teach page (rendering.exercises): every answer equals the reference implementation's number, each
usual mistake is recognised from its own (independently computed) wrong number, and any lesson gets exercises."""

from __future__ import annotations

import math

import pytest

from rendering import exercises as ex
from rendering import teach
from rendering.exercises import Mistake, Verdict
from rendering.teach import Lesson, Step
from rendering.teach_classics import CLASSICS
from tests.support.parity import rel_close
from tests.unit.rendering.test_teach import READY, lesson_for

HYP, REFS = "the cat is on the mat", ("there is a cat on the mat",)  # the typed triple (one reference)


def exercises_of(metric_id: str, hyp: str, refs: tuple[str, ...], **options: object) -> dict[str, ex.Exercise]:
    lesson, _ = lesson_for(metric_id, hyp, refs, **options)
    found = ex.for_lesson(lesson)
    assert [e.step for e in found] == sorted(e.step for e in found)
    assert all(0 <= e.step < len(lesson.steps) for e in found)
    return dict(ex.by_key(found))


def mistake_of(exercise: ex.Exercise, typed: str) -> Mistake | None:
    feedback = ex.check(exercise, typed)
    assert feedback.verdict is (Verdict.MISTAKE if feedback.mistake else Verdict.WRONG), typed
    return feedback.mistake


@pytest.mark.parametrize(
    ("hyp", "refs"),
    [
        (HYP, REFS),
        ("the the the the the the the", ("the cat is on the mat", "there is a cat on the mat")),
        ("the quick brown fox jumped over the lazy dog", ("the fast brown fox jumps over the lazy dog",)),
        ("the cat", ("the cat sat on the mat",)),
    ],
)
def test_bleu_answers_are_sacrebleus_numbers(hyp, refs):
    import sacrebleu

    found = exercises_of("bleu", hyp, refs)
    expected = sacrebleu.sentence_bleu(hyp, list(refs))
    for n, (count, total, precision) in enumerate(
        zip(expected.counts, expected.totals, expected.precisions, strict=True), 1
    ):
        if total:
            assert found[f"m{n}"].answer == count
            assert rel_close(found[f"p{n}"].answer, precision / 100)
    assert rel_close(found["bp"].answer, expected.bp)
    assert rel_close(found["bleu"].answer, expected.score)
    assert ex.check(found["bleu"], f"{expected.score:.2f}").verdict is Verdict.RIGHT


def test_bleu_mistakes_unclipped_summed_arithmetic_and_brevity():
    refs = ("the cat is on the mat", "there is a cat on the mat")
    found = exercises_of("bleu", "the the the the the the the", refs)
    # Papineni et al.'s example: 7 "the", at most 2 in one reference (1 in the other).
    assert found["m1"].answer == 2
    assert mistake_of(found["m1"], "7") is Mistake.UNCLIPPED
    assert mistake_of(found["m1"], "3") is Mistake.SUM_OVER_REFERENCES
    assert mistake_of(found["p1"], "1") is Mistake.UNCLIPPED
    assert mistake_of(found["p1"], "3/7") is Mistake.SUM_OVER_REFERENCES
    assert ex.check(found["p1"], "2/7").verdict is Verdict.RIGHT
    assert ex.check(found["p1"], "0.29").verdict is Verdict.RIGHT
    assert mistake_of(found["m1"], "4") is None

    short = exercises_of("bleu", "the cat", ("the cat sat on the mat",))
    assert short["bp"].answer == pytest.approx(math.exp(1 - 6 / 2))
    assert mistake_of(short["bleu"], "100") is Mistake.NO_BREVITY_PENALTY

    lengths = exercises_of(
        "bleu", "the cat sat on a mat", ("the cat sat on the mat today", "a cat sat on mats here too and there")
    )
    assert mistake_of(lengths["bp"], f"{math.exp(1 - 8 / 6):.3f}") is Mistake.AVERAGE_REFERENCE_LENGTH

    fox = exercises_of(
        "bleu", "the quick brown fox jumped over the lazy dog", ("the fast brown fox jumps over the lazy dog",)
    )
    arithmetic = 100 * (7 / 9 + 4 / 8 + 2 / 7 + 1 / 6) / 4
    assert mistake_of(fox["geo"], f"{arithmetic:.2f}") is Mistake.ARITHMETIC_MEAN
    assert mistake_of(fox["bleu"], f"{arithmetic:.2f}") is Mistake.ARITHMETIC_MEAN

    long = exercises_of("bleu", "the cat sat on the mat today", ("the cat sat on the mat",))
    assert long["bp"].answer == 1
    assert mistake_of(long["bp"], f"{math.exp(1 - 6 / 7):.3f}") is Mistake.LONG_BONUS


def test_chrf_answers_are_sacrebleus_statistics_and_mistakes():
    from sacrebleu.metrics import CHRF

    hyp, ref = "the cat sat on the mat", "a cat was sitting on a mat"
    found = exercises_of("chrf", hyp, (ref,))
    stats = CHRF()._extract_corpus_statistics([hyp], [[ref]])[0]  # per order: hyp, ref, matched
    for n in range(1, 7):
        n_hyp, n_ref, matched = stats[3 * (n - 1) : 3 * n]
        assert rel_close(found[f"P_char{n}"].answer, matched / n_hyp)
    assert rel_close(found["chrf"].answer, CHRF().sentence_score(hyp, [ref]).score)
    assert mistake_of(found["P_char1"], f"{12 / 20:.2f}") is Mistake.RECALL_FOR_PRECISION
    # unclipped: every hypothesis character the reference has at all ("t" ×4 in the hypothesis, ×3 in the reference …)
    unclipped = sum(hyp.replace(" ", "").count(ch) for ch in set(hyp.replace(" ", "")) if ch in ref)
    assert mistake_of(found["P_char1"], f"{unclipped / 17:.2f}") is Mistake.UNCLIPPED
    # averaging the per-order F (sacrebleu's eps_smoothing variant) instead of P and R first
    hyp2, refs2 = "the mat", ("the cat sat on the mat",)
    found2 = exercises_of("chrf", hyp2, refs2)
    averaged_f = CHRF(eps_smoothing=True).sentence_score(hyp2, list(refs2)).score
    assert not rel_close(averaged_f, found2["chrf"].answer, 1e-3)
    assert mistake_of(found2["chrf"], f"{averaged_f:.2f}") is Mistake.AVERAGED_F
    flipped = CHRF(beta=0.5).sentence_score(hyp2, list(refs2)).score
    assert mistake_of(found2["chrf"], f"{flipped:.2f}") is Mistake.BETA_ON_PRECISION


def test_ter_answers_and_mistakes():
    import jiwer
    from sacrebleu.metrics import TER

    hyp, ref = "the cat sat on the mat", "on the mat the cat sat"
    found = exercises_of("ter", hyp, (ref,))
    edits, ref_len = TER()._extract_corpus_statistics([hyp], [[ref]])[0]
    assert (found["shifts"].answer, found["edits"].answer) == (1, edits)
    assert rel_close(found["ter"].answer, TER().sentence_score(hyp, [ref]).score)
    wer_edits = jiwer.process_words(ref, hyp)
    plain = wer_edits.substitutions + wer_edits.deletions + wer_edits.insertions
    assert mistake_of(found["edits"], str(plain)) is Mistake.NO_SHIFTS
    assert mistake_of(found["ter"], f"{100 * plain / ref_len:.2f}") is Mistake.NO_SHIFTS

    hyp, refs = "the cat is on the mat today", ("there is a cat on the mat", "a cat is on the mat")
    found = exercises_of("ter", hyp, refs)
    expected = TER().sentence_score(hyp, list(refs))
    assert rel_close(found["ter"].answer, expected.score)
    edits = found["edits"].answer  # against the reference with the fewest edits (6 words); the average is 6.5
    assert mistake_of(found["ter"], f"{100 * edits / 7:.2f}") is Mistake.HYPOTHESIS_LENGTH
    assert mistake_of(found["ter"], f"{100 * edits / 6:.2f}") is Mistake.CHOSEN_REFERENCE_LENGTH


def test_rouge_l_answers_and_lcs_vs_substring():
    from rouge_score import rouge_scorer

    hyp, ref = "the gunman was shot by police", "police killed the gunman"
    found = exercises_of("rougeL", hyp, (ref,))
    expected = rouge_scorer.RougeScorer(["rougeL"]).score(ref, hyp)["rougeL"]
    assert found["lcs"].answer == round(expected.recall * 4) == 2  # "the gunman" or "police": a subsequence
    assert rel_close(found["R"].answer, expected.recall) and rel_close(found["F1"].answer, expected.fmeasure)
    assert ex.check(found["lcs"], "2").verdict is Verdict.RIGHT

    hyp, ref = "police the gunman killed", "police killed the gunman"
    found = exercises_of("rougeL", hyp, (ref,))
    expected = rouge_scorer.RougeScorer(["rougeL"]).score(ref, hyp)["rougeL"]
    assert found["lcs"].answer == round(expected.recall * 4) == 3  # police … the gunman
    assert mistake_of(found["lcs"], "2") is Mistake.SUBSTRING  # "the gunman", contiguous

    hyp, ref = "police killed the gunman yesterday in town", "police killed the gunman"
    found = exercises_of("rougeL", hyp, (ref,))
    assert mistake_of(found["R"], f"{4 / 7:.2f}") is Mistake.PRECISION_FOR_RECALL
    assert mistake_of(found["F1"], f"{(4 / 7 + 1) / 2:.2f}") is Mistake.ARITHMETIC_F


def test_rouge_n_has_recall_and_f_exercises():
    from rouge_score import rouge_scorer

    found = exercises_of("rouge1", HYP, REFS)
    expected = rouge_scorer.RougeScorer(["rouge1"]).score(REFS[0], HYP)["rouge1"]
    assert rel_close(found["R"].answer, expected.recall) and rel_close(found["F1"].answer, expected.fmeasure)
    assert "lcs" not in found


def test_meteor_answers_and_mistakes(request):
    from tests.support.meteor import nltk_scores

    wordnet = request.getfixturevalue("nltk_wordnet")
    hyp, ref = "on the mat sat the cat", "the cat sat on the mat"
    found = exercises_of("meteor", hyp, (ref,))
    assert rel_close(found["meteor"].answer, nltk_scores([hyp], [[ref]], wordnet)[0])
    m, chunks = found["m"].answer, found["chunks"].answer
    assert m == 6
    # Fragmentation penalty 0.5·(ch/m)³ is the one number that ties the chunk count to nltk's score.
    fmean = 1.0
    assert rel_close(fmean * (1 - 0.5 * (chunks / m) ** 3), found["meteor"].answer)
    assert found["frag"].pitfalls == ()  # every word matched: chunks / hypothesis length is no different number
    assert mistake_of(found["meteor"], "1") is Mistake.NO_PENALTY

    hyp, ref = "the cat sat on the mat", "the cat on the mat sat"
    found = exercises_of("meteor", hyp, (ref,))
    assert found["chunks"].answer == 3  # the cat | sat | on the mat: adjacent in the hypothesis, not in the reference
    assert mistake_of(found["chunks"], "1") is Mistake.HYPOTHESIS_ADJACENT

    hyp, ref = "the cat sat on the mat quietly today", "the cat on the mat sat"
    found = exercises_of("meteor", hyp, (ref,))
    assert mistake_of(found["frag"], f"{found['chunks'].answer / 8:.3f}") is Mistake.FRAGMENTATION_OVER_HYPOTHESIS


def test_a_lesson_without_a_builder_gets_one_exercise_per_number():
    lesson = Lesson(
        "made up",
        0.5,
        "0.50",
        (Step("1. Counts", formulas=(r"a = 3",)), Step("2. Ratio", formulas=(r"\frac{a}{b} = \frac{3}{6} = 0.5000",))),
        {"count a": 3, "ratio a/b": 0.5, "undefined": math.nan},
    )
    found = ex.for_lesson(lesson)
    assert [(e.key, e.step, e.digits) for e in found] == [("count_a", 0, 0), ("ratio_a_b", 1, 4)]
    assert ex.check(found[1], "1/2").verdict is Verdict.RIGHT


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("0.43", 0.43),
        (" ,5 ", 0.5),
        ("3/7", 3 / 7),
        ("43%", 0.43),
        ("−2", -2.0),
        ("1/0", None),
        ("abc", None),
        ("", None),
    ],
)
def test_guesses_are_read_as_numbers(typed, value):
    parsed = ex.parse_guess(typed)
    assert parsed == (None if value is None else pytest.approx(value))


def test_tolerance_is_half_a_unit_of_the_stated_decimal():
    exercise = ex.Exercise("x", "?", 0.42857, 2, 0)
    assert ex.check(exercise, "0.43").verdict is Verdict.RIGHT
    assert ex.check(exercise, "0.4286").verdict is Verdict.RIGHT
    assert ex.check(exercise, "0.42").verdict is Verdict.WRONG
    assert ex.check(exercise, "x").verdict is Verdict.UNREADABLE
    assert "2 decimals" in exercise.tolerance


@pytest.mark.parametrize("classic", CLASSICS, ids=lambda c: c.key)
def test_every_classic_lesson_has_exercises_whose_answers_are_its_numbers(classic):
    """Whatever the lesson (registered builder or not), each answer is one of the numbers the lesson shows, asked
    no later than the last step, and a right answer typed at the stated rounding is accepted."""
    for metric_id in classic.metrics:
        if metric_id not in READY or teach.reads_source(metric_id):
            continue
        lesson, _ = lesson_for(metric_id, classic.hyp, classic.refs)
        found = ex.for_lesson(lesson)
        assert found, metric_id
        assert len({e.key for e in found}) == len(found), metric_id
        shown = list(lesson.numbers.values())
        for exercise in found:
            assert any(exercise.answer == v for v in shown), (metric_id, exercise.key)
            assert 0 <= exercise.step < len(lesson.steps)
            typed = f"{exercise.answer:.{exercise.digits}f}"
            assert ex.check(exercise, typed).verdict is Verdict.RIGHT, (metric_id, exercise.key, typed)


def test_cider_score_and_its_last_line_slips():
    refs = ("a man rides a horse", "a person on a horse")
    lesson, metric = lesson_for("cider", "a man riding a horse", refs)
    found = exercises_of("cider", "a man riding a horse", refs)
    assert rel_close(found["cider"].answer, metric.sentence_score("a man riding a horse", list(refs)))
    score = found["cider"].answer
    assert mistake_of(found["cider"], f"{score / 10:.4f}") is Mistake.NO_FACTOR_TEN
    assert mistake_of(found["cider"], f"{score * 2:.4f}") is Mistake.REFERENCES_SUMMED
    assert found["cider"].step == len(lesson.steps) - 1
    assert "CIDEr_D" not in found and "hypothesis_norm_order_1" in found  # the other numbers, as any lesson's
