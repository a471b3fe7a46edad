"""MQM scores from error annotations, with WMT's weights (editable, and stated in the signature).

WMT's definition (Freitag et al. 2021, "Experts, Errors, and Context"; Google's wmt-mqm-human-evaluation README;
mt-metrics-eval ``converters/score_mqm.py``): each error weighs by its severity — Major 5, Minor 1, Neutral 0 —
with two exceptions: a Minor Fluency/Punctuation error weighs 0.1 and a Non-translation error (category
``Non-translation!``, a whole garbled segment) weighs 25. A rater's score of a segment is the sum of the weights of
their errors; the segment's score is the mean over its raters.

**Sign: negated, higher is better**, as mt-metrics-eval stores it: 0 = no error, −5 = one major error. ScoreLens's
MQM metric declares ``higher_is_better=True``; Google's README tables print the positive number.

**Critical**: WMT's Google MQM has no critical severity (mt-metrics-eval's converter would weigh one 0, as any
severity it has no weight for). ScoreLens weighs it 10, as xCOMET does (``metrics.families.comet.model.MQM_WEIGHTS``)
and as MQM-scored LLM judges do, so that files which use it are not silently scored as error-free; editable.
A Non-translation error weighs ``non_translation`` at Major or Critical severity; at Minor it is a minor error.

Category matching is case-insensitive and by prefix of ``/``-separated parts, as mt-metrics-eval's: a Minor
``Fluency/Punctuation/Quotes`` is a minor punctuation error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace

from metrics.annotations.model import AnnotatedError, Rating
from metrics.core.spans import Severity

_PUNCTUATION = ("fluency", "punctuation")
_NON_TRANSLATION = "non-translation"


@dataclass(frozen=True)
class MqmWeights:
    """The weight of each kind of error; defaults are WMT's (module docstring), critical is ScoreLens's choice."""

    major: float = 5.0
    minor: float = 1.0
    critical: float = 10.0
    neutral: float = 0.0
    minor_punctuation: float = 0.1
    non_translation: float = 25.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"MQM weight {f.name} must be a finite number, not {value!r}")
            if value < 0:
                raise ValueError(f"MQM weight {f.name} must not be negative (scores are negated sums), not {value}")

    def weight(self, severity: Severity, category: str | None) -> float:
        """The weight of one error of this severity and category."""
        parts = tuple(p.strip().lower() for p in (category or "").split("/"))
        if severity in (Severity.MAJOR, Severity.CRITICAL) and parts[0].rstrip("!") == _NON_TRANSLATION:
            return self.non_translation
        if severity is Severity.MINOR and parts[:2] == _PUNCTUATION:
            return self.minor_punctuation
        return float(getattr(self, severity.value))

    def signature(self) -> str:
        """``major=5,minor=1,…``: every weight (the form :meth:`parse` reads), so that two scores with different
        weights never look alike in a signature."""
        return ",".join(f"{f.name.replace('_', '-')}={getattr(self, f.name):g}" for f in fields(self))

    @classmethod
    def parse(cls, spec: str) -> MqmWeights:
        """Weights from ``"major=5,minor=1,minor-punctuation=0.1"`` (unnamed weights keep WMT's default)."""
        names = {f.name.replace("_", "-"): f.name for f in fields(cls)}
        values: dict[str, float] = {}
        for item in (s.strip() for s in spec.split(",")):
            if not item:
                continue
            key, sep, text = item.partition("=")
            name = names.get(key.strip().lower())
            if not sep or name is None:
                raise ValueError(f"MQM weight {item!r}: expected NAME=NUMBER with NAME one of {', '.join(names)}")
            try:
                values[name] = float(text)
            except ValueError:
                raise ValueError(f"MQM weight {item!r}: {text.strip()!r} is not a number") from None
        return replace(cls(), **values)


WMT_WEIGHTS = MqmWeights()


def error_weights(errors: Iterable[AnnotatedError], weights: MqmWeights = WMT_WEIGHTS) -> float:
    """The sum of the weights of some errors (positive: the penalty)."""
    return sum((weights.weight(e.severity, e.category) for e in errors), 0.0)


def segment_mqm(ratings: Sequence[Rating], weights: MqmWeights = WMT_WEIGHTS) -> float:
    """The MQM score of one segment: minus the mean over raters of each rater's sum of weights; NaN if unrated.

    Located and unlocated errors count alike (an error whose span was not marked is still an error). A segment
    without errors scores 0, not -0 (which tables would print as "-0.00")."""
    if not ratings:
        return math.nan
    return 0.0 - sum(error_weights(r.errors, weights) for r in ratings) / len(ratings)
