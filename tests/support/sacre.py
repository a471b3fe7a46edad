"""sacrebleu's own per-segment statistics, read through its statistics API so every segment can be compared fast."""

from __future__ import annotations

from collections.abc import Sequence


def segment_stats(metric, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list[list[float]]:
    return [list(map(float, row)) for row in metric._extract_corpus_statistics(hyps, refs)]


def segment_scores(metric, stats: Sequence[Sequence[float]]) -> list[float]:
    # sacrebleu's add-k smoothing mutates the statistics it scores: hand it copies.
    return [metric._compute_score_from_stats(list(row)).score for row in stats]
