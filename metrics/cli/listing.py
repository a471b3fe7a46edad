"""``scorelens metrics``: every metric id with its options, from the same metadata the app's widgets use.

One block per metric: its id and label, then per option ``FAMILY.OPTION=DEFAULT``, its label, the values it takes
(choices with their labels and what a choice needs installed, or the type and bounds the config checks) and its
help. Options a metric id fixes (``word_order`` of ``chrf++``) are named as fixed, not offered.
"""

from __future__ import annotations

from typing import Any

from metrics.core.config import Option, Resource, config_options
from metrics.core.registry import SPECS, MetricSpec


def cli_value(value: Any) -> str:
    """A value as ``--set`` spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return "none" if value is None else str(value)


def _values(option: Option) -> str:
    if option.kind == "bool":
        return "true or false"
    if option.info.resource is Resource.FILE:
        return "a file path"
    if option.info.resource is Resource.MODEL:
        return "a model folder or hub id"
    if option.info.resource is Resource.DEVICE:
        return "auto, cpu, cuda, cuda:N or mps"
    if option.kind == "text":
        return "text"
    if option.kind == "choice":
        labels = []
        for choice in option.choices:
            requirement = option.info.needs.get(choice)
            missing = "" if requirement is None or requirement.met() else f" [not installed: {requirement.reason()}]"
            labels.append(option.choice_label(choice) + missing)
        return "one of " + ", ".join(labels)
    noun = {"int": "integer", "float": "number", "floats": "numbers separated by commas, each"}[option.kind]
    bounds = option.bounds()
    text = f"{noun} in {bounds}" if bounds.startswith(("[", "(")) else f"{noun} {bounds}".rstrip()
    return text + (", or none" if option.optional else "")


def _block(metric_id: str, spec: MetricSpec) -> list[str]:
    lines = [f"{metric_id:10} {spec.label}" + ("" if spec.available() else "  (not installed here)")]
    if spec.preset:
        fixed = ", ".join(f"{name}={cli_value(value)}" for name, value in spec.preset.items())
        lines.append(f"    fixed by this id: {fixed}")
    for option in config_options(spec.cls.Config):
        if option.name in spec.preset:
            continue
        lines.append(f"    {spec.family}.{option.name}={cli_value(option.default)}  {option.label} — {_values(option)}")
        lines.append(f"        {option.help}")
    return lines


def list_metrics() -> str:
    """The text of ``scorelens metrics``."""
    return "\n".join(line for metric_id, spec in SPECS.items() for line in _block(metric_id, spec)) + "\n"
