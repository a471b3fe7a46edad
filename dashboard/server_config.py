"""What a browser may choose where a metric option names something on the server (a file, a model, a device).

A served app is shared, so the person at a browser is not the server's owner: nothing a browser sends may name a
server path. An option whose metadata says it names a resource (:class:`metrics.core.config.Resource`) is never
offered as text:

* a ``FILE`` option (perplexity's training corpus) takes an :class:`~metrics.core.upload.Upload` — the bytes a user
  sent, at most :data:`MAX_FILE_OPTION_BYTES` — or its default;
* a ``MODEL`` option (BERTScore's model, perplexity's causal LM) takes its default (the bundled model, or none) or
  a value the server's owner listed in the JSON file that the environment variable ``SCORELENS_MODELS`` names::

      {"bertscore.model": {"RoBERTa large": "/srv/models/roberta-large"},
       "perplexity.causal_model": {"GPT-2": "/srv/models/gpt2"}}

  (``family.option`` → label → value; the browser sees the labels; a value may be a hub id such as
  ``FacebookAI/roberta-large``, which the server resolves in its own Hugging Face cache or downloads there);
* a ``DEVICE`` option (where a neural metric runs) takes its default, ``auto``, or one of the devices listed,
  comma-separated, in the environment variable ``SCORELENS_DEVICES`` (default ``cpu``; e.g. ``cpu,cuda:1``).
  ``auto`` takes the server's GPU when torch sees one: a server that keeps its GPU from browsers runs with
  ``CUDA_VISIBLE_DEVICES=""``. Precision (fp32, bf16, fp16) is an ordinary choice.

The command line and the library take paths and devices as given.

:func:`browser_selection` is the one way the app turns session options into a
:class:`~metrics.core.selection.Selection`, and :func:`check_browser_options` guards what the session keeps: both
refuse any other value, whichever way it reached the session (a widget's state, a workspace file), before anything
could open it.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from metrics.core.config import Option, Resource, config_options
from metrics.core.registry import SPECS, metric_class
from metrics.core.selection import OptionError, Selection
from metrics.core.upload import Upload

ENV = "SCORELENS_MODELS"
DEVICES_ENV = "SCORELENS_DEVICES"
DEFAULT_DEVICES = ("cpu",)
# An uploaded training corpus, which an n-gram model is built from in the server's memory. Measured here (lines of 20
# words from a 50,000-word vocabulary, a 3-gram Witten–Bell model): 1 MB took the process's peak to 388 MB, 2 MB to
# 560 MB and 10 MB to 1.7 GB (5 minutes on 2 busy cores). 2 MB is about 350,000 words.
MAX_FILE_OPTION_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class ServerConfig:
    """The model values the server's owner lets a browser choose, by ``family.option`` (value → label), and what
    was wrong with the file that lists them (``error``, for the server's log: it names a server path; the defaults
    alone are offered then)."""

    models: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    error: str | None = None
    devices: tuple[str, ...] = DEFAULT_DEVICES

    def choices(self, family: str, option: Option) -> dict[Any, str]:
        """The values a browser may give ``family.option`` (a ``MODEL`` or ``DEVICE`` option), default first, with
        their labels: the default, what the metric ships (its labelled values), then what the owner lists."""
        own = {option.default: option.choice_label(option.default)}
        if option.info.resource is Resource.DEVICE:
            return {**own, **{d: d for d in self.devices}}
        # A model option's labelled values are what the metric itself ships (BERTScore's bundled MiniLM).
        return {**own, **option.info.choice_labels, **self.models.get(f"{family}.{option.name}", {})}


@functools.cache
def resource_options() -> Mapping[str, Option]:
    """Every option that names a server resource, by ``family.option`` (the first declaration of each), of every
    metric whose module loads here (one that does not can never be built, so nothing could open its resource)."""
    found: dict[str, Option] = {}
    for metric_id, spec in SPECS.items():
        try:
            declared = config_options(metric_class(metric_id).Config)
        except ImportError:
            continue
        for option in declared:
            if option.info.resource is not None:
                found.setdefault(f"{spec.family}.{option.name}", option)
    return MappingProxyType(found)


def parse(text: str, source: str) -> ServerConfig:
    """The server configuration in ``text`` (the JSON of the module docstring); a ``ValueError`` names ``source``
    and what is wrong."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{source}: not valid JSON ({err.msg}, line {err.lineno})") from None
    if not isinstance(document, dict):
        raise ValueError(f'{source}: expected an object such as {{"bertscore.model": {{"label": "folder"}}}}')
    options = resource_options()
    models: dict[str, dict[str, str]] = {}
    for key, listed in document.items():
        option = options.get(key)
        if option is None or option.info.resource is not Resource.MODEL:
            valid = ", ".join(k for k, o in options.items() if o.info.resource is Resource.MODEL)
            raise ValueError(f"{source}: {key!r} is not a model option (model options: {valid})")
        if not isinstance(listed, dict) or not all(isinstance(v, str) and v for v in listed.values()):
            raise ValueError(f"{source}: {key!r} must map labels to model names or folders (non-empty text)")
        models[key] = {value: label for label, value in listed.items()}
    return ServerConfig(models)


def parse_devices(text: str) -> tuple[str, ...]:
    """The devices of :data:`DEVICES_ENV` (comma-separated ``device`` values); a ``ValueError`` names a wrong one."""
    from metrics.core.devices import parse_device

    devices = tuple(dict.fromkeys(d.strip().lower() for d in text.split(",") if d.strip()))
    for device in devices:
        parse_device(device)
    return devices


@functools.cache
def server_config() -> ServerConfig:
    """The configuration :data:`ENV` and :data:`DEVICES_ENV` name, read once per server process; none: the
    defaults alone. What is wrong with them goes to the server's log."""
    log = logging.getLogger(__name__)
    try:
        devices = parse_devices(os.environ.get(DEVICES_ENV, ",".join(DEFAULT_DEVICES)))
    except ValueError as err:
        log.error("%s: %s; only %s is offered", DEVICES_ENV, err, ", ".join(DEFAULT_DEVICES))
        devices = DEFAULT_DEVICES
    path = os.environ.get(ENV)
    if not path:
        return ServerConfig(devices=devices)
    try:
        with open(path, encoding="utf-8") as handle:
            return replace(parse(handle.read(), path), devices=devices)
    except (OSError, ValueError) as err:
        found = ServerConfig(error=f"{ENV}: {err}", devices=devices)
        log.error("%s; only the default models are offered", found.error)
        return found


def refusal(family: str, name: str, value: Any) -> str | None:
    """Why a browser may not give ``family.name`` the value ``value`` (``None`` when it may, or when the option
    names no server resource)."""
    option = resource_options().get(f"{family}.{name}")
    if option is None or value == option.default:
        return None
    if option.info.resource is Resource.FILE:
        if not isinstance(value, Upload):
            return f"{family}.{name}: the app takes this file as an upload, never a path on the server"
        if len(value.data) > MAX_FILE_OPTION_BYTES:
            return f"{family}.{name}: {value.name} has {len(value.data):,} bytes, more than {MAX_FILE_OPTION_BYTES:,}"
        return None
    if not isinstance(value, str) or value not in server_config().choices(family, option):
        if option.info.resource is Resource.DEVICE:
            return f"{family}.{name}: not one of the devices this server offers (its owner lists them in {DEVICES_ENV})"
        return f"{family}.{name}: not one of the models this server offers (its owner lists them in {ENV})"
    return None


def check_browser_options(options: Mapping[str, Mapping[str, Any]]) -> None:
    """An :class:`OptionError` for the first value of ``options`` (family → option → value) that names a server
    resource the server does not offer to a browser (:func:`refusal`)."""
    for family, values in options.items():
        for name, value in values.items():
            reason = refusal(family, name, value)
            if reason is not None:
                raise OptionError(family, reason)


def browser_selection(metric_ids: Sequence[str], options: Mapping[str, Mapping[str, Any]]) -> Selection:
    """The :class:`Selection` of options that came from a browser: checked by :func:`check_browser_options` first,
    so a refused value never reaches a metric's config, then by the selection's own checks."""
    check_browser_options(options)
    return Selection(tuple(metric_ids), options)
