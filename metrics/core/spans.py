"""Error spans: stretches of an output (or of its source) marked as errors, with a severity.

One vocabulary for every producer of spans — a learned metric's word-level tags (xCOMET), a human MQM or ESA
annotation, an LLM judge — so that a view draws them on one line and a lesson counts them the same way. Offsets are
character offsets into the text the span belongs to (``[start, end)``, Python string indices).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    """How bad an error is, as MQM and xCOMET grade it (xCOMET's labels are minor, major and critical)."""

    NEUTRAL = "neutral"
    MINOR = "minor"
    MAJOR = "major"
    CRITICAL = "critical"


class Side(str, Enum):
    """Which text a span lies in: the output (target) or the source (an omission is marked there)."""

    TARGET = "target"
    SOURCE = "source"


@dataclass(frozen=True)
class ErrorSpan:
    """One error: ``text`` is ``[start, end)`` of its side's text; ``origin`` says who marked it (a rater's name, a
    model's name); ``confidence`` is the producer's probability for it (a model's mean label probability), ``None``
    for a human; ``category`` is MQM's (``Accuracy/Mistranslation``), ``None`` where the producer gives none."""

    start: int
    end: int
    text: str
    severity: Severity
    side: Side = Side.TARGET
    origin: str = ""
    category: str | None = None
    confidence: float | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"error span [{self.start}, {self.end}) is not a span of a text")
