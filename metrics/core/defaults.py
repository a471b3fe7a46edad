"""Default metrics chosen from the data, and the reason, for the app's first choice and the CLI without ``-m``.

:func:`profile_references` measures the references: references per segment, sentences and length per reference
(medians, so a few outliers do not decide), length in words or, for Chinese and Japanese, characters.
:func:`choose_metrics` reads the task off that profile:

* several sentences per reference, or long references → **summaries** (the edit-based translation metrics are slow
  on such segments — TER took 778 s for CNN/DailyMail — and rarely reported for summaries);
* several short references per segment → **captions**;
* otherwise → **translations**.

A task's metrics are those the families declare for it (``Family.tasks``), in their declared order. A metric the
rule picks but this machine cannot run (one needing WordNet, say) is left out and named.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from metrics.core.family import Family, Task
from metrics.core.language import Language, LengthUnit, detect_language, length_unit, text_length
from metrics.core.registry import available_metrics, families
from metrics.core.sentences import sentence_end

SEVERAL_SENTENCES = 2  # median sentences per reference from which segments are summaries
LONG = {"words": 40, "characters": 80}  # median reference length from which segments are summaries
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
class MetricChoice:
    """Default metrics for a corpus: the ids, the task they were read as, why, and what was left out."""

    metrics: tuple[str, ...]
    task: Task
    profile: ReferenceProfile
    reason: str
    left_out: tuple[str, ...] = ()

    def explain(self) -> str:
        """One sentence for the screen or stderr."""
        text = f"{self.profile.describe()}: {self.reason}"
        if self.left_out:
            text += f"; not installed here, so left out: {', '.join(self.left_out)}"
        return text


def task_of(profile: ReferenceProfile) -> tuple[Task, str]:
    """The task a reference profile points to, and why (rule in the module docstring)."""
    if profile.sentences >= SEVERAL_SENTENCES or profile.length >= LONG[profile.unit]:
        why = "several sentences" if profile.sentences >= SEVERAL_SENTENCES else f"long ({profile.unit})"
        return Task.SUMMARIZATION, f"{why} per reference read as summaries, so {_named(Task.SUMMARIZATION)}"
    if profile.references >= MANY_REFERENCES and profile.length <= SHORT[profile.unit]:
        return Task.CAPTIONING, f"many short references read as captions, so {_named(Task.CAPTIONING)}"
    translation = _named(Task.TRANSLATION)
    return Task.TRANSLATION, f"one or two references of about a sentence read as translations, so {translation}"


def choose_metrics(refs: Sequence[Sequence[str | None]], available: Iterable[str] | None = None) -> MetricChoice:
    """Default metrics for reference streams ``refs``: the task's metrics that are ``available`` (default: those
    installed here)."""
    profile = profile_references(refs)
    task, reason = task_of(profile)
    offered = set(available_metrics() if available is None else available)
    wanted = task_metrics(task)
    return MetricChoice(
        tuple(m for m in wanted if m in offered),
        task,
        profile,
        reason,
        tuple(m for m in wanted if m not in offered),
    )
