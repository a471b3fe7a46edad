"""Span agreement: each metric's flags by its documented rule on hand-made segments, and the character
precision/recall/F1 on the WMT21 TED slices against a brute-force count of characters."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.annotations.agreement import agreement_rows, agreement_table, character_mask
from metrics.annotations.categories import EVERY_ERROR, Cell, cells_of
from metrics.annotations.flags import DEFAULT_FLAG_OPTIONS, FlagOptions, SegmentFlags, Unflaggable, flags, metric_flags
from metrics.annotations.model import AnnotatedError, Annotations, Rating, Scheme
from metrics.core.base import explain_segment
from metrics.core.spans import ErrorSpan, Severity, Side
from metrics.core.tokens import Token
from metrics.families.bertscore.metric import BERTScoreExplanation, ReferenceMatch
from metrics.families.bleu.metric import BLEU
from metrics.families.chrf.metric import CHRF
from metrics.families.comet.explanation import CometExplanation, Estimator
from metrics.families.meteor.metric import Meteor
from metrics.families.rouge.metric import RougeL
from metrics.families.ter.metric import TER
from tests.support.mqm_slice import load


def _flagged(metric: object, hyp: str, ref: str, options: FlagOptions = DEFAULT_FLAG_OPTIONS) -> list[str]:
    explanation = explain_segment(metric, "s", 0, hyp, [ref])  # type: ignore[arg-type]
    return [hyp[a:b] for a, b in flags(explanation, hyp, options).spans]


def test_bleu_flags_tokens_no_matched_ngram_covers() -> None:
    assert _flagged(BLEU(), "the cat sat on the mat", "the cat is on the mat") == ["sat"]
    # clipping credits one unigram "the", the first occurrence; the bigram "the cat" covers the third
    assert _flagged(BLEU(), "the the the cat", "the cat") == ["the"]
    hyp = "the the the cat"
    assert flags(explain_segment(BLEU(), "s", 0, hyp, ["the cat"]), hyp).spans == ((4, 7),)
    # from bigrams up, a word whose neighbours differ is flagged too
    assert _flagged(BLEU(), "the cat sat on the mat", "the cat is on the mat", FlagOptions(bleu_order=2)) == ["sat"]
    assert _flagged(BLEU(), "a b c d", "a x c y", FlagOptions(bleu_order=2)) == list("abcd")


def test_chrf_flags_characters_outside_matched_highest_order_ngrams() -> None:
    # "Hund" vs "Katze": no 6-gram of "Hund" or its neighbours' joins matches
    hyp, ref = "Das ist ein Hund hier", "Das ist ein Katze hier"
    flagged = _flagged(CHRF(), hyp, ref)
    assert "".join(flagged).replace(" ", "") != "" and all(" " not in f or f.strip() for f in flagged)
    covered = set("".join(flagged))
    assert {"H", "u", "n", "d"} <= covered and "D" not in covered
    # with every order down to character unigrams only characters the reference lacks are flagged
    assert _flagged(CHRF(), "abcx", "abc", FlagOptions(chrf_order=1)) == ["x"]


def test_ter_flags_substituted_inserted_and_shifted_words() -> None:
    assert _flagged(TER(), "the cat sat on the mat", "the cat is on the mat") == ["sat"]
    assert _flagged(TER(), "the big cat", "the cat") == ["big"]
    # a shifted word is flagged even though it matches after the shift
    shifted = _flagged(TER(), "on the mat the cat sat", "the cat sat on the mat")
    assert shifted and all(w in "on the mat the cat sat" for w in shifted)


def test_meteor_flags_unaligned_words() -> None:
    assert _flagged(Meteor(), "the cat sat on the mat", "the cat is on the mat") == ["sat"]
    assert _flagged(Meteor(), "cats sat", "cat sits") == []  # stems align


def test_comet_spans_and_bertscore_threshold() -> None:
    hyp = "Das ist falsch hier"
    span = ErrorSpan(8, 14, "falsch", Severity.MAJOR, origin="xCOMET")
    source_span = ErrorSpan(0, 3, "Thi", Severity.MINOR, Side.SOURCE)

    def comet(estimator: Estimator, spans: tuple[ErrorSpan, ...] = ()) -> CometExplanation:
        return CometExplanation(
            score=0.5, row=(0.5,), model="xcomet", estimator=estimator, hypothesis=hyp, source="This is wrong",
            reference=None, spans=spans,
        )  # fmt: skip

    assert flags(comet(Estimator.XCOMET, (span, source_span)), hyp).spans == ((8, 14),)
    with pytest.raises(Unflaggable):
        flags(comet(Estimator.REGRESSION), hyp)
    tokens = (Token("Das", 0, 3), Token("ist", 4, 7), Token("falsch", 8, 14), Token("</s>", None, None))
    match = ReferenceMatch(
        tokens=(Token("x", 0, 1),), weights=(1.0,), similarity=np.zeros((4, 1)), hyp_match=(0, 0, 0, 0),
        ref_match=(0,), hyp_best=(0.97, 0.91, 0.7, 0.5), ref_best=(0.9,), floored=(False, False),
        precision=0.8, recall=0.8, f1=0.8,
    )  # fmt: skip
    other = ReferenceMatch(**{**match.__dict__, "hyp_best": (0.5, 0.95, 0.6, 0.5)})
    bert = BERTScoreExplanation(
        score=0.8, row=(0.8, 0.8, 0.8), hyp_tokens=tokens, hyp_weights=(1.0,) * 4, references=(match, other),
        precision=0.8, recall=0.8, f1=0.8, reported="F", idf=False, idf_documents=0, model="m", layers=17,
    )  # fmt: skip
    # below the threshold against every reference: "falsch" (0.7, 0.6); "ist" reaches 0.95 against the second
    assert flags(bert, hyp).spans == ((8, 14),)
    assert flags(bert, hyp, FlagOptions(bertscore_threshold=0.96)).spans == ((4, 7), (8, 14))


def test_metrics_without_token_evidence_are_refused() -> None:
    with pytest.raises(Unflaggable):
        flags(explain_segment(RougeL(), "s", 0, "a b", ["a c"]), "a b")


def _brute_force(annotations, outputs, metric_flags_by_system, cell: Cell) -> tuple[int, int, int]:
    flagged = marked = overlap = 0
    for system, found in metric_flags_by_system.items():
        for i in np.flatnonzero(annotations.rated(system)):
            text = outputs[system][i]
            f = {c for a, b in found[int(i)].spans for c in range(a, b) if not text[c].isspace()}
            h = {
                c
                for s in annotations.spans(system, int(i))
                if s.side is Side.TARGET
                and cell.category in ("All", (s.category or "").split("/")[0].strip())
                and (cell.severity is None or s.severity is cell.severity)
                for c in range(s.start, s.end)
                if not text[c].isspace()
            }
            flagged, marked, overlap = flagged + len(f), marked + len(h), overlap + len(f & h)
    return flagged, marked, overlap


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
@pytest.mark.parametrize("metric", [BLEU(), CHRF(), TER(), Meteor()], ids=lambda m: m.name)
def test_agreement_equals_a_brute_force_character_count(pair: str, metric: object) -> None:
    annotations, outputs, ref, _ = load(pair)
    cells = [c for c in cells_of(annotations) if c.depth <= 1]
    systems = ["Facebook-AI", "Online-W", "metricsystem2"]
    found = {s: metric_flags(metric, s, outputs[s], [ref], range(annotations.n_segments)) for s in systems}  # type: ignore[arg-type]
    for system in systems:
        rows = agreement_rows(annotations, system, outputs[system], found[system], cells, metric.name)  # type: ignore[attr-defined]
        table = agreement_table(rows, n_samples=50)
        assert table is not None
        for cell in cells:
            flagged, marked, overlap = _brute_force(annotations, outputs, {system: found[system]}, cell)
            e = table.estimate(cell)
            assert (e.flagged, e.marked, e.overlap) == (flagged, marked, overlap), cell
            if flagged:
                assert e.precision.score == pytest.approx(overlap / flagged, abs=1e-12)
            if marked:
                assert e.recall.score == pytest.approx(overlap / marked, abs=1e-12)
            if flagged + marked:
                assert e.f1.score == pytest.approx(2 * overlap / (flagged + marked), abs=1e-12)
        everything = table.estimate(EVERY_ERROR)
        assert everything.marked > 0 and 0 < everything.overlap < everything.flagged


def test_macro_f1_is_the_mean_of_defined_segment_f1() -> None:
    annotations, outputs, ref, _ = load("en-de")
    system = "Nemo"
    found = metric_flags(BLEU(), system, outputs[system], [ref], range(annotations.n_segments))
    rows = agreement_rows(annotations, system, outputs[system], found, [EVERY_ERROR], "BLEU")
    table = agreement_table(rows, n_samples=50)
    assert table is not None
    per_segment = []
    for i in range(annotations.n_segments):
        text = outputs[system][i]
        f = character_mask(text, found[i].spans)
        h = character_mask(text, [(s.start, s.end) for s in annotations.spans(system, i) if s.side is Side.TARGET])
        if f.sum() + h.sum():
            per_segment.append(2 * (f & h).sum() / (f.sum() + h.sum()))
    assert table.estimate().macro_f1.score == pytest.approx(np.mean(per_segment), abs=1e-12)
    # a segment's characters: every non-whitespace one
    assert table.estimate().characters == sum(len("".join(outputs[system][i].split())) for i in range(30))


def test_rows_need_flags_of_every_rated_segment() -> None:
    annotations, outputs, _, _ = load("en-de")
    with pytest.raises(ValueError, match="no flags"):
        agreement_rows(annotations, "Nemo", outputs["Nemo"], {0: SegmentFlags(())}, [EVERY_ERROR], "BLEU")
    with pytest.raises(ValueError, match="does not lie"):
        character_mask("abc", [(1, 5)])


def test_flag_options_parse_and_refuse() -> None:
    options = FlagOptions.parse("bleu-order=2, chrf-order=3,bertscore-below=0.85")
    assert options == FlagOptions(2, 3, 0.85)
    assert options.describe() == "bleu-order:2|chrf-order:3|bertscore-below:0.85"
    assert FlagOptions.parse("") == DEFAULT_FLAG_OPTIONS
    for bad in ("bleu-order", "bleu-order=x", "rouge=1", "bleu-order=0", "bertscore-below=2"):
        with pytest.raises(ValueError):
            FlagOptions.parse(bad)


def test_raters_spans_are_a_union_and_source_spans_are_not_output() -> None:
    text = "Das ist ein Hund hier"

    def error(start: int, end: int, severity: Severity, side: Side = Side.TARGET) -> AnnotatedError:
        span = ErrorSpan(start, end, text[start:end], severity, side, category=None)
        return AnnotatedError(severity, None, span, 1)

    # rater 1 marks "ein Hund", rater 2 "Hund hier" and a source-side omission: H = "einHundhier" (11 characters)
    first = Rating("r1", (error(8, 16, Severity.MAJOR),), 1)
    second = Rating("r2", (error(12, 21, Severity.MINOR), error(0, 3, Severity.MINOR, Side.SOURCE)), 2)
    annotations = Annotations(Scheme.SPANS, 1, {"s": ((first, second),)})
    flagged = {0: SegmentFlags(((4, 7), (12, 16)))}  # "ist", "Hund"
    cells = [c for c in cells_of(annotations) if c.category == "All"]
    table = agreement_table(agreement_rows(annotations, "s", [text], flagged, cells, "m"), n_samples=10)
    assert table is not None
    every = table.estimate(EVERY_ERROR)
    assert (every.flagged, every.marked, every.overlap, every.characters) == (7, 11, 4, 17)
    assert every.f1.score == pytest.approx(8 / 18) and every.chance_precision == pytest.approx(11 / 17)
    major = table.estimate(Cell("All", Severity.MAJOR))
    assert (major.marked, major.overlap) == (7, 4)  # "einHund"; "Hund" flagged
    assert table.estimate(Cell("All", Severity.MINOR)).marked == 8  # "Hundhier": the source span is not output
