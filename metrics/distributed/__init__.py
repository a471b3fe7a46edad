"""Scoring on a Dask cluster: the ``dask`` engine of :func:`metrics.evaluate.evaluate` and ``scorelens score``.

Rows of sufficient statistics are per segment, so the corpus splits into partitions of consecutive segments that
workers score independently with the local engine's own code (:func:`metrics.parallel.segment_stats`). The client
gathers the rows, checks that every segment came back exactly once, and computes corpus scores, intervals and tests
on them as the local engine does. A :class:`~metrics.core.base.CorpusDependent` metric (CIDEr-D) first has every
partition's references summarized; the summaries are added up on the cluster and the total goes to every task.

Modules: :mod:`.sources` (what is scored: texts in memory, large ``.txt``/``.jsonl`` files, a Parquet table, each
read by partition on the workers), :mod:`.lines` (line-numbered random access to large text files), :mod:`.tasks`
(what runs on a worker), :mod:`.gather` (putting the partitions together, with its checks), :mod:`.cluster`
(connecting to or starting a cluster) and :mod:`.engine` (the run). Nothing here is imported until the engine is
asked for, so the base install does not need Dask (``pip install 'scorelens[dask]'``).
"""
