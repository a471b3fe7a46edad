"""Segments where metrics disagree on which of two systems is better: BLEU says A, chrF or METEOR says B.

Per metric, the segment difference is oriented so that positive means A is better (``score(A) − score(B)``, negated
for error rates such as TER) and divided by its standard deviation over the corpus, so that differences of metrics
on different scales compare. Two metrics disagree on a segment when their oriented differences have opposite
signs; the size of the disagreement is the smaller of the two scaled differences (both metrics must hold their
opinion firmly for it to be large). Each segment keeps its largest disagreement; segments are ranked by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Disagreement:
    """Segment ``segment`` (0-based): ``for_a`` prefers A by ``delta_for_a`` (its own units, ``score(A) −
    score(B)``), ``for_b`` prefers B by ``delta_for_b``; ``size`` in standard deviations (see the module doc)."""

    segment: int
    a: str
    b: str
    for_a: str
    delta_for_a: float
    for_b: str
    delta_for_b: float
    size: float


def disagreements(
    a: str,
    b: str,
    segment_scores: Mapping[str, Mapping[str, np.ndarray]],
    higher_is_better: Mapping[str, bool],
    top: int | None = None,
) -> tuple[Disagreement, ...]:
    """Segments on which two of the metrics (``segment_scores[system][metric_id]``) disagree about A and B,
    largest disagreement first (the ``top`` first when given)."""
    if a == b:
        raise ValueError(f"metrics can only disagree about two different systems; both are {a!r}")
    for name in (a, b):
        if name not in segment_scores:
            raise ValueError(f"no system named {name!r}; systems: {', '.join(segment_scores)}")
    metric_ids = list(higher_is_better)
    if len(metric_ids) < 2:
        raise ValueError("metrics can only disagree when there are at least two")
    raw = {m: np.asarray(segment_scores[a][m], dtype=np.float64) - np.asarray(segment_scores[b][m]) for m in metric_ids}
    scaled = {}
    for m in metric_ids:
        oriented = raw[m] if higher_is_better[m] else -raw[m]
        spread = float(np.nanstd(oriented)) if np.isfinite(oriented).any() else 0.0
        if spread > 0:
            scaled[m] = oriented / spread
    best_size = np.zeros(len(raw[metric_ids[0]]))
    best_pair: dict[int, tuple[str, str]] = {}
    usable = list(scaled)
    for i, x in enumerate(usable):
        for y in usable[i + 1 :]:
            opposite = scaled[x] * scaled[y] < 0  # NaN compares False: no opinion, no disagreement
            size = np.where(opposite, np.minimum(np.abs(scaled[x]), np.abs(scaled[y])), 0.0)
            for seg in np.flatnonzero(size > best_size):
                best_size[seg] = size[seg]
                best_pair[int(seg)] = (x, y) if scaled[x][seg] > 0 else (y, x)
    order = sorted(best_pair, key=lambda seg: (-best_size[seg], seg))
    if top is not None:
        order = order[:top]
    return tuple(
        Disagreement(
            seg,
            a,
            b,
            best_pair[seg][0],
            float(raw[best_pair[seg][0]][seg]),
            best_pair[seg][1],
            float(raw[best_pair[seg][1]][seg]),
            float(best_size[seg]),
        )
        for seg in order
    )
