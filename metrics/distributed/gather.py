"""Putting scored partitions together: no segment missing or twice, rows in corpus order, notes merged.

Each partition's result carries the range of segments it read and its rows; :func:`check_tiling` refuses a set of
results that does not cover ``0 … n - 1`` exactly once, or a partition whose rows are not one per segment, so a
lost or duplicated task can never pass silently. :func:`concatenate` then stacks the rows: they are the rows the
local engine computes, bit for bit.

A metric's notes were written about its partition alone. A note every partition raised (ROUGE-Lsum's "no text has
a sentence break") is a fact about the corpus and is kept as it is; the other notes of one kind become one note
whose detail lists the partitions that raised it and what each found (its counts are the partition's, its segment
numbers count from the partition's first), for the first few partitions. Rows never depend on notes: the numbers
stay exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.core.base import SegmentStats, StatsNote

PARTITION_NOTES = 3  # a note that recurs with other counts in every partition is shown a few times, not hundreds


class GatherError(RuntimeError):
    """The scored partitions do not add up to the corpus (a segment missing, twice, or with the wrong rows)."""


@dataclass(frozen=True)
class PartResult:
    """Rows of segments ``start`` … ``stop - 1`` (system → metric id → statistics), the numbers of references its
    segments have, and notes on how its input was read."""

    start: int
    stop: int
    stats: Mapping[str, Mapping[str, SegmentStats]]
    ref_counts: frozenset[int]
    notes: tuple[str, ...]


def _span(start: int, stop: int) -> str:
    return f"{start + 1}–{stop}"


def check_tiling(parts: Sequence[PartResult], segments: int) -> list[PartResult]:
    """The parts in segment order, after checking that they cover every segment exactly once, one row each."""
    ordered = sorted(parts, key=lambda p: (p.start, p.stop))
    at = 0
    for part in ordered:
        if part.start > at:
            raise GatherError(f"segments {_span(at, part.start)} are missing from the gathered results")
        if part.start < at:
            raise GatherError(f"segments {_span(part.start, min(at, part.stop))} were gathered twice")
        for system, by_metric in part.stats.items():
            for metric_id, stats in by_metric.items():
                if len(stats) != part.stop - part.start:
                    raise GatherError(
                        f"{metric_id} on {system}: {len(stats)} rows for the {part.stop - part.start} segments "
                        f"{_span(part.start, part.stop)}"
                    )
        at = part.stop
    if at != segments:
        raise GatherError(f"segments {_span(at, segments)} are missing from the gathered results")
    return ordered


def _ranges(spans: Sequence[tuple[int, int]]) -> str:
    merged: list[list[int]] = []
    for start, stop in spans:
        if merged and merged[-1][1] == start:
            merged[-1][1] = stop
        else:
            merged.append([start, stop])
    return ", ".join(_span(a, b) for a, b in merged)


def merge_notes(parts: Sequence[tuple[int, int, Sequence[StatsNote]]]) -> tuple[StatsNote, ...]:
    """Notes of one metric on one system from its partitions ``(start, stop, notes)`` in segment order: those every
    partition raised as they are, then one note per other kind whose detail names the partitions that raised it
    and what each found, for at most :data:`PARTITION_NOTES` partitions."""
    where: dict[StatsNote, list[tuple[int, int]]] = {}
    for start, stop, notes in parts:
        for note in dict.fromkeys(notes):
            where.setdefault(note, []).append((start, stop))
    corpus = [note for note, spans in where.items() if len(spans) == len(parts)]
    found: dict[str, list[str]] = {}
    for note, spans in where.items():
        if len(spans) < len(parts):
            found.setdefault(note.kind, []).append(
                f"partition of segments {_ranges(spans)}" + (f": {note.detail}" if note.detail else "")
            )
    partial = []
    for kind, details in found.items():
        if len(details) > PARTITION_NOTES:
            more = len(details) - PARTITION_NOTES
            details = [
                *details[:PARTITION_NOTES],
                f"{more} more partition(s) (the local engine counts the whole corpus)",
            ]
        partial.append(StatsNote(kind, "; ".join(details)))
    return (*corpus, *partial)


def concatenate(
    ordered: Sequence[PartResult], systems: Sequence[str], metric_ids: Sequence[str]
) -> dict[str, dict[str, SegmentStats]]:
    """The corpus's statistics (system → metric id → rows of every segment) from parts in segment order."""
    result: dict[str, dict[str, SegmentStats]] = {}
    for system in systems:
        result[system] = {}
        for metric_id in metric_ids:
            pieces = [part.stats[system][metric_id] for part in ordered]
            first = pieces[0]
            rows = np.concatenate([piece.rows for piece in pieces])
            notes = merge_notes([(p.start, p.stop, s.notes) for p, s in zip(ordered, pieces, strict=True)])
            result[system][metric_id] = SegmentStats(first.metric, first.columns, rows, first.aggregate, notes)
    return result


def input_notes(ordered: Sequence[PartResult]) -> tuple[str, ...]:
    """Notes on the input files, once each (every partition of a file with Windows line endings says so)."""
    return tuple(dict.fromkeys(note for part in ordered for note in part.notes))
