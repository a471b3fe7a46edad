"""Human (or model) error annotations of system outputs: who rated which segment, which errors they marked.

The data model every reader produces and every consumer (MQM/ESA scores, category tables, span agreement, the app)
reads. It is small and frozen:

* :class:`Scheme` — the annotation scheme a file follows: ``mqm`` (WMT's MQM TSV), ``esa`` (WMT24's Error Span
  Annotation: spans plus a 0–100 score) and ``spans`` (ScoreLens's JSON Lines span format, which xCOMET's spans and
  LLM judges also use).
* :class:`AnnotatedError` — one error a rater marked: severity, category and, where it can be located in the loaded
  text, an :class:`~metrics.core.spans.ErrorSpan` (``origin`` = the rater). An error that cannot be located (WMT's
  ``<v>`` without ``</v>``) keeps ``span=None`` and a ``reason``: it still counts in MQM, nothing is dropped.
* :class:`Rating` — one rater's judgment of one system's segment: its errors (none = rated, no error) and the score
  the rater gave (ESA's 0–100), if any.
* :class:`Annotations` — a file's ratings: ``ratings[system][segment]`` is the tuple of ratings of that segment
  (empty = not rated). Segments are 0-based lines of the loaded system files.

Offsets are Python string indices (code points) into the loaded text of the span's side, ``[start, end)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

import numpy as np

from metrics.core.spans import ErrorSpan, Severity


class Scheme(str, Enum):
    """The scheme an annotation file follows (see the module docstring)."""

    MQM = "mqm"
    ESA = "esa"
    SPANS = "spans"


@dataclass(frozen=True)
class AnnotatedError:
    """One marked error. ``span`` is None where the file does not say where the error is (``reason`` says why);
    ``line`` is the line of the file it was read from (1-based); ``comment`` is the rater's note or a judge's
    explanation."""

    severity: Severity
    category: str | None
    span: ErrorSpan | None
    line: int
    comment: str = ""
    reason: str = ""

    def __post_init__(self) -> None:
        if (self.span is None) == (not self.reason):
            raise ValueError("an error is either located (a span) or carries the reason it is not")


@dataclass(frozen=True)
class Rating:
    """One rater's judgment of one system's segment. No errors = rated and found no error. ``score`` is the score
    the rater gave (ESA's 0–100; a judge's own score), None where the scheme gives none; ``line`` is the file line
    of the rating's first record."""

    rater: str
    errors: tuple[AnnotatedError, ...]
    line: int
    score: float | None = None

    @property
    def spans(self) -> tuple[ErrorSpan, ...]:
        """The located errors' spans, in file order."""
        return tuple(e.span for e in self.errors if e.span is not None)


@dataclass(frozen=True)
class Annotations:
    """``ratings[system][i]``: the ratings of segment ``i`` (0-based) of that system's output, empty if unrated.

    ``source`` is the file read; ``scheme`` how it was read; ``digest`` the file's SHA-256 prefix ("" when the
    annotations were not read from a file); ``skipped``: (system name, records) left out because the system was
    not loaded and the reader was asked to skip such systems (never silently: :meth:`summary` says so). Every
    system has ``n_segments`` entries."""

    scheme: Scheme
    n_segments: int
    ratings: Mapping[str, tuple[tuple[Rating, ...], ...]]
    source: str = ""
    digest: str = ""
    skipped: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        for system, rows in self.ratings.items():
            if len(rows) != self.n_segments:
                raise ValueError(f"{system!r} has {len(rows)} segments of ratings, not {self.n_segments}")

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.ratings)

    def rated(self, system: str) -> np.ndarray:
        """Boolean mask over the segments: True where ``system``'s segment has at least one rating."""
        return np.array([bool(r) for r in self.ratings[system]], dtype=bool)

    def spans(self, system: str, segment: int) -> tuple[ErrorSpan, ...]:
        """Every located span of every rater of one segment (``origin`` names the rater)."""
        return tuple(span for rating in self.ratings[system][segment] for span in rating.spans)

    def errors(self, system: str, segment: int) -> tuple[AnnotatedError, ...]:
        """Every error of every rater of one segment, located or not."""
        return tuple(error for rating in self.ratings[system][segment] for error in rating.errors)

    @property
    def kept(self) -> int:
        """How many ratings were read (one per rater, system and segment)."""
        return sum(len(r) for rows in self.ratings.values() for r in rows)

    @property
    def n_errors(self) -> int:
        return sum(len(rating.errors) for rows in self.ratings.values() for r in rows for rating in r)

    @property
    def n_unlocated(self) -> int:
        return sum(
            e.span is None for rows in self.ratings.values() for r in rows for rating in r for e in rating.errors
        )

    @property
    def raters(self) -> tuple[str, ...]:
        """The raters' names, sorted."""
        return tuple(sorted({rating.rater for rows in self.ratings.values() for r in rows for rating in r}))

    def summary(self) -> str:
        """One line a user reads to see what was kept."""
        rated = sum(int(self.rated(s).sum()) for s in self.systems)
        skipped = (
            f"; skipped {sum(n for _, n in self.skipped):,} records of systems not loaded "
            f"({', '.join(name for name, _ in self.skipped)})"
            if self.skipped
            else ""
        )
        return (
            f"{self.kept:,} ratings by {len(self.raters)} raters of {rated:,} segments of {len(self.systems)} "
            f"systems; {self.n_errors:,} errors, {self.n_unlocated:,} of them not located{skipped}"
        )
