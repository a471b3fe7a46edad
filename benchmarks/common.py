"""What a benchmark case is: the same scores computed by ScoreLens and by the reference implementation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

Scores = float | Sequence[float]


@dataclass(frozen=True)
class Case:
    name: str
    ours: Callable[[], Scores]
    reference: Callable[[], Scores]


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")
