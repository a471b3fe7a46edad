"""The annotation sections of ``scorelens analyze`` (:mod:`metrics.annotations.analysis`): with ``--annotations``
(the input of :mod:`metrics.cli.annotations`), the errors by category and severity of every annotated output with
intervals, the categories that differ from ``--baseline`` (Holm-corrected), the same per bucket and slice of
``--buckets``, and the span agreement of every scored metric with token-level evidence.

    scorelens analyze ref.A.txt -i sys/*.txt -m bleu,chrf,ter,meteor --annotations raw/mqm_ted_ende.tsv \\
        --annotation-systems human/systems.tsv --annotation-ids meta.tsv:seg_id \\
        [--category-rate per-segment|per-100-words] [--span-flags bleu-order=1,chrf-order=6,bertscore-below=0.9]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metrics.analysis.buckets import Bucketing
    from metrics.annotations.analysis import AnnotationAnalysis
    from metrics.cli.common import Scored
    from metrics.reports.analysis import AnalysisSettings

RATES = ("per-segment", "per-100-words")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("errors by category and span agreement (with --annotations)")
    group.add_argument(
        "--category-rate",
        choices=RATES,
        default=RATES[0],
        help="the rate the category differences test: errors per rated segment (default) or per 100 words",
    )
    group.add_argument(
        "--span-flags",
        default="",
        metavar="SPEC",
        help="what a metric flags: bleu-order=N (default 1), chrf-order=N (default: its highest), "
        "bertscore-below=X (default 0.9)",
    )


def annotation_analyses(
    args: argparse.Namespace, scored: Scored, settings: AnalysisSettings, bucketings: Sequence[Bucketing]
) -> tuple[AnnotationAnalysis, ...]:
    """One analysis per annotation file among the scored metrics (none without ``--annotations``)."""
    from metrics.annotations.metric import AnnotationMetric

    humans = [m for m in scored.evaluation.metrics.values() if isinstance(m, AnnotationMetric)]
    if not humans:
        if args.span_flags or args.category_rate != RATES[0]:
            raise ValueError("--span-flags and --category-rate analyse annotations: give --annotations FILE")
        return ()
    from metrics.annotations.analysis import analyse_annotations
    from metrics.annotations.categories import Rate
    from metrics.annotations.flags import FlagOptions

    options = FlagOptions.parse(args.span_flags)
    seen: dict[int, AnnotationAnalysis] = {}
    for metric in humans:  # an MQM and an ESA metric of one file share its annotations: analyse them once
        if id(metric.annotations) in seen:
            continue
        seen[id(metric.annotations)] = analyse_annotations(
            metric.annotations,
            scored.systems,
            scored.refs,
            scored.evaluation.metrics,
            label=metric.id,
            source=scored.source,
            baseline=settings.baseline,
            bucketings=bucketings,
            rate=Rate(args.category_rate),
            options=options,
            n_samples=settings.buckets.n_bootstrap,
            seed=settings.buckets.seed,
            alpha=settings.buckets.alpha,
        )
    return tuple(seen.values())
