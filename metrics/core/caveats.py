"""What a chosen metric cannot read in the loaded texts, in proportion: one structured caveat per metric family,
worded by each surface (the app, the command line) in its own terms.

Two caveats come from the families' declarations (``Family.text``, :class:`metrics.core.family.TextSupport`):

* **dropped letters** — the family's tokenizer throws away letters of the references (rouge-score's keeps
  ``[a-z0-9]`` only): how many references and outputs lose some, which letters, and the option that keeps them. A
  note while few references are touched (four 'û' in 1,000 English references), a warning from
  :data:`ESCALATE` of them on (German, Chinese);
* **English only** — part of the family knows only English (METEOR's Porter stemmer and WordNet synonyms) and the
  references do not read as English (:func:`metrics.core.language.english_share`): always a warning.

Each caveat is computed once from the references and every system's outputs together, never per system.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import chain
from typing import Any

from metrics.core.config import config_options
from metrics.core.family import Family, load
from metrics.core.language import ENGLISH, english_share
from metrics.core.registry import SPECS, family_of, metric_class

ESCALATE = 0.05  # share of the references losing letters from which the note becomes a warning
EXAMPLES = 5  # dropped letters named, the commonest first


class Surface(Enum):
    """Where a caveat is read: each names a remedy in its own terms."""

    APP = "app"
    CLI = "command line"


class Severity(Enum):
    NOTE = "note"
    WARNING = "warning"


class CaveatKind(Enum):
    DROPPED_LETTERS = "dropped letters"
    ENGLISH_ONLY = "English only"


@dataclass(frozen=True)
class Remedy:
    """An option value that lifts a caveat: ``namespace.name=value``, with the labels the app shows for it."""

    namespace: str
    name: str
    value: Any
    label: str
    value_label: str

    def text(self, surface: Surface) -> str:
        if surface is Surface.APP:
            return f'choose {self.label} "{self.value_label}" under "{self.namespace} options" in the sidebar'
        return f"add --set {self.namespace}.{self.name}={self.value}"


@dataclass(frozen=True)
class LanguageCaveat:
    """One family's caveat on the loaded texts. ``affected`` of ``total`` references are concerned (for English
    only: all of them), ``outputs_affected`` of ``outputs_total`` system outputs; ``examples``: the letters dropped,
    the commonest first; ``english``: the references' share of common English words (English only)."""

    kind: CaveatKind
    family: str
    metrics: tuple[str, ...]
    severity: Severity
    affected: int
    total: int
    outputs_affected: int = 0
    outputs_total: int = 0
    examples: tuple[str, ...] = ()
    english: float | None = None
    english_only: str = ""
    remedy: Remedy | None = None

    def text(self, surface: Surface) -> str:
        """The caveat in one or two sentences, the remedy in ``surface``'s terms (plain text)."""
        if self.kind is CaveatKind.ENGLISH_ONLY:
            return (
                f"The references do not read as English ({self.english:.0%} of their words are common English words, "
                f"about a third in English text): {self.family}'s {self.english_only} are English-only, so its stem "
                "and synonym matches are unreliable here and its scores are not comparable with English ones."
            )
        share = f" ({self.affected / self.total:.0%})" if self.severity is Severity.WARNING else ""
        outputs = (
            f" and {self.outputs_affected:,} of {self.outputs_total:,} system outputs" if self.outputs_affected else ""
        )
        text = (
            f"{self.affected:,} of {self.total:,} references{share}{outputs} have letters {self.family}'s tokenizer "
            f"drops ({', '.join(self.examples)}): they never match"
        )
        if self.remedy is not None:
            text += f". To keep them, {self.remedy.text(surface)}"
        return text + "."


def language_caveats(
    metric_ids: Iterable[str],
    refs: Sequence[Sequence[str | None]],
    outputs: Iterable[Sequence[str]] = (),
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[LanguageCaveat, ...]:
    """The caveats of the families of ``metric_ids`` (registry ids; others are skipped) on reference streams
    ``refs`` and the systems' ``outputs``, under ``options`` (by namespace: an option value that keeps every letter
    lifts that caveat). None without references: the families with caveats read references, and cannot run
    without them (they are shown as unavailable instead)."""
    if not any(text is not None for stream in refs for text in stream):
        return ()
    chosen: dict[str, list[str]] = {}
    homes: dict[str, Family] = {}
    for metric_id in metric_ids:
        if metric_id in SPECS:
            family = family_of(metric_id)
            chosen.setdefault(family.name, []).append(metric_id)
            homes[family.name] = family
    outputs = list(outputs)
    english: float | None = None
    found = []
    for name, ids in chosen.items():
        family = homes[name]
        if family.text.drops is not None:
            caveat = _dropped(family, tuple(ids), refs, outputs, options or {})
            if caveat is not None:
                found.append(caveat)
        if family.text.english_only:
            if english is None:
                english = english_share(chain.from_iterable(refs))
            if english < ENGLISH:
                total = sum(text is not None for stream in refs for text in stream)
                found.append(
                    LanguageCaveat(
                        CaveatKind.ENGLISH_ONLY,
                        family.title,
                        tuple(ids),
                        Severity.WARNING,
                        total,
                        total,
                        english=english,
                        english_only=family.text.english_only,
                    )
                )
    return tuple(found)


def metric_options(metrics: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The option values metric instances ``metrics`` (id → :class:`~metrics.core.base.Metric`) run with, by
    namespace, for :func:`language_caveats`."""
    found: dict[str, dict[str, Any]] = {}
    for metric_id, metric in metrics.items():
        if metric_id in SPECS:
            config = metric.config
            values = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
            found.setdefault(SPECS[metric_id].family, {}).update(values)
    return found


def _dropped(
    family: Family,
    ids: tuple[str, ...],
    refs: Sequence[Sequence[str | None]],
    outputs: Sequence[Sequence[str]],
    options: Mapping[str, Mapping[str, Any]],
) -> LanguageCaveat | None:
    """The dropped-letters caveat of ``family``, ``None`` when nothing is dropped or the user keeps every letter."""
    remedy = _remedy(family, ids[0])
    if remedy is not None and options.get(remedy.namespace, {}).get(remedy.name) == remedy.value:
        return None
    drops = load(family.text.drops)
    letters: Counter[str] = Counter()

    def count(texts: Iterable[str | None]) -> tuple[int, int]:
        affected = total = 0
        for text in texts:
            if text is None:
                continue
            total += 1
            lost = drops(text) if not text.isascii() else ()
            if lost:
                affected += 1
                letters.update(char for token in lost for char in token.text)
        return affected, total

    affected, total = count(chain.from_iterable(refs))
    outputs_affected, outputs_total = count(chain.from_iterable(outputs))
    if not affected and not outputs_affected:
        return None
    severity = Severity.WARNING if affected >= ESCALATE * total else Severity.NOTE
    examples = tuple(char for char, _ in letters.most_common(EXAMPLES))
    return LanguageCaveat(
        CaveatKind.DROPPED_LETTERS,
        family.title,
        ids,
        severity,
        affected,
        total,
        outputs_affected,
        outputs_total,
        examples,
        remedy=remedy,
    )


def _remedy(family: Family, metric_id: str) -> Remedy | None:
    """The option of ``family`` that keeps every letter, with the labels the app shows for it."""
    if family.text.keeps_all is None:
        return None
    name, value = family.text.keeps_all
    option = next(o for o in config_options(metric_class(metric_id).Config) if o.name == name)
    value_label = option.info.choice_labels.get(value, str(value)) if option.info.choice_labels else str(value)
    return Remedy(SPECS[metric_id].family, name, value, option.info.label or name, value_label)
