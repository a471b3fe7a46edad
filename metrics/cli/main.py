"""``scorelens``: the command line of the metrics core.

    scorelens score --refs R1 [R2 ...] --systems S1 [S2 ...] --metrics bleu,chrf [--set bleu.tokenize=intl]
                    [--segments] [--format json|csv|table]

Inputs are ``.txt`` (one segment per line) or ``.jsonl`` (one object per line with a ``"text"`` string, which may
hold newlines marking sentence boundaries). Scores are on each reference implementation's own scale.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from typing import Any

from metrics.cli import stats as cli_stats
from metrics.cli.listing import list_metrics
from metrics.core.registry import SPECS, create_many, parse_set_options
from metrics.evaluate import Evaluation, evaluate
from metrics.io.inputs import InputError, check_same_length, read_segments


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
    cli_stats.add_arguments(score)
    sub.add_parser("metrics", help="list metric ids and their options (label, default, values, help)")
    return parser


def evaluation_to_json(evaluation: Evaluation, segments: bool) -> dict[str, Any]:
    systems = []
    for result in evaluation.systems:
        entry: dict[str, Any] = {"name": result.name, "scores": {m: float(s) for m, s in result.scores.items()}}
        if segments:
            entry["segments"] = {m: [float(x) for x in s] for m, s in result.segment_scores.items()}
        systems.append(entry)
    return {"signatures": dict(evaluation.signatures), "systems": systems}


def _format_table(evaluation: Evaluation) -> str:
    ids = list(evaluation.metrics)
    names = [evaluation.metrics[m].name for m in ids]
    width = max([len("system"), *(len(r.name) for r in evaluation.systems)])
    cols = [max(9, len(n)) for n in names]
    lines = ["  ".join(["system".ljust(width), *(n.rjust(c) for n, c in zip(names, cols, strict=True))])]
    for result in evaluation.systems:
        cells = [f"{result.scores[m]:.4f}".rjust(c) for m, c in zip(ids, cols, strict=True)]
        lines.append("  ".join([result.name.ljust(width), *cells]))
    lines.append("")
    lines += [f"{m}: {sig}" for m, sig in evaluation.signatures.items()]
    return "\n".join(lines) + "\n"


def _format_csv(evaluation: Evaluation, segments: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    ids = list(evaluation.metrics)
    if segments:
        writer.writerow(["system", "segment", *ids])
        for result in evaluation.systems:
            n = len(next(iter(result.segment_scores.values())))
            for i in range(n):
                writer.writerow([result.name, i + 1, *(repr(float(result.segment_scores[m][i])) for m in ids)])
    else:
        writer.writerow(["system", *ids])
        for result in evaluation.systems:
            writer.writerow([result.name, *(repr(float(result.scores[m])) for m in ids)])
    return out.getvalue()


def run_score(args: argparse.Namespace) -> str:
    metric_ids = _metric_list(args.metrics)
    metrics = create_many(metric_ids, parse_set_options(args.options))
    refs = [read_segments(path) for path in args.refs]
    systems = [read_segments(path) for path in args.systems]
    check_same_length([*refs, *systems])
    names = [s.name for s in systems]
    if len(set(names)) != len(names):
        raise ValueError(f"two system files share a name ({', '.join(names)}); rename one")
    for note in [n for f in (*refs, *systems) for n in f.notes]:
        print(f"scorelens: note: {note}", file=sys.stderr)
    evaluation = evaluate({s.name: list(s.texts) for s in systems}, [list(r.texts) for r in refs], metrics)
    for metric_id in metric_ids:
        for result in evaluation.systems:
            for note in result.stats[metric_id].notes:
                print(f"scorelens: warning: {metric_id} on {result.name}: {note}", file=sys.stderr)
    statistics = cli_stats.compute(args, evaluation)
    if args.format == "json":
        doc = cli_stats.extend_json(evaluation_to_json(evaluation, args.segments), statistics)
        return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if args.format == "csv":
        return _format_csv(evaluation, args.segments) + cli_stats.csv_sections(statistics)
    return _format_table(evaluation) + cli_stats.table_sections(statistics)


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
