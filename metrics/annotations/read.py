"""Read an annotation file of any scheme: ``read_annotations(path, texts, scheme)``.

The scheme is given, or follows from the file: a ``.tsv`` is WMT's MQM TSV (:mod:`metrics.annotations.wmt`); a JSON
Lines file whose first record has ``esa_score`` is WMT24's ESA (:mod:`metrics.annotations.esa`), any other is
ScoreLens's span format (:mod:`metrics.annotations.spans_jsonl`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from metrics.annotations.collect import LoadedTexts, read_file
from metrics.annotations.esa import parse_esa_jsonl
from metrics.annotations.model import Annotations, Scheme
from metrics.annotations.spans_jsonl import parse_spans_jsonl
from metrics.annotations.wmt import parse_mqm_tsv

_PARSERS: dict[Scheme, Callable[[str, LoadedTexts, str, str], Annotations]] = {
    Scheme.MQM: parse_mqm_tsv,
    Scheme.ESA: lambda text, texts, source, digest: parse_esa_jsonl(text.split("\n"), texts, source, digest),
    Scheme.SPANS: lambda text, texts, source, digest: parse_spans_jsonl(text.split("\n"), texts, source, digest),
}


def guess_scheme(path: str | Path, text: str) -> Scheme:
    """The scheme of a file not declared (module docstring)."""
    if Path(path).suffix.lower() == ".tsv":
        return Scheme.MQM
    first = next((line for line in text.split("\n") if line.strip()), "")
    try:
        record = json.loads(first)
    except json.JSONDecodeError:
        return Scheme.SPANS  # the span reader names the line it cannot read
    return Scheme.ESA if isinstance(record, dict) and "esa_score" in record else Scheme.SPANS


def read_annotations(path: str | Path, texts: LoadedTexts, scheme: Scheme | str | None = None) -> Annotations:
    """The annotations of one file, checked against the loaded texts (errors name the file and line)."""
    text, digest = read_file(path)
    chosen = Scheme(scheme) if scheme is not None else guess_scheme(path, text)
    return _PARSERS[chosen](text, texts, str(path), digest)
