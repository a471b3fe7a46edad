"""Score several systems with several metrics against shared references: the one path CLI and app both use."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.core.base import Metric, SegmentStats, check_corpus
from metrics.parallel import compute_rows


def nrefs_label(refs: Sequence[Sequence[str | None]]) -> str:
    """sacrebleu's ``nrefs`` signature field: the number of references, or ``var`` when it varies by segment."""
    counts = {sum(stream[i] is not None for stream in refs) for i in range(len(refs[0]))} if refs else {0}
    return str(counts.pop()) if len(counts) == 1 else "var"


def full_signature(metric: Metric, refs: Sequence[Sequence[str | None]]) -> str:
    return f"nrefs:{nrefs_label(refs)}|{metric.signature()}"


@dataclass(frozen=True)
class SystemResult:
    name: str
    stats: Mapping[str, SegmentStats]
    scores: Mapping[str, float]
    segment_scores: Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Evaluation:
    metrics: Mapping[str, Metric]
    signatures: Mapping[str, str]
    systems: tuple[SystemResult, ...]

    def system(self, name: str) -> SystemResult:
        for result in self.systems:
            if result.name == name:
                return result
        raise KeyError(f"no system named {name!r}; systems: {', '.join(s.name for s in self.systems)}")


def evaluate(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Mapping[str, Metric],
    progress: Callable[[float, str], None] | None = None,
    *,
    jobs: int = 1,
) -> Evaluation:
    """Sufficient statistics, corpus and segment scores of every system under every metric.

    ``jobs`` > 1 computes the rows in that many forked processes (:mod:`metrics.parallel`; single-threaded
    callers only). ``progress(fraction, message)`` hears where the work is, so a front end can show it (and stop the
    work by raising from it): in one process before each (system, metric) pair and as its segments are done.
    """
    if not systems:
        raise ValueError("no systems to score")
    for name, hyps in systems.items():
        check_corpus(hyps, refs, f"system {name!r}")
    rows = compute_rows(systems, refs, metrics, jobs, progress)
    results = []
    for name, stats in rows.items():
        scores = {metric_id: metric.corpus_score(stats[metric_id]) for metric_id, metric in metrics.items()}
        segments = {metric_id: metric.segment_scores(stats[metric_id]) for metric_id, metric in metrics.items()}
        results.append(SystemResult(name, stats, scores, segments))
    if progress is not None:
        progress(1.0, "done")
    signatures = {metric_id: full_signature(metric, refs) for metric_id, metric in metrics.items()}
    return Evaluation(dict(metrics), signatures, tuple(results))
