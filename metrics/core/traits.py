"""How a metric may be run, as opposed to what it computes: one frozen record the engines read
(:mod:`metrics.evaluate`, :mod:`metrics.parallel`, :mod:`metrics.distributed`), so that a metric's semantics and
its execution needs are declared apart."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Traits:
    """What the engines need to know to run a metric; the defaults fit a metric that scores each segment from its
    own text and references alone, in plain Python.

    ``reads_references``: whether the scores depend on the references (their number then leads the full
    signature). ``in_process``: whether its rows are computed in the calling process even under ``--jobs``
    (:mod:`metrics.parallel`): a metric that keeps what scoring found for its explanations or runs threads of its
    own (torch, a compiled kernel's threads) says so. ``partitionable``: whether segments scored in partitions get
    the rows the whole corpus gives them, as the dask engine needs (a
    :class:`~metrics.core.base.CorpusDependent` metric gets them through its summary); false for rows that depend
    on the other segments in a way no summary reproduces: a model trained on the references, bert-score's batches.
    ``whole_task``: for a metric that is not partitionable, whether the dask engine may score it as one task over
    the whole corpus on one worker (cheap text work whose rows depend on neighbouring segments, as CIDEr-D's PTB
    tokenization does) rather than refuse it. ``gpu``: it runs on a CUDA device (a learned metric whose ``device``
    option names one), so the dask engine sends its tasks to workers that declare a ``GPU`` resource, where the
    cluster has such workers.
    """

    reads_references: bool = True
    in_process: bool = False
    partitionable: bool = True
    whole_task: bool = False
    gpu: bool = False
