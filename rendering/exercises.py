"""Exercises of the Teach page: "predict, then reveal". Before a step of a lesson shows a number, the student types
it; the check compares the guess with the number the lesson shows, and when the guess equals what a usual mistake
gives (counting unclipped n-grams, dividing TER by the hypothesis length, …) the feedback names that mistake.

Exercises are found by explanation type, like lessons: a builder registered with :func:`exercises`
(``@exercises.register(BLEUExplanation)``) reads the answer from ``lesson.numbers`` — the numbers the lesson shows,
computed on the metric's own code path — and computes the wrong answers from the same explanation's statistics. A
lesson without a registered builder (any lesson another module adds) gets one exercise per number of
``lesson.numbers``, asked before the first step whose formulas show it, with no mistake to name.

Nothing here imports Streamlit; the texts are Markdown without user text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import singledispatch

from rapidfuzz.distance import Levenshtein

from metrics.core.explanation import Explanation
from metrics.families.bleu.metric import BLEUExplanation, OrderEvidence
from metrics.families.chrf.metric import AveragedF, CHRFConfig, CHRFExplanation, CHRFOrder
from metrics.families.cider.metric import CiderExplanation
from metrics.families.meteor.metric import MeteorAlignment, MeteorExplanation
from metrics.families.rouge.metric import LcsEvidence, RougeExplanation
from metrics.families.ter.metric import TERExplanation
from rendering.teach import Lesson, tex
from rendering.text import escape_markdown


class Mistake(Enum):
    """The usual mistakes an exercise recognises; the value is the feedback that names it."""

    UNCLIPPED = (
        "counting every occurrence of an n-gram the reference has (unclipped), not at most as often as it occurs there"
    )
    SUM_OVER_REFERENCES = "clipping by the sum of the counts over the references instead of the largest single count"
    ARITHMETIC_MEAN = (
        "taking the arithmetic mean of the precisions instead of the geometric mean (the exp of the mean log)"
    )
    NO_BREVITY_PENALTY = "forgetting the brevity penalty"
    AVERAGE_REFERENCE_LENGTH = "taking r as the average reference length instead of the reference length closest to c"
    LONG_BONUS = "applying exp(1 − r/c) to a hypothesis longer than the reference (that is a bonus; BP is 1 there)"
    RECALL_FOR_PRECISION = "dividing by the reference count (recall) instead of the hypothesis count (precision)"
    PRECISION_FOR_RECALL = "dividing by the hypothesis length (precision) instead of the reference length (recall)"
    AVERAGED_F = "averaging the per-order F scores instead of averaging P and R over the orders first"
    BETA_ON_PRECISION = "reading β = 2 as weighing precision twice; it weighs recall (β² = 4 times)"
    ARITHMETIC_F = "taking the arithmetic mean of P and R instead of their harmonic mean"
    HYPOTHESIS_LENGTH = "dividing TER by the hypothesis length instead of the (average) reference length"
    CHOSEN_REFERENCE_LENGTH = "dividing by the chosen reference's length instead of the average reference length"
    NO_SHIFTS = "leaving out the shifts: plain word edit distance (WER) instead of TER's block moves"
    SUBSTRING = "taking the longest common substring (a contiguous run) instead of the longest common subsequence"
    HYPOTHESIS_ADJACENT = "counting runs adjacent in the hypothesis only; a chunk must be adjacent in both sentences"
    FRAGMENTATION_OVER_HYPOTHESIS = "dividing the chunks by the hypothesis length instead of the matches m"
    NO_PENALTY = "forgetting the fragmentation penalty"
    NO_FACTOR_TEN = "leaving out CIDEr-D's factor of 10"
    REFERENCES_SUMMED = "summing the similarities over the references instead of averaging them"


class Verdict(Enum):
    RIGHT = "right"
    MISTAKE = "a known mistake"
    WRONG = "wrong"
    UNREADABLE = "not a number"


@dataclass(frozen=True)
class Pitfall:
    """What a usual mistake gives for an exercise, computed from the same statistics as the answer."""

    mistake: Mistake
    value: float


@dataclass(frozen=True)
class Exercise:
    """A number to predict before the lesson's step ``step`` (0-based) shows it. ``key`` is stable for the lesson
    type (a teacher's set names exercises by it); ``digits`` is the rounding the answer is checked at."""

    key: str
    question: str
    answer: float
    digits: int
    step: int
    pitfalls: tuple[Pitfall, ...] = ()

    @property
    def tolerance(self) -> str:
        if self.digits == 0:
            return "a whole number"
        return f"to {self.digits} decimals (±{tex(0.5 * 10**-self.digits, self.digits + 1)})"

    def shown(self) -> str:
        return tex(round(self.answer, self.digits), self.digits)


@dataclass(frozen=True)
class Feedback:
    verdict: Verdict
    text: str
    mistake: Mistake | None = None


def _same(a: float, b: float, digits: int) -> bool:
    """Equal at the rounding the exercise states: within half a unit of its last decimal (tiny slack for floats)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 0.5 * 10**-digits + 1e-9


_NUMBER = re.compile(r"^\s*(-?\d+(?:\.\d*)?|-?\.\d+)\s*(?:/\s*(\d+(?:\.\d*)?)\s*)?(%)?\s*$")


def parse_guess(text: str) -> float | None:
    """A typed number: ``0.43``, ``,43`` read as ``.43``, a fraction ``3/7``, or ``43%`` (read as 0.43). None when it
    is none of these."""
    match = _NUMBER.match(text.replace(",", ".").replace("−", "-"))
    if match is None:
        return None
    number, denominator, percent = match.groups()
    value = float(Fraction(number) / Fraction(denominator)) if denominator and float(denominator) else None
    if denominator and value is None:
        return None
    result = float(number) if value is None else value
    return result / 100 if percent else result


def check(exercise: Exercise, text: str) -> Feedback:
    """The verdict on a typed guess, naming the mistake whose number it equals."""
    guess = parse_guess(text)
    if guess is None:
        return Feedback(Verdict.UNREADABLE, "Type a number (e.g. 0.43, 3/7 or 43%).")
    if _same(guess, exercise.answer, exercise.digits):
        return Feedback(Verdict.RIGHT, f"Right: {exercise.shown()}.")
    for pitfall in exercise.pitfalls:
        if _same(guess, pitfall.value, exercise.digits):
            return Feedback(
                Verdict.MISTAKE,
                f"Not quite: {tex(pitfall.value, exercise.digits)} is what you get by {pitfall.mistake.value}. "
                f"The answer is {exercise.shown()}.",
                pitfall.mistake,
            )
    return Feedback(Verdict.WRONG, f"Not this time: the answer is {exercise.shown()}.")


def _exercise(
    key: str,
    question: str,
    answer: float,
    digits: int,
    step: int,
    pitfalls: Sequence[tuple[Mistake, float]] = (),
) -> Exercise:
    """An exercise with the pitfalls a student could tell apart from the answer (at its rounding), each value once."""
    kept: list[Pitfall] = []
    for mistake, value in pitfalls:
        distinct = math.isfinite(value) and not _same(value, answer, digits)
        if distinct and not any(_same(value, p.value, digits) for p in kept):
            kept.append(Pitfall(mistake, value))
    return Exercise(key, question, answer, digits, step, tuple(kept))


@singledispatch
def exercises(explanation: Explanation | None, lesson: Lesson) -> tuple[Exercise, ...]:
    """The exercises of ``lesson`` (built from ``explanation``). Without a builder for the type: one exercise per
    number of the lesson, asked before the first step whose formulas show that number (else before the last step)."""
    found: list[Exercise] = []
    for name, value in lesson.numbers.items():
        if not math.isfinite(value):
            continue
        digits = 0 if float(value).is_integer() else 4
        # A formula concludes a number as "= value" (at 4 or 2 decimals: a final score is printed at 2).
        endings = re.compile(rf"= ?(?:{re.escape(tex(value))}|{re.escape(tex(value, 2))})(?![\d.])")
        step = next(
            (i for i, s in enumerate(lesson.steps) if any(endings.search(f) for f in s.formulas)),
            len(lesson.steps) - 1,
        )
        key = re.sub(r"\W+", "_", name).strip("_") or "number"
        found.append(_exercise(key, f"What is **{escape_markdown(name)}**?", value, digits, step))
    return tuple(found)


def for_lesson(lesson: Lesson) -> tuple[Exercise, ...]:
    """The exercises of a lesson, found by the type of the explanation it was built from, in the order asked."""
    found = exercises(lesson.explanation, lesson)
    return tuple(sorted(found, key=lambda e: e.step))


# ---------------------------------------------------------------------------------------------------------------
# BLEU


def _bleu_counts(order: OrderEvidence) -> tuple[int, int]:
    """(unclipped, clipped-by-the-sum) matches of an order: the two wrong ways of counting."""
    unclipped = sum(m.hyp_count for m in order.ngrams if m.max_ref_count)
    summed = sum(min(m.hyp_count, sum(m.ref_counts)) for m in order.ngrams)
    return unclipped, summed


def _brevity(c: float, r: float) -> float:
    return 0.0 if c == 0 else 1.0 if c > r else math.exp(1 - r / c)


@exercises.register(BLEUExplanation)
def _bleu(explanation: BLEUExplanation, lesson: Lesson) -> tuple[Exercise, ...]:
    numbers = lesson.numbers
    n_max = len(explanation.orders)
    out: list[Exercise] = []
    for order in explanation.orders:
        n = order.order
        if order.total == 0:
            continue
        step = 0 if n == 1 else n  # the tokens step colours the credited and clipped words: unigrams come before it
        unclipped, summed = _bleu_counts(order)
        out.append(
            _exercise(
                f"m{n}",
                f"How many **{n}-grams** of the hypothesis are credited (clipped matches m{n})?",
                numbers[f"matches m{n}"],
                0,
                step,
                ((Mistake.UNCLIPPED, unclipped), (Mistake.SUM_OVER_REFERENCES, summed)),
            )
        )
        smoothed = order.correct == 0  # a smoothed precision is no ratio of counts: no counting mistake to name
        out.append(
            _exercise(
                f"p{n}",
                f"What is the modified precision **p{n}** (a fraction, not a percentage)?",
                numbers[f"p{n}"],
                2,
                step,
                ()
                if smoothed
                else (
                    (Mistake.UNCLIPPED, unclipped / order.total),
                    (Mistake.SUM_OVER_REFERENCES, summed / order.total),
                ),
            )
        )
    used = explanation.orders[: explanation.effective_order]
    arithmetic = sum(o.precision for o in used) / len(used) if used else math.nan
    out.append(
        _exercise(
            "geo",
            "What is the geometric mean **p̄** of the precisions (in percent, as sacrebleu)?",
            numbers["geometric mean p̄"],
            2,
            n_max + 1,
            ((Mistake.ARITHMETIC_MEAN, arithmetic),),
        )
    )
    c, r = explanation.sys_len, explanation.ref_len
    lengths = explanation.ref_lengths
    average = sum(lengths) / len(lengths) if lengths else math.nan
    out.append(
        _exercise(
            "bp",
            "What is the **brevity penalty** BP?",
            numbers["brevity penalty BP"],
            3,
            n_max + 2,
            (
                (Mistake.AVERAGE_REFERENCE_LENGTH, _brevity(c, average)),
                (Mistake.LONG_BONUS, math.exp(1 - r / c) if c > r else math.nan),
            ),
        )
    )
    geo = explanation.geometric_mean
    unclipped_orders = [_bleu_counts(o)[0] / o.total * 100 if o.total else 0.0 for o in used]
    unclipped_bleu = (
        explanation.brevity_penalty * math.exp(sum(math.log(p) for p in unclipped_orders) / len(used))
        if used and all(p > 0 for p in unclipped_orders)
        else math.nan
    )
    out.append(
        _exercise(
            "bleu",
            "What is **BLEU** (× 100, as sacrebleu reports it)?",
            numbers["BLEU"],
            2,
            n_max + 3,
            (
                (Mistake.NO_BREVITY_PENALTY, geo),
                (Mistake.ARITHMETIC_MEAN, explanation.brevity_penalty * arithmetic),
                (Mistake.UNCLIPPED, unclipped_bleu),
            ),
        )
    )
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------------
# chrF


def _f_beta(p: float, r: float, beta: float) -> float:
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r) if b2 * p + r > 0 else 0.0


def _char_label(order: CHRFOrder) -> str:
    return f"{order.kind} {order.n}"


@exercises.register(CHRFExplanation)
def _chrf(explanation: CHRFExplanation, lesson: Lesson) -> tuple[Exercise, ...]:
    numbers = lesson.numbers
    out: list[Exercise] = []
    for order in explanation.orders:
        if order.kind != "char" or not order.averaged:
            continue
        unclipped = sum(g.hyp_count for g in order.ngrams if g.ref_count)
        out.append(
            _exercise(
                f"P_char{order.n}",
                f"What is the **character {order.n}-gram precision** P (matched / hypothesis {order.n}-grams)?",
                numbers[f"P {_char_label(order)}"],
                2,
                1,
                (
                    (Mistake.UNCLIPPED, unclipped / order.n_hyp),
                    (Mistake.RECALL_FOR_PRECISION, order.n_match / order.n_ref),
                ),
            )
        )
    combination = explanation.combination
    last = len(lesson.steps) - 1
    if isinstance(combination, AveragedF):
        out.append(_exercise("chrf", "What is the **chrF** score (× 100)?", numbers["chrF score"], 2, last))
        return tuple(out)
    beta = float(lesson.config.beta) if isinstance(lesson.config, CHRFConfig) else 2.0
    averaged = [o for o in explanation.orders if o.averaged]
    mean_f = 100 * sum(_f_beta(o.precision, o.recall, beta) for o in averaged) / len(averaged) if averaged else math.nan
    flipped = 100 * _f_beta(combination.precision, combination.recall, 1 / beta) if beta else math.nan
    out.append(
        _exercise(
            "chrf",
            f"What is the **chrF** score (β = {tex(beta, 2)}, × 100)?",
            numbers["chrF score"],
            2,
            last,
            ((Mistake.AVERAGED_F, mean_f), (Mistake.BETA_ON_PRECISION, flipped)),
        )
    )
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------------
# TER


@exercises.register(TERExplanation)
def _ter(explanation: TERExplanation, lesson: Lesson) -> tuple[Exercise, ...]:
    numbers = lesson.numbers
    ref = explanation.chosen
    hyp_words = [t.text for t in explanation.hyp_tokens]
    plain = Levenshtein.distance(hyp_words, [t.text for t in ref.tokens])
    edits_step = 1 + max(1, len(ref.shifts))
    hyp_len = len(hyp_words)
    avg = explanation.avg_ref_len
    return (
        _exercise(
            "shifts",
            "How many **shifts** (block moves) does TER's greedy search apply?",
            numbers["shifts"],
            0,
            1,
        ),
        _exercise(
            "edits",
            "How many **edits** in all (shifts + substitutions + insertions + deletions)?",
            numbers["edits"],
            0,
            edits_step,
            ((Mistake.NO_SHIFTS, plain),),
        ),
        _exercise(
            "ter",
            "What is **TER** (× 100)?",
            numbers["TER"],
            2,
            edits_step + 1,
            (
                (Mistake.HYPOTHESIS_LENGTH, 100 * explanation.edits / hyp_len if hyp_len else math.nan),
                (Mistake.CHOSEN_REFERENCE_LENGTH, 100 * explanation.edits / ref.ref_len if ref.ref_len else math.nan),
                (Mistake.NO_SHIFTS, 100 * plain / avg if avg else math.nan),
            ),
        ),
    )


# ---------------------------------------------------------------------------------------------------------------
# ROUGE


def longest_common_substring(a: Sequence[str], b: Sequence[str]) -> int:
    """The length of the longest contiguous run of words ``a`` and ``b`` share (the mistaken reading of LCS)."""
    best = 0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0] * (len(b) + 1)
        for j, y in enumerate(b):
            if x == y:
                current[j + 1] = previous[j] + 1
                best = max(best, current[j + 1])
        previous = current
    return best


@exercises.register(RougeExplanation)
def _rouge(explanation: RougeExplanation, lesson: Lesson) -> tuple[Exercise, ...]:
    numbers = lesson.numbers
    best = explanation.chosen
    evidence = best.evidence
    out: list[Exercise] = []
    if isinstance(evidence, LcsEvidence):
        out.append(
            _exercise(
                "lcs",
                "What is the length of the **longest common subsequence** (LCS) of the two token sequences?",
                numbers["hits"],
                0,
                1,
                ((Mistake.SUBSTRING, longest_common_substring(evidence.ref_words, evidence.hyp_words)),),
            )
        )
    p, r = numbers["P"], numbers["R"]
    out += [
        _exercise(
            "R",
            "What is the **recall** R?",
            r,
            2,
            2,
            ((Mistake.PRECISION_FOR_RECALL, p),),
        ),
        _exercise("F1", "What is **F1**?", numbers["F1"], 2, 2, ((Mistake.ARITHMETIC_F, (p + r) / 2),)),
    ]
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------------
# METEOR


def _hypothesis_runs(alignment: MeteorAlignment) -> int:
    """Runs of matched words adjacent in the hypothesis, whatever their reference positions."""
    positions = sorted(m.hyp_index for m in alignment.matches)
    return sum(1 for k, i in enumerate(positions) if k == 0 or positions[k - 1] != i - 1)


@exercises.register(MeteorExplanation)
def _meteor(explanation: MeteorExplanation, lesson: Lesson) -> tuple[Exercise, ...]:
    numbers = lesson.numbers
    w = explanation.chosen
    out = [
        _exercise("m", "How many words are **matched** (m)?", numbers["matches m"], 0, 0),  # step 1 tables them
        _exercise(
            "chunks",
            "Into how many **chunks** do the matches fall?",
            numbers["chunks"],
            0,
            1,
            ((Mistake.HYPOTHESIS_ADJACENT, _hypothesis_runs(w)),),
        ),
    ]
    if not w.matches:
        return tuple(out)
    out += [
        _exercise(
            "frag",
            "What is the **fragmentation** frag?",
            numbers["fragmentation"],
            3,
            3,
            ((Mistake.FRAGMENTATION_OVER_HYPOTHESIS, len(w.chunks) / w.hyp_len),),
        ),
        _exercise(
            "meteor",
            "What is the **METEOR** score?",
            numbers["METEOR"],
            3,
            4,
            ((Mistake.NO_PENALTY, w.fmean), (Mistake.ARITHMETIC_F, (w.precision + w.recall) / 2 * (1 - w.penalty))),
        ),
    ]
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------------
# CIDEr-D


@exercises.register(CiderExplanation)
def _cider(explanation: CiderExplanation, lesson: Lesson) -> tuple[Exercise, ...]:
    """The numbers of the lesson (as any lesson's), the score with the two slips of its last line named."""
    found = exercises.dispatch(object)(explanation, lesson)
    refs = len(explanation.references)
    score = _exercise(
        "cider",
        "What is **CIDEr-D** (10 × the mean similarity, averaged over the references)?",
        lesson.numbers["CIDEr-D"],
        4,
        len(lesson.steps) - 1,
        (
            (Mistake.NO_FACTOR_TEN, explanation.mean_similarity / refs if refs else math.nan),
            (Mistake.REFERENCES_SUMMED, 10 * explanation.mean_similarity),
        ),
    )
    return (*(e for e in found if e.key != "CIDEr_D"), score)


def by_key(found: Sequence[Exercise]) -> Mapping[str, Exercise]:
    return {e.key: e for e in found}
