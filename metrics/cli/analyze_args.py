"""The arguments of ``scorelens analyze`` (:mod:`metrics.cli.analyze`), apart from the analysis itself, so that
building the command line's parser does not import the analysis modules and every metric they name."""

from __future__ import annotations

from typing import Any

from metrics.analysis.defaults import NGRAM_ALPHA, NGRAM_TOP
from metrics.cli import annotation_analysis
from metrics.cli.common import add_input_arguments
from metrics.stats.defaults import DEFAULT_ALPHA

DEFAULT_BUCKETS = "ref-length,length-diff"


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("analyze", help="error analysis: buckets, n-grams, word accuracy, documents, agreement")
    add_input_arguments(parser)
    annotation_analysis.add_arguments(parser)
    parser.add_argument(
        "--buckets",
        default=DEFAULT_BUCKETS,
        help="comma-separated: ref-length[:METRIC], length-diff[:METRIC], score:METRIC, src-length, meta:COLUMN "
        f"(default {DEFAULT_BUCKETS}; 'none' for no buckets)",
    )
    parser.add_argument(
        "--edges",
        action="append",
        default=[],
        metavar="KIND=E1:E2:…",
        help="bucket edges, e.g. ref-length=5:10:20:40 (kinds: ref-length, length-diff, score, src-length, words)",
    )
    parser.add_argument("--meta", metavar="FILE", help="segment metadata: TSV/CSV with a header, or JSON lines")
    parser.add_argument(
        "--bucket-by", action="append", default=[], metavar="COLUMN", help="bucket by a metadata column"
    )
    parser.add_argument("--documents", metavar="COLUMN", help="metadata column of document ids: per-document scores")
    parser.add_argument("--ngrams", metavar="A,B", help="characteristic n-grams of systems A and B")
    parser.add_argument("--ngram-orders", default="1:4", metavar="MIN:MAX", help="n-gram orders (default 1:4)")
    parser.add_argument("--ngram-alpha", type=float, default=NGRAM_ALPHA, help="smoothing α of the match ratio (1)")
    parser.add_argument("--top", type=int, default=NGRAM_TOP, help=f"n-grams per direction ({NGRAM_TOP})")
    parser.add_argument("--word-accuracy", action="store_true", help="word F-measure by frequency bucket")
    parser.add_argument("--freq-corpus", metavar="FILE", help="count word frequencies in this training corpus")
    parser.add_argument("--tokens", metavar="METRIC", help="metric whose tokens words and n-grams use")
    parser.add_argument("--disagreements", metavar="A,B", help="segments where the metrics disagree about A and B")
    parser.add_argument("--baseline", metavar="NAME", help="system the others are tested against (the first)")
    parser.add_argument("--seed", type=int, help="random seed (default: $SACREBLEU_SEED, else 12345)")
    parser.add_argument("--n-bootstrap", type=int, default=1000, metavar="N", help="bootstrap resamples (1000)")
    parser.add_argument("--alpha", type=float, default=DEFAULT_ALPHA, help="level of the significance mark")
    parser.add_argument("--format", choices=("json", "csv", "table"), default="table")
    parser.add_argument("--output-dir", metavar="DIR", help="where --format csv writes one file per table")
