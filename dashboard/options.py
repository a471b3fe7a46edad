"""Option widgets built from each metric family's frozen ``Config`` dataclass, never by hand.

A family's widgets are the config fields every chosen metric of that family accepts, minus the fields a registry
preset fixes (``n`` of ROUGE-1, ``word_order`` of chrF++). Only values that differ from the field default are
stored; a value the config refuses (its ``__post_init__`` raises ``ValueError``) is reported and not applied.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from metrics.core.registry import SPECS, create, metric_class


@dataclass(frozen=True)
class OptionField:
    family: str
    name: str
    kind: Literal["bool", "choice", "int", "float", "text"]
    default: Any
    choices: tuple[Any, ...] = ()
    optional: bool = False

    @property
    def key(self) -> str:
        return f"opt:{self.family}:{self.name}"


def _kind(hint: Any) -> tuple[str, tuple[Any, ...], bool]:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or (origin is not None and type(None) in args):
        return "text", (), True  # optional values: free text, empty = None; build_config coerces and validates
    if origin is Literal:
        return "choice", args, False
    if hint is bool:
        return "bool", (), False
    if hint is int:
        return "int", (), False
    if hint is float:
        return "float", (), False
    return "text", (), False


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def family_fields(metric_ids: Sequence[str]) -> dict[str, list[OptionField]]:
    """Per family of the chosen metrics, the option fields all its chosen metrics share (config order)."""
    by_family: dict[str, list[str]] = {}
    for metric_id in metric_ids:
        by_family.setdefault(SPECS[metric_id].family, []).append(metric_id)
    result: dict[str, list[OptionField]] = {}
    for family, ids in by_family.items():
        try:
            configs = [metric_class(m).Config for m in ids]
        except (ImportError, AttributeError):
            continue  # the family cannot be loaded; the evaluation reports it and leaves it out
        shared = set.intersection(*({f.name for f in dataclasses.fields(c)} for c in configs))
        fixed = {name for m in ids for name in SPECS[m].preset}
        hints = typing.get_type_hints(configs[0])
        fields = []
        for f in dataclasses.fields(configs[0]):
            if f.name not in shared or f.name in fixed or f.name.startswith("_"):
                continue
            kind, choices, optional = _kind(hints[f.name])
            fields.append(OptionField(family, f.name, kind, _default(f), choices, optional))  # type: ignore[arg-type]
        if fields:
            result[family] = fields
    return result


def changed_values(fields: Sequence[OptionField], values: dict[str, Any]) -> dict[str, Any]:
    """The widget values that differ from their defaults; empty text means the default of an optional field."""
    changed = {}
    for f in fields:
        value = values.get(f.name, f.default)
        if f.kind == "text":
            value = value.strip() if isinstance(value, str) else value
            if value in ("", None) or str(value) == str(f.default):
                continue
        elif value == f.default:
            continue
        changed[f.name] = value
    return changed


def validate(family: str, metric_ids: Sequence[str], values: dict[str, Any]) -> str | None:
    """``None`` if every chosen metric of ``family`` accepts ``values``, else the config's error message."""
    for metric_id in metric_ids:
        if SPECS[metric_id].family == family:
            try:
                create(metric_id, values)
            except ValueError as err:
                return str(err)
    return None


def widget_value(f: OptionField, stored: dict[str, Any]) -> Any:
    """The value a widget starts from: the stored option, else the default (as text for text fields)."""
    value = stored.get(f.name, f.default)
    if f.kind == "text":
        return "" if value is None else str(value)
    if f.kind == "float":
        return float(value)
    if f.kind == "int":
        return int(value)
    return value
