"""``scorelens``: the command line of the metrics core.

    scorelens score --refs R1 [R2 ...] --systems S1 [S2 ...] --metrics bleu,chrf [--set bleu.tokenize=intl]
                    [--segments] [--format json|csv|table]

Inputs are ``.txt`` (one segment per line) or ``.jsonl`` (one object per line with a ``"text"`` string, which may
hold newlines marking sentence boundaries). Scores are on each reference implementation's own scale. JSON and CSV
follow the results schema of :mod:`metrics.io.results`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from metrics.cli import stats as cli_stats
from metrics.cli.listing import list_metrics
from metrics.cli.text import format_table
from metrics.core.registry import SPECS, create_many, parse_set_options
from metrics.evaluate import evaluate
from metrics.io.inputs import InputError, check_same_length, read_segments
from metrics.io.results import Note, build_results, to_csv, to_json
from metrics.parallel import available_jobs


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
    score.add_argument("--refs", nargs="+", required=True, metavar="FILE", help="reference files (one stream each)")
    score.add_argument("--systems", nargs="+", required=True, metavar="FILE", help="system output files")
    score.add_argument("--metrics", default="bleu,chrf", help=f"comma-separated, from: {', '.join(SPECS)}")
    score.add_argument("--set", action="append", default=[], metavar="FAMILY.OPTION=VALUE", dest="options")
    score.add_argument("--segments", action="store_true", help="also print segment scores")
    score.add_argument("--format", choices=("json", "csv", "table"), default="table")
    score.add_argument(
        "--jobs",
        type=int,
        default=available_jobs(),
        metavar="N",
        help="worker processes (default: one per processor; the numbers are the same with any N)",
    )
    cli_stats.add_arguments(score)
    sub.add_parser("metrics", help="list metric ids and their options (label, default, values, help)")
    return parser


def run_score(args: argparse.Namespace) -> str:
    metric_ids = _metric_list(args.metrics)
    metrics = create_many(metric_ids, parse_set_options(args.options))
    refs = [read_segments(path) for path in args.refs]
    systems = [read_segments(path) for path in args.systems]
    check_same_length([*refs, *systems])
    names = [s.name for s in systems]
    if len(set(names)) != len(names):
        raise ValueError(f"two system files share a name ({', '.join(names)}); rename one")
    if args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    evaluation = evaluate(
        {s.name: list(s.texts) for s in systems}, [list(r.texts) for r in refs], metrics, jobs=args.jobs
    )
    input_notes = [Note(n) for f in (*refs, *systems) for n in f.notes]
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
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
