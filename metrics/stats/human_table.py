"""Human scores as a plain table: one row per (system, segment), as WMT's meta-evaluation data stores them.

    system	segment	score
    GPT4-5shot	0	-0.0
    GPT4-5shot	10	null

A ``.tsv`` (tab-separated) or ``.csv`` file with a header naming ``system``, ``segment`` and ``score`` (other columns
are ignored). ``segment`` is the 0-based line of the system files (mt-metrics-eval's numbering); a file that counts
from 1 is read with ``one_based``. ``null``, ``None``, ``NaN`` or an empty field is a segment the raters did not score
(mt-metrics-eval writes ``None``; the WMT23 copy in ``../shared/data`` writes ``null``). A segment a system lacks is
not rated either. Systems the file rates that are not loaded are left out, and named in the result's notes (WMT's
files rate the second reference as a system). Every other problem — a missing column, a segment out of range, a
repeated (system, segment), a non-numeric or infinite score — is an :class:`~metrics.io.inputs.InputError` naming the
file and line. :func:`read_human` reads this layout or :mod:`metrics.stats.human`'s JSON lines by the suffix.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from metrics.io.inputs import InputError, decode_text, read_bounded, table_rows
from metrics.stats.human import HumanScores, read_human_scores

COLUMNS = ("system", "segment", "score")
NOT_RATED = frozenset({"", "null", "none", "nan", "na"})
DELIMITERS = {".tsv": "\t", ".csv": ","}  # a table's delimiter by its suffix


@dataclass(frozen=True)
class ReadHuman:
    """Human scores of the loaded systems, and what reading them noted (systems left out)."""

    human: HumanScores
    notes: tuple[str, ...] = ()


def parse_human_table(
    text: str,
    n_segments: int,
    systems: Sequence[str],
    *,
    delimiter: str = "\t",
    one_based: bool = False,
    source: str = "<human scores>",
) -> ReadHuman:
    """The scores of ``systems`` (the loaded ones, in their order) from a table's ``text`` (module docstring)."""
    rows = table_rows(text, source, delimiter, newline="\n")
    if not rows:
        raise InputError(source, "the table is empty")
    header = [h.strip().lower() for h in rows[0]]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise InputError(source, f"no column {', '.join(missing)}; the header has: {', '.join(rows[0])}", 1)
    at = [header.index(c) for c in COLUMNS]
    loaded = set(systems)
    scores: dict[str, np.ndarray] = {}
    seen: set[tuple[str, int]] = set()
    others: dict[str, None] = {}
    first = 1 if one_based else 0
    for number, row in enumerate(rows[1:], start=2):
        if not any(field.strip() for field in row):
            continue
        if len(row) != len(header):
            raise InputError(source, f"row has {len(row)} fields but the header has {len(header)}", number)
        system, segment_text, value_text = (row[k].strip() for k in at)
        segment = _segment(segment_text, first, n_segments, source, number)
        if (system, segment) in seen:
            raise InputError(source, f"a second score of system {system!r}, segment {segment_text}", number)
        seen.add((system, segment))
        value = _score(value_text, source, number)
        if system not in loaded:
            others[system] = None
            continue
        scores.setdefault(system, np.full(n_segments, np.nan))[segment] = value
    rated = {s: scores[s] for s in systems if s in scores and not np.all(np.isnan(scores[s]))}
    if not rated:
        found = ", ".join([*scores, *others]) or "none"
        raise InputError(source, f"no human score of a loaded system ({', '.join(systems)}); the file rates: {found}")
    notes = []
    if others:
        notes.append(f"{source}: left out the scores of systems that are not loaded: {', '.join(others)}")
    unrated = [s for s in systems if s not in rated]
    if unrated:
        notes.append(f"{source}: no human score of {', '.join(unrated)}")
    return ReadHuman(HumanScores(rated, source), tuple(notes))


def _segment(text: str, first: int, n_segments: int, source: str, number: int) -> int:
    try:
        segment = int(text) - first
    except ValueError:
        raise InputError(source, f"segment {text!r} is not a whole number", number) from None
    if not 0 <= segment < n_segments:
        raise InputError(
            source,
            f"segment {text} is out of range: the systems have {n_segments} segments, numbered from {first}",
            number,
        )
    return segment


def _score(text: str, source: str, number: int) -> float:
    if text.lower() in NOT_RATED:
        return math.nan
    try:
        value = float(text)
    except ValueError:
        raise InputError(
            source, f"score {text!r} is not a number (write null for a segment not rated)", number
        ) from None
    if not math.isfinite(value):
        raise InputError(source, f"score {text!r} is not finite", number)
    return value


def read_human(
    path: str | Path,
    n_segments: int,
    systems: Sequence[str],
    *,
    segment_ids: Sequence[str] | str | Path | None = None,
    one_based: bool = False,
) -> ReadHuman:
    """Human scores of the loaded ``systems`` from ``path``: a ``.tsv``/``.csv`` table (module docstring) or JSON
    lines in :mod:`metrics.stats.human`'s format (``segment_ids``, a list or a file of one id per line, maps its ids
    to lines)."""
    source = str(path)
    delimiter = DELIMITERS.get(Path(path).suffix.lower())
    if delimiter is None:
        if one_based:
            raise InputError(source, "one-based numbering is for a table; JSON-lines judgments count lines from 1")
        judged = read_human_scores(path, n_segments, segment_ids)
        kept = {s: judged.scores[s] for s in systems if s in judged.scores}
        if not kept:
            raise InputError(source, f"no human score of a loaded system ({', '.join(systems)}); the file rates: "
                                     f"{', '.join(judged.systems)}")  # fmt: skip
        others = [s for s in judged.systems if s not in kept]
        notes = (
            (f"{source}: left out the scores of systems that are not loaded: {', '.join(others)}",) if others else ()
        )
        return ReadHuman(HumanScores(kept, source), notes)
    if segment_ids is not None:
        raise InputError(source, "segment ids map the ids of JSON-lines judgments; a table numbers its segments")
    text = decode_text(read_bounded(path), source, [])
    return parse_human_table(text, n_segments, systems, delimiter=delimiter, one_based=one_based, source=source)
