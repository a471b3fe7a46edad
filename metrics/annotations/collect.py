"""What every annotation reader shares: the loaded texts the spans must be found in, and the checks that tie each
record of a file to a loaded system, segment and text — each failure an
:class:`~metrics.io.inputs.InputError` naming the file and line.

:class:`LoadedTexts` is what a reader is given: the loaded system outputs (by the names ScoreLens shows), the source
when one is loaded, the names the annotation file uses for loaded systems where they differ (a ``systems.tsv``: a
reference rated as a system is ``ref`` in WMT's files and ``ref.A`` when loaded from ``ref.A.txt``) and the id of
each loaded line where the file names segments by id (WMT's ``seg_id``) rather than by line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from metrics.annotations.model import AnnotatedError, Annotations, Rating, Scheme
from metrics.core.spans import Side
from metrics.io.inputs import InputError, decode_text, json_line, read_bounded, table_rows


@dataclass(frozen=True)
class LoadedTexts:
    """The texts annotations are read against. ``systems[name][i]``: line ``i`` of a loaded system's output;
    ``source``: the loaded source lines or None; ``aliases``: name in the annotation file → loaded system name;
    ``segment_ids``: the id of each loaded line (None: files count lines, see each reader). A reference rated as a
    system is one more entry of ``systems`` (the command line adds the loaded references under their file names).
    A map entry whose system is not loaded is an error only where a record uses it. ``skip_unloaded``: records of
    systems that are not loaded are counted and left out (:attr:`Annotations.skipped`) instead of refused."""

    systems: Mapping[str, Sequence[str]]
    source: Sequence[str] | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)
    segment_ids: Sequence[str] | None = None
    skip_unloaded: bool = False

    def __post_init__(self) -> None:
        lengths = {len(t) for t in self.systems.values()} | ({len(self.source)} if self.source is not None else set())
        if len(lengths) != 1:
            raise ValueError(f"the loaded texts must have one length, not {sorted(lengths)}")
        if self.segment_ids is not None and len(self.segment_ids) != self.n_segments:
            raise ValueError(f"{len(self.segment_ids)} segment ids for {self.n_segments} segments")

    @property
    def n_segments(self) -> int:
        return len(next(iter(self.systems.values())))


def read_file(path: str | Path) -> tuple[str, str]:
    """A whole annotation file, decoded as ScoreLens decodes every input (size bounded), and its SHA-256 prefix."""
    data = read_bounded(path)
    return decode_text(data, str(path), []), hashlib.sha256(data).hexdigest()[:12]


def read_system_map(path: str | Path) -> dict[str, str]:
    """``systems.tsv``: a TSV with a header naming ``system`` (the name in the annotation file) and ``text`` (the
    file that system's output is loaded from, whose name without its suffix is the loaded name)."""
    source = str(path)
    rows = table_rows(read_file(path)[0], source, "\t", newline="\n")
    if not rows or not {"system", "text"} <= set(rows[0]):
        raise InputError(source, "expected a TSV header with the columns 'system' and 'text'", 1)
    system, text = rows[0].index("system"), rows[0].index("text")
    mapping: dict[str, str] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(row):
            continue
        if len(row) != len(rows[0]):
            raise InputError(source, f"{len(row)} columns where the header has {len(rows[0])}", number)
        if row[system] in mapping:
            raise InputError(source, f"system {row[system]!r} is mapped twice", number)
        mapping[row[system]] = Path(row[text]).stem
    return mapping


def collect_json_lines(
    lines: Sequence[str], collect: Collector, read_record: Callable[[Collector, dict[str, Any], int], None], digest: str
) -> Annotations:
    """A JSON Lines file's records, one object a line (blank lines skipped), each read by ``read_record``."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = json_line(line, collect.source, number)
        if not isinstance(record, dict):
            raise collect.error("expected a JSON object per line", number)
        read_record(collect, record, number)
    return collect.build(digest)


def first_difference(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def excerpt(text: str, at: int) -> str:
    return repr(text[max(0, at - 15) : at + 15])


class Collector:
    """Gathers one file's records into :class:`~metrics.annotations.model.Annotations`, checking each against the
    loaded texts. A rating is one (system, segment, rater); its errors keep file order."""

    def __init__(self, texts: LoadedTexts, source: str, scheme: Scheme) -> None:
        self.texts = texts
        self.source = source
        self.scheme = scheme
        self._ids = {str(s): i for i, s in enumerate(texts.segment_ids)} if texts.segment_ids is not None else None
        if self._ids is not None and len(self._ids) != texts.n_segments:
            raise InputError(source, "the segment ids of the loaded lines are not unique")
        self._errors: dict[tuple[str, int, str], list[AnnotatedError]] = {}
        self._lines: dict[tuple[str, int, str], int] = {}
        self._scores: dict[tuple[str, int, str], float] = {}
        self._skipped: dict[str, int] = {}
        self.checks = 0

    def error(self, message: str, line: int | None = None) -> InputError:
        return InputError(self.source, message, line)

    def system(self, name: str, line: int) -> str | None:
        """The loaded system a file's system name means; None for a system not loaded when those are skipped
        (counted)."""
        loaded = self.texts.aliases.get(name, name)
        if loaded not in self.texts.systems and self.texts.skip_unloaded:
            self._skipped[name] = self._skipped.get(name, 0) + 1
            return None
        if loaded not in self.texts.systems:
            raise self.error(
                f"unknown system {name!r}: the loaded systems are {', '.join(self.texts.systems)} (a system map, "
                "systems.tsv, names the loaded system of a file's name; or skip the systems not loaded)",
                line,
            )
        return loaded

    def segment_by_id(self, value: str, line: int, what: str) -> int:
        """A segment named by id: looked up among the loaded lines' ids, else a 1-based line number."""
        n = self.texts.n_segments
        if self._ids is not None:
            if value not in self._ids:
                raise self.error(f"{what} {value!r} is not among the {n} segment ids of the loaded lines", line)
            return self._ids[value]
        number = int(value) if value.strip().isdigit() else 0
        if not 1 <= number <= n:
            raise self.error(f"{what} {value!r} is out of range: without segment ids it is a line number 1–{n}", line)
        return number - 1

    def segment_index(self, value: object, line: int, what: str = "segment") -> int:
        """A 0-based segment index, checked."""
        n = self.texts.n_segments
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{what} must be a 0-based line number, not {value!r}", line)
        if not 0 <= value < n:
            raise self.error(f"{what} {value} is out of range: the loaded files have segments 0–{n - 1}", line)
        return value

    def text(self, side: Side, system: str, segment: int) -> str | None:
        if side is Side.SOURCE:
            return None if self.texts.source is None else self.texts.source[segment]
        return self.texts.systems[system][segment]

    def check_text(self, side: Side, system: str, segment: int, given: str, line: int) -> None:
        """The file's copy of a text must be the loaded one, so its offsets mean the same characters."""
        loaded = self.text(side, system, segment)
        if loaded is None or loaded == given:
            return
        at = first_difference(given, loaded)
        raise self.error(
            f"the {side.value} of system {system!r}, segment {segment} does not match the loaded text: they differ "
            f"at character {at} (file {excerpt(given, at)}, loaded {excerpt(loaded, at)})",
            line,
        )

    def add(
        self,
        system: str,
        segment: int,
        rater: str,
        line: int,
        error: AnnotatedError | None = None,
        score: float | None = None,
    ) -> None:
        """A record of a rating: one more error (None: the record only marks the segment rated) and/or its score."""
        key = (system, segment, rater)
        self._lines.setdefault(key, line)
        errors = self._errors.setdefault(key, [])
        if error is not None:
            errors.append(error)
        if score is not None:
            if key in self._scores and self._scores[key] != score:
                raise self.error(
                    f"rater {rater!r} gives system {system!r}, segment {segment} a second score, {score:g} "
                    f"(line {self._lines[key]}'s rating has {self._scores[key]:g})",
                    line,
                )
            self._scores[key] = score

    def build(self, digest: str = "") -> Annotations:
        if not self._errors:
            raise self.error("no ratings of the loaded systems in the file")
        per_segment: dict[str, list[list[Rating]]] = {
            s: [[] for _ in range(self.texts.n_segments)] for s in self.texts.systems
        }
        for key, errors in self._errors.items():
            system, segment, rater = key
            per_segment[system][segment].append(Rating(rater, tuple(errors), self._lines[key], self._scores.get(key)))
        ratings = {
            s: tuple(tuple(sorted(r, key=lambda rating: rating.rater)) for r in rows) for s, rows in per_segment.items()
        }
        return Annotations(
            self.scheme, self.texts.n_segments, MappingProxyType(ratings), self.source, digest,
            tuple(self._skipped.items()), self.checks,
        )  # fmt: skip
