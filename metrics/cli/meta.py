"""``scorelens meta``: which metric agrees with the human scores on this data, how sure that is, and where each errs.

    scorelens meta -r REF -i S1 S2 … [-m chrf,bleu] [--external NAME=FILE …] --human mqm.seg.tsv
                   [--meta meta.tsv --bucket domain=news | --slice 1-200,250] [--seed N] [--n-resamples N]
                   [--top N] [--format table|json|csv|latex] [--output-dir DIR]

System level: Pearson and Kendall τ-b with bootstrap intervals, pairwise accuracy and soft pairwise accuracy (SPA),
each with its chance level; segment level: acc_eq with the calibrated tie threshold, Pearson pooled and by item,
the Kendall variants by grouping; the metrics' significance clusters (permutation tests as WMT's); and for each
metric the system pairs and the heaviest segment pairs it orders against the humans (:mod:`metrics.meta`).
``--format json`` writes the document of :mod:`metrics.reports.meta`, ``csv`` one file per table into
``--output-dir``, ``latex`` the ranking and the pairs as booktabs tables.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path

from metrics.analysis.slices import parse_ranges
from metrics.annotations.metric import AnnotationMetric
from metrics.cli.common import print_notes, score_files
from metrics.cli.meta_text import format_meta
from metrics.io.metadata import read_metadata
from metrics.io.outputs import check_writable, write_text
from metrics.meta import MetaSettings
from metrics.reports.meta import (
    MetaDocument,
    Scope,
    all_segments,
    bucket,
    meta_latex,
    meta_tables,
    slice_scope,
    to_json,
)
from metrics.reports.meta_build import meta_document
from metrics.stats.human import HumanScores
from metrics.stats.human_table import read_human


def settings(args: argparse.Namespace) -> MetaSettings:
    """WMT's settings (:class:`MetaSettings`), with ``--seed`` seeding both the permutations and the bootstrap,
    ``--n-resamples`` counting both, and ``--top`` the segment pairs kept per metric."""
    found = MetaSettings(max_segment_pairs=args.top)
    if args.top < 1:
        raise ValueError(f"--top must be at least 1, not {args.top}")
    if args.seed is not None:
        if args.seed < 0:
            raise ValueError(f"--seed must be ≥ 0, not {args.seed}")
        found = replace(found, seed=args.seed, bootstrap_seed=args.seed)
    if args.n_resamples is not None:
        if args.n_resamples < 1:
            raise ValueError(f"--n-resamples must be at least 1, not {args.n_resamples}")
        found = replace(found, k=args.n_resamples, n_bootstrap=args.n_resamples, spa_permutations=args.n_resamples)
    return found


def scope(args: argparse.Namespace, n_segments: int) -> Scope:
    if args.bucket and args.slice:
        raise ValueError("give --bucket or --slice, not both")
    if args.bucket:
        if not args.meta:
            raise ValueError("--bucket COLUMN=VALUE reads the segment metadata: give --meta FILE")
        column, sep, value = args.bucket.partition("=")
        if not sep or not column.strip():
            raise ValueError(f"--bucket {args.bucket!r}: expected COLUMN=VALUE, e.g. domain=news")
        metadata = read_metadata(args.meta, n_segments)
        if column.strip() not in metadata.columns:
            raise ValueError(
                f"--bucket: no column {column.strip()!r} in {args.meta}; it has {', '.join(metadata.columns)}"
            )
        return bucket(metadata.column(column.strip()), column.strip(), value.strip())
    if args.meta:
        raise ValueError("--meta is read for --bucket COLUMN=VALUE; give one")
    if args.slice:
        return slice_scope(args.slice, parse_ranges(args.slice, n_segments))
    return all_segments(n_segments)


def evaluate(args: argparse.Namespace) -> MetaDocument:
    chosen = settings(args)
    scored = score_files(args)
    evaluation = scored.evaluation
    systems = [r.name for r in evaluation.systems]
    n_segments = len(next(iter(scored.systems.values())))
    where = scope(args, n_segments)
    print_notes(scored.notes)
    if args.human:
        read = read_human(args.human, n_segments, systems, segment_ids=args.human_ids, one_based=args.human_one_based)
        return meta_document(evaluation, read.human, where, chosen, notes=read.notes)
    marked = next((m for m in evaluation.metrics.values() if isinstance(m, AnnotationMetric)), None)
    if marked is None:
        raise ValueError("give the human scores: --human FILE, or error annotations with --annotations FILE")
    human = HumanScores(
        {s: marked.values(s) for s in systems}, f"{marked.name} of {Path(marked.annotations.source).name}"
    )
    rest = evaluation.without(marked.id)
    if not rest.metrics:
        raise ValueError(f"{marked.id} is the humans' side: choose metrics to meta-evaluate with -m")
    note = f"human scores: {human.source} (--annotations), not a metric under test"
    return meta_document(rest, human, where, chosen, notes=(note,))


def run(args: argparse.Namespace) -> str:
    if args.format == "csv" and not args.output_dir:
        raise ValueError("--format csv writes one file per table: give --output-dir DIR")
    if args.output_dir and args.format != "csv":
        raise ValueError("--output-dir is for --format csv")
    if args.format == "csv":
        check_writable(Path(args.output_dir))  # before the scoring, not after minutes of it
    doc = evaluate(args)
    if args.format == "json":
        return to_json(doc)
    if args.format == "latex":
        return meta_latex(doc)
    if args.format == "table":
        return format_meta(doc)
    written = []
    for table in meta_tables(doc):
        path = Path(args.output_dir) / f"{table.name}.csv"
        write_text(path, table.to_csv())
        written.append(os.fspath(path))
    return "".join(f"{path}\n" for path in written)
