"""``scorelens analyze``: error analysis across the corpus (:mod:`metrics.analysis`).

    scorelens analyze --refs R [R2 …] --systems S1 S2 … --metrics bleu,chrf
                      [--buckets ref-length,length-diff,score:chrf,src-length] [--source SRC]
                      [--meta FILE --bucket-by COLUMN … --documents COLUMN] [--edges ref-length=5:10:20 …]
                      [--ngrams A,B] [--word-accuracy [--freq-corpus FILE]] [--disagreements A,B]
                      [--baseline NAME] [--seed N] [--n-bootstrap N] [--format json|csv|table] [--output-dir DIR]

Buckets come with bootstrap intervals and a paired test against the baseline; ``agreement`` (the estimated human
agreement of every system difference, beside its paired-bootstrap p-value) is always computed for the metrics it
covers. The JSON is the analysis document of :mod:`metrics.reports.analysis`; ``--format csv`` writes one file per table
into ``--output-dir``; ``--format table`` prints readable tables.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from metrics.analysis import agreement as agreement_module
from metrics.analysis.buckets import BucketKind, parse_edges
from metrics.analysis.disagreement import Disagreement, disagreements
from metrics.analysis.documents import (
    DocumentScores,
    RankingFlip,
    differs,
    document_scores,
    ranking_flips,
)
from metrics.analysis.ngrams import (
    NgramReport,
    characteristic_ngrams,
    corpus_matches,
    reference_counts,
)
from metrics.analysis.plan import build, parse_spec
from metrics.analysis.scoring import BucketSettings, bucket_scores
from metrics.analysis.units import Lengths, lengths, unit_for, word_unit
from metrics.analysis.words import FREQUENCY_EDGES, WordAccuracy, frequencies, reference_frequencies, word_accuracy
from metrics.cli import annotation_analysis
from metrics.cli.analysis_text import format_analysis
from metrics.cli.analyze_args import DEFAULT_BUCKETS
from metrics.cli.common import Scored, print_notes, score_files
from metrics.cli.stats import resolve_seed
from metrics.core.evaluation import Evaluation
from metrics.core.family import Task
from metrics.core.language import detect_language
from metrics.io.inputs import read_segments
from metrics.io.metadata import Metadata, read_metadata
from metrics.io.outputs import check_writable, write_text
from metrics.reports.analysis import (
    Analysis,
    AnalysisSettings,
    BucketSection,
    analysis_header,
    analysis_tables,
    to_json,
)
from metrics.stats.significance import PairedReport, all_pairs, resamples_for


def _pair(text: str, names: Sequence[str], flag: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"{flag} takes two system names separated by a comma, not {text!r}")
    a, b = parts
    for name in (a, b):
        if name not in names:
            raise ValueError(f"{flag}: no system named {name!r}; systems: {', '.join(names)}")
    if a == b:
        raise ValueError(f"{flag}: a system compared with itself ({a!r}); name two different systems")
    return a, b


def _edges(items: Sequence[str]) -> dict[str, tuple[float, ...]]:
    kinds = {k.value for k in BucketKind if k not in (BucketKind.METADATA, BucketKind.SLICE)} | {"words"}
    found = {}
    for item in items:
        kind, sep, text = item.partition("=")
        kind = kind.strip()
        if not sep or kind not in kinds:
            raise ValueError(f"--edges {item!r}: expected KIND=E1:E2:…, KIND one of {', '.join(sorted(kinds))}")
        found[kind] = parse_edges(text, f"--edges {kind}")
    return found


def _orders(text: str) -> tuple[int, int]:
    low, _, high = text.partition(":")
    try:
        orders = (int(low), int(high or low))
    except ValueError:
        raise ValueError(f"--ngram-orders takes MIN:MAX, e.g. 1:4, not {text!r}") from None
    if not 1 <= orders[0] <= orders[1]:
        raise ValueError(f"--ngram-orders must satisfy 1 ≤ MIN ≤ MAX, not {text!r}")
    return orders


class _LengthCache:
    """Lengths per metric, computed once per run (from the metric's rows where they hold them)."""

    def __init__(self, scored: Scored) -> None:
        self.scored = scored
        self._found: dict[str, Lengths] = {}

    def __call__(self, metric_id: str) -> Lengths:
        if metric_id not in self._found:
            evaluation = self.scored.evaluation
            metric = evaluation.metrics[metric_id]
            stats = {r.name: r.stats[metric_id] for r in evaluation.systems}
            unit = unit_for(metric, self.scored.refs)
            self._found[metric_id] = lengths(unit, self.scored.refs, self.scored.systems, stats)
        return self._found[metric_id]


def _buckets(args: argparse.Namespace, scored: Scored, metadata: Metadata | None, settings: AnalysisSettings,
             edges: Mapping[str, tuple[float, ...]]) -> tuple[list[BucketSection], list[str]]:  # fmt: skip
    evaluation = scored.evaluation
    metric_ids = list(evaluation.metrics)
    texts = [t for t in args.buckets.split(",") if t.strip() and t.strip() != "none"]
    if not scored.refs and args.buckets == DEFAULT_BUCKETS:  # the default buckets measure the references
        texts = ["src-length"] if scored.source is not None else []
    if not scored.refs and any(parse_spec(t, metric_ids).kind in REFERENCE_BUCKETS for t in texts):
        raise ValueError(
            "ref-length and length-diff buckets measure the references, and none are loaded: bucket by "
            "src-length, score:METRIC or meta:COLUMN, or give the reference files"
        )
    specs = [parse_spec(t, metric_ids) for t in texts] + [parse_spec(f"meta:{c}", metric_ids) for c in args.bucket_by]
    if any(s.kind is BucketKind.METADATA for s in specs) and metadata is None:
        raise ValueError("bucketing by a metadata column needs --meta FILE")
    stats = {r.name: dict(r.stats) for r in evaluation.systems}
    sections: list[BucketSection] = []
    notes: list[str] = []
    cache = _LengthCache(scored)
    for spec in specs:
        if spec.kind.value in edges:
            spec = type(spec)(spec.kind, spec.metric, spec.column, edges[spec.kind.value])
        bucketing = build(spec, evaluation, cache, scored.source, metadata)
        results, found = bucket_scores(bucketing, evaluation.metrics, stats, settings.baseline, settings.buckets)
        sections.append(BucketSection(bucketing, results))
        notes += found
    return sections, notes


def _all_pairs(scored: Scored, settings: AnalysisSettings, metric_id: str, count: int) -> PairedReport:
    """Every pair of systems tested under one metric with ``count`` resamples."""
    evaluation, b = scored.evaluation, settings.buckets
    stats = {r.name: r.stats[metric_id] for r in evaluation.systems}
    return all_pairs(evaluation.metrics[metric_id], stats, "bs", count, b.seed, "sacrebleu", count, b.alpha)


REFERENCE_BUCKETS = (BucketKind.REF_LENGTH, BucketKind.LENGTH_DIFF)
OFF_TASK = (
    "no human-agreement estimates: mt-thresholds' fits come from WMT translation system pairs, and --task says {task}"
)


def _fit_notes(evaluation: Evaluation) -> list[str]:
    """Why a metric that declares its own fit has none (a COMET checkpoint that is not a released model)."""
    return [
        f"no human-agreement estimate for {m}: {why}"
        for m, metric in evaluation.metrics.items()
        if (why := agreement_module.no_fit_reason(metric))
    ]


def _agreement(scored: Scored, settings: AnalysisSettings) -> tuple[agreement_module.Agreement, ...]:
    evaluation = scored.evaluation
    names = [r.name for r in evaluation.systems]
    if len(names) < 2:
        return ()
    language = detect_language(scored.refs).language
    covered = {
        m: metric
        for m, metric in evaluation.metrics.items()
        if agreement_module.threshold_name(m, metric, language) is not None
    }
    p_values = {}
    for metric_id in covered:
        report = _all_pairs(scored, settings, metric_id, settings.buckets.n_bootstrap)
        p_values.update({(metric_id, p.baseline, p.system): p.p_value for p in report.pairs})
    scores = {r.name: dict(r.scores) for r in evaluation.systems}
    return agreement_module.agreements(covered, scores, agreement_module.all_pairs(names), p_values, language)


def analyse(args: argparse.Namespace) -> Analysis:
    scored = score_files(args)
    evaluation = scored.evaluation
    names = [r.name for r in evaluation.systems]
    baseline = args.baseline or names[0]
    if baseline not in names:
        raise ValueError(f"--baseline {baseline!r} is not one of the systems: {', '.join(names)}")
    edges = _edges(args.edges)
    segments = len(next(iter(scored.systems.values())))
    metadata = read_metadata(args.meta, segments) if args.meta else None
    if not scored.refs and (args.ngrams or args.word_accuracy):
        raise ValueError("--ngrams and --word-accuracy compare the outputs with the references: give reference files")
    if args.documents and metadata is None:
        raise ValueError("--documents needs --meta FILE")
    if args.tokens is not None and args.tokens not in evaluation.metrics:
        raise ValueError(f"--tokens {args.tokens!r} is not among the scored metrics ({', '.join(evaluation.metrics)})")
    metrics = list(evaluation.metrics.values())
    unit = word_unit([evaluation.metrics[args.tokens]] if args.tokens else metrics, scored.refs)
    settings = AnalysisSettings(
        BucketSettings(args.n_bootstrap, resolve_seed(args.seed), args.alpha),
        baseline,
        tokens=unit.label,
        frequencies=(args.freq_corpus or "references") if args.word_accuracy else None,
        ngram_orders=_orders(args.ngram_orders),
        ngram_alpha=args.ngram_alpha,
    )
    sections, notes = _buckets(args, scored, metadata, settings, edges)
    ref_tokens = (
        [[unit.tokens(stream[i]) for stream in scored.refs] for i in range(segments)]
        if args.ngrams or args.word_accuracy
        else []
    )
    ngrams: tuple[NgramReport, ...] = ()
    if args.ngrams:
        a, b = _pair(args.ngrams, names, "--ngrams")
        low, high = settings.ngram_orders
        allowed = reference_counts(ref_tokens, low, high)
        matches = {s: corpus_matches([unit.tokens(t) for t in scored.systems[s]], allowed, low, high) for s in (a, b)}
        ngrams = (characteristic_ngrams(a, b, matches, min_n=low, max_n=high, alpha=args.ngram_alpha, top=args.top),)
    words: tuple[WordAccuracy, ...] = ()
    if args.word_accuracy:
        counts = (
            frequencies(unit.tokens(t) for t in read_segments(args.freq_corpus).texts)
            if args.freq_corpus
            else reference_frequencies(ref_tokens)
        )
        outputs = {s: [unit.tokens(t) for t in texts] for s, texts in scored.systems.items()}
        words = word_accuracy(outputs, ref_tokens, counts, edges.get("words", FREQUENCY_EDGES), settings.buckets)
    documents: tuple[DocumentScores, ...] = ()
    flips: tuple[RankingFlip, ...] = ()
    if args.documents and metadata is not None:
        stats = {r.name: dict(r.stats) for r in evaluation.systems}
        documents = document_scores(metadata.column(args.documents), evaluation.metrics, stats)
        corpus_scores = {r.name: dict(r.scores) for r in evaluation.systems}
        higher = {m: bool(metric.higher_is_better) for m, metric in evaluation.metrics.items()}
        significant: dict[str, frozenset[frozenset[str]]] = {}
        if len(names) > 1:  # Holm over all pairs, with resamples enough to reject (as the app's overview)
            alpha = settings.buckets.alpha
            count = max(settings.buckets.n_bootstrap, resamples_for(len(names) * (len(names) - 1) // 2, alpha))
            for m in higher:
                tested = _all_pairs(scored, settings, m, count).pairs
                significant[m] = frozenset(frozenset((p.baseline, p.system)) for p in tested if differs(p, alpha))
        flips = ranking_flips(documents, corpus_scores, higher, significant)
    # the human-agreement fits come from WMT translation pairs: none for data stated to be summaries or captions
    off_task = args.task is not None and args.task != Task.TRANSLATION.name.lower()
    found: tuple[Disagreement, ...] = ()
    if args.disagreements:
        a, b = _pair(args.disagreements, names, "--disagreements")
        segment = {r.name: dict(r.segment_scores) for r in evaluation.systems}
        higher = {m: bool(metric.higher_is_better) for m, metric in evaluation.metrics.items()}
        found = disagreements(a, b, segment, higher)
    annotated = annotation_analysis.annotation_analyses(args, scored, settings, [s.bucketing for s in sections])
    return Analysis(
        results=analysis_header(evaluation, settings, notes=scored.notes),
        settings=settings,
        buckets=tuple(sections),
        word_accuracy=words,
        ngrams=ngrams,
        documents=documents,
        flips=flips,
        agreement=() if off_task else _agreement(scored, settings),
        disagreements=found,
        notes=(
            *(metadata.notes if metadata else ()),
            *notes,
            *([OFF_TASK.format(task=args.task)] if off_task else _fit_notes(evaluation)),
            *(n for a in annotated for n in a.notes),
        ),
        annotations=annotated,
    )


def run(args: argparse.Namespace) -> str:
    if args.format == "csv" and not args.output_dir:
        raise ValueError("--format csv writes one file per table: give --output-dir DIR")
    if args.format == "csv":
        check_writable(Path(args.output_dir))  # before the analysis, not after minutes of it
    analysis = analyse(args)
    print_notes(analysis.results.notes)
    if args.format == "json":
        return to_json(analysis)
    if args.format == "table":
        return format_analysis(analysis)
    folder = Path(args.output_dir)
    written = []
    for table in analysis_tables(analysis):
        path = folder / f"{table.name}.csv"
        write_text(path, table.to_csv())
        written.append(os.fspath(path))
    return "".join(f"{path}\n" for path in written)
