"""Named slices: sets of segments a user picked (in the app, with the explorer's filters), scored like buckets.

A slice keeps the segments it was made of, not the filters, so it means the same after a metric option changes;
its description says how it was made. Slices may overlap, so each is a bucketing of its own with one bucket.

A slice chosen by scores ("A − B under BLEU ≤ −20") keeps which metric's scores of which systems chose it
(``selected_by``): a test of A or B under BLEU on that slice is circular — the segments were picked because A
scored lower there, so "A differs significantly from B" restates the filter. :func:`drop_circular_tests` removes
those p-values (the scores and intervals stay: they describe the slice).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from metrics.analysis.buckets import Bucketing, BucketKind
from metrics.analysis.scoring import BucketResult

MAX_NAME = 80


@dataclass(frozen=True)
class ScoreCondition:
    """A filter on segment scores that chose a slice's segments: ``metric``'s scores of ``systems`` (one system's
    score, or the difference of two)."""

    metric: str
    systems: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.metric or not self.systems:
            raise ValueError("a score condition names a metric and at least one system")


@dataclass(frozen=True)
class Slice:
    """``segments``: 0-based, increasing, no repeats; ``selected_by``: the score filters that chose them."""

    name: str
    description: str
    segments: tuple[int, ...]
    selected_by: tuple[ScoreCondition, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_NAME:
            raise ValueError(f"a slice needs a name of 1–{MAX_NAME} characters, not {self.name!r}")
        if not self.segments:
            raise ValueError(f"slice {self.name!r} has no segments")
        if list(self.segments) != sorted(set(self.segments)) or self.segments[0] < 0:
            raise ValueError(f"slice {self.name!r}: segments must be increasing 0-based numbers without repeats")

    def circular(self, metric: str, systems: Iterable[str]) -> ScoreCondition | None:
        """The condition that makes a test of ``systems`` under ``metric`` on this slice circular: the slice was
        chosen by that metric's scores of one of them (``None`` when none did)."""
        tested = set(systems)
        return next((c for c in self.selected_by if c.metric == metric and tested & set(c.systems)), None)

    def check(self, n_segments: int) -> None:
        if self.segments[-1] >= n_segments:
            raise ValueError(
                f"slice {self.name!r} names segment {self.segments[-1] + 1}, but the data has {n_segments} segments"
            )


def by_slices(slices: Sequence[Slice], n_segments: int) -> tuple[Bucketing, ...]:
    """One single-bucket bucketing per slice (``by`` is ``slice``, the label its name)."""
    found = []
    for piece in slices:
        piece.check(n_segments)
        index = np.full(n_segments, -1, dtype=np.intp)
        index[list(piece.segments)] = 0
        found.append(Bucketing(BucketKind.SLICE, "slice", f"slice {piece.name}", (piece.name,), index))
    return tuple(found)


def drop_circular_tests(results: Sequence[BucketResult], piece: Slice, baseline: str) -> tuple[BucketResult, ...]:
    """``results`` of ``piece`` without the p-values of circular tests (a system against ``baseline`` under a
    metric whose scores of either chose the slice); copies, the caller's results are left as they are."""
    return tuple(
        replace(
            result,
            scores=tuple(
                replace(e, p_value=None) if piece.circular(e.metric, (e.system, baseline)) else e for e in result.scores
            ),
        )
        for result in results
    )


def parse_ranges(text: str, n_segments: int) -> tuple[int, ...]:
    """``"1-50, 70, 90-99"`` (1-based, inclusive, as the app numbers segments) → sorted 0-based segments."""
    found: set[int] = set()
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise ValueError(f"{part!r} is not a segment number or a range such as 10-20") from None
        if not 1 <= first <= last <= n_segments:
            raise ValueError(f"{part!r}: segments are numbered 1–{n_segments}")
        found.update(range(first - 1, last))
    if not found:
        raise ValueError("give segment numbers or ranges, e.g. 1-50, 70")
    return tuple(sorted(found))
