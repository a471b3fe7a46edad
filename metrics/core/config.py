"""Validated, frozen metric configurations built from keyword or ``--set KEY=VALUE`` options.

Every metric keeps its options in a frozen dataclass. :func:`build_config` turns user options (Python values or
the strings a command line gives) into that dataclass, so an unknown option or a bad value fails with a
``ValueError`` that names what is valid, never through ``assert``.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
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
