"""Rows of many systems under many metrics computed in forked worker processes (the command line's ``--jobs``).

A metric keeps what it derived from the references (tokens, counts, document frequencies) for the next system, so
the work is split by metric: each task is one metric on a share of the systems, and a metric's systems are only
split when there are fewer metrics than workers. Workers are forked, so they start in milliseconds and read the
inputs and metric objects from the parent's memory; only the rows travel back. Forking a process that runs other
threads is unsafe, so only single-threaded callers (the command line) ask for more than one job; anything else, and
a platform without ``fork``, computes in this process. Metrics whose traits say ``in_process`` (BERTScore, a
causal LM: torch's threads; ROUGE: its kernel's threads, which forked workers would only make encode the references
again; BERTScore's embedding cache and the batch floors its explanations read) are computed here after the workers
are done, so no fork follows their threads. The rows are those of :func:`~metrics.core.base.system_stats`
either way, with the source stream when one is given (a :class:`~metrics.core.base.ReadsSource` metric reads it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from metrics.core.base import CorpusDependent, CorpusSummary, Metric, SegmentStats, system_stats

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

Rows = dict[str, dict[str, SegmentStats]]  # system -> metric id -> rows
_Task = tuple[str, tuple[str, ...]]  # metric id, the systems it scores

# What forked workers read (set in the parent just before forking, cleared after).
_shared: (
    tuple[Mapping[str, Sequence[str]], Sequence[Sequence[str | None]], Mapping[str, Metric], Sequence[str] | None]
    | None
) = None


def _fork_context() -> BaseContext | None:
    """multiprocessing's ``fork`` context, if this platform has one."""
    import multiprocessing  # here: one process needs none of it (5 ms of the command line's start-up)

    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _tasks(systems: Sequence[str], metric_ids: Sequence[str], jobs: int) -> list[_Task]:
    parts = max(1, min(len(systems), jobs // max(1, len(metric_ids))))
    return [(m, tuple(systems[k::parts])) for m in metric_ids for k in range(parts)]


def _run(task: _Task) -> tuple[str, dict[str, SegmentStats]]:
    if _shared is None:
        raise RuntimeError("a worker started without its inputs")
    systems, refs, metrics, source = _shared
    metric_id, names = task
    metric = metrics[metric_id]
    return metric_id, {name: system_stats(metric, name, systems[name], refs, source=source) for name in names}


def segment_stats(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Mapping[str, Metric],
    summaries: Mapping[str, CorpusSummary] | None = None,
    progress: Callable[[float, str], None] | None = None,
    source: Sequence[str] | None = None,
) -> Rows:
    """Rows of every system under every metric (system → metric id → statistics): what either engine computes, on
    the whole corpus or on one partition of it (``source``: the same segments' source texts, or ``None``). A
    metric with an entry in ``summaries`` (a :class:`~metrics.core.base.CorpusDependent` one) scores these segments
    within the corpus it summarizes.

    ``progress(fraction, message)`` is called before each (system, metric) pair and as its segments are done.
    """
    summaries = summaries or {}
    result: Rows = {}
    steps = len(systems) * len(metrics)
    for s, (name, hyps) in enumerate(systems.items()):
        result[name] = {}
        for m, (metric_id, metric) in enumerate(metrics.items()):
            segments = None
            if progress is not None:
                done, what = s * len(metrics) + m, f"{metric.name} on {name}"
                progress(done / steps, what)
                segments = _segments_done(progress, done, steps, what, len(hyps))
            summary = summaries.get(metric_id)
            if summary is None:
                result[name][metric_id] = system_stats(metric, name, hyps, refs, segments, source=source)
            elif isinstance(metric, CorpusDependent):
                result[name][metric_id] = metric.stats_within(hyps, refs, summary)
            else:
                raise TypeError(f"{metric_id}: a corpus summary was given but {type(metric).__name__} takes none")
    return result


def compute_rows(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Mapping[str, Metric],
    jobs: int = 1,
    progress: Callable[[float, str], None] | None = None,
    source: Sequence[str] | None = None,
) -> Rows:
    """Rows of every system under every metric, in ``jobs`` processes (this one when ``jobs`` is 1).

    ``progress(fraction, message)`` is called as (system, metric) pairs start and their segments are done (one
    process) or as they finish (several).
    """
    names = list(systems)
    here = {metric_id: metric for metric_id, metric in metrics.items() if metric.traits.in_process}
    tasks = _tasks(names, [m for m in metrics if m not in here], jobs)
    context = None if jobs <= 1 or len(tasks) <= 1 else _fork_context()
    if context is None:
        return segment_stats(systems, refs, metrics, progress=progress, source=source)
    rows: Rows = {name: {} for name in names}
    steps, done = len(tasks) + len(names) * len(here), 0
    global _shared
    _shared = (systems, refs, metrics, source)
    try:
        with context.Pool(min(jobs, len(tasks))) as pool:
            for metric_id, by_system in pool.imap_unordered(_run, tasks):
                for name, stats in by_system.items():
                    rows[name][metric_id] = replace(stats)  # re-validated (and read-only) in this process
                done += 1
                if progress is not None:
                    progress(done / steps, f"{metrics[metric_id].name} on {len(by_system)} system(s)")
    finally:
        _shared = None
    for name in names:
        for metric_id, metric in here.items():
            if progress is not None:
                progress(done / steps, f"{metric.name} on {name}")
            rows[name][metric_id] = system_stats(metric, name, systems[name], refs, source=source)
            done += 1
    return {name: {m: rows[name][m] for m in metrics} for name in names}


def _segments_done(
    progress: Callable[[float, str], None], done: int, steps: int, what: str, total: int
) -> Callable[[int], None]:
    """A metric's segment progress as the evaluation's: the share of all (system, metric) pairs done."""

    def report(segments: int) -> None:
        progress((done + segments / max(total, 1)) / steps, f"{what}: {segments:,} of {total:,} segments")

    return report
