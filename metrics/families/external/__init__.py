"""External metrics: segment scores computed elsewhere (COMET, BLEURT, MetricX, an LLM judge, human raters).

Its declaration registers no metric id: the registry lists computations a user picks by id, while an external metric
is data — a file of scores under a name the user gives. ``External(read_external(...))`` makes one a
:class:`~metrics.core.base.Metric` that the evaluation, statistics, results schema and app treat like any other.

The names below load on first use: the registry imports every family to read its declaration, and a run without
external scores should not pay for reading score files (hashlib, csv).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from metrics.core.family import EVERY_SCRIPT, Family

if TYPE_CHECKING:
    from metrics.families.external.metric import External as External
    from metrics.families.external.metric import ExternalExplanation as ExternalExplanation
    from metrics.families.external.scores import ExternalScores as ExternalScores
    from metrics.families.external.scores import parse_external as parse_external
    from metrics.families.external.scores import read_external as read_external

_MODULES = {
    "External": "metrics.families.external.metric",
    "ExternalExplanation": "metrics.families.external.metric",
    "ExternalScores": "metrics.families.external.scores",
    "parse_external": "metrics.families.external.scores",
    "read_external": "metrics.families.external.scores",
}
__all__ = list(_MODULES)

FAMILY = Family(
    name="external",
    title="External scores",
    rank=99,
    metrics=(),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(),
    no_lesson={
        "metrics.families.external.metric:ExternalExplanation": "an external metric's scores are read from a file, "
        "not computed: nothing to derive"
    },
    text=EVERY_SCRIPT,
)


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_MODULES[name]), name)
