"""``scorelens``: the command line of the metrics core.

    scorelens score -r R1 [R2 ...] -i S1 [S2 ...] [-m bleu chrf | -m bleu,chrf] [--set bleu.tokenize=intl]
                    [-l auto|none|zh|ja|ko|en-zh] [--segments] [--format json|csv|table] [-b]
    cat hyp.txt | scorelens score -r ref.txt -i -          # "-" reads a system from standard input
    scorelens --version

Inputs are ``.txt`` (one segment per line) or ``.jsonl`` (one object per line with a ``"text"`` string, which may
hold newlines marking sentence boundaries). Scores are on each reference implementation's own scale. JSON and CSV
follow the results schema of :mod:`metrics.io.results`. Without ``-m`` the metrics are chosen from the references
(:mod:`metrics.core.defaults`); with ``-l auto`` (the default) a Chinese, Japanese or Korean reference corpus gets
the options its language calls for (:mod:`metrics.core.language`), except options given with ``--set``. Both
choices are stated on standard error, as are notes on the input and metric warnings; a progress bar is drawn
there too, for long runs and only when it is a terminal.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import metadata

from metrics.cli import stats as cli_stats
from metrics.cli.listing import list_metrics
from metrics.cli.progress import ProgressBar
from metrics.cli.text import format_scores, format_table
from metrics.core.defaults import choose_metrics
from metrics.core.language import Language, apply_language, detect_language, language_settings
from metrics.core.registry import SPECS, create_many, parse_set_options, spec_for
from metrics.evaluate import evaluate
from metrics.io.inputs import STDIN, InputError, Segments, check_same_length, read_segments
from metrics.io.results import Note, build_results, note_groups, to_csv, to_json

LANGUAGES = ("auto", "none", *(lang.value for lang in Language))


def _metric_list(items: Sequence[str]) -> list[str]:
    """``-m bleu chrf`` (as sacrebleu) or ``-m bleu,chrf``: the ids, checked."""
    ids = [m.strip() for item in items for m in item.split(",") if m.strip()]
    unknown = [m for m in ids if m not in SPECS]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; valid metrics: {', '.join(SPECS)}")
    if len(set(ids)) != len(ids):
        raise ValueError(f"metric listed twice in {' '.join(items)!r}")
    if not ids:
        raise ValueError("-m/--metrics names no metric")
    return ids


def _language(text: str) -> str:
    """``auto``, ``none``, or a language code or sacrebleu's ``SRC-TRG`` pair, whose target counts: ``zh``, ``ja``
    and ``ko`` have options of their own, any other target language has none."""
    value = text.strip().lower()
    if value in ("auto", "none"):
        return value
    code = value.rsplit("-", 1)[-1]
    if not (2 <= len(code) <= 3 and code.isascii() and code.isalpha()):
        raise argparse.ArgumentTypeError(f"{text!r}: expected auto, none, a language code (zh) or a pair (en-zh)")
    return code if code in LANGUAGES else "none"


def _version() -> str:
    try:
        return metadata.version("scorelens")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        from metrics import __version__

        return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorelens", description="Text-generation metrics with exact parity.")
    parser.add_argument("-V", "--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score systems against references")
    score.add_argument(
        "-r", "--refs", nargs="+", required=True, metavar="FILE", help="reference files (one stream each)"
    )
    score.add_argument(
        "-i",
        "--systems",
        "--input",
        nargs="+",
        required=True,
        metavar="FILE",
        help=f"system output files; {STDIN} reads one from standard input",
    )
    score.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        metavar="METRIC",
        help=f"space- or comma-separated, from: {', '.join(SPECS)} (default: chosen from the references)",
    )
    score.add_argument("--set", action="append", default=[], metavar="FAMILY.OPTION=VALUE", dest="options")
    score.add_argument(
        "-l",
        "--language",
        type=_language,
        default="auto",
        metavar="LANG",
        help="target language: auto (detect Chinese/Japanese/Korean references, the default), none, zh, ja, ko "
        "or a pair such as en-zh; sets what that language calls for (BLEU tokenizer as sacrebleu -l, TER's CJK "
        "handling) unless --set gives the option",
    )
    score.add_argument("--segments", action="store_true", help="also print segment scores")
    score.add_argument("--format", choices=("json", "csv", "table"), default="table")
    score.add_argument(
        "-b", "--score-only", action="store_true", help="print only the scores: one line per system, tab-separated"
    )
    cli_stats.add_arguments(score)
    sub.add_parser("metrics", help="list metric ids and their options (label, default, values, help)")
    return parser


def _read_inputs(args: argparse.Namespace) -> tuple[list[Segments], list[Segments]]:
    paths = [*args.refs, *args.systems]
    if paths.count(STDIN) > 1:
        raise ValueError(f"{STDIN} (standard input) can be read only once")
    refs = [read_segments(path) for path in args.refs]
    systems = [read_segments(path) for path in args.systems]
    check_same_length([*refs, *systems])
    names = [s.name for s in systems]
    if len(set(names)) != len(names):
        raise ValueError(f"two system files share a name ({', '.join(names)}); rename one")
    return refs, systems


def _check_score_only(args: argparse.Namespace) -> None:
    if not args.score_only:
        return
    clashes = [flag for flag, given in (("--format", args.format != "table"), ("--segments", args.segments)) if given]
    clashes += ["statistics flags"] if cli_stats.requested(args) else []
    if clashes:
        raise ValueError(f"-b/--score-only prints only the scores; leave out {', '.join(clashes)}")


def _note(message: str) -> None:
    print(f"scorelens: note: {message}", file=sys.stderr)


def run_score(args: argparse.Namespace) -> str:
    _check_score_only(args)
    explicit = parse_set_options(args.options)
    refs, systems = _read_inputs(args)
    streams = [list(r.texts) for r in refs]
    if args.metrics:
        metric_ids = _metric_list(args.metrics)
    else:
        choice = choose_metrics(streams)
        metric_ids = list(choice.metrics)
        _note(f"metrics chosen from the references: {', '.join(metric_ids)} ({choice.explain()}); -m chooses others")
    families = {spec_for(m).family for m in metric_ids}
    if args.language == "none":
        options = {family: dict(values) for family, values in explicit.items()}
    else:
        counts = detect_language(streams) if args.language == "auto" else None
        language = counts.language if counts is not None else Language(args.language)
        options, applied = apply_language(language_settings(language), explicit, families)
        if language is not None and (applied.choices or applied.fallbacks):
            found = f"references look {counts.describe()}" if counts is not None else f"language {language.value}"
            _note(f"{found}: {applied.summary()}; -l none keeps the defaults")
    metrics = create_many(metric_ids, options)
    progress = ProgressBar()
    try:
        evaluation = evaluate({s.name: list(s.texts) for s in systems}, streams, metrics, progress)
    finally:
        progress.close()
    input_notes = [Note(n) for f in (*refs, *systems) for n in f.notes]
    statistics = cli_stats.compute(args, evaluation, _note)
    results = build_results(evaluation, statistics, segments=args.segments, notes=input_notes)
    for note in results.notes:
        if note.metric is None:
            _note(note.message)
    for group in note_groups(results.notes):
        print(f"scorelens: warning: {', '.join(group.metrics)} on {', '.join(group.systems)}: {group.message}",
              file=sys.stderr)  # fmt: skip
        for system, details in group.details.items():
            print(f"scorelens:   {system}: {'; '.join(details)}", file=sys.stderr)
    if args.score_only:
        return format_scores(results)
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
