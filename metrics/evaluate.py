"""Score several systems with several metrics against shared references: the one path CLI and app both use.

Two engines do the same work. ``local`` computes every row on this machine (:mod:`metrics.parallel`). ``dask``
(:mod:`metrics.distributed`) splits the segments into partitions and computes each partition's rows with the same
:func:`metrics.parallel.segment_stats` on a Dask cluster, then gathers them. Either way
:func:`metrics.core.evaluation.assemble` makes the corpus and segment scores from the whole corpus's rows, so both
engines give the same numbers to the last digit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from metrics.core.base import Metric, check_corpus, check_source, refuse_missing
from metrics.core.evaluation import Evaluation, Progress, assemble, nrefs_label
from metrics.parallel import compute_rows


class Engine(str, Enum):
    """Where the rows are computed: in this process, or on a Dask cluster (``pip install 'scorelens[dask]'``)."""

    LOCAL = "local"
    DASK = "dask"


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
    source: Sequence[str] | None = None,
) -> Evaluation:
    """Sufficient statistics, corpus and segment scores of every system under every metric.

    ``jobs`` > 1 computes the rows in that many forked processes (:mod:`metrics.parallel`; single-threaded
    callers only). ``engine="dask"`` computes them on a Dask cluster instead: the one at ``scheduler`` (an address
    such as ``tcp://10.0.0.5:8786``), else a local cluster of ``workers`` processes (default: one per core). The
    numbers are the same either way. ``progress(fraction, message)`` hears where the work is, so a front end can
    show it (and stop the work by raising from it): in one process before each (system, metric) pair and as its
    segments are done.

    ``source`` is the segments' source texts, for the metrics that read them (:class:`~metrics.core.base.ReadsSource`).
    ``refs`` may be empty (``[]``) when no metric reads references. A metric that needs what is not given (the
    source, references) is refused before any work with :class:`~metrics.core.base.MissingInput`.
    """
    refuse_missing(metrics.values(), references=bool(refs), source=source is not None)
    engine = Engine(engine)
    if engine is Engine.DASK:
        from metrics.distributed.engine import evaluate_source
        from metrics.distributed.sources import InMemory

        return evaluate_source(
            InMemory(systems, refs, source), metrics, scheduler=scheduler, workers=workers, progress=progress
        ).evaluation
    if scheduler is not None or workers is not None:
        raise ValueError("scheduler and workers are options of engine='dask'")
    if not systems:
        raise ValueError("no systems to score")
    for name, hyps in systems.items():
        check_corpus(hyps, refs, f"system {name!r}", references=False)
    if source is not None:
        check_source(source, len(next(iter(systems.values()))))
    stats = compute_rows(systems, refs, metrics, jobs, progress, source)
    if progress is not None:
        progress(1.0, "done")
    return assemble(metrics, stats, nrefs_label(refs))
