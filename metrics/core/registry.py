"""Metric ids as the command line and the app name them, and how to build each one.

Each family declares its metrics in its folder's ``__init__.py``, as part of its one
``FAMILY = Family(...)`` (:mod:`metrics.core.family`)::

    MetricDeclaration("chrf++", "metrics.families.chrf.metric:CHRF", "chrF++ (sacrebleu)", namespace="chrf", ...)

The class carries the rest: its ``Config`` (options with their metadata), its ``explanation_type`` and its
statistics. The registry reads the declarations by importing every subpackage of :mod:`metrics.families` once, on
first use, and nothing else; a family's ``__init__`` holds only its declaration (classes load on first use), and a
metric whose ``requires`` are not installed is listed but not offered.

Options are namespaced (``--set chrf.beta=3``, ``--set rouge.stemmer=true``); which chosen metrics an option
reaches is :mod:`metrics.core.selection`'s one rule.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import metrics.families
from metrics.core.base import Metric
from metrics.core.config import Requirement
from metrics.core.family import Family, load


@dataclass(frozen=True)
class MetricSpec:
    """One metric id: its class, the options its id fixes (``chrf++`` is chrF with ``word_order=2``), its label,
    its option namespace ``family`` (``--set FAMILY.option``; ROUGE-W shares ``rouge`` with ROUGE-L), what it needs
    installed and its family's rank in listings.

    ``target`` is the class's ``"module:Class"`` path, imported on first use of :attr:`cls`, so that listing ids
    (the command line's parser) costs no metric module imports."""

    id: str
    target: str
    family: str
    label: str
    preset: Mapping[str, Any] = field(default_factory=dict)
    requires: tuple[Requirement, ...] = ()
    rank: int = 0

    @property
    def cls(self) -> type[Metric[Any, Any]]:
        return _resolve(self.target)

    def available(self) -> bool:
        return all(r.met() for r in self.requires)


@functools.cache
def _resolve(path: str) -> type[Metric[Any, Any]]:
    cls = load(path)
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise TypeError(f"{path} is not a Metric class")
    return cls


@dataclass(frozen=True)
class _Declared:
    families: tuple[Family, ...]  # in rank order
    specs: dict[str, MetricSpec]  # in display order: family rank, then declaration order
    homes: dict[str, Family]  # metric id → its family


def _declaration(name: str) -> Family:
    family = getattr(importlib.import_module(f"metrics.families.{name}"), "FAMILY", None)
    if not isinstance(family, Family) or family.name != name:
        raise TypeError(f"metrics.families.{name} must define FAMILY = Family(name={name!r}, ...)")
    return family


@functools.cache
def _declared() -> _Declared:
    found = [_declaration(info.name) for info in pkgutil.iter_modules(metrics.families.__path__) if info.ispkg]
    families = tuple(sorted(found, key=lambda family: (family.rank, family.name)))
    specs: dict[str, MetricSpec] = {}
    homes: dict[str, Family] = {}
    for family in families:
        for m in family.metrics:
            if m.id in homes:
                raise ValueError(f"metric id {m.id!r} is declared twice ({homes[m.id].name}, {family.name})")
            specs[m.id] = MetricSpec(m.id, m.target, m.namespace, m.label, dict(m.preset), m.requires, family.rank)
            homes[m.id] = family
    return _Declared(families, specs, homes)


def families() -> tuple[Family, ...]:
    """Every family's declaration, in rank order."""
    return _declared().families


def family_of(metric_id: str) -> Family:
    """The declaration of the family that declares ``metric_id``."""
    spec_for(metric_id)
    return _declared().homes[metric_id]


class _Specs(Mapping[str, MetricSpec]):
    """Every declared metric by id, in display order (family rank, then declaration order)."""

    def __getitem__(self, metric_id: str) -> MetricSpec:
        return _declared().specs[metric_id]

    def __iter__(self) -> Iterator[str]:
        return iter(_declared().specs)

    def __len__(self) -> int:
        return len(_declared().specs)


SPECS: Mapping[str, MetricSpec] = _Specs()


def metric_class(metric_id: str) -> type[Metric[Any, Any]]:
    return spec_for(metric_id).cls


def available_metrics() -> tuple[str, ...]:
    """Ids of the metrics whose requirements are installed here."""
    return tuple(metric_id for metric_id, spec in SPECS.items() if spec.available())


def spec_for(metric_id: str) -> MetricSpec:
    try:
        return SPECS[metric_id]
    except KeyError:
        raise ValueError(f"unknown metric {metric_id!r}; valid metrics: {', '.join(SPECS)}") from None


def create(metric_id: str, options: Mapping[str, Any] | None = None) -> Metric[Any, Any]:
    """Build metric ``metric_id`` with its preset plus ``options`` (plain names, not namespaced)."""
    spec = spec_for(metric_id)
    return metric_class(metric_id).from_options({**spec.preset, **(options or {})})
