"""Named slices: sets of segments a user picked (in the app, with the explorer's filters), scored like buckets.

A slice keeps the segments it was made of, not the filters, so it means the same after a metric option changes;
its description says how it was made. Slices may overlap, so each is a bucketing of its own with one bucket.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.analysis.buckets import Bucketing, BucketKind

MAX_NAME = 80


@dataclass(frozen=True)
class Slice:
    """``segments``: 0-based, increasing, no repeats."""

    name: str
    description: str
    segments: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_NAME:
            raise ValueError(f"a slice needs a name of 1–{MAX_NAME} characters, not {self.name!r}")
        if not self.segments:
            raise ValueError(f"slice {self.name!r} has no segments")
        if list(self.segments) != sorted(set(self.segments)) or self.segments[0] < 0:
            raise ValueError(f"slice {self.name!r}: segments must be increasing 0-based numbers without repeats")

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
