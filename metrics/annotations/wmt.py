"""WMT's MQM ratings in Google's TSV form (google/wmt-mqm-human-evaluation; Freitag et al. 2021).

One row per error, tab-separated, no quoting, a header naming at least ``system, seg_id, rater, source, target,
category, severity`` (WMT's files also have ``doc, doc_id`` and, some years, ``comment`` and further columns, which
are read as the header names them: ``comment`` becomes the error's comment, others are ignored). The error is marked
``<v>…</v>`` in the source (an omission) or the target; the texts without the marks must be the loaded ones. A row
whose category or severity is ``No-error`` marks a segment its rater rated and found no error in.

* **Segments**: ``seg_id`` is looked up among the ids of the loaded lines (:class:`LoadedTexts.segment_ids`, e.g. the
  ``seg_id`` column of a ``meta.tsv``); without ids it is the 1-based line number.
* **Errors that cannot be located are kept** and count in MQM: a ``<v>`` without ``</v>`` (or the reverse), or a row
  with no marks at all; a ``Non-translation!`` row without marks is the whole target.
* **Severities**: Neutral, Minor, Major, Critical (any case); anything else is an error naming the line, as is a
  system that is not loaded, a segment id out of range, a text that differs from the loaded one, marks in both
  the source and the target, two marked spans in one row, a row with too few or too many columns.
"""

from __future__ import annotations

import re
from pathlib import Path

from metrics.annotations.collect import Collector, LoadedTexts, read_file
from metrics.annotations.model import AnnotatedError, Annotations, Scheme
from metrics.core.spans import ErrorSpan, Severity, Side

REQUIRED = ("system", "seg_id", "rater", "source", "target", "category", "severity")
NO_ERROR = "no-error"
OPEN, CLOSE = "<v>", "</v>"
_MARK = re.compile(r"</?v>")
_SEVERITIES = {s.value: s for s in Severity}


def parse_mqm_tsv(text: str, texts: LoadedTexts, source: str = "<MQM TSV>", digest: str = "") -> Annotations:
    """Read an MQM TSV (module docstring) against the loaded texts."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    collect = Collector(texts, source, Scheme.MQM)
    if not lines:
        raise collect.error("empty file")
    header = lines[0].rstrip("\r").split("\t")
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise collect.error(
            f"the header has no column {', '.join(map(repr, missing))}: an MQM TSV names "
            f"{', '.join(REQUIRED)} (and doc, doc_id, comment)",
            1,
        )
    column = {name: header.index(name) for name in (*REQUIRED, "comment") if name in header}
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        row = line.split("\t")
        if len(row) != len(header):
            raise collect.error(f"{len(row)} tab-separated columns where the header has {len(header)}", number)
        field = {name: row[i] for name, i in column.items()}
        system = collect.system(field["system"], number)
        if system is None:  # a system not loaded, skipped as asked (and counted)
            continue
        segment = collect.segment_by_id(field["seg_id"].strip(), number, "seg_id")
        rater = field["rater"]
        src_marked, tgt_marked = field["source"], field["target"]
        src_text, tgt_text = _MARK.sub("", src_marked), _MARK.sub("", tgt_marked)
        collect.check_text(Side.SOURCE, system, segment, src_text, number)
        collect.check_text(Side.TARGET, system, segment, tgt_text, number)
        category = field["category"].strip()
        severity_text = field["severity"].strip()
        if NO_ERROR in (category.lower(), severity_text.lower()):
            if _MARK.search(src_marked) or _MARK.search(tgt_marked):
                raise collect.error("a No-error row marks a span with <v>…</v>", number)
            collect.add(system, segment, rater, number)
            continue
        severity = _SEVERITIES.get(severity_text.lower())
        if severity is None:
            raise collect.error(
                f"severity {severity_text!r} is not one of MQM's: Neutral, Minor, Major, Critical (or No-error)",
                number,
            )
        error = _error(
            collect, severity, category or None, rater, field.get("comment", ""), number,
            (src_marked, src_text), (tgt_marked, tgt_text),
        )  # fmt: skip
        collect.add(system, segment, rater, number, error)
    return collect.build(digest)


def _error(
    collect: Collector,
    severity: Severity,
    category: str | None,
    rater: str,
    comment: str,
    number: int,
    src: tuple[str, str],
    tgt: tuple[str, str],
) -> AnnotatedError:
    marked = [side for side, (text, _) in ((Side.SOURCE, src), (Side.TARGET, tgt)) if _MARK.search(text)]
    if len(marked) == 2:
        raise collect.error("<v>…</v> marks in both the source and the target: one error, one span", number)
    if not marked:
        if (category or "").lower().rstrip("!") == "non-translation":
            whole = ErrorSpan(0, len(tgt[1]), tgt[1], severity, Side.TARGET, rater, category)
            return AnnotatedError(severity, category, whole, number, comment)
        return AnnotatedError(severity, category, None, number, comment, reason="no <v>…</v> marks in the row")
    side = marked[0]
    text, plain = src if side is Side.SOURCE else tgt
    opens, closes = text.count(OPEN), text.count(CLOSE)
    if opens > 1 or closes > 1:
        raise collect.error(f"{opens} <v> and {closes} </v> in the {side.value}: one error, one span", number)
    if opens != closes:
        reason = f"{OPEN} without {CLOSE}" if opens else f"{CLOSE} without {OPEN}"
        return AnnotatedError(severity, category, None, number, comment, reason=f"{reason} (end of span not marked)")
    start = text.index(OPEN)
    end = text.index(CLOSE) - len(OPEN)
    if end < start:
        raise collect.error(f"{CLOSE} before {OPEN} in the {side.value}", number)
    span = ErrorSpan(start, end, plain[start:end], severity, side, rater, category)
    return AnnotatedError(severity, category, span, number, comment)


def read_mqm_tsv(path: str | Path, texts: LoadedTexts) -> Annotations:
    text, digest = read_file(path)
    return parse_mqm_tsv(text, texts, str(path), digest)
