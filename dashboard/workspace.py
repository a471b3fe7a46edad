"""The whole workspace — data and settings — as one JSON document, so a refreshed browser loses nothing saved.

Loading is strict: anything malformed raises :class:`InputError` naming the file and the offending field, and the
caller keeps what was loaded before. Loading reads the document alone: an option that names a file holds the file's
content (an :class:`~metrics.core.upload.Upload`, saved as ``{"upload": name, "base64": bytes}``), and whether the
server takes an option's value is the app's check when it applies the settings
(:func:`dashboard.server_config.check_browser_options`).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dashboard.dataset import Dataset
from metrics.analysis.slices import Slice
from metrics.core.upload import Upload
from metrics.families.external.scores import from_document, to_document
from metrics.io.inputs import InputError
from metrics.io.metadata import Metadata
from metrics.stats.human import HumanScores

FORMAT = "scorelens-workspace"
VERSION = 1


@dataclass(frozen=True)
class Settings:
    """Everything the user chose besides the data: metrics, their options, and where they were looking."""

    metrics: tuple[str, ...] = ()
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    view: Mapping[str, Any] = field(default_factory=dict)  # baseline, segment, explorer filters …
    slices: tuple[Slice, ...] = ()  # named sets of segments (the Analysis page scores them)
    metadata: Metadata | None = None  # per-segment columns for buckets and documents (the Analysis page's upload)


def dumps(dataset: Dataset, settings: Settings) -> str:
    document = {
        "format": FORMAT,
        "version": VERSION,
        "title": dataset.title,
        "references": [
            {"name": name, "segments": list(texts)} for name, texts in zip(dataset.ref_names, dataset.refs, strict=True)
        ],
        "systems": [{"name": name, "segments": list(texts)} for name, texts in dataset.systems.items()],
        "source": list(dataset.source) if dataset.source is not None else None,
        "human": _human_document(dataset.human),
        "external": [to_document(scores) for scores in dataset.external.values()],
        "settings": {
            "metrics": list(settings.metrics),
            "options": {
                family: {name: _option_document(value) for name, value in values.items()}
                for family, values in settings.options.items()
            },
            "view": dict(settings.view),
            "slices": [
                {"name": s.name, "description": s.description, "segments": list(s.segments)} for s in settings.slices
            ],
            "metadata": _metadata_document(settings.metadata),
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def _option_document(value: Any) -> Any:
    """An option's value as JSON: an uploaded file as its name and bytes."""
    if isinstance(value, Upload):
        return {"upload": value.name, "base64": base64.b64encode(value.data).decode("ascii")}
    return value


def _option_value(value: Any, where: str, source: str) -> Any:
    """An option's value from JSON: an object is an uploaded file (:func:`_option_document`)."""
    if not isinstance(value, dict):
        return value
    name, data = value.get("upload"), value.get("base64")
    if set(value) != {"upload", "base64"} or not isinstance(name, str) or not isinstance(data, str):
        raise InputError(source, f'{where} must be a value or an uploaded file {{"upload": name, "base64": bytes}}')
    try:
        return Upload(name, base64.b64decode(data, validate=True))
    except binascii.Error:
        raise InputError(source, f"{where}: the uploaded file's bytes are not base64") from None


def _human_document(human: HumanScores | None) -> dict[str, Any] | None:
    """Human scores as JSON: ``null`` for a segment without a judgment (JSON has no NaN)."""
    if human is None:
        return None
    scores = {
        name: [None if math.isnan(v) else float(v) for v in values.tolist()] for name, values in human.scores.items()
    }
    return {"source": human.source, "scores": scores}


def _human(value: Any, source: str) -> HumanScores | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("scores"), dict) or not value["scores"]:
        raise InputError(source, "'human' must be an object with a non-empty 'scores' object")
    scores = {}
    for name, values in value["scores"].items():
        ok = isinstance(values, list) and all(
            v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)) for v in values
        )
        if not ok:
            raise InputError(source, f"human.scores[{name!r}] must be a list of finite numbers or nulls")
        scores[name] = np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)
    try:
        return HumanScores(scores, value["source"] if isinstance(value.get("source"), str) else "")
    except ValueError as err:
        raise InputError(source, f"human scores: {err}") from None


def _metadata_document(metadata: Metadata | None) -> dict[str, Any] | None:
    if metadata is None:
        return None
    return {"source": metadata.source, "columns": {name: list(metadata.values[name]) for name in metadata.columns}}


def _metadata(value: Any, n_segments: int, source: str) -> Metadata | None:
    if value is None:
        return None
    columns = value.get("columns") if isinstance(value, dict) else None
    if not isinstance(columns, dict) or not columns:
        raise InputError(source, "settings.metadata must be an object with a non-empty 'columns' object")
    values = {}
    for name, column in columns.items():
        where = f"settings.metadata.columns[{name!r}]"
        values[name] = _strings(column, where, source)
        if len(values[name]) != n_segments:
            raise InputError(source, f"{where} has {len(values[name])} values but the data has {n_segments} segments")
    origin = value.get("source") if isinstance(value.get("source"), str) else "metadata"
    return Metadata(origin, tuple(values), values)


def _slices(value: Any, n_segments: int, source: str) -> tuple[Slice, ...]:
    if not isinstance(value, list):
        raise InputError(source, "settings.slices must be a list of {name, description, segments} objects")
    found = []
    for k, item in enumerate(value, start=1):
        where = f"settings.slices[{k}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise InputError(source, f"{where} must be an object with a string 'name'")
        segments = item.get("segments")
        if not isinstance(segments, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in segments):
            raise InputError(source, f"{where}.segments must be a list of 0-based segment numbers")
        try:
            piece = Slice(item["name"], str(item.get("description", "")), tuple(segments))
            piece.check(n_segments)
        except ValueError as err:
            raise InputError(source, f"{where}: {err}") from None
        found.append(piece)
    if len({piece.name for piece in found}) != len(found):
        raise InputError(source, "two slices have the same name")
    return tuple(found)


def _strings(value: Any, where: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise InputError(source, f"{where} must be a list of strings")
    return tuple(value)


def _streams(document: Mapping[str, Any], key: str, source: str) -> list[tuple[str, tuple[str, ...]]]:
    items = document.get(key)
    if not isinstance(items, list) or not items:
        raise InputError(source, f"{key!r} must be a non-empty list of {{name, segments}} objects")
    streams = []
    for k, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise InputError(source, f"{key}[{k}] must be an object with a string 'name'")
        streams.append((item["name"], _strings(item.get("segments"), f"{key}[{k}].segments", source)))
    return streams


def loads(text: str | bytes, source: str = "workspace.json") -> tuple[Dataset, Settings]:
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        line = getattr(err, "lineno", None)
        raise InputError(source, f"not a valid JSON workspace ({getattr(err, 'msg', err)})", line) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InputError(source, f'not a ScoreLens workspace (expected "format": "{FORMAT}")')
    if document.get("version") != VERSION:
        raise InputError(source, f"workspace version {document.get('version')!r} is not supported (expected {VERSION})")
    refs = _streams(document, "references", source)
    systems = _streams(document, "systems", source)
    names = [name for name, _ in systems]
    if len(set(names)) != len(names):
        raise InputError(source, "two systems have the same name")
    raw_source = document.get("source")
    src = None if raw_source is None else _strings(raw_source, "source", source)
    raw = document.get("settings") or {}
    if not isinstance(raw, dict):
        raise InputError(source, "'settings' must be an object")
    metrics = _strings(raw.get("metrics", []), "settings.metrics", source)
    raw_options = raw.get("options", {})
    if not isinstance(raw_options, dict) or not all(isinstance(v, dict) for v in raw_options.values()):
        raise InputError(source, "settings.options must map metric families to objects")
    options = {
        family: {
            name: _option_value(value, f"settings.options.{family}.{name}", source) for name, value in values.items()
        }
        for family, values in raw_options.items()
    }
    view = raw.get("view", {})
    if not isinstance(view, dict):
        raise InputError(source, "settings.view must be an object")
    title = document.get("title")
    title = title if isinstance(title, str) else "Workspace"
    human = _human(document.get("human"), source)
    raw_external = document.get("external", [])
    if not isinstance(raw_external, list):
        raise InputError(source, "'external' must be a list of external metrics")
    external = {scores.name: scores for scores in (from_document(item, source) for item in raw_external)}
    if len(external) != len(raw_external):
        raise InputError(source, "two external metrics have the same name")
    try:
        dataset = Dataset(
            title=title,
            systems=dict(systems),
            refs=tuple(texts for _, texts in refs),
            ref_names=tuple(name for name, _ in refs),
            source=src,
            default_metrics=tuple(metrics) or None,
            human=human,
            external=external,
        )
    except InputError as err:
        raise InputError(source, str(err)) from None
    pieces = _slices(raw.get("slices", []), len(dataset), source)
    return dataset, Settings(metrics, options, view, pieces, _metadata(raw.get("metadata"), len(dataset), source))
