"""Validated, frozen metric configurations built from keyword or ``--set KEY=VALUE`` options.

Every metric keeps its options in a frozen dataclass. :func:`build_config` turns user options (Python values or
the strings a command line gives) into that dataclass, so an unknown option or a bad value fails with a
``ValueError`` that names what is valid, never through ``assert``.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import typing
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

C = TypeVar("C")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _coerce(name: str, value: Any, target: Any) -> Any:
    """Convert ``value`` to the field type ``target``; strings come from the command line."""
    origin = typing.get_origin(target)
    args = typing.get_args(target)
    if origin is typing.Union or (origin is not None and type(None) in args):
        if value is None or (isinstance(value, str) and value.lower() in {"none", "null", ""}):
            return None
        inner = [a for a in args if a is not type(None)]
        return _coerce(name, value, inner[0])
    if origin is typing.Literal:
        for choice in args:
            if value == choice or (isinstance(value, str) and str(choice) == value):
                return choice
        raise ValueError(f"option {name!r}: {value!r} is not one of {', '.join(map(str, args))}")
    if target is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise ValueError(f"option {name!r}: {value!r} is not a boolean (true/false)")
    if target is int:
        if isinstance(value, bool):
            raise ValueError(f"option {name!r}: expected an integer, got {value!r}")
        try:
            result = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {name!r}: {value!r} is not an integer") from None
        if isinstance(value, float) and result != value:
            raise ValueError(f"option {name!r}: {value!r} is not an integer")
        return result
    if target is float:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {name!r}: {value!r} is not a number") from None
    if target is str:
        if not isinstance(value, str):
            raise ValueError(f"option {name!r}: expected text, got {value!r}")
        return value
    return value


def build_config(cls: type[C], options: Mapping[str, Any] | None = None) -> C:
    """Instantiate the frozen config ``cls`` from ``options``, validating names, types and values."""
    options = dict(options or {})
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ValueError(
            f"unknown option(s) {', '.join(unknown)} for {cls.__name__}; valid options: {', '.join(fields)}"
        )
    hints = typing.get_type_hints(cls)
    values = {name: _coerce(name, value, hints[name]) for name, value in options.items()}
    return cls(**values)


def check_range(name: str, value: float, low: float | None = None, high: float | None = None) -> None:
    """Raise ``ValueError`` unless ``low <= value <= high`` (either bound may be open)."""
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"[{'-inf' if low is None else low}, {'inf' if high is None else high}]"
        raise ValueError(f"option {name!r}: {value!r} is outside {bounds}")


# ------------------------------------------------------------------------------------------------ option metadata


@dataclass(frozen=True)
class Requirement:
    """Something a choice needs that a base install may lack: an importable module, and how to get it."""

    module: str
    install: str

    def met(self) -> bool:
        return _module_found(self.module)


@dataclass(frozen=True)
class OptionInfo:
    """What a front end needs to offer one config field: label, help, bounds, labels of choices, and which choices
    need something installed. The config's own validation reads the same bounds (:func:`check_options`)."""

    label: str
    help: str = ""
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choice_labels: Mapping[Any, str] = field(default_factory=dict)
    needs: Mapping[Any, Requirement] = field(default_factory=dict)

    def unavailable(self, choice: Any) -> str | None:
        """Why ``choice`` cannot run here (``None`` when it can)."""
        requirement = self.needs.get(choice)
        if requirement is None or requirement.met():
            return None
        return f"{choice!s} needs {requirement.module} ({requirement.install})"


_OPTION = "scorelens_option"


def option(
    default: Any,
    *,
    label: str,
    help: str = "",
    low: float | None = None,
    high: float | None = None,
    step: float | None = None,
    choice_labels: Mapping[Any, str] | None = None,
    needs: Mapping[Any, Requirement] | None = None,
) -> Any:
    """A config field with its option metadata: ``tokenize: Tokenizer = option("13a", label="Tokenizer", …)``."""
    info = OptionInfo(label, help, low, high, step, dict(choice_labels or {}), dict(needs or {}))
    return dataclasses.field(default=default, metadata={_OPTION: info})


def option_info(f: dataclasses.Field[Any]) -> OptionInfo | None:
    """The metadata :func:`option` attached to a config field (``None`` for an internal field)."""
    return f.metadata.get(_OPTION)


def check_options(config: Any) -> None:
    """Validate every field of ``config`` that carries option metadata: its bounds, and that a chosen value's
    requirement is installed. Configs call this from ``__post_init__`` so the UI bounds and the checks are one."""
    for f in dataclasses.fields(config):
        info = option_info(f)
        if info is None:
            continue
        value = getattr(config, f.name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            check_range(f.name, value, info.low, info.high)
        reason = info.unavailable(value) if isinstance(value, Hashable) else None
        if reason is not None:
            raise ValueError(f"option {f.name!r}: {reason}")


@functools.cache
def _module_found(module: str) -> bool:
    return importlib.util.find_spec(module) is not None
