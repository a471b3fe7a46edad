"""Score several systems with several metrics against shared references: the one path CLI and app both use.

Two engines do the same work. ``local`` computes every row in this process. ``dask`` (:mod:`metrics.distributed`)
splits the segments into partitions and computes each partition's rows with :func:`segment_stats` on a Dask cluster,
then gathers them. Either way :func:`assemble` makes the corpus and segment scores from the whole corpus's rows, so
both engines give the same numbers to the last digit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from enum import Enum

import numpy as np

from metrics.core.base import CorpusDependent, CorpusSummary, Metric, SegmentStats, check_corpus

Progress = Callable[[float, str], None]


class Engine(str, Enum):
    """Where the rows are computed: in this process, or on a Dask cluster (``pip install 'scorelens[dask]'``)."""

    LOCAL = "local"
    DASK = "dask"


def reference_counts(refs: Sequence[Sequence[str | None]]) -> frozenset[int]:
    """The distinct numbers of references a segment has."""
    return (
        frozenset(sum(stream[i] is not None for stream in refs) for i in range(len(refs[0])))
        if refs
        else frozenset({0})
    )


def nrefs_field(counts: Set[int]) -> str:
    """sacrebleu's ``nrefs`` signature field: the number of references, or ``var`` when it varies by segment."""
    return str(next(iter(counts))) if len(counts) == 1 else "var"


def nrefs_label(refs: Sequence[Sequence[str | None]]) -> str:
    return nrefs_field(reference_counts(refs))


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


def segment_stats(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Mapping[str, Metric],
    summaries: Mapping[str, CorpusSummary] | None = None,
    progress: Progress | None = None,
) -> dict[str, dict[str, SegmentStats]]:
    """Rows of every system under every metric (system → metric id → statistics): what either engine computes, on
    the whole corpus or on one partition of it. A metric with an entry in ``summaries`` (a
    :class:`~metrics.core.base.CorpusDependent` one) scores these segments within the corpus it summarizes.

    ``progress(fraction, message)`` is called before each (system, metric) pair.
    """
    summaries = summaries or {}
    result: dict[str, dict[str, SegmentStats]] = {}
    steps = len(systems) * len(metrics)
    for s, (name, hyps) in enumerate(systems.items()):
        result[name] = {}
        for m, (metric_id, metric) in enumerate(metrics.items()):
            if progress is not None:
                progress((s * len(metrics) + m) / steps, f"{metric.name} on {name}")
            summary = summaries.get(metric_id)
            if summary is None:
                result[name][metric_id] = metric.stats(hyps, refs)
            elif isinstance(metric, CorpusDependent):
                result[name][metric_id] = metric.stats_within(hyps, refs, summary)
            else:
                raise TypeError(f"{metric_id}: a corpus summary was given but {type(metric).__name__} takes none")
    return result


def assemble(metrics: Mapping[str, Metric], stats: Mapping[str, Mapping[str, SegmentStats]], nrefs: str) -> Evaluation:
    """The evaluation of the whole corpus from its rows (system → metric id → statistics): corpus and segment scores
    of every system, and every metric's signature with ``nrefs`` (see :func:`nrefs_field`)."""
    results = []
    for name, by_metric in stats.items():
        scores = {m: metric.corpus_score(by_metric[m]) for m, metric in metrics.items()}
        segments = {m: metric.segment_scores(by_metric[m]) for m, metric in metrics.items()}
        results.append(SystemResult(name, {m: by_metric[m] for m in metrics}, scores, segments))
    signatures = {m: f"nrefs:{nrefs}|{metric.signature()}" for m, metric in metrics.items()}
    return Evaluation(dict(metrics), signatures, tuple(results))


def evaluate(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Mapping[str, Metric],
    progress: Progress | None = None,
    *,
    engine: Engine | str = Engine.LOCAL,
    scheduler: str | None = None,
    workers: int | None = None,
) -> Evaluation:
    """Sufficient statistics, corpus and segment scores of every system under every metric.

    ``engine="dask"`` computes the rows on a Dask cluster: the one at ``scheduler`` (an address such as
    ``tcp://10.0.0.5:8786``), else a local cluster of ``workers`` processes (default: one per core). The numbers are
    those of the local engine. ``progress(fraction, message)`` is called as the work advances, so a front end can
    show it.
    """
    engine = Engine(engine)
    if engine is Engine.DASK:
        from metrics.distributed.engine import evaluate_source
        from metrics.distributed.sources import InMemory

        return evaluate_source(
            InMemory(systems, refs), metrics, scheduler=scheduler, workers=workers, progress=progress
        ).evaluation
    if scheduler is not None or workers is not None:
        raise ValueError("scheduler and workers are options of engine='dask'")
    if not systems:
        raise ValueError("no systems to score")
    for name, hyps in systems.items():
        check_corpus(hyps, refs, f"system {name!r}")
    stats = segment_stats(systems, refs, metrics, progress=progress)
    if progress is not None:
        progress(1.0, "done")
    return assemble(metrics, stats, nrefs_label(refs))
