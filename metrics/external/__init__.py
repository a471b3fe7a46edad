"""External metrics: segment scores computed elsewhere (COMET, BLEURT, MetricX, an LLM judge, human raters).

Not registered: the registry lists computations a user picks by id, while an external metric is data — a file of
scores under a name the user gives. ``External(read_external(...))`` makes one a :class:`~metrics.core.base.Metric`
that the evaluation, statistics, results schema and app treat like any other.
"""

from metrics.external.metric import External, ExternalExplanation
from metrics.external.scores import ExternalScores, parse_external, read_external

__all__ = ["External", "ExternalExplanation", "ExternalScores", "parse_external", "read_external"]
