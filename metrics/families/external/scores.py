"""Segment scores computed elsewhere (COMET, xCOMET, MetricX, BLEURT, an LLM judge, human raters), read from a file.

Two layouts, the file type following the suffix:

* **long**: one score per row — JSON lines (``.jsonl``/``.ndjson``) objects, or ``.tsv``/``.csv`` rows under a
  header — with the fields ``system``, ``segment`` and ``score``. Other fields are allowed and named in a note.
* **wide**: a ``.tsv``/``.csv`` whose header names the systems, one column each, one row per segment in order; an
  optional ``segment`` column gives each row's segment instead of its position.

``segment`` counts from 0 unless the user declares the file 1-based (sacrebleu-style tools count lines from 1).
Every score must be a finite number, every loaded system must have exactly one score for every segment, and every
system in the file must be loaded: a missing system or segment, a duplicate, NaN, ±inf or a non-numeric value is
an :class:`~metrics.io.inputs.InputError` naming the file and (where there is one) the line. Nothing is dropped.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from metrics.families.external.fits import check_fit
from metrics.io.inputs import MAX_FILE_BYTES, InputError, decode_text, display_name, json_line, table_rows

SYSTEM = "system"
SEGMENT = "segment"
SCORE = "score"
_NAME_FORBIDDEN = set(",=:|") | {" ", "\t", "\n"}


@dataclass(frozen=True)
class ExternalScores:
    """The scores of one external metric for every loaded system, with what the user declared about them.

    ``scores[system][i]`` is the score of segment ``i`` (0-based) and ``lines[system][i]`` the line of the file it
    came from. ``name`` is the metric id it appears under everywhere (JSON, CSV, the app); ``provenance`` says how
    the scores were made (tool, model, version) and leads the signature; ``digest`` is the file's SHA-256 prefix;
    ``fit``: the human-agreement fit the scores take (:mod:`metrics.analysis.agreement`) — ``""`` to match it by
    ``name``, ``"none"`` for no estimate, or an mt-thresholds name (``comet22``).
    """

    name: str
    source: str
    scores: Mapping[str, tuple[float, ...]]
    lines: Mapping[str, tuple[int, ...]]
    higher_is_better: bool = True
    provenance: str = ""
    one_based: bool = False
    digest: str = ""
    notes: tuple[str, ...] = field(default=())
    fit: str = ""

    def __post_init__(self) -> None:
        check_name(self.name)
        check_provenance(self.provenance)
        check_fit(self.fit)
        if set(self.scores) != set(self.lines):
            raise ValueError(f"{self.name}: scores and lines name different systems")
        lengths = {len(v) for v in (*self.scores.values(), *self.lines.values())}
        if len(lengths) > 1:
            raise ValueError(f"{self.name}: systems have different numbers of scores ({sorted(lengths)})")

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.scores)

    def __len__(self) -> int:
        return len(next(iter(self.scores.values()), ()))

    def fingerprint(self) -> str:
        """A hash of everything the scores, their signature and their agreement estimate depend on (system names
        included)."""
        content = [
            self.name,
            self.provenance,
            self.higher_is_better,
            self.one_based,
            self.digest,
            self.source,
            self.fit,
        ]
        content.append({name: [repr(v) for v in values] for name, values in self.scores.items()})
        return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:32]

    def renamed(self, old: str, new: str) -> ExternalScores:
        """The same scores with system ``old`` called ``new``."""
        return replace(
            self,
            scores={(new if k == old else k): v for k, v in self.scores.items()},
            lines={(new if k == old else k): v for k, v in self.lines.items()},
        )

    def without(self, system: str) -> ExternalScores:
        return replace(
            self,
            scores={k: v for k, v in self.scores.items() if k != system},
            lines={k: v for k, v in self.lines.items() if k != system},
        )

    def declared(self, *, higher_is_better: bool, provenance: str) -> ExternalScores:
        """The same scores with another direction or provenance."""
        return replace(self, higher_is_better=higher_is_better, provenance=provenance)


def check_name(name: str) -> None:
    """A metric id the user chooses: non-empty, and free of the characters that separate CLI and signature fields."""
    if not name or any(ch in _NAME_FORBIDDEN for ch in name):
        raise ValueError(f"external metric name {name!r}: use letters, digits, '-', '_' or '.', e.g. comet22")


def check_provenance(provenance: str) -> None:
    if "|" in provenance or "\n" in provenance:
        raise ValueError(f"provenance {provenance!r}: '|' and line breaks separate signature fields; leave them out")


def _shown(value: Any) -> str:
    """A value from the file as a message quotes it: the start of a long one (a message is not a copy of the file)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:60]}… ({len(text):,} characters)"


def _number(value: Any, source: str, line: int | None, what: str) -> float:
    """A finite score: a JSON number, or the text of one in a table."""
    if isinstance(value, bool) or value is None:
        raise InputError(source, f"{what} is {json.dumps(value)}, not a number", line)
    if isinstance(value, str):
        text = value.strip()
        try:
            number = float(text)
        except ValueError:
            raise InputError(source, f"{what} {_shown(value)} is not a number", line) from None
    elif isinstance(value, int | float):
        number = float(value)
    else:
        raise InputError(source, f"{what} is a {type(value).__name__}, not a number", line)
    if not math.isfinite(number):
        raise InputError(source, f"{what} is {number}; scores must be finite numbers", line)
    return number


def _segment(value: Any, source: str, line: int, one_based: bool) -> int:
    """A 0-based segment index from the file's own counting."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(source, f"segment {_shown(value)} is not a whole number", line)
    first = 1 if one_based else 0
    if value < first:
        counting = "1-based (the first segment is 1)" if one_based else "0-based (the first segment is 0)"
        raise InputError(source, f"segment {value} is below the first segment; the file is read as {counting}", line)
    return value - first


class _Collector:
    """Scores as they are read, checked against the loaded systems and segment count."""

    def __init__(self, source: str, systems: Sequence[str], n_segments: int, one_based: bool) -> None:
        self.source, self.systems, self.n, self.one_based = source, list(systems), n_segments, one_based
        self.found: dict[str, dict[int, tuple[float, int]]] = {}

    def add(self, system: Any, segment: Any, score: Any, line: int) -> None:
        source = self.source
        if not isinstance(system, str) or not system:
            raise InputError(source, f"system {_shown(system)} is not a system name", line)
        if system not in self.systems:
            raise InputError(source, f"system {_shown(system)} is not loaded (loaded: {', '.join(self.systems)})", line)
        index = _segment(segment, source, line, self.one_based)
        if index >= self.n:
            shown = index + (1 if self.one_based else 0)
            raise InputError(source, f"segment {shown} is beyond the {self.n} loaded segments", line)
        value = _number(score, source, line, "score")
        known = self.found.setdefault(system, {})
        if index in known:
            raise InputError(
                source,
                f"a second score for system {system!r}, segment {segment} (first on line {known[index][1]})",
                line,
            )
        known[index] = (value, line)

    def finish(self, name: str, **declared: Any) -> ExternalScores:
        missing = [s for s in self.systems if s not in self.found]
        if missing:
            raise InputError(self.source, f"no scores for system(s) {', '.join(map(repr, missing))}")
        first = 1 if self.one_based else 0
        for system in self.systems:
            gaps = [i + first for i in range(self.n) if i not in self.found[system]]
            if gaps:
                listed = ", ".join(map(str, gaps[:10])) + (", …" if len(gaps) > 10 else "")
                raise InputError(self.source, f"system {system!r} has no score for {len(gaps)} segment(s): {listed}")
        scores = {s: tuple(self.found[s][i][0] for i in range(self.n)) for s in self.systems}
        lines = {s: tuple(self.found[s][i][1] for i in range(self.n)) for s in self.systems}
        return ExternalScores(name, self.source, scores, lines, one_based=self.one_based, **declared)


def _rows_jsonl(text: str, collector: _Collector) -> list[str]:
    extra: dict[str, None] = {}
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError(collector.source, "empty line in a JSON-lines file", number)
        value = json_line(line, collector.source, number)
        if not isinstance(value, dict):
            raise InputError(collector.source, f"expected an object, got {type(value).__name__}", number)
        for key in (SYSTEM, SEGMENT, SCORE):
            if key not in value:
                raise InputError(collector.source, f"object has no {key!r} field (fields: {', '.join(value)})", number)
        if isinstance(value[SCORE], str):
            raise InputError(
                collector.source, f"score {_shown(value[SCORE])} is text; write the number without quotes", number
            )
        extra.update(dict.fromkeys(k for k in value if k not in (SYSTEM, SEGMENT, SCORE)))
        collector.add(value[SYSTEM], value[SEGMENT], value[SCORE], number)
    return list(extra)


def _rows_table(text: str, collector: _Collector, delimiter: str) -> list[str]:
    source = collector.source
    rows = table_rows(text, source, delimiter)
    if not rows:
        raise InputError(source, "the table is empty")
    header = [h.strip() for h in rows[0]]
    if len(set(header)) != len(header):
        raise InputError(source, f"the header names a column twice: {', '.join(header)}", 1)
    long = SYSTEM in header and SCORE in header
    if long and SEGMENT not in header:
        raise InputError(source, f"a table of {SYSTEM}/{SCORE} rows needs a {SEGMENT!r} column", 1)
    systems = [h for h in header if h != SEGMENT]
    if not long:
        unknown = [h for h in systems if h not in collector.systems]
        if unknown:
            raise InputError(
                source,
                f"column(s) {', '.join(map(repr, unknown))} are neither loaded systems ({', '.join(collector.systems)}) "
                f"nor the long layout's {SYSTEM}/{SEGMENT}/{SCORE}",
                1,
            )
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise InputError(source, f"row has {len(row)} fields but the header has {len(header)}", number)
        cells = dict(zip(header, row, strict=True))
        if long:
            collector.add(cells[SYSTEM], cells[SEGMENT], cells[SCORE], number)
            continue
        segment: Any = cells[SEGMENT] if SEGMENT in cells else number - 2 + (1 if collector.one_based else 0)
        for system in systems:
            collector.add(system, segment, cells[system], number)
    return [h for h in header if h not in (SYSTEM, SEGMENT, SCORE)] if long else []


def parse_external(
    data: bytes,
    source: str,
    name: str,
    systems: Sequence[str],
    n_segments: int,
    *,
    one_based: bool = False,
    higher_is_better: bool = True,
    provenance: str = "",
    fit: str = "",
) -> ExternalScores:
    """Read the external scores in ``data`` (the bytes of file ``source``) for the loaded ``systems`` of
    ``n_segments`` segments each, under the metric id ``name``."""
    try:
        check_name(name)
        check_provenance(provenance)
        check_fit(fit)
    except ValueError as err:
        raise InputError(source, str(err)) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(source, f"file has {len(data):,} bytes, more than the limit of {MAX_FILE_BYTES:,}")
    if not data.strip():
        raise InputError(source, "file is empty")
    notes: list[str] = []
    text = decode_text(data, source, notes)
    collector = _Collector(source, systems, n_segments, one_based)
    suffix = Path(source).suffix.lower()
    if suffix in {".jsonl", ".ndjson"}:
        unused = _rows_jsonl(text, collector)
    elif suffix in {".tsv", ".csv"}:
        unused = _rows_table(text, collector, "\t" if suffix == ".tsv" else ",")
    else:
        raise InputError(source, "external scores are read from .jsonl, .ndjson, .tsv or .csv files")
    if unused:
        notes.append(f"{source}: field(s) {', '.join(unused)} are not used (only {SYSTEM}, {SEGMENT}, {SCORE})")
    digest = hashlib.sha256(data).hexdigest()[:12]
    return collector.finish(
        name, higher_is_better=higher_is_better, provenance=provenance, digest=digest, notes=tuple(notes), fit=fit
    )


def read_external(
    path: str | Path, name: str, systems: Sequence[str], n_segments: int, **declared: Any
) -> ExternalScores:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(str(path), f"cannot read file ({err.strerror or err})") from None
    return parse_external(data, str(path), name, systems, n_segments, **declared)


def default_name(source: str) -> str:
    """A metric id from a file name: ``comet22.scores.jsonl`` → ``comet22.scores``, unusable characters as ``-``."""
    return "".join("-" if ch in _NAME_FORBIDDEN else ch for ch in display_name(source)) or "external"


def to_document(scores: ExternalScores) -> dict[str, Any]:
    """The scores as JSON (a workspace file keeps them)."""
    return {
        "name": scores.name,
        "source": scores.source,
        "higher_is_better": scores.higher_is_better,
        "provenance": scores.provenance,
        "one_based": scores.one_based,
        "digest": scores.digest,
        "fit": scores.fit,
        "scores": {system: list(values) for system, values in scores.scores.items()},
        "lines": {system: list(values) for system, values in scores.lines.items()},
    }


def from_document(document: Any, source: str) -> ExternalScores:
    """The inverse of :func:`to_document`; anything malformed is an :class:`InputError` naming ``source``."""
    if not isinstance(document, dict):
        raise InputError(source, "an external metric must be an object")
    name = document.get("name")
    where = f"external metric {name!r}"
    scores, lines = document.get("scores"), document.get("lines")
    if not isinstance(scores, dict) or not isinstance(lines, dict) or set(scores) != set(lines):
        raise InputError(source, f"{where}: 'scores' and 'lines' must map the same systems to lists")
    parsed: dict[str, tuple[float, ...]] = {}
    for system, values in scores.items():
        if not isinstance(values, list):
            raise InputError(source, f"{where}: scores of {system!r} must be a list")
        parsed[system] = tuple(_number(v, source, None, f"{where}, a score of {system!r}") for v in values)
    line_numbers: dict[str, tuple[int, ...]] = {}
    for system, values in lines.items():
        if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise InputError(source, f"{where}: lines of {system!r} must be whole numbers")
        line_numbers[system] = tuple(values)
    texts = {key: document.get(key, "") for key in ("name", "source", "provenance", "digest", "fit")}
    flags = {key: document.get(key, default) for key, default in (("higher_is_better", True), ("one_based", False))}
    if not all(isinstance(v, str) for v in texts.values()) or not all(isinstance(v, bool) for v in flags.values()):
        raise InputError(source, f"{where}: name, source, provenance, digest and fit are text; the flags true or false")
    try:
        return ExternalScores(
            texts["name"], texts["source"], parsed, line_numbers, flags["higher_is_better"], texts["provenance"],
            flags["one_based"], texts["digest"], fit=texts["fit"],
        )  # fmt: skip
    except ValueError as err:
        raise InputError(source, str(err)) from None
