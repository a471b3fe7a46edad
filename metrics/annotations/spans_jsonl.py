"""ScoreLens's JSON Lines span format: human error spans, xCOMET's spans and an LLM judge's, one error per line.

Each line is one JSON object:

=============== ======================================================================================================
``system``      the system's name (as loaded, or as the system map names it); required
``segment``     0-based line of the loaded files; required
``rater``       who marked it: a rater's id, a model's name (``xCOMET-XL``), a judge's (``GEMBA-MQM gpt-4o``); required
``severity``    ``neutral``, ``minor``, ``major`` or ``critical`` (any case). Absent or null: the line marks the
                segment rated by ``rater`` with no error (a judge that found none writes this line)
``side``        ``target`` (default) or ``source`` (an omission)
``start``       ``[start, end)``: Python string offsets (code points) into that side's loaded text. Both null: an
``end``         error that has no position; ``unlocated`` may say why. It still counts in MQM
``category``    MQM's category (``Accuracy/Mistranslation``), or null
``text``        optional: the marked characters; when given it must equal the loaded text's ``[start, end)``
``score``       optional: the rater's score of the segment (ESA's 0–100, a judge's score); one per rating
``explanation`` optional: the rater's comment or the judge's explanation (``comment`` is read the same)
``confidence``  optional: the producer's probability of the span (xCOMET's mean label probability)
=============== ======================================================================================================

Other keys (``weight``, ``tsv_line``) are ignored. A wrong type, an offset outside the text, a ``text`` that differs
from the loaded one, an unknown system, a segment out of range or a severity outside the scheme is an
:class:`~metrics.io.inputs.InputError` naming the file and line. :func:`write_spans_jsonl` writes the format from any
:class:`~metrics.annotations.model.Annotations` (read from MQM, ESA, or made from xCOMET's spans by
:func:`model_annotations`), one line per error and one per rating without errors, so that reading it back gives the
same annotations.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from metrics.annotations.collect import Collector, LoadedTexts, collect_json_lines, read_file
from metrics.annotations.model import AnnotatedError, Annotations, Rating, Scheme
from metrics.core.spans import ErrorSpan, Severity, Side

NO_POSITION = "no position given"
_SEVERITIES = {s.value: s for s in Severity}
_SIDES = {s.value: s for s in Side}


def parse_spans_jsonl(
    lines: Sequence[str], texts: LoadedTexts, source: str = "<spans JSONL>", digest: str = ""
) -> Annotations:
    """Read the span format (module docstring) against the loaded texts."""
    return collect_json_lines(lines, Collector(texts, source, Scheme.SPANS), _record, digest)


def _string(collect: Collector, record: dict[str, Any], key: str, number: int, *, required: bool) -> str | None:
    value = record.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise collect.error(f"{key!r} must be a string, not {value!r}", number)
    return value


def _number(collect: Collector, record: dict[str, Any], key: str, number: int) -> float | None:
    value = record.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise collect.error(f"{key!r} must be a finite number, not {value!r}", number)
    return float(value)


def _record(collect: Collector, record: dict[str, Any], number: int) -> None:
    system = collect.system(_string(collect, record, "system", number, required=True) or "", number)
    if system is None:  # a system not loaded, skipped as asked (and counted)
        return
    segment = collect.segment_index(record.get("segment"), number)
    rater = _string(collect, record, "rater", number, required=True) or ""
    score = _number(collect, record, "score", number)
    severity_text = _string(collect, record, "severity", number, required=False)
    if severity_text is None:
        collect.add(system, segment, rater, number, None, score)
        return
    severity = _SEVERITIES.get(severity_text.strip().lower())
    if severity is None:
        raise collect.error(
            f"severity {severity_text!r} is not one of {', '.join(_SEVERITIES)} (or null for no error)", number
        )
    category = _string(collect, record, "category", number, required=False)
    comment = (
        _string(collect, record, "explanation", number, required=False)
        or _string(collect, record, "comment", number, required=False)
        or ""
    )
    start, end = record.get("start"), record.get("end")
    if start is None and end is None:
        reason = _string(collect, record, "unlocated", number, required=False) or NO_POSITION
        error = AnnotatedError(severity, category, None, number, comment, reason=reason)
    else:
        span = _span(collect, record, system, segment, severity, rater, category, number)
        error = AnnotatedError(severity, category, span, number, comment)
    collect.add(system, segment, rater, number, error, score)


def _span(
    collect: Collector,
    record: dict[str, Any],
    system: str,
    segment: int,
    severity: Severity,
    rater: str,
    category: str | None,
    number: int,
) -> ErrorSpan:
    side_text = record.get("side") or Side.TARGET.value
    side = _SIDES.get(side_text) if isinstance(side_text, str) else None
    if side is None:
        raise collect.error(f"side must be 'target' or 'source', not {side_text!r}", number)
    start, end = record.get("start"), record.get("end")
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
        raise collect.error(f"start and end must be integers (or both null), not {start!r} and {end!r}", number)
    given = _string(collect, record, "text", number, required=False)
    loaded = collect.text(side, system, segment)
    if loaded is None:
        if given is None or len(given) != end - start:
            raise collect.error(
                "a source span needs the source loaded (or its 'text', end − start characters long)", number
            )
        text = given
    else:
        if not 0 <= start <= end <= len(loaded):
            raise collect.error(
                f"span [{start}, {end}) is outside the loaded {side.value} of system {system!r}, segment "
                f"{segment} ({len(loaded)} characters)",
                number,
            )
        text = loaded[start:end]
        if given is not None and given != text:
            raise collect.error(
                f"'text' {given!r} is not the loaded {side.value}'s characters [{start}, {end}): {text!r}", number
            )
    confidence = _number(collect, record, "confidence", number)
    return ErrorSpan(start, end, text, severity, side, rater, category, confidence)


def read_spans_jsonl(path: str | Path, texts: LoadedTexts) -> Annotations:
    text, digest = read_file(path)
    return parse_spans_jsonl(text.split("\n"), texts, str(path), digest)


def span_records(annotations: Annotations) -> Iterator[dict[str, Any]]:
    """The format's records of some annotations: one per error, one per rating without errors; the rating's score
    on its first record."""
    for system, rows in annotations.ratings.items():
        for segment, ratings in enumerate(rows):
            for rating in ratings:
                yield from _rating_records(system, segment, rating)


def _rating_records(system: str, segment: int, rating: Rating) -> Iterator[dict[str, Any]]:
    head: dict[str, Any] = {"system": system, "segment": segment, "rater": rating.rater}
    scored = {"score": rating.score} if rating.score is not None else {}
    if not rating.errors:
        yield {**head, **scored}
    for k, error in enumerate(rating.errors):
        record = {**head, "severity": error.severity.value, "category": error.category}
        span = error.span
        if span is None:
            record.update(side=None, start=None, end=None, unlocated=error.reason)
        else:
            record.update(side=span.side.value, start=span.start, end=span.end, text=span.text)
            if span.confidence is not None:
                record["confidence"] = span.confidence
        if error.comment:
            record["explanation"] = error.comment
        yield {**record, **(scored if k == 0 else {})}


def write_spans_jsonl(annotations: Annotations | Sequence[Annotations], path: str | Path) -> int:
    """Write the format (UTF-8, one object per line) of one or several annotations, in turn; returns the number of
    lines."""
    every = [annotations] if isinstance(annotations, Annotations) else list(annotations)
    count = 0
    with Path(path).open("w", encoding="utf-8", newline="\n") as out:
        for one in every:
            for record in span_records(one):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
    return count


def model_annotations(
    spans: Mapping[str, Sequence[Sequence[ErrorSpan]]],
    origin: str,
    scores: Mapping[str, Sequence[float]] | None = None,
) -> Annotations:
    """Annotations made by a model (xCOMET's spans, a judge's): ``spans[system][i]`` are its spans on segment
    ``i`` (every segment is rated: no spans = no error found); ``scores`` its segment scores, if any. The rater is
    ``origin``; each span keeps its confidence. Lines are 0: nothing was read from a file."""
    n = {len(rows) for rows in spans.values()}
    if len(n) != 1:
        raise ValueError(f"model spans for segments of different lengths: {sorted(n)}")
    ratings = {}
    for system, rows in spans.items():
        values = scores.get(system) if scores is not None else None
        ratings[system] = tuple(
            (
                Rating(
                    origin,
                    tuple(AnnotatedError(s.severity, s.category, _as_origin(s, origin), 0) for s in row),
                    0,
                    None if values is None else float(values[i]),
                ),
            )
            for i, row in enumerate(rows)
        )
    return Annotations(Scheme.SPANS, n.pop(), MappingProxyType(ratings), origin)


def _as_origin(span: ErrorSpan, origin: str) -> ErrorSpan:
    return span if span.origin == origin else replace(span, origin=origin)
