"""ESA ratings (Error Span Annotation; Kocmi et al. 2024) in the form of WMT24's release.

WMT24's human evaluation (``wmt24-news-systems``, ``humaneval/``) ships ESA as JSON Lines, one object per rating —
one annotator's judgment of one system's segment:

================ =====================================================================================================
``system``       the system's name (as loaded, or as the system map names it)
``annotator``    who rated it
``line_id``      the segment: looked up among the loaded lines' ids when they are given, else the 0-based line
                 number of the loaded files (WMT24 counts the lines of its ``txt/`` files from 0)
``src``, ``tgt`` the source and the output as the annotator saw them: must be the loaded texts (``src`` only when a
                 source is loaded)
``esa_score``    the annotator's 0–100 score of the segment
``esa_spans``    a list of ``{"start_i", "end_i", "severity", "error_type"}``: ``[start_i, end_i)`` character offsets
                 into ``tgt``; severity ``minor`` or ``major`` — or ``undecided``, which ESA's interface records when
                 the annotator set none and which is read as *neutral* (kept, weighs 0 in MQM); ``start_i`` and
                 ``end_i`` both ``"missing"``: an error marked as missing content, which has no position (kept,
                 unlocated); ``error_type`` (usually null) is the category
================ =====================================================================================================

Other keys (``langs``, ``doc_id``, ``domain``) are ignored. A segment's ESA score is the mean of its annotators'
scores (:func:`segment_esa`). Every problem is an :class:`~metrics.io.inputs.InputError` naming the file and line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from metrics.annotations.collect import Collector, LoadedTexts, collect_json_lines, read_file
from metrics.annotations.model import AnnotatedError, Annotations, Rating, Scheme
from metrics.core.spans import ErrorSpan, Severity, Side

MISSING = "missing"
ESA_SEVERITIES = {"minor": Severity.MINOR, "major": Severity.MAJOR, "undecided": Severity.NEUTRAL}
ESA_RANGE = (0.0, 100.0)


def parse_esa_jsonl(
    lines: Sequence[str], texts: LoadedTexts, source: str = "<ESA JSONL>", digest: str = ""
) -> Annotations:
    """Read WMT24-style ESA ratings (module docstring) against the loaded texts."""
    return collect_json_lines(lines, Collector(texts, source, Scheme.ESA), _rating, digest)


def _rating(collect: Collector, record: dict[str, Any], number: int) -> None:
    for key in ("system", "annotator", "tgt"):
        if not isinstance(record.get(key), str):
            raise collect.error(f"{key!r} must be a string, not {record.get(key)!r}", number)
    system = collect.system(record["system"], number)
    if system is None:  # a system not loaded, skipped as asked (and counted)
        return
    line_id = record.get("line_id")
    if collect.texts.segment_ids is not None:
        segment = collect.segment_by_id(str(line_id), number, "line_id")
    else:
        segment = collect.segment_index(line_id, number, "line_id")
    if isinstance(record.get("src"), str):
        collect.check_text(Side.SOURCE, system, segment, record["src"], number)
    collect.check_text(Side.TARGET, system, segment, record["tgt"], number)
    score = record.get("esa_score")
    low, high = ESA_RANGE
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not low <= score <= high:
        raise collect.error(f"esa_score must be a number from {low:g} to {high:g}, not {score!r}", number)
    spans = record.get("esa_spans", [])
    if not isinstance(spans, list):
        raise collect.error(f"esa_spans must be a list, not {spans!r}", number)
    rater = record["annotator"]
    collect.add(system, segment, rater, number, None, float(score))
    for item in spans:
        collect.add(system, segment, rater, number, _error(collect, item, record["tgt"], rater, number))


def _error(collect: Collector, item: object, target: str, rater: str, number: int) -> AnnotatedError:
    if not isinstance(item, dict):
        raise collect.error(f"an ESA span must be an object, not {item!r}", number)
    severity = ESA_SEVERITIES.get(str(item.get("severity")).lower())
    if severity is None:
        raise collect.error(f"ESA severity {item.get('severity')!r} is not one of {', '.join(ESA_SEVERITIES)}", number)
    category = item.get("error_type")
    if category is not None and not isinstance(category, str):
        raise collect.error(f"error_type must be a string or null, not {category!r}", number)
    start, end = item.get("start_i"), item.get("end_i")
    if start == MISSING and end == MISSING:
        return AnnotatedError(severity, category, None, number, reason="marked as missing content (no position)")
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
        raise collect.error(f"start_i and end_i must be integers (or both 'missing'), not {start!r}, {end!r}", number)
    if not 0 <= start <= end <= len(target):
        raise collect.error(f"span [{start}, {end}) is outside the target ({len(target)} characters)", number)
    span = ErrorSpan(start, end, target[start:end], severity, Side.TARGET, rater, category)
    return AnnotatedError(severity, category, span, number)


def read_esa_jsonl(path: str | Path, texts: LoadedTexts) -> Annotations:
    text, digest = read_file(path)
    return parse_esa_jsonl(text.split("\n"), texts, str(path), digest)


def segment_esa(ratings: Sequence[Rating]) -> float:
    """The ESA score of one segment: the mean of its raters' scores; NaN if no rater gave one."""
    scores = [r.score for r in ratings if r.score is not None]
    return sum(scores) / len(scores) if scores else math.nan
