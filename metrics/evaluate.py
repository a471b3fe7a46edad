"""Score several systems with several metrics against shared references: the one path CLI and app both use.

Two engines do the same work. ``local`` computes every row on this machine (:mod:`metrics.parallel`). ``dask``
(:mod:`metrics.distributed`) splits the segments into partitions and computes each partition's rows with the same
:func:`metrics.parallel.segment_stats` on a Dask cluster, then gathers them. Either way :func:`assemble` makes the corpus and segment scores from the whole corpus's rows, so
both engines give the same numbers to the last digit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from enum import Enum

import numpy as np

from metrics.core.base import Metric, SegmentStats, check_corpus
from metrics.parallel import compute_rows

Progress = Callable[[float, str], None]


class Engine(str, Enum):
    """Where the rows are computed: in this process, or on a Dask cluster (``pip install 'scorelens[dask]'``)."""

    LOCAL = "local"
    DASK = "dask"


def reference_counts(refs: Sequence[Sequence[str | None]]) -> frozenset[int]:
    """The distinct numbers of references a segment has."""
    if not refs:
        return frozenset({0})
    if refs[0] and not any(None in stream for stream in refs):  # every segment has them all: no walk over them
        return frozenset({len(refs)})
    return frozenset(sum(stream[i] is not None for stream in refs) for i in range(len(refs[0])))


def nrefs_field(counts: Set[int]) -> str:
    """sacrebleu's ``nrefs`` signature field: the number of references, or ``var`` when it varies by segment."""
    return str(next(iter(counts))) if len(counts) == 1 else "var"


def nrefs_label(refs: Sequence[Sequence[str | None]]) -> str:
    return nrefs_field(reference_counts(refs))


def full_signature(metric: Metric, refs: Sequence[Sequence[str | None]]) -> str:
    """The metric's signature, led by sacrebleu's ``nrefs`` field when its scores depend on the references."""
    return signature_with(metric, nrefs_label(refs))


def signature_with(metric: Metric, nrefs: str) -> str:
    """The metric's signature led by the ``nrefs`` field (see :func:`nrefs_field`) when its scores depend on the
    references."""
    return f"nrefs:{nrefs}|{metric.signature()}" if metric.traits.reads_references else metric.signature()


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


def assemble(metrics: Mapping[str, Metric], stats: Mapping[str, Mapping[str, SegmentStats]], nrefs: str) -> Evaluation:
    """The evaluation of the whole corpus from its rows (system → metric id → statistics): corpus and segment scores
    of every system, and every metric's signature with ``nrefs`` (see :func:`nrefs_field`)."""
    results = []
    for name, by_metric in stats.items():
        scores = {m: metric.corpus_score(by_metric[m]) for m, metric in metrics.items()}
        segments = {m: metric.segment_scores(by_metric[m]) for m, metric in metrics.items()}
        results.append(SystemResult(name, {m: by_metric[m] for m in metrics}, scores, segments))
    signatures = {m: signature_with(metric, nrefs) for m, metric in metrics.items()}
    return Evaluation(dict(metrics), signatures, tuple(results))


def evaluate(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Mapping[str, Metric],
    progress: Progress | None = None,
    *,
    jobs: int = 1,
    engine: Engine | str = Engine.LOCAL,
    scheduler: str | None = None,
    workers: int | None = None,
) -> Evaluation:
    """Sufficient statistics, corpus and segment scores of every system under every metric.

    ``jobs`` > 1 computes the rows in that many forked processes (:mod:`metrics.parallel`; single-threaded
    callers only). ``engine="dask"`` computes them on a Dask cluster instead: the one at ``scheduler`` (an address
    such as ``tcp://10.0.0.5:8786``), else a local cluster of ``workers`` processes (default: one per core). The
    numbers are the same either way. ``progress(fraction, message)`` hears where the work is, so a front end can
    show it (and stop the work by raising from it): in one process before each (system, metric) pair and as its
    segments are done.
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
    stats = compute_rows(systems, refs, metrics, jobs, progress)
    if progress is not None:
        progress(1.0, "done")
    return assemble(metrics, stats, nrefs_label(refs))
