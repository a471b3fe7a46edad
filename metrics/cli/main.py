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

from metrics.cli import analyze
from metrics.cli import stats as cli_stats
from metrics.cli.common import print_notes, score_files
from metrics.cli.listing import list_metrics
from metrics.cli.text import format_table
from metrics.core.registry import SPECS
from metrics.io.inputs import InputError
from metrics.io.results import build_results, to_csv, to_json
from metrics.parallel import available_jobs


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
    analyze.add_parser(sub)
    return parser


def run_score(args: argparse.Namespace) -> str:
    if args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    scored = score_files(args.metrics, args.options, args.refs, args.systems, jobs=args.jobs)
    statistics = cli_stats.compute(args, scored.evaluation)
    results = build_results(scored.evaluation, statistics, segments=args.segments, notes=scored.notes)
    print_notes(results.notes)
    if args.format == "json":
        return to_json(results)
    if args.format == "csv":
        return to_csv(results)
    return format_table(results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        commands = {"metrics": lambda _: list_metrics(), "score": run_score, "analyze": analyze.run}
        output = commands[args.command](args)
    except (InputError, ValueError) as err:
        print(f"scorelens: error: {err}", file=sys.stderr)
        return 2
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
