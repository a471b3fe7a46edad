"""What a benchmark case is: the same scores computed by ScoreLens and by the reference implementation."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metrics.base import Metric

Scores = float | Sequence[float]


@dataclass(frozen=True)
class Case:
    name: str
    ours: Callable[[], Scores]
    reference: Callable[[], Scores]


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


def corpus_and_segments(metric: Metric, systems: Iterable[Sequence[str]], refs: Sequence[Sequence[str]]) -> list[float]:
    """ScoreLens's side of a case: for each system in turn its corpus score, then every segment score."""
    scores: list[float] = []
    for hyps in systems:
        stats = metric.stats(hyps, refs)
        scores.append(metric.corpus_score(stats))
        scores.extend(metric.segment_scores(stats).tolist())
    return scores
