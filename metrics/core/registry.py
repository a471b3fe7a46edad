"""Metric ids as the command line and the app name them, and how to build each one.

A family registers its metrics in one place, its package's ``__init__.py``::

    register(BLEU, "bleu", label="BLEU (sacrebleu)", rank=10)

The class carries the rest: its ``Config`` (options with their metadata), its ``explanation_type`` and its
statistics. The registry finds families by importing every subpackage of :mod:`metrics.families` once, on first use; a
family's ``__init__`` imports only what is cheap (heavy dependencies load on first scoring), and a metric whose
``requires`` are not installed stays registered but is not offered.

Options are namespaced by family: ``--set bleu.tokenize=intl`` or ``--set rouge.stemmer=true`` reach every metric
of that family.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from metrics.core.base import Metric
from metrics.core.config import Requirement


@dataclass(frozen=True)
class MetricSpec:
    """One metric id: its class, the options its id fixes (``chrf++`` is chrF with ``word_order=2``), its label,
    its family (the ``--set FAMILY.option`` namespace) and what it needs installed.

    ``target`` is the class or its ``"module:Class"`` path; a path is imported on first use of :attr:`cls`, so
    that listing ids (the command line's parser) costs no metric module imports."""

    id: str
    target: type[Metric[Any, Any]] | str
    family: str
    label: str
    preset: Mapping[str, Any] = field(default_factory=dict)
    requires: tuple[Requirement, ...] = ()
    rank: int = 0

    @property
    def cls(self) -> type[Metric[Any, Any]]:
        return self.target if isinstance(self.target, type) else _resolve(self.target)

    def available(self) -> bool:
        return all(r.met() for r in self.requires)


@functools.cache
def _resolve(path: str) -> type[Metric[Any, Any]]:
    module, _, name = path.partition(":")
    cls = getattr(importlib.import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise TypeError(f"{path} is not a Metric class")
    return cls


_registered: dict[str, MetricSpec] = {}
_ordered: dict[str, MetricSpec] | None = None  # display order, rebuilt after a registration
_discovered = False
_lock = threading.RLock()


def register(
    cls: type[Metric[Any, Any]] | str,
    metric_id: str,
    *,
    label: str,
    family: str | None = None,
    preset: Mapping[str, Any] | None = None,
    requires: Iterable[Requirement] = (),
    rank: int = 0,
) -> MetricSpec:
    """Register ``cls`` (a class, or its ``"module:Class"`` path to import on first use) under ``metric_id`` (family
    defaults to the id). Ids are unique; registering one twice with another class is an error, so two families
    cannot silently shadow each other."""
    spec = MetricSpec(metric_id, cls, family or metric_id, label, dict(preset or {}), tuple(requires), rank)
    with _lock:
        known = _registered.get(metric_id)
        if known is not None and known != spec:
            raise ValueError(f"metric id {metric_id!r} is registered twice ({known.target}, {cls})")
        _registered[metric_id] = spec
        global _ordered
        _ordered = None
    return spec


def _discover() -> None:
    global _discovered
    with _lock:
        if _discovered:
            return
        import metrics.families

        for info in pkgutil.iter_modules(metrics.families.__path__):
            if info.ispkg:
                importlib.import_module(f"metrics.families.{info.name}")
        _discovered = True


class _Specs(Mapping[str, MetricSpec]):
    """Every registered metric by id, in display order (family rank, then registration order)."""

    @staticmethod
    def _all() -> dict[str, MetricSpec]:
        global _ordered
        _discover()
        with _lock:
            if _ordered is None:
                position = {metric_id: k for k, metric_id in enumerate(_registered)}
                _ordered = dict(sorted(_registered.items(), key=lambda item: (item[1].rank, position[item[0]])))
            return _ordered

    def __getitem__(self, metric_id: str) -> MetricSpec:
        return self._all()[metric_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


SPECS: Mapping[str, MetricSpec] = _Specs()

DEFAULT_MT = ("bleu", "chrf", "ter")


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
