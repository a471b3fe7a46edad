"""The one path from options to metric objects: a :class:`Selection` of metric ids and their families' options.

The command line's ``-m``/``--set``, the app's sidebar, a workspace's settings and the Teach page's what-ifs all
build a :class:`Selection` and ask it for the metrics (:meth:`Selection.build`); nothing else turns options into
metric objects.

Options are namespaced by family (``rouge.stemmer``), and one rule says where an option goes: **an option reaches
every chosen member of its family whose** ``Config`` **has that field and whose id does not fix it** —
``rouge.stemmer`` reaches ROUGE-1 and ROUGE-W alike, ``rouge.weight`` only ROUGE-W, ``chrf.word_order`` chrF but not
chrF++ (whose id fixes ``word_order=2``: chrF++ stays chrF++). An option that no chosen member takes (the error names
an id that fixes it), and options for a family with no chosen metric, are errors; so is a value one of the members
that take it refuses. Each of these is an :class:`OptionError` whose message starts with ``family.option`` (or
the family, for a check across options) and says what is valid: the options the chosen members take, the choices,
the bounds.

Values are typed once, on construction, by the config machinery (:func:`metrics.core.config.parse_value`): the text
``"true"`` from ``--set`` and the ``True`` of a checkbox become the same value, so they build the same config and
get the same cache key (:func:`metric_key`: the id, the metric's signature and its typed config; no JSON of option
dicts).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from metrics.core.base import Metric
from metrics.core.cache import BoundedCache
from metrics.core.config import build_config, parse_value
from metrics.core.registry import SPECS, create, metric_class, spec_for


class OptionError(ValueError):
    """An option a selection refuses; ``family`` is the family whose options are at fault."""

    def __init__(self, family: str, message: str) -> None:
        super().__init__(message)
        self.family = family


def takes(metric_id: str, name: str) -> bool:
    """Whether option ``name`` of its family reaches ``metric_id``: its config has that field and its id does not
    fix it."""
    return name not in spec_for(metric_id).preset and any(
        f.name == name for f in dataclasses.fields(metric_class(metric_id).Config)
    )


def _valid(members: Sequence[str]) -> str:
    """Each option some chosen member of one family takes and its id does not fix (as ``chrf++`` fixes
    ``word_order``)."""
    names: dict[str, None] = {}
    for metric_id in members:
        preset = spec_for(metric_id).preset
        names.update((f.name, None) for f in dataclasses.fields(metric_class(metric_id).Config) if f.name not in preset)
    return ", ".join(names) or "none"


def _frozen(options: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({family: MappingProxyType(dict(values)) for family, values in options.items()})


@dataclass(frozen=True)
class Selection:
    """Metric ids, in order, and family options (family → option name → value), validated and typed on
    construction from plain mappings (a workspace's JSON, the app's session) or from ``--set`` strings
    (:meth:`from_set`). See the module docstring for the rule."""

    metric_ids: tuple[str, ...]
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ids = tuple(self.metric_ids)
        for metric_id in ids:
            spec_for(metric_id)  # an unknown id names the valid ones
        if len(set(ids)) != len(ids):
            raise ValueError(f"a metric is chosen twice in {', '.join(ids)}")
        object.__setattr__(self, "metric_ids", ids)
        unchosen = [family for family in self.options if family not in self.families]
        if unchosen:
            raise OptionError(
                unchosen[0],
                f"{', '.join(f'{f}.{n}' for f in unchosen for n in self.options[f])}: no {', '.join(unchosen)} "
                f"metric is chosen (chosen: {', '.join(ids) or 'none'})",
            )
        typed = {family: self._typed(family, values) for family, values in self.options.items() if values}
        object.__setattr__(self, "options", _frozen(typed))
        for metric_id in ids:
            family = SPECS[metric_id].family
            try:
                build_config(metric_class(metric_id).Config, {**SPECS[metric_id].preset, **self.options_for(metric_id)})
            except ValueError as err:  # a check across options (the values alone passed)
                raise OptionError(family, f"{family} options for {metric_id}: {err}") from None

    def __hash__(self) -> int:  # the mappings are read-only views, not hashable themselves; equal ones hash alike
        return hash((self.metric_ids, frozenset((f, frozenset(v.items())) for f, v in self.options.items())))

    @property
    def families(self) -> tuple[str, ...]:
        """The families of the chosen metrics, in order of first appearance."""
        return tuple(dict.fromkeys(SPECS[m].family for m in self.metric_ids))

    def members(self, family: str) -> tuple[str, ...]:
        return tuple(m for m in self.metric_ids if SPECS[m].family == family)

    def _typed(self, family: str, values: Mapping[str, Any]) -> dict[str, Any]:
        members = self.members(family)
        typed = {}
        for name, value in values.items():
            takers = [m for m in members if takes(m, name)]
            if not takers:
                fixed = [f"{m} fixes {name}={SPECS[m].preset[name]!r}" for m in members if name in SPECS[m].preset]
                why = f" ({'; '.join(fixed)})" if fixed else ""
                raise OptionError(
                    family,
                    f"{family}.{name}: no chosen {family} metric ({', '.join(members)}) takes this option{why}; "
                    f"valid options: {_valid(members)}",
                )
            try:  # every member the option reaches must accept the value
                found = [parse_value(metric_class(m).Config, name, value) for m in takers]
            except ValueError as err:  # the config's message names the bare option: say which family's
                raise OptionError(family, f"{family}.{name}: {str(err).removeprefix(f'option {name!r}: ')}") from None
            typed[name] = found[0]
        return typed

    def options_for(self, metric_id: str) -> dict[str, Any]:
        """The options of ``metric_id``'s family that reach it (plain names)."""
        values = self.options.get(SPECS[metric_id].family, {})
        return {name: value for name, value in values.items() if takes(metric_id, name)}

    def metric(self, metric_id: str) -> Metric[Any, Any]:
        """Chosen metric ``metric_id`` with its preset and the options that reach it."""
        if metric_id not in self.metric_ids:
            raise ValueError(f"{metric_id} is not chosen (chosen: {', '.join(self.metric_ids) or 'none'})")
        return create(metric_id, self.options_for(metric_id))

    def build(self) -> dict[str, Metric[Any, Any]]:
        """The chosen metrics, by id in the chosen order (:meth:`metric`)."""
        return {metric_id: self.metric(metric_id) for metric_id in self.metric_ids}

    @classmethod
    def from_set(cls, metric_ids: Iterable[str], pairs: Iterable[str]) -> Selection:
        """From the command line's ``--set FAMILY.OPTION=VALUE`` strings (values are text until typed)."""
        families = {spec.family for spec in SPECS.values()}
        options: dict[str, dict[str, str]] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            family, dot, name = key.strip().partition(".")
            if not sep or not dot or not name:
                raise ValueError(f"--set {pair!r}: expected FAMILY.OPTION=VALUE, e.g. bleu.tokenize=intl")
            if family not in families:
                raise ValueError(
                    f"--set {pair!r}: unknown metric family {family!r}; valid: {', '.join(sorted(families))}"
                )
            options.setdefault(family, {})[name] = value.strip()
        return cls(tuple(metric_ids), options)


def taken(metric_ids: Sequence[str], options: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The part of ``options`` that reaches some metric of ``metric_ids``: the app keeps options for metrics not
    chosen now (choosing ROUGE-W again brings its weight back) and builds its selection from this part."""
    kept = {
        family: {name: value for name, value in values.items() if any(takes(m, name) for m in members)}
        for family, values in options.items()
        if (members := [m for m in metric_ids if m in SPECS and SPECS[m].family == family])
    }
    return {family: values for family, values in kept.items() if values}


_KEYS: BoundedCache[tuple[str, type, Any], str] = BoundedCache(limit=1024)


def metric_key(metric_id: str, metric: Metric[Any, Any]) -> str:
    """What a metric's numbers depend on besides the texts, as a cache key: its id, its signature (which states
    every option that changes a number, ``tests/contracts/test_signatures.py``, and what no option says: a training
    file's content, library versions) and its typed config (two model folders of one name have one signature).

    Kept per id and config for the process: a signature may read a file (perplexity hashes its training corpus), and
    the app asks for the key on every rerun."""
    return _KEYS.get_or_make(
        (metric_id, type(metric), metric.config), lambda: f"{metric_id}|{metric.signature()}|{metric.config!r}"
    )
