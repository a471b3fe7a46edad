"""A distributed run: plan the partitions, summarize references for corpus-dependent metrics, score every
partition on the cluster, gather and check the rows, and assemble the evaluation as the local engine does."""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from metrics.core.base import CorpusDependent, Metric, refuse_missing
from metrics.core.evaluation import Evaluation, Progress, assemble, nrefs_field
from metrics.distributed.cluster import WORKER_WAIT_SECONDS, ClusterError, connect
from metrics.distributed.gather import PartResult, check_tiling, concatenate, input_notes
from metrics.distributed.sources import Plan, Source
from metrics.distributed.tasks import Recipe, add_summaries, score_part, summarize_part

if TYPE_CHECKING:
    from distributed import Client, Future

MAX_PARTITION = 20_000
POLL_SECONDS = 0.25
GPU = "GPU"  # the worker resource a GPU worker declares
TASKS_PER_WORKER = 4  # a few partitions per worker, so that a slow one does not leave the others idle at the end


@dataclass(frozen=True)
class Scored:
    """The evaluation, and notes on how its input files were read (line endings, byte-order marks)."""

    evaluation: Evaluation
    notes: tuple[str, ...]


def partitions(segments: int, size: int) -> list[tuple[int, int]]:
    """Consecutive ranges ``[start, stop)`` of at most ``size`` segments covering ``0 … segments - 1``."""
    if size < 1:
        raise ValueError(f"partition size must be at least 1, not {size}")
    return [(start, min(start + size, segments)) for start in range(0, segments, size)]


def default_partition_size(segments: int, workers: int) -> int:
    """:data:`TASKS_PER_WORKER` partitions per worker, at most :data:`MAX_PARTITION` segments each."""
    return max(1, min(MAX_PARTITION, math.ceil(segments / (TASKS_PER_WORKER * max(workers, 1)))))


def evaluate_source(
    source: Source,
    metrics: Mapping[str, Metric[Any, Any]],
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    partition_size: int | None = None,
    progress: Progress | None = None,
) -> Scored:
    """Score ``source`` on the cluster at ``scheduler``, or on a local cluster of ``workers`` processes."""
    with connect(scheduler, workers) as client:
        return run(client, source, metrics, partition_size=partition_size, progress=progress)


def gpu_resources(client: Client, metrics: Sequence[Metric[Any, Any]]) -> dict[str, float] | None:
    """``{"GPU": 1}`` for tasks that score a metric running on a CUDA device (``Traits.gpu``) when a worker of the
    cluster declares a ``GPU`` resource (``dask worker … --resources GPU=1``): such a task then runs only there, one
    at a time per GPU. ``None`` otherwise, also when no worker declares one: Dask would hold such tasks for ever, and
    workers may have GPUs they do not declare."""
    if not any(metric.traits.gpu for metric in metrics):
        return None
    workers = client.scheduler_info()["workers"].values()
    return {GPU: 1} if any(worker.get("resources", {}).get(GPU, 0) >= 1 for worker in workers) else None


def _summaries(
    client: Client, plan: Plan, ranges: Sequence[tuple[int, int]], recipes: Mapping[str, Recipe], run: str
) -> Future:
    """A future of the whole corpus's summaries (metric id → summary), added up pairwise on the cluster."""
    level = [
        client.submit(summarize_part, plan.part(a, b), recipes, key=f"scorelens-summarize-{a}-{b}-{run}")
        for a, b in ranges
    ]
    depth = 0
    while len(level) > 1:
        depth += 1
        pairs = [
            client.submit(add_summaries, level[i], level[i + 1], key=f"scorelens-add-{depth}-{i}-{run}")
            for i in range(0, len(level) - 1, 2)
        ]
        level = pairs + level[len(pairs) * 2 :]
    return level[0]


def _check_workers(client: Client, alone_since: float | None) -> float | None:
    """When the cluster has had no worker since ``alone_since``; an error once that lasts too long (workers that
    died and were not restarted would otherwise leave the run waiting for ever)."""
    if client.scheduler_info()["workers"]:
        return None
    now = time.monotonic()
    if alone_since is not None and now - alone_since > WORKER_WAIT_SECONDS:
        raise ClusterError(
            f"the cluster has had no worker for {WORKER_WAIT_SECONDS:.0f} s (they died and were not restarted); "
            "the run stops"
        )
    return now if alone_since is None else alone_since


def _collect(client: Client, futures: Sequence[Future], progress: Progress | None) -> list[PartResult]:
    from distributed import as_completed

    results: list[PartResult] = []
    pending = as_completed(futures)
    alone_since: float | None = None
    try:
        while not pending.is_empty():
            batch = pending.next_batch(block=False)
            for future in batch:
                results.append(future.result())
                if progress is not None:
                    progress(len(results) / len(futures), f"{len(results)} of {len(futures)} partitions scored")
            if not batch:
                alone_since = _check_workers(client, alone_since)
                time.sleep(POLL_SECONDS)
    except BaseException:
        client.cancel(list(futures))
        raise
    return results


@contextmanager
def cluster_errors() -> Iterator[None]:
    """Dask's error for a task whose workers kept dying, as a :class:`ClusterError` that says what to do."""
    from distributed import KilledWorker

    try:
        yield
    except KilledWorker as err:
        raise ClusterError(
            f"task {err.task} ran on workers that died {err.allowed_failures + 1} times, Dask's limit "
            "(distributed.scheduler.allowed-failures); a worker dies when it runs out of memory (try smaller "
            "partitions) or is stopped"
        ) from None


def run(
    client: Client,
    source: Source,
    metrics: Mapping[str, Metric[Any, Any]],
    *,
    partition_size: int | None = None,
    progress: Progress | None = None,
) -> Scored:
    """Score ``source`` with ``metrics`` on the cluster of ``client``; the numbers are the local engine's."""
    with cluster_errors():
        return score_plan(client, source.plan(client), metrics, partition_size=partition_size, progress=progress)


def score_plan(
    client: Client,
    plan: Plan,
    metrics: Mapping[str, Metric[Any, Any]],
    *,
    partition_size: int | None = None,
    progress: Progress | None = None,
) -> Scored:
    """Score a source's ``plan`` (made on the cluster of ``client``: see :func:`run`, which also turns a worker that
    kept dying into a :class:`ClusterError`)."""
    refused = [m for m, metric in metrics.items() if not metric.traits.partitionable and not metric.traits.whole_task]
    if refused:
        raise ValueError(
            f"{', '.join(refused)}: rows depend on the whole corpus in a way partitions cannot reproduce; "
            "score them with the local engine"
        )
    refuse_missing(metrics.values(), references=plan.has_references, source=plan.has_source)
    workers = len(client.scheduler_info()["workers"])
    ranges = partitions(plan.segments, partition_size or default_partition_size(plan.segments, workers))
    recipes = {metric_id: Recipe.of(metric) for metric_id, metric in metrics.items()}
    whole = {m: recipes.pop(m) for m, metric in metrics.items() if not metric.traits.partitionable}
    dependent = {m: recipes[m] for m, metric in metrics.items() if isinstance(metric, CorpusDependent) and m in recipes}
    run_id = uuid.uuid4().hex[:8]
    summaries = _summaries(client, plan, ranges, dependent, run_id) if dependent else None
    resources = gpu_resources(client, [metrics[m] for m in recipes])
    futures = [
        client.submit(
            score_part,
            plan.part(a, b),
            recipes,
            summaries,
            key=f"scorelens-score-{a}-{b}-{run_id}",
            resources=resources,
        )
        for a, b in ranges
    ]
    # one task sees every segment, as the local engine does; it runs beside the partitions
    key = f"scorelens-whole-{run_id}"
    alone_resources = gpu_resources(client, [metrics[m] for m in whole])
    alone = (
        [client.submit(score_part, plan.part(0, plan.segments), whole, None, key=key, resources=alone_resources)]
        if whole
        else []
    )
    ordered = check_tiling(_collect(client, futures, progress), plan.segments)
    done = [*ordered, *(_collect(client, alone, None) if alone else [])]
    stats = concatenate(ordered, plan.systems, list(recipes))
    stats = {
        system: {m: (done[-1].stats[system][m] if m in whole else stats[system][m]) for m in metrics}
        for system in plan.systems
    }  # in the metrics' order
    nrefs = nrefs_field(frozenset().union(*(part.ref_counts for part in done)))
    return Scored(assemble(metrics, stats, nrefs), input_notes(ordered))
