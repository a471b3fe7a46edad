"""Default metrics chosen from the data, and the reason, for the app's first choice and the CLI without ``-m``.

:func:`choose_metrics` reads the task from the best evidence there is, in this order, and says which it used:

1. with a **source**: references far shorter than their source (median reference/source length below
   :data:`SUMMARY_RATIO`, in words, a Chinese or Japanese character counting as half a word) → **summaries**;
   else a source in another script or language than the references (Hebrew or Chinese against Latin letters, or
   one side English and the other not) or about as long → **translations**;
2. with **system outputs** and no source: outputs whose lengths follow the references' segment by segment
   (correlation of log lengths at least :data:`FOLLOWS`; WMT systems 0.92–0.99) → **translations**; else
   **captions** for several short references (COCO 0.03–0.11), **summaries** otherwise (CNN/DailyMail 0.32–0.40);
3. from the **references' shape** alone: clearly long ones (many sentences, or :data:`LONG` words) → summaries;
   several short ones per segment → captions; otherwise translations — one or two references of a sentence or a
   paragraph (WMT23 paragraphs: 3 sentences, 58 words) are translations.

:func:`profile_references` measures the references (medians, so a few outliers do not decide), in words or, for
Chinese and Japanese, characters. A task's metrics are those the families declare for it (``Family.tasks``), in
their declared order. A metric the task calls for but this machine cannot run (one needing WordNet, say) is left
out and named; one whose tokenizer would drop the letters of many references gets the option that keeps them, or
is left out (:mod:`metrics.core.caveats`). Every reason names its evidence: it is shown to the user.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from types import MappingProxyType
from typing import Any, cast

from metrics.core.base import missing_input
from metrics.core.caveats import CaveatKind, Severity, language_caveats
from metrics.core.family import Family, Task
from metrics.core.language import (
    ENGLISH,
    Language,
    LengthUnit,
    detect_language,
    dominant_script,
    english_share,
    length_unit,
    text_length,
)
from metrics.core.registry import available_metrics, create, families
from metrics.core.sentences import sentence_end

SUMMARY_RATIO = 0.5  # median reference/source length below which references are summaries (CNN/DM ~0.07)
CHARACTERS_PER_WORD = 2.0  # Chinese or Japanese characters counted as one word against a source in words
FOLLOWS = 0.8  # correlation of output and reference log lengths from which outputs are translations
MIN_SEGMENTS = 20  # segments needed to read that correlation
MIN_SPREAD = 0.1  # standard deviation of the references' log lengths needed to read it (not all one length)
SYSTEMS_READ = 5  # systems whose outputs are read for it
MANY_SENTENCES = 6  # median sentences per reference from which references alone are summaries
LONG = {"words": 150, "characters": 300}  # median reference length from which references alone are summaries
MANY_REFERENCES = 3  # median references per segment from which short segments are captions
SHORT = {"words": 20, "characters": 40}  # median reference length up to which segments count as short
SAMPLE_SEGMENTS = 2000  # segments profiled: the shape of a corpus shows early

_SENTENCE_END = sentence_end()  # the sentence splitter's end pattern (metrics.core.sentences)


def _task_uses(task: Task) -> list[tuple[Family, tuple[str, ...]]]:
    """The families declaring ``task``, with the ids each gives it, in the task's declared order."""
    found = [(use.order, family, use.metrics) for family in families() for use in family.tasks if use.task is task]
    return [(family, ids) for _, family, ids in sorted(found, key=lambda entry: entry[0])]


def task_metrics(task: Task) -> tuple[str, ...]:
    """The metric ids the families declare for ``task``, in its declared order."""
    return tuple(metric_id for _, ids in _task_uses(task) for metric_id in ids)


def _named(task: Task) -> str:
    """``A, B and C``: the titles of the families declaring ``task``, in its order."""
    titles = [family.title for family, _ in _task_uses(task)]
    return titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"


@dataclass(frozen=True)
class ReferenceProfile:
    """Medians over the profiled segments: references per segment, sentences and length per reference."""

    segments: int
    references: float
    sentences: float
    length: float
    unit: LengthUnit
    language: Language | None

    def describe(self) -> str:
        if self.segments == 0:
            return "no references"
        refs = f"{self.references:g} reference{'s' if self.references != 1 else ''} per segment"
        return f"{refs}, {self.sentences:g} sentence(s) and {self.length:g} {self.unit} per reference (medians)"


def sentence_count(text: str) -> int:
    """Lines of a multi-line text (a list of sentences), else sentence-final punctuation marks; at least 1."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) > 1:
        return len(lines)
    return max(1, len(_SENTENCE_END.findall(text)))


def profile_references(refs: Sequence[Sequence[str | None]], sample: int = SAMPLE_SEGMENTS) -> ReferenceProfile:
    """The shape of reference streams ``refs`` (``refs[k][i]``) from their first ``sample`` segments."""
    n = min(len(refs[0]), sample) if refs else 0
    if n == 0:
        raise ValueError("no references to profile")
    language = detect_language(refs).language
    unit = length_unit(language)
    per_segment = []
    sentences = []
    lengths = []
    for i in range(n):
        texts = [text for stream in refs if (text := stream[i]) is not None and text.strip()]
        per_segment.append(len(texts))
        for text in texts:
            sentences.append(sentence_count(text))
            lengths.append(text_length(text, unit))
    return ReferenceProfile(
        segments=n,
        references=float(statistics.median(per_segment)),
        sentences=float(statistics.median(sentences)) if sentences else 0.0,
        length=float(statistics.median(lengths)) if lengths else 0.0,
        unit=unit,
        language=language,
    )


@dataclass(frozen=True)
class Evidence:
    """What the task was read from besides the references' shape; ``None`` where it could not be measured.

    ``source_ratio``: median reference/source length per segment, in words (a Chinese or Japanese side's characters
    count as :data:`CHARACTERS_PER_WORD` to a word); ``source_script`` and ``reference_script``: the scripts most
    of their letters are in; ``source_english`` and ``reference_english``: their shares of common English words;
    ``follows``: how closely the outputs' lengths follow the references' segment by segment (median over systems of
    the correlation of log lengths)."""

    source_ratio: float | None = None
    source_script: str | None = None
    reference_script: str | None = None
    source_english: float | None = None
    reference_english: float | None = None
    follows: float | None = None


@dataclass(frozen=True)
class MetricChoice:
    """Default metrics for a corpus: the ids, the task they were read as, why, the options set so that they read
    the references' letters (by namespace), and what was left out and why."""

    metrics: tuple[str, ...]
    task: Task
    profile: ReferenceProfile
    reason: str
    left_out: tuple[str, ...] = ()
    evidence: Evidence = Evidence()
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    detected: bool = True  # False: the task was stated by the user

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType({k: dict(v) for k, v in self.options.items()}))

    def explain(self) -> str:
        """One sentence for the screen or stderr."""
        text = self.reason if not self.detected else f"{self.profile.describe()}: {self.reason}"
        for note in self.notes:
            text += f"; {note}"
        if self.left_out:
            text += f"; not installed here, so left out: {', '.join(self.left_out)}"
        return text


def _unit(texts: Sequence[str | None], n: int) -> LengthUnit:
    return length_unit(detect_language([texts[:n]]).language)


def _word_lengths(texts: Sequence[str | None], n: int, unit: LengthUnit) -> list[float | None]:
    """The first ``n`` texts' lengths in words, characters counted as :data:`CHARACTERS_PER_WORD` to a word where
    ``unit`` is characters (``None`` for a missing text)."""
    scale = 1 / CHARACTERS_PER_WORD if unit == "characters" else 1.0
    return [None if text is None else text_length(text, unit) * scale for text in texts[:n]]


def _follows(
    refs: Sequence[Sequence[str | None]], outputs: Sequence[Sequence[str]], n: int, unit: LengthUnit
) -> float | None:
    """Median over (up to :data:`SYSTEMS_READ`) systems of the correlation between the logs of the outputs' and the
    first references' lengths, both in ``unit`` (outputs are in the references' language); ``None`` with too few
    segments or references of nearly one length."""
    reference = _word_lengths(refs[0], n, unit)
    pairs = [i for i, length in enumerate(reference) if length]
    if len(pairs) < MIN_SEGMENTS:
        return None
    ref_logs = [math.log(cast(float, reference[i])) for i in pairs]
    if statistics.pstdev(ref_logs) < MIN_SPREAD:
        return None
    found = []
    for system in outputs[:SYSTEMS_READ]:
        lengths = _word_lengths(system, n, unit)
        logs = [math.log(max(cast(float, lengths[i]), 1 / CHARACTERS_PER_WORD)) for i in pairs]
        if statistics.pstdev(logs) > 0:
            found.append(statistics.correlation(ref_logs, logs))
    return float(statistics.median(found)) if found else None


def gather_evidence(
    refs: Sequence[Sequence[str | None]], source: Sequence[str] | None, outputs: Sequence[Sequence[str]]
) -> Evidence:
    """The evidence :func:`task_of` reads, from the first :data:`SAMPLE_SEGMENTS` segments."""
    n = min(len(refs[0]), SAMPLE_SEGMENTS)
    unit = _unit(refs[0], n)
    follows = _follows(refs, outputs, n, unit)
    if source is None:
        return Evidence(follows=follows)
    ratios = [
        r / s
        for r, s in zip(_word_lengths(refs[0], n, unit), _word_lengths(source, n, _unit(source, n)), strict=True)
        if r is not None and s  # a missing reference or an empty source says nothing
    ]
    return Evidence(
        source_ratio=float(statistics.median(ratios)) if ratios else None,
        source_script=dominant_script(source[:n]),
        reference_script=dominant_script(chain.from_iterable(stream[:n] for stream in refs)),
        source_english=english_share(source[:n]),
        reference_english=english_share(chain.from_iterable(stream[:n] for stream in refs)),
        follows=follows,
    )


def _script(name: str) -> str:
    return "Han or kana" if name == "CJK" else name.capitalize()


def task_of(profile: ReferenceProfile, evidence: Evidence = Evidence()) -> tuple[Task, str]:
    """The task a reference profile and the evidence point to, and why (rule in the module docstring)."""
    e = evidence
    if e.source_ratio is not None and e.source_ratio < SUMMARY_RATIO:
        why = f"the references are {e.source_ratio:.0%} of their source's length (median), read as summaries"
        return Task.SUMMARIZATION, f"{why}, so {_named(Task.SUMMARIZATION)}"
    translation = f"read as translations, so {_named(Task.TRANSLATION)}"
    if e.source_script and e.reference_script and e.source_script != e.reference_script:
        scripts = f"source in {_script(e.source_script)} script, references in {_script(e.reference_script)}"
        return Task.TRANSLATION, f"{scripts}: {translation}"
    english = _english_side(e)
    if english is not None:
        sides = "the source reads as English, the references do not"
        if english == "references":
            sides = "the references read as English, the source does not"
        return Task.TRANSLATION, f"{sides}: {translation}"
    if e.source_ratio is not None:
        return (
            Task.TRANSLATION,
            f"the references are about as long as their source ({e.source_ratio:.2f}): {translation}",
        )
    if e.follows is not None:
        if e.follows >= FOLLOWS:
            return Task.TRANSLATION, f"the outputs' lengths follow the references' (r = {e.follows:.2f}): {translation}"
        unfollowed = f"the outputs' lengths do not follow the references' (r = {e.follows:.2f})"
        if _captions(profile):
            return Task.CAPTIONING, f"{unfollowed}, many short references: captions, so {_named(Task.CAPTIONING)}"
        return Task.SUMMARIZATION, f"{unfollowed}: read as summaries, so {_named(Task.SUMMARIZATION)}"
    if profile.sentences >= MANY_SENTENCES or profile.length >= LONG[profile.unit]:
        why = "many sentences" if profile.sentences >= MANY_SENTENCES else f"long ({profile.unit})"
        return Task.SUMMARIZATION, f"{why} per reference read as summaries, so {_named(Task.SUMMARIZATION)}"
    if _captions(profile):
        return Task.CAPTIONING, f"many short references read as captions, so {_named(Task.CAPTIONING)}"
    return Task.TRANSLATION, f"one or two references of a sentence or a paragraph {translation}"


def _english_side(e: Evidence) -> str | None:
    """``"source"`` or ``"references"`` when only that side reads as English, else ``None``."""
    if e.source_english is None or e.reference_english is None:
        return None
    source, references = e.source_english >= ENGLISH, e.reference_english >= ENGLISH
    if source == references:
        return None
    return "source" if source else "references"


def _captions(profile: ReferenceProfile) -> bool:
    return profile.references >= MANY_REFERENCES and profile.length <= SHORT[profile.unit]


def choose_metrics(
    refs: Sequence[Sequence[str | None]],
    available: Iterable[str] | None = None,
    *,
    source: Sequence[str] | None = None,
    outputs: Sequence[Sequence[str]] = (),
    task: Task | None = None,
) -> MetricChoice:
    """Default metrics for reference streams ``refs``, the ``source`` and the systems' ``outputs``: the metrics of
    ``task``, or of the task read from them, that are ``available`` (default: those installed here) and read the
    references' letters (a family whose tokenizer drops them from :data:`metrics.core.caveats.ESCALATE` of the
    references on gets its option that keeps them, or is left out). Without references (``refs == []``) the task's
    metrics that read none are chosen (:func:`reference_free_choice`)."""
    if not refs:
        return reference_free_choice(available, source=source, task=task)
    profile = profile_references(refs)
    evidence = gather_evidence(refs, source, outputs)
    if task is None:
        chosen, reason = task_of(profile, evidence)
    else:
        chosen, reason = task, f"{task.value}, as stated, so {_named(task)}"
    offered = set(available_metrics() if available is None else available)
    wanted = task_metrics(chosen)
    sample = [list(stream[:SAMPLE_SEGMENTS]) for stream in refs]
    options: dict[str, dict[str, Any]] = {}
    dropped: set[str] = set()
    notes = []
    for caveat in language_caveats([m for m in wanted if m in offered], sample):
        if caveat.kind is not CaveatKind.DROPPED_LETTERS or caveat.severity is not Severity.WARNING:
            continue
        lost = f"{caveat.family}'s tokenizer drops letters of {caveat.affected / caveat.total:.0%} of the references"
        if caveat.remedy is None:
            dropped.update(caveat.metrics)
            notes.append(f"{lost} ({', '.join(caveat.examples)}), so it is left out")
        else:
            remedy = caveat.remedy
            options.setdefault(remedy.namespace, {})[remedy.name] = remedy.value
            notes.append(f"{lost} ({', '.join(caveat.examples)}), so {remedy.namespace}.{remedy.name}={remedy.value}")
    return MetricChoice(
        tuple(m for m in wanted if m in offered and m not in dropped),
        chosen,
        profile,
        reason,
        tuple(m for m in wanted if m not in offered),
        evidence,
        options,
        tuple(notes),
        detected=task is None,
    )


def reference_free_choice(
    available: Iterable[str] | None = None, *, source: Sequence[str] | None = None, task: Task | None = None
) -> MetricChoice:
    """Default metrics for data without references: the metrics of ``task`` (translation unless stated: a source
    and outputs without references are what quality estimation scores) that run, with their default options, on
    no references and on the source when there is one. Nothing is read from the texts: the references' shape, the
    evidence of every other rule, is missing."""
    chosen = task or Task.TRANSLATION
    offered = set(available_metrics() if available is None else available)
    wanted = task_metrics(chosen)
    runs = [
        m
        for m in wanted
        if m in offered and missing_input(create(m), references=False, source=source is not None) is None
    ]
    stated = f"{chosen.value}, as stated" if task is not None else "read as translation outputs"
    reason = f"{stated}; only metrics that read no references can score them"
    if not runs:
        reason += (
            ", and the task declares none that runs on this data (choose one: external scores, perplexity on a "
            "corpus file or a causal model)"
        )
    profile = ReferenceProfile(segments=0, references=0.0, sentences=0.0, length=0.0, unit="words", language=None)
    return MetricChoice(
        tuple(runs), chosen, profile, reason, tuple(m for m in wanted if m not in offered), detected=task is None
    )
