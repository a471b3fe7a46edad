"""``scorelens``: the command line of the metrics core.

    scorelens score --refs R1 [R2 ...] --systems S1 [S2 ...] --metrics bleu,chrf [--set bleu.tokenize=intl]
                    [--segments | --output-dir DIR [--segment-format csv|parquet]] [--format json|csv|table]
                    [--engine dask [--scheduler ADDRESS | --workers N] [--partition-size N]]
    scorelens score --table segments.parquet …

Inputs are ``.txt`` (one segment per line) or ``.jsonl`` (one object per line with a ``"text"`` string, which may
hold newlines marking sentence boundaries), or one Parquet table with a column per system and reference
(:mod:`metrics.io.parquet`). Scores are on each reference implementation's own scale. JSON and CSV follow the
results schema of :mod:`metrics.io.results`; ``--output-dir`` writes segment scores to a file per system instead
(:mod:`metrics.io.segment_files`). ``--engine dask`` computes the same numbers on a Dask cluster
(:mod:`metrics.distributed`), reading large files partition by partition on the workers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from metrics.cli import stats as cli_stats
from metrics.cli.listing import list_metrics
from metrics.cli.text import format_table
from metrics.core.base import Metric
from metrics.core.registry import SPECS, create_many, parse_set_options
from metrics.distributed.cluster import ClusterError
from metrics.distributed.gather import GatherError
from metrics.evaluate import Engine, Evaluation, evaluate
from metrics.io.inputs import InputError, check_same_length, display_name, read_segments
from metrics.io.parquet import read_table
from metrics.io.results import Note, build_results, to_csv, to_json
from metrics.io.segment_files import SegmentFormat, write_segment_scores


def _metric_list(text: str) -> list[str]:
    ids = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in ids if m not in SPECS]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; valid metrics: {', '.join(SPECS)}")
    if len(set(ids)) != len(ids):
        raise ValueError(f"metric listed twice in {text!r}")
    return ids


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorelens", description="Text-generation metrics with exact parity.")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score systems against references")
    score.add_argument("--refs", nargs="+", metavar="FILE", help="reference files (one stream each)")
    score.add_argument("--systems", nargs="+", metavar="FILE", help="system output files")
    score.add_argument(
        "--table", metavar="FILE", help="a Parquet table instead: a column per system, reference columns ref or ref.*"
    )
    score.add_argument("--metrics", default="bleu,chrf", help=f"comma-separated, from: {', '.join(SPECS)}")
    score.add_argument("--set", action="append", default=[], metavar="FAMILY.OPTION=VALUE", dest="options")
    segments = score.add_mutually_exclusive_group()
    segments.add_argument("--segments", action="store_true", help="also print segment scores")
    segments.add_argument("--output-dir", metavar="DIR", help="write segment scores to DIR, one file per system")
    score.add_argument("--segment-format", choices=[f.value for f in SegmentFormat], default=SegmentFormat.CSV.value)
    score.add_argument("--format", choices=("json", "csv", "table"), default="table")
    engine = score.add_argument_group("engine (the numbers are the same with either)")
    engine.add_argument("--engine", choices=[e.value for e in Engine], default=Engine.LOCAL.value)
    engine.add_argument("--scheduler", metavar="ADDRESS", help="dask: the scheduler to use (default: a local cluster)")
    engine.add_argument("--workers", type=int, metavar="N", help="dask: worker processes of the local cluster")
    engine.add_argument("--partition-size", type=int, metavar="N", help="dask: segments per task (default: automatic)")
    cli_stats.add_arguments(score)
    sub.add_parser("metrics", help="list metric ids and their options (label, default, values, help)")
    return parser


def _check_inputs(args: argparse.Namespace) -> None:
    if args.table is not None and (args.refs or args.systems):
        raise ValueError("give either --table or --refs and --systems, not both")
    if args.table is None and not (args.refs and args.systems):
        raise ValueError("give --refs and --systems (or --table)")
    if args.table is None:
        names = [display_name(path) for path in args.systems]
        if len(set(names)) != len(names):
            raise ValueError(f"two system files share a name ({', '.join(names)}); rename one")
    dask_only = {"--scheduler": args.scheduler, "--workers": args.workers, "--partition-size": args.partition_size}
    given = [flag for flag, value in dask_only.items() if value is not None]
    if given and args.engine != Engine.DASK.value:
        raise ValueError(f"{', '.join(given)} need --engine dask")


def _local(args: argparse.Namespace, metrics: dict[str, Metric[Any, Any]]) -> tuple[Evaluation, list[Note]]:
    if args.table is not None:
        table = read_table(args.table)
        return evaluate(dict(table.systems), [list(r) for r in table.refs], metrics), []
    refs = [read_segments(path) for path in args.refs]
    systems = [read_segments(path) for path in args.systems]
    check_same_length([*refs, *systems])
    evaluation = evaluate({s.name: list(s.texts) for s in systems}, [list(r.texts) for r in refs], metrics)
    return evaluation, [Note(n) for f in (*refs, *systems) for n in f.notes]


def _distributed(args: argparse.Namespace, metrics: dict[str, Metric[Any, Any]]) -> tuple[Evaluation, list[Note]]:
    from metrics.distributed.engine import evaluate_source
    from metrics.distributed.sources import ParquetTable, Source, TextFiles

    source: Source = ParquetTable(args.table) if args.table else TextFiles(tuple(args.refs), tuple(args.systems))
    scored = evaluate_source(
        source, metrics, scheduler=args.scheduler, workers=args.workers, partition_size=args.partition_size
    )
    return scored.evaluation, [Note(n) for n in scored.notes]


def run_score(args: argparse.Namespace) -> str:
    _check_inputs(args)
    metrics = create_many(_metric_list(args.metrics), parse_set_options(args.options))
    score = _distributed if args.engine == Engine.DASK.value else _local
    evaluation, input_notes = score(args, metrics)
    if args.output_dir is not None:
        written = write_segment_scores(evaluation, Path(args.output_dir), SegmentFormat(args.segment_format))
        print(f"scorelens: segment scores of {len(written)} system(s) written to {args.output_dir}", file=sys.stderr)
    results = build_results(evaluation, cli_stats.compute(args, evaluation), segments=args.segments, notes=input_notes)
    for note in results.notes:
        where = f"{note.metric} on {', '.join(note.systems)}: " if note.metric else ""
        print(f"scorelens: {'warning' if note.metric else 'note'}: {where}{note.message}", file=sys.stderr)
    if args.format == "json":
        return to_json(results)
    if args.format == "csv":
        return to_csv(results)
    return format_table(results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        output = list_metrics() if args.command == "metrics" else run_score(args)
    except (InputError, ValueError) as err:
        print(f"scorelens: error: {err}", file=sys.stderr)
        return 2
    except (ClusterError, GatherError) as err:
        print(f"scorelens: error: {err}", file=sys.stderr)
        return 1
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
