"""``scorelens score`` on inputs this process does not read as files: a Parquet table (``--table``, on either engine)
and the dask engine (``--engine dask``: files read partition by partition on the workers, :mod:`metrics.distributed`).

Default metrics and a language's options are chosen from the first references alone (:mod:`metrics.core.defaults`
and :mod:`metrics.core.language` read no further), so the dask engine reads only those on this machine and chooses
what the local engine chooses."""

from __future__ import annotations

import argparse

from metrics.cli import annotations as cli_annotations
from metrics.cli import external as cli_external
from metrics.cli.common import build_metrics, score_texts
from metrics.cli.progress import ProgressBar
from metrics.core import language
from metrics.core.evaluation import Evaluation
from metrics.evaluate import Engine
from metrics.io.inputs import STDIN
from metrics.reports.results import Note


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("engine (the numbers are the same with either)")
    group.add_argument("--engine", choices=[e.value for e in Engine], default=Engine.LOCAL.value)
    group.add_argument("--scheduler", metavar="ADDRESS", help="dask: the scheduler to use (default: a local cluster)")
    group.add_argument("--workers", type=int, metavar="N", help="dask: worker processes of the local cluster")
    group.add_argument("--partition-size", type=int, metavar="N", help="dask: segments per task (default: automatic)")


def on_cluster(args: argparse.Namespace) -> bool:
    return bool(args.engine == Engine.DASK.value)


def check(args: argparse.Namespace) -> None:
    """Options of the dask engine only with it; no standard input on it (the workers read the files)."""
    dask_only = {"--scheduler": args.scheduler, "--workers": args.workers, "--partition-size": args.partition_size}
    given = [flag for flag, value in dask_only.items() if value is not None]
    if given and not on_cluster(args):
        raise ValueError(f"{', '.join(given)} need --engine dask")
    if on_cluster(args) and STDIN in (*(args.refs or ()), *(args.systems or ()), args.source):
        raise ValueError(f"--engine dask reads files on its workers, not standard input ({STDIN}); give a file")
    if on_cluster(args) and (args.external or args.annotations):
        raise ValueError(
            "--external scores and --annotations are read on this machine; use them with the local engine "
            "(no --engine dask)"
        )


def score_at_scale(args: argparse.Namespace) -> tuple[Evaluation, list[Note]]:
    """The evaluation of a Parquet table here, or of the table or files on the dask engine; notes on the input."""
    if on_cluster(args):
        return _on_cluster(args)
    from metrics.io.parquet import read_table  # here: only --table reads Parquet

    table = read_table(args.table, args.source_column)
    evaluation = score_texts(args, dict(table.systems), table.refs, table.source)
    return evaluation, cli_external.external_notes(evaluation) + cli_annotations.annotation_notes(evaluation)


def _on_cluster(args: argparse.Namespace) -> tuple[Evaluation, list[Note]]:
    from metrics.core import defaults
    from metrics.distributed.cluster import connect
    from metrics.distributed.engine import cluster_errors, score_plan
    from metrics.distributed.sources import ParquetTable, Source, TextFiles, first_segments

    source: Source = (
        ParquetTable(args.table, args.source_column)
        if args.table
        else TextFiles(tuple(args.refs), tuple(args.systems), source=args.source)
    )
    progress = ProgressBar()
    try:
        with connect(args.scheduler, args.workers) as client, cluster_errors():
            plan = source.plan(client)
            # the segments of each reference stream the choices read (see the module docstring)
            profiled = max(defaults.SAMPLE_SEGMENTS, language.SAMPLE_SEGMENTS)
            first = first_segments(plan, profiled)
            metrics = build_metrics(args, first.refs, list(first.systems.values()), first.source)
            scored = score_plan(client, plan, metrics, partition_size=args.partition_size, progress=progress)
    finally:
        progress.close()
    return scored.evaluation, [Note(n) for n in scored.notes]
