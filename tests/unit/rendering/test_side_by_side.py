"""Metrics side by side: the scores are each metric's own, the rankings follow each metric's direction, and the
disagreements the contrast cases are made for are named."""

from __future__ import annotations

import pytest
import sacrebleu

from metrics.core.selection import Selection
from rendering.lessons.side_by_side import CONTRASTS, compare, ranking_text

SURFACE = ("bleu", "chrf", "ter", "rougeL", "meteor")


def metrics(ids: tuple[str, ...] = SURFACE):  # type: ignore[no-untyped-def]
    return {i: Selection((i,), {}).metric(i) for i in ids}


def test_scores_equal_sacrebleu_and_rankings_follow_direction() -> None:
    case = CONTRASTS[0]
    result = compare(metrics(), case.ref, case.hyps, expected=case.expected)
    for row, (_, text) in zip(result.scores.itertuples(index=False), case.hyps, strict=True):
        values = row._asdict()
        assert abs(values["_1"] - sacrebleu.sentence_bleu(text, [case.ref]).score) < 1e-9  # bleu ↑
        assert abs(values["_2"] - sacrebleu.sentence_chrf(text, [case.ref]).score) < 1e-9  # chrf ↑
        assert abs(values["_3"] - sacrebleu.sentence_ter(text, [case.ref]).score) < 1e-9  # ter ↓
    # TER is better lower: the one-word error (1 edit) ranks first, as in BLEU.
    assert ranking_text(result.rankings["ter"]) == "wrong meaning > paraphrase"
    assert "Not “paraphrase” alone first, as a reader puts it: bleu, chrf, ter, rougeL, meteor." in result.disagreements
    evidence = dict(zip(result.evidence["hypothesis"], result.evidence["chrf"], strict=True))
    assert evidence["wrong meaning"].startswith("char n-gram matches ")


def test_word_order_case_shows_ters_shift_against_bleus_ngrams() -> None:
    case = CONTRASTS[1]
    result = compare(metrics(), case.ref, case.hyps, expected=case.expected)
    assert ranking_text(result.rankings["ter"]) == "adverb moved = one word wrong = verb moved"
    assert result.rankings["bleu"][-1] == ("verb moved",)
    evidence = dict(zip(result.evidence["hypothesis"], result.evidence["ter"], strict=True))
    assert evidence["verb moved"].startswith("1 edits: 1 shift")
    assert any(d.startswith("The metrics disagree on the order") for d in result.disagreements)


def test_negation_case_every_surface_metric_prefers_the_wrong_meaning() -> None:
    case = CONTRASTS[2]
    result = compare(metrics(), case.ref, case.hyps, expected=case.expected)
    assert all(r[0] == ("negation dropped",) for r in result.rankings.values())


def test_labels_must_differ() -> None:
    with pytest.raises(ValueError, match="its own label"):
        compare(metrics(("bleu",)), "a b", [("x", "a"), ("x", "b")])


@pytest.mark.neural
def test_bertscore_joins_the_comparison() -> None:
    case = CONTRASTS[2]
    result = compare(metrics(("bleu", "bertscore")), case.ref, case.hyps, expected=case.expected)
    assert set(result.rankings) == {"bleu", "bertscore"}
    assert result.evidence["bertscore"][0].startswith("P ")


def test_unsegmented_japanese_is_named() -> None:
    ref = "会議は部長が病気のため延期された。"
    result = compare(metrics(("bleu", "chrf")), ref, [("a", "会議は部長が元気のため延期された。"), ("b", ref)])
    assert any(d.startswith("Chinese or Japanese without spaces") for d in result.disagreements)
    plain = compare(metrics(("bleu",)), "the cat", [("a", "the cat")])
    assert not any("Chinese" in d for d in plain.disagreements)
