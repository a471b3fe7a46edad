"""Buckets of segments: by reference length, by output − reference length, by sentence score, by source length,
by a metadata column, or a named slice.

Edges and labels follow compare-mt (``bucketers.py``): edges ``e_0 < … < e_k`` make ``k + 1`` half-open buckets
``<e_0``, ``[e_0,e_1)``, …, ``>=e_k``; an integer bucket one wide is labelled by its value (``-1``, not
``[-1,0)``). A bucketing is **shared** when a segment falls in the same bucket for every system (reference or
source length, metadata, slices), so systems are compared on the same segments and a paired test applies; it is
**per system** when it depends on the output (length difference, the system's own sentence score, as compare-mt
buckets them), so every system has its own segments in a bucket.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

# compare-mt's defaults (LengthSentenceBucketer, LengthDiffSentenceBucketer)
LENGTH_EDGES: tuple[float, ...] = (10, 20, 30, 40, 50, 60)
LENGTH_DIFF_EDGES: tuple[float, ...] = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)
MAX_CATEGORIES = 100  # beyond this a column is an identifier (use the documents analysis), not a bucketing


class BucketKind(Enum):
    """What a bucketing sorts segments by; ``value`` is its spelling on the command line."""

    REF_LENGTH = "ref-length"
    LENGTH_DIFF = "length-diff"
    SCORE = "score"
    SOURCE_LENGTH = "src-length"
    METADATA = "meta"
    SLICE = "slice"

    @property
    def per_system(self) -> bool:
        return self in (BucketKind.LENGTH_DIFF, BucketKind.SCORE)


@dataclass(frozen=True)
class Bucketing:
    """Segments sorted into labelled buckets.

    ``index`` holds the bucket of every segment (-1: in none): shape ``(segments,)`` for a shared bucketing, and
    ``(systems, segments)`` in the order of ``systems`` for a per-system one. ``key`` is the command-line spelling
    (``ref-length``, ``score:chrf``, ``meta:domain``), ``title`` says what was measured and in which unit.
    """

    kind: BucketKind
    key: str
    title: str
    labels: tuple[str, ...]
    index: np.ndarray = field(compare=False)
    systems: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        expected = 2 if self.kind.per_system else 1
        if self.index.ndim != expected:
            raise ValueError(f"{self.key}: bucket index of shape {self.index.shape} for a {self.kind.value} bucketing")
        if self.kind.per_system and len(self.systems) != self.index.shape[0]:
            raise ValueError(f"{self.key}: {self.index.shape[0]} rows of buckets for {len(self.systems)} systems")
        if self.index.size and (self.index.min() < -1 or self.index.max() >= len(self.labels)):
            raise ValueError(f"{self.key}: bucket numbers must lie in [-1, {len(self.labels)})")
        self.index.setflags(write=False)

    @property
    def shared(self) -> bool:
        return not self.kind.per_system

    def segments(self, bucket: int, system: str | None = None) -> np.ndarray:
        """0-based indices of the segments in ``bucket`` (of ``system``'s segments for a per-system bucketing)."""
        if self.shared:
            return np.flatnonzero(self.index == bucket)
        if system is None:
            raise ValueError(f"{self.key} is per system: name the system")
        return np.flatnonzero(self.index[self.systems.index(system)] == bucket)


def edge_labels(edges: Sequence[float], integer: bool = True) -> tuple[str, ...]:
    """compare-mt's bucket labels for ``edges`` (``Bucketer.set_bucket_cutoffs``)."""
    labels = []
    for i, x in enumerate(edges):
        if i == 0:
            labels.append(f"<{_number(x)}")
        elif integer and x - 1 == edges[i - 1]:
            labels.append(_number(x - 1))
        else:
            labels.append(f"[{_number(edges[i - 1])},{_number(x)})")
    labels.append(f">={_number(edges[-1])}")
    return tuple(labels)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def check_edges(edges: Sequence[float], what: str) -> tuple[float, ...]:
    values = tuple(float(e) for e in edges)
    if not values:
        raise ValueError(f"{what}: give at least one bucket edge")
    if not all(math.isfinite(v) for v in values):
        raise ValueError(f"{what}: bucket edges must be finite numbers, not {list(edges)}")
    if any(b <= a for a, b in zip(values, values[1:], strict=False)):
        raise ValueError(f"{what}: bucket edges must increase strictly, not {list(edges)}")
    return values


def parse_edges(text: str, what: str) -> tuple[float, ...]:
    """``"10:20:30"`` (compare-mt's spelling; commas work too) → edges."""
    parts = [p for p in text.replace(",", ":").split(":") if p.strip()]
    try:
        return check_edges([float(p) for p in parts], what)
    except ValueError as err:
        if "could not convert" in str(err):
            raise ValueError(f"{what}: bucket edges must be numbers separated by ':', not {text!r}") from None
        raise


def assign(values: np.ndarray, edges: Sequence[float]) -> np.ndarray:
    """Bucket number of every value: 0 below the first edge, ``len(edges)`` at or above the last."""
    return np.searchsorted(np.asarray(edges, dtype=np.float64), np.asarray(values, dtype=np.float64), side="right")


def is_integral(edges: Sequence[float]) -> bool:
    return all(float(e).is_integer() for e in edges)


def by_values(
    kind: BucketKind,
    key: str,
    title: str,
    values: np.ndarray,
    edges: Sequence[float],
    systems: Sequence[str] = (),
) -> Bucketing:
    """A bucketing of numbers (one per segment, or systems × segments) at ``edges``; NaN values are in no bucket."""
    edges = check_edges(edges, key)
    values = np.asarray(values, dtype=np.float64)
    index = np.where(np.isnan(values), -1, assign(values, edges))
    return Bucketing(kind, key, title, edge_labels(edges, is_integral(edges)), index.astype(np.intp), tuple(systems))


LAST_BUCKET_SHARE = 0.25  # compare-mt's length edges serve while at most this share of segments is past the last
ROUND_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000)


def length_edges(lengths: np.ndarray) -> tuple[float, ...]:
    """Default edges for lengths: compare-mt's ``10:20:…:60`` where at most a quarter of the segments reach 60; for
    longer segments (paragraph- or document-level MT, summaries), where that last bucket would hold most of the
    corpus, six edges of the smallest round step whose last edge passes the 90th percentile."""
    finite = np.asarray(lengths, dtype=np.float64)
    finite = finite[np.isfinite(finite)]
    if not finite.size or float(np.mean(finite >= LENGTH_EDGES[-1])) <= LAST_BUCKET_SHARE:
        return LENGTH_EDGES
    top = float(np.quantile(finite, 0.9))
    step = next((s for s in ROUND_STEPS if len(LENGTH_EDGES) * s > top), ROUND_STEPS[-1])
    return tuple(float(step * k) for k in range(1, len(LENGTH_EDGES) + 1))


def score_edges(scores: np.ndarray) -> tuple[float, ...]:
    """Tenths of the metric's scale, as compare-mt's score bucketer: the scale is the smallest of 1, 10 and 100
    that holds 95 % of the sentence scores (0–1 for ROUGE or METEOR, 0–10 for CIDEr-D, 0–100 for BLEU, chrF or
    TER, whose scores above 100 land in the last bucket). A metric whose scores are never positive (MQM, a
    negated error count: 0 is no error) gets the mirrored tenths and 0, so that error-free segments are a bucket
    of their own rather than all in the top one."""
    finite = np.asarray(scores, dtype=np.float64)
    finite = finite[np.isfinite(finite)]
    top = float(np.quantile(np.abs(finite), 0.95)) if finite.size else 1.0
    scale = next((s for s in (1.0, 10.0) if top <= s), 100.0)
    if finite.size and finite.max() <= 0 and finite.min() < 0:
        return (*(round(-scale * k / 10, 10) for k in range(9, 0, -1)), 0.0)
    return tuple(round(scale * k / 10, 10) for k in range(1, 10))


def by_category(key: str, title: str, values: Sequence[str]) -> Bucketing:
    """One bucket per distinct value, in order of first appearance (a metadata column, a document id)."""
    labels = tuple(dict.fromkeys(values))
    if len(labels) > MAX_CATEGORIES:
        raise ValueError(
            f"{key}: {len(labels)} distinct values make too many buckets (at most {MAX_CATEGORIES}); "
            "a document id belongs in the documents analysis"
        )
    number = {label: k for k, label in enumerate(labels)}
    return Bucketing(
        BucketKind.METADATA, key, title, labels, np.array([number[v] for v in values], dtype=np.intp).reshape(-1)
    )
