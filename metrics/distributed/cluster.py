"""Connecting to a Dask cluster, or starting one on this machine for the length of a run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed import Client

WORKER_WAIT_SECONDS = 60.0


class ClusterError(RuntimeError):
    """The cluster could not do the work: Dask missing, no scheduler or worker, or a worker that kept dying."""


@contextmanager
def connect(scheduler: str | None = None, workers: int | None = None) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``), or of a local cluster of
    ``workers`` single-threaded processes (default: one per core) that stops when the run ends."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("the dask engine needs Dask: pip install 'scorelens[dask]'") from None
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if scheduler is None:
        import logging  # here: main imports this module for ClusterError, and every other run needs no logging

        processes = workers or os.cpu_count() or 1
        with (
            LocalCluster(
                n_workers=processes,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: two runs on one machine must not contend for 8787
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    if workers is not None:
        raise ValueError("workers sizes a local cluster; the cluster at the scheduler address has its own workers")
    try:
        client = Client(scheduler, timeout=f"{WORKER_WAIT_SECONDS}s")
    except (OSError, TimeoutError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
        except TimeoutError:
            raise ClusterError(
                f"no worker joined the scheduler at {scheduler} within {WORKER_WAIT_SECONDS:.0f} s; "
                f"start some with: dask worker {scheduler}"
            ) from None
        yield client
