"""Per-segment length limits (metrics.core.limits): a text over a metric's limit is scored on its first characters,
cut at a space, with a note naming the segment; the rest of the corpus is scored as before; every metric whose
work grows faster than the length states one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np
import pytest

from metrics.core import limits
from metrics.core.base import Metric, expected_seconds
from metrics.core.config import check_options
from metrics.core.explanation import Explanation
from metrics.core.limits import SegmentLimit, clip, clip_corpus
from metrics.core.registry import SPECS, create

TEN = SegmentLimit(10, "the test's patience")


def test_clip_keeps_short_texts_and_cuts_long_ones_at_a_space() -> None:
    short = "a b c d e"
    assert clip(short, TEN) is short
    assert clip("0123456789", TEN) == "0123456789"  # exactly at the limit
    assert clip("abc def ghi jkl", TEN) == "abc def"  # "abc def gh" would split a word
    assert clip("abc defghi jkl", TEN) == "abc defghi"  # the space right after the limit ends the word
    assert clip("abcdefghijklmn", TEN) == "abcdefghij"  # no space: cut at the limit
    assert clip("a\nb\ncd efghijk", TEN) == "a\nb\ncd"  # a newline is a space (ROUGE-Lsum keeps its sentences)


def test_clip_corpus_names_the_segments_and_leaves_the_callers_lists() -> None:
    hyps = ["short", "x" * 30, "ok"]
    refs: list[list[str | None]] = [["fine", "fine", "y " * 20], ["fine", None, "fine"]]
    copy = ([*hyps], [list(stream) for stream in refs])
    clipped = clip_corpus(hyps, refs, TEN)
    assert clipped.segments == (1, 2)
    assert list(clipped.hyps) == ["short", "x" * 10, "ok"]
    assert [list(s) for s in clipped.refs] == [["fine", "fine", "y y y y y"], ["fine", None, "fine"]]
    assert (hyps, refs) == copy
    within = clip_corpus(["a"], [["b"]], TEN)
    assert within.segments == () and within.hyps == ["a"]


@dataclass(frozen=True)
class _Config:
    def __post_init__(self) -> None:
        check_options(self)


class _Length(Metric[_Config, Explanation]):
    """Characters per hypothesis, reading at most ten."""

    id: ClassVar[str] = "length"
    aggregate: ClassVar[Literal["sum"]] = "sum"
    Config: ClassVar[type] = _Config
    explanation_type: ClassVar[type[Explanation]] = Explanation

    @property
    def segment_limit(self) -> SegmentLimit | None:
        return TEN

    @property
    def name(self) -> str:
        return "Length"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("chars",)

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> list[float]:
        return [float(len(hyp))]

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., 0]

    def signature(self) -> str:
        return "length"

    def _explain(self, hyp: str, refs: Sequence[str]) -> Explanation:
        return Explanation(score=float(len(hyp)), row=(float(len(hyp)),))


def test_stats_scores_a_long_text_on_its_head_and_says_so() -> None:
    metric = _Length()
    stats = metric.stats(["abc def ghi jkl", "short", "z" * 99], [["r", "r", "r"]])
    assert stats.rows[:, 0].tolist() == [7.0, 5.0, 10.0]
    assert [str(note) for note in stats.notes] == [f"{TEN.kind} (2 segment(s) (1, 3))"]
    assert "10 characters" in TEN.kind and "the test's patience" in TEN.kind
    assert metric.segment_row("abc def ghi jkl", ["r"]).tolist() == [7.0]
    explained = metric.explain("abc def ghi jkl", ["r"])
    assert explained.row == (7.0,) and explained.notes == (f"Length this segment: {TEN.kind}",)
    assert metric.explain("short", ["r"]).notes == ()


def _line(characters: int, seed: int) -> str:
    rng = random.Random(seed)
    words: list[str] = []
    size = -1  # the spaces between words
    while size < characters:
        words.append(f"w{rng.randrange(300)}")
        size += len(words[-1]) + 1
    return " ".join(words)


LIMITED = {
    "ter": limits.TER,
    "rougeL": limits.ROUGE_L,
    "rougeLsum": limits.ROUGE_LSUM,
    "rougeW": limits.ROUGE_W,
    "meteor": limits.METEOR,
    "characTER": limits.CHARACTER,
}


def test_every_metric_with_super_linear_work_states_a_limit() -> None:
    presets = {m: create(m).segment_limit for m in SPECS if m not in {"bertscore", "perplexity"}}
    assert {m: limit for m, limit in presets.items() if limit is not None} == LIMITED
    for metric_id in ("rougeS", "rougeSU"):  # their skip bigrams grow with the square of the length only when wide
        assert create(metric_id, {"skip_distance": None}).segment_limit == limits.ROUGE_S_WIDE
        assert create(metric_id, {"skip_distance": limits.WIDE_SKIP + 1}).segment_limit == limits.ROUGE_S_WIDE
        assert create(metric_id, {"skip_distance": limits.WIDE_SKIP}).segment_limit is None


CASES: list[tuple[str, dict[str, object], SegmentLimit]] = [(m, {}, limit) for m, limit in sorted(LIMITED.items())] + [
    ("rougeS", {"skip_distance": None}, limits.ROUGE_S_WIDE),
    ("rougeSU", {"skip_distance": 100}, limits.ROUGE_S_WIDE),
]


@pytest.mark.parametrize(("metric_id", "options", "limit"), CASES)
def test_a_line_over_the_limit_is_scored_on_its_head_and_the_rest_as_before(
    metric_id: str, options: dict[str, object], limit: SegmentLimit
) -> None:
    long_hyp, long_ref = _line(limit.characters + 500, 1), _line(limit.characters + 500, 2)
    hyps, refs = [long_hyp, "the cat sat on the mat"], [[long_ref, "the cat sat on a mat"]]
    stats = create(metric_id, options).stats(hyps, refs)
    alone = create(metric_id, options).stats([clip(long_hyp, limit), hyps[1]], [[clip(long_ref, limit), refs[0][1]]])
    assert np.array_equal(stats.rows, alone.rows)
    assert stats.notes[0].kind == limit.kind and stats.notes[0].detail == "1 segment(s) (1)"
    assert stats.notes[1:] == alone.notes


def test_pair_cells_counts_the_tables_of_clipped_texts() -> None:
    hyps = ["a b c", "x"]
    refs: list[list[str | None]] = [["a b", None], ["a b c d", "y z"]]
    assert limits.pair_cells(hyps, refs, TEN) == 3 * 2 + 3 * 4 + 1 * 2
    assert limits.pair_cells(["w " * 100], [["w " * 100]], TEN) == 5 * 5  # "w w w w w" is all it reads


@pytest.mark.parametrize("metric_id", ["rougeLsum", "rougeW"])
def test_rouge_tables_estimate_their_time_so_the_app_asks_first(metric_id: str) -> None:
    """The estimate grows with the product of the lengths, reaches the app's minute for a corpus of long texts,
    and stays small for one huge line (which is cut at the limit)."""
    from dashboard.compute import CONFIRM_SECONDS

    metric = create(metric_id)
    short = expected_seconds(metric, ["a b"] * 10, [["a b c"] * 10])
    assert short is not None and 0 < short < 0.01
    doubled = expected_seconds(metric, ["a b a b"] * 10, [["a b c"] * 10])
    assert doubled == pytest.approx(2 * short)
    long_texts = [_line(LIMITED[metric_id].characters - 10, 1)] * (1_000 if metric_id == "rougeW" else 3_000)
    assert expected_seconds(metric, long_texts, [long_texts]) > CONFIRM_SECONDS  # type: ignore[operator]
    huge = _line(100_000, 3)
    assert expected_seconds(metric, [huge], [[huge]]) < 1  # type: ignore[operator]
