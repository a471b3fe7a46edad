"""Sidebar option fields derived from the option metadata on each family's ``Config`` fields, never by hand.

A family's fields are the options every chosen metric of that family accepts, minus those a registry preset fixes
(``n`` of ROUGE-1, ``word_order`` of chrF++); a choice field offers the choices all of them take and this machine
can run (a choice that needs a missing install is left out and its reason shown). Only values that differ from the
option default are stored; a value the config refuses (its ``__post_init__`` raises ``ValueError``) is reported
and not applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from metrics.core.config import Option, OptionKind, config_options
from metrics.core.registry import SPECS, create, metric_class


@dataclass(frozen=True)
class OptionField:
    """One sidebar widget: a family's option, with the choices it offers here and why others are left out."""

    family: str
    option: Option
    choices: tuple[Any, ...] = ()
    unavailable: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def kind(self) -> OptionKind:
        return self.option.kind

    @property
    def default(self) -> Any:
        return self.option.default

    @property
    def optional(self) -> bool:
        return self.option.optional

    @property
    def key(self) -> str:
        return f"opt:{self.family}:{self.name}"


def _field(family: str, options: Sequence[Option]) -> OptionField:
    """The field of one option as several configs declare it: the first one's metadata, the choices all take."""
    first = options[0]
    if first.kind != "choice":
        return OptionField(family, first)
    offered = tuple(c for c in first.offered() if all(c in o.choices for o in options[1:]))
    return OptionField(family, first, offered, first.unavailable())


def family_fields(metric_ids: Sequence[str]) -> dict[str, list[OptionField]]:
    """Per family of the chosen metrics, the option fields all its chosen metrics share (config order)."""
    by_family: dict[str, list[str]] = {}
    for metric_id in metric_ids:
        by_family.setdefault(SPECS[metric_id].family, []).append(metric_id)
    result: dict[str, list[OptionField]] = {}
    for family, ids in by_family.items():
        per_metric = [{o.name: o for o in config_options(metric_class(m).Config)} for m in ids]
        fixed = {name for m in ids for name in SPECS[m].preset}
        fields = [
            _field(family, [options[name] for options in per_metric])
            for name in per_metric[0]
            if name not in fixed and all(name in options for options in per_metric)
        ]
        if fields:
            result[family] = fields
    return result


def changed_values(fields: Sequence[OptionField], values: dict[str, Any]) -> dict[str, Any]:
    """The widget values that differ from their defaults (an emptied optional number is ``None``)."""
    return {f.name: values[f.name] for f in fields if f.name in values and values[f.name] != f.default}


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
    """The value a widget starts from: the stored option, else the default, as the widget's type."""
    value = stored.get(f.name, f.default)
    if value is None or f.kind == "choice" or f.kind == "bool":
        return value
    if f.kind == "floats":
        return value if isinstance(value, str) else ", ".join(repr(float(x)) for x in value)
    return int(value) if f.kind == "int" else float(value)
