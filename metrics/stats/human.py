"""Human judgments of system outputs, aligned with the lines of the system files.

File format: JSON lines, one judgment per line, as THumB 1.0 (Kasai et al., 2022, "Transparent Human Evaluation
for Image Captioning") ships them: ``{"SYS": "<system name>", "seg_id": "<segment id>", "human_score": <number>}``
(other fields are ignored). ``SYS`` must match a system name (its file name without the suffix). ``seg_id`` names
the segment: with ``segment_ids`` (e.g. THumB's ``image_ids.txt``, the id of each line of the system files, in
order) it is looked up there; without, it must be the 1-based line number. Every problem (malformed line, unknown
id, duplicate judgment, non-finite score) is an :class:`~metrics.io.inputs.InputError` naming the file and line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from metrics.io.inputs import InputError, decode_text, json_line, read_bounded

SYSTEM_KEY = "SYS"
SEGMENT_KEY = "seg_id"
SCORE_KEY = "human_score"


@dataclass(frozen=True)
class HumanScores:
    """``scores[system][i]``: the human score of line ``i`` of that system's output, NaN where none was given."""

    scores: Mapping[str, np.ndarray]
    source: str = ""

    def __post_init__(self) -> None:
        lengths = {len(v) for v in self.scores.values()}
        if len(lengths) > 1:
            raise ValueError(f"human scores of different lengths per system: {sorted(lengths)}")
        for values in self.scores.values():
            values.setflags(write=False)

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.scores)

    def judged(self, system: str) -> np.ndarray:
        """Indices of the segments of ``system`` that have a human score."""
        return np.flatnonzero(~np.isnan(self.scores[system]))


def parse_human_scores(
    lines: Sequence[str], n_segments: int, segment_ids: Sequence[str] | None = None, source: str = "<human scores>"
) -> HumanScores:
    if segment_ids is not None and len(segment_ids) != n_segments:
        raise InputError(source, f"{len(segment_ids)} segment ids for {n_segments} segments")
    position = {str(s): i for i, s in enumerate(segment_ids)} if segment_ids is not None else None
    if position is not None and len(position) != len(segment_ids or ()):
        raise InputError(source, "the segment ids are not unique")
    scores: dict[str, np.ndarray] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = json_line(line, source, number)
        if not isinstance(record, dict) or not {SYSTEM_KEY, SEGMENT_KEY, SCORE_KEY} <= set(record):
            raise InputError(source, f"expected an object with {SYSTEM_KEY!r}, {SEGMENT_KEY!r}, {SCORE_KEY!r}", number)
        system, seg, value = record[SYSTEM_KEY], record[SEGMENT_KEY], record[SCORE_KEY]
        if not isinstance(system, str):
            raise InputError(source, f"{SYSTEM_KEY!r} must be a string", number)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InputError(source, f"{SCORE_KEY!r} must be a finite number, not {value!r}", number)
        index = _segment_index(seg, position, n_segments, source, number)
        row = scores.setdefault(system, np.full(n_segments, np.nan))
        if not np.isnan(row[index]):
            raise InputError(source, f"a second judgment of system {system!r}, segment {seg!r}", number)
        row[index] = float(value)
    if not scores:
        raise InputError(source, "no human judgments")
    return HumanScores(scores, source)


def _segment_index(seg: object, position: dict[str, int] | None, n: int, source: str, number: int) -> int:
    if position is not None:
        if isinstance(seg, bool) or not isinstance(seg, (str, int)) or str(seg) not in position:
            raise InputError(source, f"segment id {seg!r} is not among the {n} segment ids", number)
        return position[str(seg)]
    try:
        line = int(seg)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        line = 0
    if isinstance(seg, bool) or not 1 <= line <= n or str(line) != str(seg).strip():
        raise InputError(
            source, f"segment id {seg!r} is not a line number 1..{n} (give the segment ids file to map ids)", number
        )
    return line - 1


def read_human_scores(
    path: str | Path, n_segments: int, segment_ids: Sequence[str] | str | Path | None = None
) -> HumanScores:
    """Read a human-judgment file (module docstring); ``segment_ids`` may be a list or a file of one id per line."""
    ids: Sequence[str] | None
    if isinstance(segment_ids, (str, Path)):
        ids = [s.strip() for s in _read_text(Path(segment_ids)).rstrip("\n").split("\n")]
    else:
        ids = segment_ids
    return parse_human_scores(_read_text(Path(path)).split("\n"), n_segments, ids, str(path))


def _read_text(path: Path) -> str:
    return decode_text(read_bounded(path), str(path), [])
