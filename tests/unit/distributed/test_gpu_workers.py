"""Tasks of a metric that runs on a CUDA device (``Traits.gpu``) go to the workers that declare a ``GPU`` resource,
and only to them; other metrics, and clusters that declare no GPU, place tasks as before."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from metrics.core.explanation import Explanation
from metrics.core.traits import Traits
from metrics.distributed.engine import GPU, evaluate_source, gpu_resources
from metrics.distributed.sources import InMemory
from tests.support.source_metric import LengthRatio

distributed = pytest.importorskip("distributed")


@dataclass(frozen=True)
class WorkerConfig:
    gpu: bool = True


class WorkerPid(LengthRatio):
    """Each segment's row is the id of the process that scored it (the score is of no interest)."""

    id = "worker-pid"
    Config = WorkerConfig

    @property
    def columns(self) -> tuple[str, ...]:
        return ("pid", "one")

    @property
    def traits(self) -> Traits:
        return Traits(reads_references=False, gpu=self.config.gpu)

    def source_stats(self, hyps, sources, refs, progress=None):  # type: ignore[no-untyped-def]
        stats = super().source_stats(hyps, sources, refs, progress)
        rows = np.column_stack([np.full(len(hyps), float(os.getpid())), np.ones(len(hyps))])
        return type(stats)(self.id, self.columns, rows, self.aggregate)

    def explain_source(self, hyp: str, source: str, refs: Sequence[str]) -> Explanation:
        raise NotImplementedError


@pytest.fixture(scope="module")
def mixed() -> Iterator[str]:
    """A cluster of one worker that declares a GPU and one that does not."""
    from distributed import Nanny, Scheduler, SpecCluster

    workers = {
        "gpu": {"cls": Nanny, "options": {"nthreads": 1, "resources": {GPU: 1}}},
        "cpu": {"cls": Nanny, "options": {"nthreads": 1}},
    }
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": ":0"}}
    with SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.CRITICAL) as cluster:
        yield cluster.scheduler_address


def _pids(scheduler: str, gpu: bool) -> set[float]:
    systems = {"a": [f"output {i}" for i in range(40)], "b": [f"other {i}" for i in range(40)]}
    source = [f"source {i}" for i in range(40)]
    scored = evaluate_source(
        InMemory(systems, [], source), {"pid": WorkerPid(gpu=gpu)}, scheduler=scheduler, partition_size=4
    )
    return {float(p) for s in scored.evaluation.systems for p in s.stats["pid"].rows[:, 0]}


def _worker_pids(scheduler: str) -> dict[str, int]:
    with distributed.Client(scheduler) as client:
        pids = client.run(os.getpid)
        info = client.scheduler_info()["workers"]
        return {("gpu" if info[address]["resources"].get(GPU) else "cpu"): pid for address, pid in pids.items()}


@pytest.mark.dask
def test_a_gpu_metric_runs_only_on_the_gpu_worker(mixed):
    workers = _worker_pids(mixed)
    assert _pids(mixed, gpu=True) == {float(workers["gpu"])}  # 20 partitions, all on the one GPU worker


@pytest.mark.dask
def test_resources_are_asked_only_for_a_gpu_metric_on_a_cluster_that_declares_gpus(mixed):
    with distributed.Client(mixed) as client:
        assert gpu_resources(client, [WorkerPid(gpu=True)]) == {GPU: 1}
        assert gpu_resources(client, [WorkerPid(gpu=False), LengthRatio()]) is None
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, dashboard_address=":0", silence_logs=logging.CRITICAL
        ) as plain,
        distributed.Client(plain) as client,
    ):
        assert gpu_resources(client, [WorkerPid(gpu=True)]) is None  # held for ever otherwise


@pytest.mark.parametrize(("metric_id", "device", "gpu"), [("comet", "cuda", True), ("cometkiwi", "cuda:1", True),
                                                          ("comet", "auto", False), ("cometkiwi", "cpu", False)])  # fmt: skip
def test_a_comet_metric_on_a_cuda_device_asks_for_a_gpu_worker(metric_id, device, gpu):
    from metrics.core.registry import create

    metric = create(metric_id, {"model": "Unbabel/wmt22-comet-da", "device": device})  # built, never loaded
    assert metric.traits.gpu is gpu and metric.traits.partitionable
