"""``scorelens``: the command line of the metrics core.

    scorelens score -r R1 [R2 ...] -i S1 [S2 ...] [-m bleu chrf | -m bleu,chrf] [--set bleu.tokenize=intl]
                    [-l auto|none|zh|ja|ko|en-zh] [--segments | --output-dir DIR [--segment-format csv|parquet]]
                    [--format json|csv|table] [-b] [-w DECIMALS] [-tok 13a|intl|zh|…]
                    [--external NAME=FILE [--external-meta NAME:lower,one-based,provenance=TEXT]]
                    [--engine dask [--scheduler ADDRESS | --workers N] [--partition-size N]]
    scorelens score --table segments.parquet …
    cat hyp.txt | scorelens score -r ref.txt -i -          # "-" reads a system from standard input
    scorelens score ref.txt -i hyp.txt -w 2 -tok intl     # sacrebleu's spelling: positional REFS, -w, -tok
    cat hyp.txt | scorelens score ref.txt                  # no -i: the system is standard input, as in sacrebleu
    scorelens meta -r R -i S1 S2 … -m chrf --external COMET=FILE --human mqm.seg.tsv [--bucket domain=news …]
    scorelens --version

Inputs are ``.txt`` (one segment per line) or ``.jsonl`` (one object per line with a ``"text"`` string, which may
hold newlines marking sentence boundaries), or one Parquet table with a column per system and reference
(:mod:`metrics.io.parquet`). Scores are on each reference implementation's own scale. JSON and CSV follow the
results schema of :mod:`metrics.reports.results`; ``--output-dir`` writes segment scores to a file per system instead
(:mod:`metrics.reports.segment_files`). ``--engine dask`` computes the same numbers on a Dask cluster
(:mod:`metrics.distributed`), reading large files partition by partition on the workers. Without ``-m`` the
metrics are chosen from the references (:mod:`metrics.core.defaults`); with ``-l auto`` (the default) a Chinese,
Japanese or Korean reference corpus gets the options its language calls for (:mod:`metrics.core.language`), except
options given with ``--set``. Both choices are stated on standard error, as are notes on the input and metric
warnings; a progress bar is drawn there too, for long runs and only when it is a terminal.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from metrics.cli import analyze_args, engines, meta_args
from metrics.cli import stats as cli_stats
from metrics.cli.common import add_input_arguments, note, print_notes, resolve_inputs, score_files
from metrics.cli.listing import list_metrics
from metrics.cli.text import format_scores, format_table
from metrics.distributed.cluster import ClusterError
from metrics.distributed.gather import GatherError
from metrics.io.inputs import InputError
from metrics.io.outputs import check_writable
from metrics.reports.results import build_results, to_csv, to_json
from metrics.reports.segment_files import SegmentFormat, write_segment_scores

DEFAULT_WIDTH = 4


def _width(text: str) -> int:
    """``-w``: a number of decimals, 0 to 17 (a float64 has no more)."""
    try:
        width = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of decimals") from None
    if not 0 <= width <= 17:
        raise argparse.ArgumentTypeError(f"{width} decimals: give 0 to 17")
    return width


def _version() -> str:
    from importlib import metadata  # here: it costs every other command start-up time (email, zipfile, …)

    try:
        return metadata.version("scorelens")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        from metrics import __version__

        return __version__


class _VersionAction(argparse.Action):
    """argparse's ``version`` action, with the version looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorelens", description="Text-generation metrics with exact parity.")
    parser.add_argument("-V", "--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score systems against references")
    add_input_arguments(score, table=True)
    segments = score.add_mutually_exclusive_group()
    segments.add_argument("--segments", action="store_true", help="also print segment scores")
    segments.add_argument("--output-dir", metavar="DIR", help="write segment scores to DIR, one file per system")
    score.add_argument("--segment-format", choices=[f.value for f in SegmentFormat], default=SegmentFormat.CSV.value)
    score.add_argument("--format", choices=("json", "csv", "table"), default="table")
    score.add_argument(
        "-b", "--score-only", action="store_true", help="print only the scores: one line per system, tab-separated"
    )
    score.add_argument(
        "-w",
        "--width",
        type=_width,
        default=DEFAULT_WIDTH,
        metavar="N",
        help=f"decimals of the scores in the table and -b output, as sacrebleu's -w (default {DEFAULT_WIDTH}; JSON "
        "and CSV keep every digit)",
    )
    engines.add_arguments(score)
    cli_stats.add_arguments(score)
    sub.add_parser("metrics", help="list metric ids and their options (label, default, values, help)")
    analyze_args.add_parser(sub)
    meta_args.add_parser(sub)
    return parser


def _check_score_only(args: argparse.Namespace) -> None:
    if not args.score_only:
        return
    clashes = [flag for flag, given in (("--format", args.format != "table"), ("--segments", args.segments)) if given]
    clashes += ["statistics flags"] if cli_stats.requested(args) else []
    if clashes:
        raise ValueError(f"-b/--score-only prints only the scores; leave out {', '.join(clashes)}")


def run_score(args: argparse.Namespace) -> str:
    _check_score_only(args)
    args = resolve_inputs(args)
    engines.check(args)
    if args.output_dir is not None:
        check_writable(Path(args.output_dir))  # before the scoring, not after minutes of it
    if args.table is None and not engines.on_cluster(args):
        scored = score_files(args)
        evaluation, input_notes = scored.evaluation, scored.notes
    else:
        evaluation, input_notes = engines.score_at_scale(args)
    if args.output_dir is not None:
        written = write_segment_scores(evaluation, Path(args.output_dir), SegmentFormat(args.segment_format))
        note(f"segment scores of {len(written)} system(s) written to {args.output_dir}")
    statistics = cli_stats.compute(args, evaluation, note)
    results = build_results(evaluation, statistics, segments=args.segments, notes=input_notes)
    print_notes(results.notes)
    if args.score_only:
        return format_scores(results, args.width)
    if args.format == "json":
        return to_json(results)
    if args.format == "csv":
        return to_csv(results)
    return format_table(results, args.width)


def run_analyze(args: argparse.Namespace) -> str:
    from metrics.cli import analyze  # the analysis modules import every metric they can name: only when asked

    return analyze.run(resolve_inputs(args))


def run_meta(args: argparse.Namespace) -> str:
    from metrics.cli import meta  # the statistics and the metrics they name: only when asked

    return meta.run(resolve_inputs(args))


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        commands = {"metrics": lambda _: list_metrics(), "score": run_score, "analyze": run_analyze, "meta": run_meta}
        output = commands[args.command](args)
    except (InputError, ValueError) as err:
        print(f"scorelens: error: {err}", file=sys.stderr)
        return 2
    except (ClusterError, GatherError) as err:
        print(f"scorelens: error: {err}", file=sys.stderr)
        return 1
    sys.stdout.write(output)
    return 0


def console() -> int:
    """The ``scorelens`` command: :func:`main`, and an exit that skips the interpreter's final garbage collection.

    Nothing of the run is needed after it: the output is written and the files are closed. The final collection
    would walk every object still alive, the corpus's segments and statistics among them; frozen, they are left to
    the exit (15 ms of a 0.35 s ROUGE run on CNN/DailyMail). Tests call :func:`main`, which freezes nothing.

    Ctrl-C and ``kill`` (SIGTERM) end the run through Python's exception handling, so a half-written output file is
    removed (:mod:`metrics.io.outputs`) and the command says it was interrupted, without a traceback."""
    signal.signal(signal.SIGTERM, partial(_terminated, os.getpid()))
    try:
        code = main()
    except KeyboardInterrupt:
        print("scorelens: interrupted; no output file was left half-written", file=sys.stderr)
        return 130
    gc.freeze()
    return code


def _terminated(owner: int, signum: int, frame: object) -> None:
    """SIGTERM in the command's own process ends the run as Ctrl-C does. Forked pool workers inherit the handler,
    and a pool ends its workers with SIGTERM when it closes: they exit quietly, not with a traceback."""
    if os.getpid() != owner:
        os._exit(128 + signum)
    raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(console())
