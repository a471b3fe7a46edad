"""Human error annotations (MQM, ESA, JSON Lines spans) read from an upload against the loaded data, with a message
naming the file and line for every problem. Pure functions (no Streamlit): the Data page shows what they return,
and the loaded data changes only when one succeeds.

The readers are :mod:`metrics.annotations`' (shared with the command line); here a file meets the loaded texts: the
systems by the names the app shows (a system map renames the file's names), the source (omissions are marked
there) and optional segment ids (WMT's ``seg_id``, one per loaded line)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from dashboard.dataset import Dataset
from dashboard.intake import MAX_UPLOAD_BYTES, too_large
from metrics.annotations.collect import LoadedTexts
from metrics.annotations.esa import parse_esa_jsonl
from metrics.annotations.model import Annotations, Scheme
from metrics.annotations.read import guess_scheme
from metrics.annotations.spans_jsonl import parse_spans_jsonl
from metrics.annotations.wmt import parse_mqm_tsv
from metrics.io.inputs import InputError, decode_text

Reader = Callable[[str, LoadedTexts, str, str], Annotations]

READERS: dict[Scheme, Reader] = {
    Scheme.MQM: parse_mqm_tsv,
    Scheme.ESA: lambda text, texts, source, digest: parse_esa_jsonl(text.split("\n"), texts, source, digest),
    Scheme.SPANS: lambda text, texts, source, digest: parse_spans_jsonl(text.split("\n"), texts, source, digest),
}

FORMAT_WORDS = {
    Scheme.MQM: "MQM TSV (WMT / Google: errors marked <v>…</v>)",
    Scheme.ESA: "ESA JSON Lines (WMT24: spans and a 0–100 score)",
    Scheme.SPANS: "JSON Lines spans (ScoreLens: human, xCOMET, LLM judges)",
}


def guessed_scheme(name: str, content: bytes) -> Scheme:
    """The format a file's name and first line suggest (:func:`metrics.annotations.read.guess_scheme`)."""
    return guess_scheme(name, content[:65536].decode("utf-8", errors="replace"))


def loaded_texts(data: Dataset, ids: Sequence[str] | None = None, *, skip_unloaded: bool = False) -> LoadedTexts:
    return LoadedTexts(data.systems, data.source, {}, ids, skip_unloaded)


def parse_annotation_upload(
    name: str,
    content: bytes,
    scheme: Scheme,
    data: Dataset,
    *,
    ids: Sequence[str] | None = None,
    notes: list[str] | None = None,
    skip_unloaded: bool = False,
) -> Annotations:
    """The annotations of one uploaded file, located in the loaded texts; :class:`InputError` (file and line) when
    a record does not fit them. ``ids``: the id of each loaded line, where the file names segments by id;
    ``skip_unloaded``: records of systems not loaded are left out and counted (the summary says so) instead of
    refused."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise too_large(name, len(content))
    if ids is not None and len(ids) != len(data):
        raise InputError(name, f"{len(ids)} segment ids for {len(data)} loaded segments")
    text = decode_text(content, name, notes if notes is not None else [])
    digest = hashlib.sha256(content).hexdigest()[:12]  # as metrics.annotations.collect.read_file makes it
    return READERS[scheme](text, loaded_texts(data, ids, skip_unloaded=skip_unloaded), name, digest)


def default_name(scheme: Scheme, taken: Sequence[str]) -> str:
    """The name a new set of annotations is filed under: its scheme's (``mqm``), ``mqm-2``… when taken."""
    base = scheme.value
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return name
