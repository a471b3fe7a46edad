"""Sidebar option fields derived from the option metadata on each family's ``Config`` fields, never by hand.

A family's fields are every option some chosen metric of that family takes (:mod:`metrics.core.selection`'s rule: an
option reaches the chosen members whose config has it), minus those a registry preset fixes (``n`` of ROUGE-1,
``word_order`` of chrF++); a field only some chosen members take names them. A choice field offers the choices all
the members that take it accept and this machine can run (a choice that needs a missing install is left out and its
reason shown). Only values that differ from the option default are stored, and a stored option no chosen metric
takes (ROUGE-W's weight while only ROUGE-1 is chosen) is kept for when its metric is chosen again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from metrics.core.config import Option, OptionKind, config_options
from metrics.core.registry import SPECS, metric_class
from metrics.core.selection import takes


@dataclass(frozen=True)
class OptionField:
    """One sidebar widget: a family's option, with the choices it offers here and why others are left out, and the
    chosen metrics that take it when not all of the family's do."""

    family: str
    option: Option
    choices: tuple[Any, ...] = ()
    unavailable: tuple[str, ...] = ()
    only: tuple[str, ...] = ()

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

    @property
    def shown(self) -> Option:
        """The option as its widget shows it: labelled with the metrics it reaches when not all chosen ones."""
        if not self.only:
            return self.option
        names = ", ".join(SPECS[m].label.split(" (")[0] for m in self.only)
        return replace(self.option, info=replace(self.option.info, label=f"{self.option.label} (only {names})"))


def _field(family: str, options: Sequence[Option], only: tuple[str, ...]) -> OptionField:
    """The field of one option as several configs declare it: the first one's metadata, the choices all take."""
    first = options[0]
    if first.kind != "choice":
        return OptionField(family, first, only=only)
    offered = tuple(c for c in first.offered() if all(c in o.choices for o in options[1:]))
    return OptionField(family, first, offered, first.unavailable(), only)


def family_fields(metric_ids: Sequence[str]) -> dict[str, list[OptionField]]:
    """Per family of the chosen metrics, a field for every option some chosen member takes (config order)."""
    by_family: dict[str, list[str]] = {}
    for metric_id in metric_ids:
        by_family.setdefault(SPECS[metric_id].family, []).append(metric_id)
    result: dict[str, list[OptionField]] = {}
    for family, ids in by_family.items():
        # an option an id fixes (chrF++'s word_order) is not that id's to take: the field is the other members'
        per_metric = {
            m: {o.name: o for o in config_options(metric_class(m).Config) if o.name not in SPECS[m].preset} for m in ids
        }
        names = dict.fromkeys(name for options in per_metric.values() for name in options)
        fields = []
        for name in names:
            takers = [m for m in ids if name in per_metric[m]]
            only = tuple(takers) if len(takers) < len(ids) else ()
            fields.append(_field(family, [per_metric[m][name] for m in takers], only))
        if fields:
            result[family] = fields
    return result


def family_values(
    fields: Sequence[OptionField], values: dict[str, Any], stored: dict[str, Any], chosen: Sequence[str]
) -> dict[str, Any]:
    """A family's options after its widgets: the widget values that differ from their defaults (an emptied optional
    number is ``None``), and the stored options no ``chosen`` metric takes (they wait for theirs: chrF's
    ``word_order`` while only chrF++, which fixes it, is chosen)."""
    kept = {name: value for name, value in stored.items() if not any(takes(m, name) for m in chosen)}
    return kept | {f.name: values[f.name] for f in fields if f.name in values and values[f.name] != f.default}


def unoffered(fields: Sequence[OptionField], stored: dict[str, Any]) -> list[str]:
    """``family.option=value`` for each stored choice its field does not offer now (a metric just chosen refuses
    it, as ROUGE-1 refuses ROUGE-W's whitespace tokenizer): its widget starts from the default instead."""
    return [
        f"{f.family}.{f.name}={stored[f.name]}"
        for f in fields
        if f.kind == "choice" and f.name in stored and stored[f.name] not in f.choices
    ]


def widget_value(f: OptionField, stored: dict[str, Any]) -> Any:
    """The value a widget starts from: the stored option, else the default, as the widget's type."""
    value = stored.get(f.name, f.default)
    if value is None or f.kind in ("choice", "bool", "text"):
        return value
    if f.kind == "floats":
        return value if isinstance(value, str) else ", ".join(repr(float(x)) for x in value)
    return int(value) if f.kind == "int" else float(value)
