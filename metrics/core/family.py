"""What a metric family declares about itself, in one place: ``metrics/families/<name>/__init__.py`` defines one
``FAMILY = Family(...)``, and every other part of ScoreLens (the registry, the language and task defaults, length
buckets, the human-agreement estimate, the kernel checks, Teach) reads it from there. Its mappings are read-only
views: a declaration cannot be changed after import.

Every field of :class:`Family` is required, so that a family states what it does not use (``agreement_fits={}``,
a metric's ``token_unit=None``) instead of forgetting it; tests/contracts/test_contracts.py checks that each declaration is
consistent with the code it names. The declaration holds only data and ``"module:name"`` paths: a family's
``__init__`` stays cheap, and what a path names is imported when first used.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, TypeVar

from metrics.core.config import Requirement


class Language(Enum):
    """A target language whose script calls for its own options."""

    CHINESE = "zh"
    JAPANESE = "ja"
    KOREAN = "ko"

    @property
    def label(self) -> str:
        return self.name.capitalize()


class Task(Enum):
    """What a corpus is read as when the user chose no metrics (:mod:`metrics.core.defaults`)."""

    SUMMARIZATION = "summaries"
    CAPTIONING = "captions"
    TRANSLATION = "translations"


class Extra(Enum):
    """An optional install of ``pyproject.toml`` (``pip install 'scorelens[ja]'``) some of a family needs."""

    NEURAL = "neural"
    JAPANESE = "ja"
    KOREAN = "ko"


K = TypeVar("K")
V = TypeVar("V")


def read_only(mapping: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only copy of ``mapping``: the caller's dict is neither kept nor changed."""
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class MetricDeclaration:
    """One metric id: the class (``"module:Class"``), its label, the ``--set NAMESPACE.option`` namespace its
    options take, the options its id fixes (``chrf++`` is chrF with ``word_order=2``), what it needs installed, and
    the function (``"module:function"``, metric → :class:`~metrics.core.tokens.TokenUnit`) giving the unit its
    length buckets count in; ``None``: whitespace words."""

    id: str
    target: str
    label: str
    namespace: str
    token_unit: str | None
    preset: Mapping[str, Any] = field(default_factory=dict)
    requires: tuple[Requirement, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "preset", read_only(self.preset))


@dataclass(frozen=True)
class LanguageOption:
    """An option a target language sets on metric ``metric``, and why. ``instead``: when ``value`` needs an install
    this machine lacks, the value used without it (a visible fallback); ``None`` for a value that needs nothing."""

    metric: str
    name: str
    value: Any
    why: str
    instead: Any = None


@dataclass(frozen=True)
class TaskUse:
    """``metrics`` are defaults for ``task``; ``order`` places this family among the task's others (lowest first)."""

    task: Task
    metrics: tuple[str, ...]
    order: int


@dataclass(frozen=True)
class TextSupport:
    """What of a text a family's default configuration reads.

    ``drops``: ``"module:function"`` giving the letters and digits of a text its default tokenizer throws away (a
    tuple of :class:`~metrics.core.tokens.Token`); ``None`` when it keeps every script. ``keeps_all``: the option
    (name, value) under which it keeps them, ``None`` when there is none. ``english_only``: what of it knows only
    English, as a phrase that follows the family's title (``"stemmer (Porter) and synonyms (WordNet 3.0)"``);
    ``""``: nothing.
    """

    drops: str | None
    keeps_all: tuple[str, Any] | None
    english_only: str


EVERY_SCRIPT = TextSupport(drops=None, keeps_all=None, english_only="")  # reads text of any language alike


@dataclass(frozen=True)
class AgreementFit:
    """A human-agreement estimate exists for a metric (:mod:`metrics.analysis.agreement`): ``name`` in
    mt-thresholds, valid for the metric's default configuration except ``free`` options, which may take any value
    except on references in a language for which the family's language options set them: there they must have
    that value (WMT scored each target language with its own settings)."""

    name: str
    free: tuple[str, ...]


class FitSource(Enum):
    """How a metric got its human-agreement fit."""

    FAMILY = "its family"
    DECLARED = "declared with its scores"
    NAME = "its name"
    MODEL = "its released model"


@dataclass(frozen=True)
class Fit:
    """The human-agreement estimate a metric instance gets (:mod:`metrics.analysis.agreement`): ``name`` in
    mt-thresholds; ``scale`` turns a difference in the metric's own units into the fit's (100 for scores on 0–1
    whose fit takes points on 0–100); ``source``: how it was chosen."""

    name: str
    scale: float
    source: FitSource

    def describe(self, label: str) -> str:
        """One line for a page: which fit, how chosen, and the scale read."""
        scaled = " (scores on 0–1, differences read ×100)" if self.scale != 1 else ""
        return f"{label}: fit {self.name} ({self.source.value}){scaled}"


@dataclass(frozen=True)
class KernelCase:
    """Rows of ``metric`` with ``options`` on test ``corpora`` (tests/data) must be bit-identical with and without
    the compiled kernels (tests/parity/test_kernels.py)."""

    metric: str
    options: Mapping[str, Any]
    corpora: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", read_only(self.options))


@dataclass(frozen=True)
class Family:
    """Everything ScoreLens asks about one family (see the module docstring).

    ``name``: its folder under ``metrics/families``; ``title``: its name in prose (a fallback's note, a task's reason);
    ``rank``: its place in listings; ``metrics``: the ids it registers; ``language_options``: what each target
    language sets; ``tasks``: the tasks it is a default for; ``agreement_fits``: metric id → its human-agreement
    estimate; ``kernels``: the compiled ``metrics/kernels/_<name>.pyx`` it uses, and ``kernel_cases`` the inputs
    on which they must match the pure-Python path; ``extras``: the optional installs some of it needs;
    ``no_lesson``: explanation type (``"module:Class"``) → why Teach has no lesson for it; ``text``: which letters
    and languages its default configuration reads (:class:`TextSupport`).
    """

    name: str
    title: str
    rank: int
    metrics: tuple[MetricDeclaration, ...]
    language_options: Mapping[Language, tuple[LanguageOption, ...]]
    tasks: tuple[TaskUse, ...]
    agreement_fits: Mapping[str, AgreementFit]
    kernels: tuple[str, ...]
    kernel_cases: tuple[KernelCase, ...]
    extras: tuple[Extra, ...]
    no_lesson: Mapping[str, str]
    text: TextSupport

    def __post_init__(self) -> None:
        for name in ("language_options", "agreement_fits", "no_lesson"):
            object.__setattr__(self, name, read_only(getattr(self, name)))
        named = {o.metric for options in self.language_options.values() for o in options}
        named |= {metric_id for use in self.tasks for metric_id in use.metrics}
        named |= set(self.agreement_fits) | {case.metric for case in self.kernel_cases}
        foreign = named - {m.id for m in self.metrics}
        if foreign:
            raise ValueError(f"family {self.name!r} names metrics it does not declare: {', '.join(sorted(foreign))}")

    def language_values(self, metric_id: str, language: Language | None) -> dict[str, Any]:
        """Option name → value that ``language`` sets on ``metric_id`` (none for ``None``)."""
        options = self.language_options.get(language, ()) if language is not None else ()
        return {option.name: option.value for option in options if option.metric == metric_id}


@functools.cache
def load(path: str) -> Any:
    """What a ``"module:name"`` path of a declaration names, imported on first use."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
