"""The arguments of ``scorelens meta`` (:mod:`metrics.cli.meta`), apart from the meta-evaluation itself, so that
building the command line's parser does not import the statistics."""

from __future__ import annotations

from typing import Any

from metrics.cli.common import add_input_arguments

FORMATS = ("table", "json", "csv", "latex")


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "meta",
        help="meta-evaluation: which metric agrees with the human scores (WMT's pairwise accuracy, SPA, acc_eq, "
        "clusters), and the pairs and segments where each errs",
    )
    add_input_arguments(parser)
    human = parser.add_argument_group("human scores")
    human.add_argument(
        "--human",
        metavar="FILE",
        help="segment-level human scores: a .tsv/.csv table with system, segment (0-based) and score columns "
        "(null = not rated; WMT's mqm.seg.tsv), or JSON lines with SYS, seg_id, human_score; without it, the MQM "
        "(ESA) of the first --annotations file is the humans' side",
    )
    human.add_argument("--human-ids", metavar="FILE", help="JSON lines: the segment id of each system line")
    human.add_argument("--human-one-based", action="store_true", help="the table numbers segments from 1")
    where = parser.add_argument_group("where: a domain or a slice of the segments")
    where.add_argument("--meta", metavar="FILE", help="segment metadata (TSV/CSV/JSONL, one row per segment)")
    where.add_argument(
        "--bucket",
        metavar="COLUMN=VALUE",
        help="meta-evaluate on the segments whose metadata COLUMN is VALUE (e.g. domain=news; needs --meta)",
    )
    where.add_argument("--slice", metavar="RANGES", help="meta-evaluate on segments 1-based, e.g. 1-200,250")
    parser.add_argument("--seed", type=int, default=None, metavar="N", help="seed of the resamples and permutations")
    parser.add_argument(
        "--n-resamples",
        type=int,
        default=None,
        metavar="N",
        help="bootstrap resamples of the intervals and permutations of the tests (default: as mt-metrics-eval)",
    )
    parser.add_argument("--top", type=int, default=10, metavar="N", help="pairs and segments listed per metric")
    parser.add_argument("--format", choices=FORMATS, default="table")
    parser.add_argument("--output-dir", metavar="DIR", help="with --format csv: where the tables are written")
