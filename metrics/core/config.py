"""Validated, frozen metric configurations built from keyword or ``--set KEY=VALUE`` options.

Every metric keeps its options in a frozen dataclass. :func:`build_config` turns user options (Python values or
the strings a command line gives) into that dataclass, so an unknown option or a bad value fails with a
``ValueError`` that names what is valid, never through ``assert``.

Every field is declared with :func:`option`, which attaches its label, help, bounds, choice labels and the
installs a choice needs. :func:`config_options` turns a config class into :class:`Option` values that the sidebar,
the Teach page's what-ifs and ``scorelens metrics`` all draw from, and :func:`check_options` (called first in each
config's ``__post_init__``) validates against the same metadata.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import math
import numbers
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, TypeVar

from metrics.core.upload import Upload

C = TypeVar("C")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _coerce(name: str, value: Any, target: Any) -> Any:
    """Convert ``value`` to the field type ``target``; strings come from the command line."""
    origin = typing.get_origin(target)
    args = typing.get_args(target)
    if origin is typing.Union or origin is types.UnionType:
        if type(None) in args and (value is None or (isinstance(value, str) and value.lower() in {"none", "null", ""})):
            return None
        if isinstance(value, Upload) and Upload in args:  # a file option given the file's content, not its path
            return value
        inner = [a for a in args if a not in (type(None), Upload)]
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
    if origin is tuple and args == (float, Ellipsis):
        return parse_floats(name, value)
    return value


def parse_floats(name: str, value: Any) -> tuple[float, ...]:
    """A list of numbers as an option takes it: a sequence of numbers, or text with the numbers separated by commas
    or spaces (``"0.4,0.3,0.2,0.1"``, as ``--set`` gives it)."""
    items = value.replace(",", " ").split() if isinstance(value, str) else value
    try:
        numbers = tuple(float(x) for x in items if not isinstance(x, bool))
    except (TypeError, ValueError):
        raise ValueError(f"option {name!r}: {value!r} is not a list of numbers") from None
    if not numbers or len(numbers) != len(items):
        raise ValueError(f"option {name!r}: {value!r} is not a non-empty list of numbers")
    return numbers


def build_config(cls: type[C], options: Mapping[str, Any] | None = None) -> C:
    """Instantiate the frozen config ``cls`` from ``options``, validating names, types and values."""
    options = dict(options or {})
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ValueError(
            f"unknown option(s) {', '.join(unknown)} for {cls.__name__}; valid options: {', '.join(fields)}"
        )
    hints = _hints(cls)
    values = {name: _coerce(name, value, hints[name]) for name, value in options.items()}
    return cls(**values)


_field_types: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """A config's field types, resolved once (resolving them was most of the cost of building a config)."""
    known = _field_types.get(cls)
    if known is None:
        known = _field_types[cls] = typing.get_type_hints(cls)
    return known


def parse_value(cls: type, name: str, value: Any) -> Any:
    """``value`` of option ``name`` of the config ``cls`` as the config holds it — text (``--set``) or a Python
    value (a widget's, a JSON document's) converted to the field's type — checked against the option's metadata
    (:func:`check_options` checks the same on the whole config, with the checks across fields)."""
    options = {o.name: o for o in config_options(cls)}
    if name not in options:
        raise ValueError(f"unknown option {name!r} for {cls.__name__}; valid options: {', '.join(options)}")
    typed = _coerce(name, value, _hints(cls)[name])
    _check_value(options[name], typed)
    return typed


def check_range(
    name: str, value: float, low: float | None = None, high: float | None = None, *, low_open: bool = False
) -> None:
    """Raise ``ValueError`` unless ``low <= value <= high`` (``low < value`` when ``low_open``; either bound may be
    absent)."""
    below = low is not None and (value <= low if low_open else value < low)
    if below or (high is not None and value > high):
        bounds = f"{'(' if low_open else '['}{'-inf' if low is None else low}, {'inf' if high is None else high}]"
        raise ValueError(f"option {name!r}: {value!r} is outside {bounds}")


# ------------------------------------------------------------------------------------------------ option metadata


@dataclass(frozen=True)
class Requirement:
    """Something a choice needs that a base install may lack: importable modules, and how to get them."""

    module: str
    install: str
    also: tuple[str, ...] = ()  # further modules needed with ``module`` (MeCab's dictionary)

    def met(self) -> bool:
        return all(_module_found(m) for m in (self.module, *self.also))

    def reason(self) -> str:
        return f"needs {self.module} ({self.install})"


class Resource(Enum):
    """What a text option names on the machine that runs the metric. The command line and the library take such a
    value as given (the user owns the machine); a front end that serves other people (the app) never takes it as
    text from them: a file comes as an :class:`~metrics.core.upload.Upload`, a model or a device from the server's
    own list."""

    FILE = "file"  # a file the metric reads (a training corpus); the field also takes an Upload
    MODEL = "model"  # a model name or folder the metric loads
    DEVICE = "device"  # the processor a neural metric runs on (auto, cpu, cuda:N, mps: metrics.core.devices)


@dataclass(frozen=True)
class OptionInfo:
    """What a front end needs to offer one config field: label, help, bounds, labels of choices, and which choices
    need something installed. The config's own validation reads the same bounds (:func:`check_options`).

    ``low_open`` makes ``low`` exclusive (σ > 0). ``work_bound`` marks a bound on computing work rather than a
    scoring choice: it changes a result only on inputs that exceed it, so a what-if on one sentence shows nothing.
    ``resource`` marks a text option that names something on the machine (a file, a model folder, a device).
    ``setup`` marks a choice of setup rather than of scoring rule (which model a language calls for, a neural
    model's precision): the signature states it, but it is no what-if on one sentence pair (a value may download a
    model or need a GPU).
    """

    label: str
    help: str = ""
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choice_labels: Mapping[Any, str] = field(default_factory=dict)
    needs: Mapping[Any, Requirement] = field(default_factory=dict)
    low_open: bool = False
    work_bound: bool = False
    resource: Resource | None = None
    setup: bool = False

    def unavailable(self, choice: Any) -> str | None:
        """Why ``choice`` cannot run here (``None`` when it can)."""
        requirement = self.needs.get(choice)
        if requirement is None or requirement.met():
            return None
        return f"{choice!s} {requirement.reason()}"


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
    low_open: bool = False,
    work_bound: bool = False,
    resource: Resource | None = None,
    setup: bool = False,
) -> Any:
    """A config field with its option metadata: ``tokenize: Tokenizer = option("13a", label="Tokenizer", …)``."""
    info = OptionInfo(
        label,
        help,
        low,
        high,
        step,
        dict(choice_labels or {}),
        dict(needs or {}),
        low_open,
        work_bound,
        resource,
        setup,
    )
    return dataclasses.field(default=default, metadata={_OPTION: info})


def option_info(f: dataclasses.Field[Any]) -> OptionInfo | None:
    """The metadata :func:`option` attached to a config field (``None`` for an internal field)."""
    return f.metadata.get(_OPTION)


OptionKind = Literal["bool", "choice", "int", "float", "text", "floats"]


@dataclass(frozen=True)
class Option:
    """One config field as every front end offers it (sidebar, Teach what-ifs, ``scorelens metrics``): its kind
    and choices from the type hint, its default, and its :class:`OptionInfo`. ``optional`` fields also take
    ``None``, whose meaning their help states."""

    name: str
    kind: OptionKind
    default: Any
    info: OptionInfo
    choices: tuple[Any, ...] = ()
    optional: bool = False

    @property
    def label(self) -> str:
        return self.info.label

    @property
    def help(self) -> str:
        return self.info.help

    def choice_label(self, choice: Any) -> str:
        return self.info.choice_labels.get(choice, str(choice))

    def offered(self) -> tuple[Any, ...]:
        """The choices that can run here (all of them unless one needs something not installed)."""
        return tuple(c for c in self.choices if self.info.unavailable(c) is None)

    def unavailable(self) -> tuple[str, ...]:
        """Why each choice that is not offered cannot run here."""
        return tuple(reason for c in self.choices if (reason := self.info.unavailable(c)) is not None)

    def bounds(self) -> str:
        """``[1, 9]``, ``> 0``, ``≥ 0`` or ``""``: the values :func:`check_options` accepts, for a listing."""
        low, high = self.info.low, self.info.high
        if low is not None and high is not None:
            return f"{'(' if self.info.low_open else '['}{_plain(low)}, {_plain(high)}]"
        if low is not None:
            return f"{'>' if self.info.low_open else '≥'} {_plain(low)}"
        return f"≤ {_plain(high)}" if high is not None else ""


def _plain(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _kind(name: str, hint: Any) -> tuple[OptionKind, tuple[Any, ...], bool]:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        inner = [a for a in args if a is not type(None)]
        if inner == [str, Upload]:  # a file option: its path, or its content (Resource.FILE)
            inner = [str]
        if len(inner) != 1:
            raise TypeError(f"option {name!r}: unsupported type {hint!r}")
        kind, choices, _ = _kind(name, inner[0])
        return kind, choices, type(None) in args
    if origin is Literal:
        return "choice", args, False
    if origin is tuple and args == (float, Ellipsis):
        return "floats", (), False
    for kind, target in (("bool", bool), ("int", int), ("float", float), ("text", str)):
        if hint is target:
            return kind, (), False
    raise TypeError(f"option {name!r}: unsupported type {hint!r}")


_options: dict[type, tuple[Option, ...]] = {}


def config_options(cls: type) -> tuple[Option, ...]:
    """Every option of the config dataclass ``cls``, in field order. Every field is an option and must carry
    :func:`option` metadata (a ``TypeError`` names one that does not), so no front end can miss one."""
    known = _options.get(cls)
    if known is None:
        known = _options[cls] = _derive_options(cls)
    return known


def _derive_options(cls: type) -> tuple[Option, ...]:
    hints = typing.get_type_hints(cls)
    result = []
    for f in dataclasses.fields(cls):
        info = option_info(f)
        if info is None:
            raise TypeError(f"{cls.__name__}.{f.name} has no option metadata; declare it with option(...)")
        kind, choices, optional = _kind(f.name, hints[f.name])
        if (Upload in typing.get_args(hints[f.name])) != (info.resource is Resource.FILE):
            raise TypeError(f"{cls.__name__}.{f.name}: a field takes an Upload exactly when it names a file")
        result.append(Option(f.name, kind, f.default, info, choices, optional))
    return tuple(result)


def _check_value(opt: Option, value: Any) -> None:
    name, info = opt.name, opt.info
    if value is None and opt.optional:
        return
    if opt.kind == "choice":
        if value not in opt.choices:
            raise ValueError(f"option {name!r}: {value!r} is not one of {', '.join(map(str, opt.choices))}")
        reason = info.unavailable(value)
        if reason is not None:
            raise ValueError(f"option {name!r}: {reason}")
        return
    if opt.kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"option {name!r}: {value!r} is not a boolean (true/false)")
        return
    if opt.kind == "text":
        if not isinstance(value, str) and not (isinstance(value, Upload) and info.resource is Resource.FILE):
            raise ValueError(f"option {name!r}: expected text, got {value!r}")
        return
    if opt.kind == "floats":
        if not isinstance(value, tuple) or not value:
            raise ValueError(f"option {name!r}: expected a non-empty tuple of numbers, got {value!r}")
        for item in value:
            _check_number(opt, item)
        return
    _check_number(opt, value)


def _check_number(opt: Option, value: Any) -> None:
    name, info = opt.name, opt.info
    if isinstance(value, bool) or not isinstance(value, numbers.Integral if opt.kind == "int" else numbers.Real):
        raise ValueError(
            f"option {name!r}: expected {'an integer' if opt.kind == 'int' else 'a number'}, got {value!r}"
        )
    number = typing.cast(float, value)
    if not math.isfinite(number):
        raise ValueError(f"option {name!r}: {value!r} is not a finite number")
    check_range(name, number, info.low, info.high, low_open=info.low_open)


def check_options(config: object) -> None:
    """Validate every field of ``config`` against its option: type, choices, bounds, and that a chosen value's
    requirement is installed. Configs call this first in ``__post_init__``, so the bounds a front end offers and
    the checks are one; checks across fields stay in the config."""
    for opt in config_options(type(config)):
        _check_value(opt, getattr(config, opt.name))


@functools.cache
def _module_found(module: str) -> bool:
    return importlib.util.find_spec(module) is not None
