"""The whole workspace — data and settings — as one JSON document, so a refreshed browser loses nothing saved.

Loading is strict: anything malformed raises :class:`InputError` naming the file and the offending field, and the
caller keeps what was loaded before. A workspace is data: it is read by ``json`` alone (nothing is executed or
unpickled), bounded before parsing (size, nesting), and every field must have its type and shape — no key the format
does not define, no NaN or infinity, no whole number beyond 2**53, no name longer than :data:`MAX_NAME_CHARS` and no
segment longer than a segment file's line may be. An option that names a file holds the file's
content (an :class:`~metrics.core.upload.Upload`, saved as ``{"upload": name, "base64": bytes}``), and whether the
server takes an option's value is the app's check when it applies the settings
(:func:`dashboard.server_config.check_browser_options`).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from dashboard.dataset import Dataset
from metrics.analysis.slices import ScoreCondition, Slice
from metrics.annotations.collect import LoadedTexts
from metrics.annotations.model import Annotations, Scheme
from metrics.annotations.mqm import MqmWeights
from metrics.annotations.spans_jsonl import parse_spans_jsonl, span_records
from metrics.core.upload import Upload
from metrics.families.external.scores import from_document, to_document
from metrics.io.inputs import (
    MAX_FILE_BYTES,
    MAX_LINE_CHARS,
    InputError,
    check_json_nesting,
    decode_text,
)
from metrics.io.metadata import Metadata
from metrics.stats.human import HumanScores

FORMAT = "scorelens-workspace"
VERSION = 1
MAX_NAME_CHARS = 1_000  # a title, a name, an option's text: longer is not a name but a payload
MAX_WHOLE = 2**53  # the largest whole number a float (and a browser's JavaScript) holds exactly
MAX_OPTION_VALUES = 64  # a list-valued option (e.g. ROUGE-W's weights) holds a few numbers
_KEYS = frozenset(
    {"format", "version", "title", "references", "systems", "source", "human", "external", "annotations", "settings"}
)
_SETTINGS_KEYS = frozenset({"metrics", "options", "view", "slices", "metadata", "mqm_weights"})
_ANNOTATION_KEYS = frozenset({"name", "scheme", "source", "digest", "skipped", "records"})


@dataclass(frozen=True)
class Settings:
    """Everything the user chose besides the data: metrics, their options, and where they were looking."""

    metrics: tuple[str, ...] = ()
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    view: Mapping[str, Any] = field(default_factory=dict)  # baseline, segment, explorer filters …
    slices: tuple[Slice, ...] = ()  # named sets of segments (the Analysis page scores them)
    metadata: Metadata | None = None  # per-segment columns for buckets and documents (the Analysis page's upload)
    mqm_weights: str = ""  # the MQM weights typed on the Data page (MqmWeights.parse; "": WMT's)


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
        "annotations": [_annotations_document(name, marked) for name, marked in dataset.annotations.items()],
        "settings": {
            "metrics": list(settings.metrics),
            "options": {
                family: {name: _option_document(value) for name, value in values.items()}
                for family, values in settings.options.items()
            },
            "view": dict(settings.view),
            "slices": [
                {
                    "name": s.name,
                    "description": s.description,
                    "segments": list(s.segments),
                    "selected_by": [{"metric": c.metric, "systems": list(c.systems)} for c in s.selected_by],
                }
                for s in settings.slices
            ],
            "metadata": _metadata_document(settings.metadata),
            "mqm_weights": settings.mqm_weights,
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def _option_document(value: Any) -> Any:
    """An option's value as JSON: an uploaded file as its name and bytes."""
    if isinstance(value, Upload):
        return {"upload": value.name, "base64": base64.b64encode(value.data).decode("ascii")}
    return value


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
    _unknown(value, frozenset({"source", "scores"}), "human", source)
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


def _annotations_document(name: str, marked: Annotations) -> dict[str, Any]:
    """Annotations as the records of the JSON Lines span format (one per error, one per rating without errors), with
    their scheme and the file they were read from; reading them back locates every span in the loaded texts again."""
    return {
        "name": name,
        "scheme": marked.scheme.value,
        "source": marked.source,
        "digest": marked.digest,
        "skipped": [[system, count] for system, count in marked.skipped],
        "records": list(span_records(marked)),
    }


def _annotations(
    value: Any, systems: Mapping[str, Sequence[str]], text: Sequence[str] | None, source: str
) -> dict[str, Annotations]:
    """The saved annotations, each read by the span format's reader against the workspace's own texts (a span that
    does not fit them is an error naming the set and the record)."""
    if not isinstance(value, list):
        raise InputError(source, "'annotations' must be a list of {name, scheme, source, digest, records} objects")
    found: dict[str, Annotations] = {}
    for k, item in enumerate(value, start=1):
        where = f"annotations[{k}]"
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("name"), str)
            or not isinstance(item.get("records"), list)
        ):
            raise InputError(source, f"{where} must be an object with a string 'name' and a list 'records'")
        _unknown(item, _ANNOTATION_KEYS, where, source)
        name = _name(item["name"], f"{where}.name", source)
        schemes = {s.value: s for s in Scheme}
        if item.get("scheme") not in schemes:
            raise InputError(source, f"{where}.scheme must be one of {', '.join(schemes)}")
        origin = _name(item.get("source", ""), f"{where}.source", source)
        digest = _name(item.get("digest", ""), f"{where}.digest", source)
        skipped = item.get("skipped", [])
        counted = isinstance(skipped, list) and all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], int) for p in skipped
        )
        if not counted:
            raise InputError(source, f"{where}.skipped must be a list of [system name, records] pairs")
        lines = [json.dumps(record, ensure_ascii=False) for record in item["records"]]
        marked = parse_spans_jsonl(lines, LoadedTexts(systems, text), f"{source} {where}.records")
        if name in found:
            raise InputError(source, f"two sets of annotations are named {name!r}")
        found[name] = replace(
            marked,
            scheme=schemes[item["scheme"]],
            source=origin,
            digest=digest,
            skipped=tuple((str(system), int(count)) for system, count in skipped),
        )
    return found


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
    _unknown(value, frozenset({"source", "columns"}), "settings.metadata", source)
    for name, column in columns.items():
        where = f"settings.metadata.columns[{_name(name, 'a settings.metadata column name', source)[:40]!r}]"
        values[name] = _strings(column, where, source)
        if len(values[name]) != n_segments:
            raise InputError(source, f"{where} has {len(values[name])} values but the data has {n_segments} segments")
    origin = value.get("source") if isinstance(value.get("source"), str) else "metadata"
    return Metadata(origin, tuple(values), values)


def _conditions(value: Any, where: str, source: str) -> tuple[ScoreCondition, ...]:
    """A slice's score filters: ``[{"metric": id, "systems": [names]}]``."""
    if not isinstance(value, list):
        raise InputError(source, f"{where} must be a list of {{metric, systems}} objects")
    found = []
    for k, item in enumerate(value, start=1):
        here = f"{where}[{k}]"
        if not isinstance(item, dict) or not isinstance(item.get("metric"), str):
            raise InputError(source, f"{here} must be an object with a string 'metric'")
        _unknown(item, frozenset({"metric", "systems"}), here, source)
        systems = _strings(item.get("systems"), f"{here}.systems", source)
        try:
            found.append(ScoreCondition(item["metric"], systems))
        except ValueError as err:
            raise InputError(source, f"{here}: {err}") from None
    return tuple(found)


def _slices(value: Any, n_segments: int, source: str) -> tuple[Slice, ...]:
    if not isinstance(value, list):
        raise InputError(source, "settings.slices must be a list of {name, description, segments} objects")
    found = []
    for k, item in enumerate(value, start=1):
        where = f"settings.slices[{k}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise InputError(source, f"{where} must be an object with a string 'name'")
        _unknown(item, frozenset({"name", "description", "segments", "selected_by"}), where, source)
        _name(item["name"], f"{where}.name", source)
        _name(item.get("description", ""), f"{where}.description", source)
        segments = item.get("segments")
        if not isinstance(segments, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in segments):
            raise InputError(source, f"{where}.segments must be a list of 0-based segment numbers")
        selected_by = _conditions(item.get("selected_by", []), f"{where}.selected_by", source)
        try:
            piece = Slice(item["name"], str(item.get("description", "")), tuple(segments), selected_by)
            piece.check(n_segments)
        except ValueError as err:
            raise InputError(source, f"{where}: {err}") from None
        found.append(piece)
    if len({piece.name for piece in found}) != len(found):
        raise InputError(source, "two slices have the same name")
    return tuple(found)


def _strings(value: Any, where: str, source: str, limit: int = MAX_LINE_CHARS) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise InputError(source, f"{where} must be a list of strings")
    longest = max(map(len, value), default=0)
    if longest > limit:
        raise InputError(source, f"{where} holds a string of {longest:,} characters, more than the limit of {limit:,}")
    return tuple(value)


def _name(value: Any, where: str, source: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME_CHARS:
        raise InputError(source, f"{where} must be a string of at most {MAX_NAME_CHARS:,} characters")
    return value


def _unknown(document: Mapping[str, Any], known: frozenset[str], where: str, source: str) -> None:
    unknown = [key for key in document if key not in known]
    if unknown:
        listed = ", ".join(repr(key[:40]) for key in unknown[:5])
        raise InputError(source, f"{where} has keys a workspace does not define: {listed}")


_OPTION_SHAPES = (
    f"must be null, true/false, a number, a text, a list of at most {MAX_OPTION_VALUES} numbers or an uploaded file "
    '{"upload": name, "base64": bytes}'
)


def _option_value(value: Any, where: str, source: str) -> Any:
    """An option's value as the sidebar stores it: null, true/false, a number, a text, a list of numbers or an
    uploaded file (:func:`_option_document`)."""
    if isinstance(value, dict):
        return _uploaded(value, where, source)
    if value is None or isinstance(value, bool | int | float):
        return value  # numbers were bounded while parsing
    if isinstance(value, str):
        return _name(value, where, source)
    numbers = isinstance(value, list) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    if numbers and len(value) <= MAX_OPTION_VALUES:
        return value
    raise InputError(source, f"{where} {_OPTION_SHAPES}")


def _uploaded(value: dict[str, Any], where: str, source: str) -> Upload:
    name, data = value.get("upload"), value.get("base64")
    if set(value) != {"upload", "base64"} or not isinstance(name, str) or not isinstance(data, str):
        raise InputError(source, f"{where} {_OPTION_SHAPES}")
    try:
        return Upload(_name(name, where, source), base64.b64decode(data, validate=True))
    except binascii.Error:
        raise InputError(source, f"{where}: the uploaded file's bytes are not base64") from None


def _options(value: Any, source: str) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise InputError(source, "settings.options must map metric families to objects")
    options: dict[str, dict[str, Any]] = {}
    for family, values in value.items():
        _name(family, "a metric family in settings.options", source)
        options[family] = {
            _name(name, f"an option name of settings.options[{family!r}]", source): _option_value(
                option, f"settings.options[{family!r}][{name!r}]", source
            )
            for name, option in values.items()
        }
    return options


def _view(value: Any, source: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(source, "settings.view must be an object")
    _unknown(value, frozenset({"baseline", "segment"}), "settings.view", source)
    if "baseline" in value:
        _name(value["baseline"], "settings.view.baseline", source)
    segment = value.get("segment", 0)
    if isinstance(segment, bool) or not isinstance(segment, int):
        raise InputError(source, "settings.view.segment must be a whole number")
    return dict(value)


def _parse(text: str | bytes, source: str) -> Any:
    """The JSON document, bounded before and while parsing: no NaN or infinity (JSON has neither) and no whole
    number beyond :data:`MAX_WHOLE` is accepted (Python would make one of any size, and a float of 1e999 is
    infinite)."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError(source, f"file has {len(text):,} bytes, more than the limit of {MAX_FILE_BYTES:,}")
    if isinstance(text, bytes):
        text = decode_text(text, source, [])
    check_json_nesting(text, source)
    document_text = text

    def refuse(token: str, why: str) -> InputError:
        line = document_text.count("\n", 0, max(document_text.find(token), 0)) + 1
        return InputError(source, f"the number {token[:40]} {why}", line)

    def whole(token: str) -> int:
        if len(token.lstrip("-")) > 16 or abs(int(token)) > MAX_WHOLE:
            raise refuse(token, f"is beyond the limit of {MAX_WHOLE:,}")
        return int(token)

    def real(token: str) -> float:
        number = float(token)
        if not math.isfinite(number):
            raise refuse(token, "is too large for a float")
        return number

    def constant(token: str) -> float:
        raise refuse(token, "is not JSON (NaN and Infinity have no place in a workspace)")

    try:
        return json.loads(text, parse_int=whole, parse_float=real, parse_constant=constant)
    except json.JSONDecodeError as err:
        raise InputError(source, f"not a valid JSON workspace ({err.msg})", err.lineno) from None


def _streams(
    document: Mapping[str, Any], key: str, source: str, *, empty: bool = False
) -> list[tuple[str, tuple[str, ...]]]:
    """The named streams under ``key``; ``empty``: none at all is allowed (data without references)."""
    items = document.get(key)
    if not isinstance(items, list) or not (items or empty):
        kind = "a list" if empty else "a non-empty list"
        raise InputError(source, f"{key!r} must be {kind} of {{name, segments}} objects")
    streams = []
    for k, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise InputError(source, f"{key}[{k}] must be an object with a string 'name'")
        _unknown(item, frozenset({"name", "segments"}), f"{key}[{k}]", source)
        _name(item["name"], f"{key}[{k}].name", source)
        streams.append((item["name"], _strings(item.get("segments"), f"{key}[{k}].segments", source)))
    return streams


def loads(text: str | bytes, source: str = "workspace.json") -> tuple[Dataset, Settings]:
    document = _parse(text, source)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InputError(source, f'not a ScoreLens workspace (expected "format": "{FORMAT}")')
    if document.get("version") != VERSION:
        raise InputError(source, f"workspace version {document.get('version')!r} is not supported (expected {VERSION})")
    _unknown(document, _KEYS, "the workspace", source)
    refs = _streams(document, "references", source, empty=True)
    systems = _streams(document, "systems", source)
    names = [name for name, _ in systems]
    if len(set(names)) != len(names):
        raise InputError(source, "two systems have the same name")
    raw_source = document.get("source")
    src = None if raw_source is None else _strings(raw_source, "source", source)
    raw = document.get("settings", {})
    if not isinstance(raw, dict):
        raise InputError(source, "'settings' must be an object")
    _unknown(raw, _SETTINGS_KEYS, "settings", source)
    metrics = _strings(raw.get("metrics", []), "settings.metrics", source, MAX_NAME_CHARS)
    options = _options(raw.get("options", {}), source)
    view = _view(raw.get("view", {}), source)
    title = _name(document.get("title", "Workspace"), "'title'", source)
    human = _human(document.get("human"), source)
    mqm_weights = _name(raw.get("mqm_weights", ""), "settings.mqm_weights", source)
    try:
        MqmWeights.parse(mqm_weights)
    except ValueError as err:
        raise InputError(source, f"settings.mqm_weights: {err}") from None
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
    marked = _annotations(document.get("annotations", []), dataset.systems, dataset.source, source)
    try:
        dataset = replace(dataset, annotations=marked)
    except InputError as err:
        raise InputError(source, str(err)) from None
    pieces = _slices(raw.get("slices", []), len(dataset), source)
    meta = _metadata(raw.get("metadata"), len(dataset), source)
    return dataset, Settings(metrics, options, view, pieces, meta, mqm_weights)
