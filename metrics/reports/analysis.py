"""The analysis document: what ``scorelens analyze`` prints and what the app's Analysis page downloads.

It extends the results schema (:mod:`metrics.reports.results`): the same header (``schema_version``, ``dataset``,
``signatures``, ``metrics``; signatures carry the bootstrap fields ``bs:N|seed:S``), then one key per analysis
section that was computed — a section not computed is left out — and ``notes``:

``analysis``        the settings: seed, n_bootstrap, alpha, baseline, token unit, n-gram order and smoothing, …
``buckets``         ``[{"by", "label", "title", "system", "segments", "scores": {system: {metric: {"score", "ci",
                    "mean", "p_value", "significant", "difference": {"delta", "ci"}}}}}]`` — ``system`` is ``null`` in
                    a shared bucketing and names the system whose segments these are in a per-system one (length
                    difference, sentence score); ``difference``: score − the baseline's on the bucket with its paired
                    bootstrap interval (``null`` for the baseline and in per-system buckets)
``word_accuracy``   ``[{"system", "bucket", "matches", "ref_words", "out_words", "precision", "recall",
                    "fmeasure", "ci"}]``
``ngrams``          ``[{"a", "b", "n", "ngram", "direction", "ratio", "matches": {a: k, b: m}, "segments", "lines"}]``
``documents``       ``[{"document", "segments", "scores": {system: {metric: number}}}]``
``ranking_flips``   ``[{"document", "metric", "segments", "flipped": [[better here, better on the corpus]], "pairs",
                    "significant": [{"better_here", "better_on_corpus", "reversal"}]}]`` — ``significant``: the
                    flipped pairs whose corpus difference is significant (Holm), largest reversal (in the metric's
                    units) first
``agreement``       ``[{"metric", "a", "b", "delta", "human_agreement", "p_value", "fit"}]`` — ``delta = score(a) −
                    score(b)``, ``human_agreement`` on a 0–1 scale (an estimate from WMT system pairs of how often
                    humans agreed with a difference this large; not a probability that a is better), ``fit`` the
                    mt-thresholds fit
``disagreements``   ``[{"segment", "line", "a", "b", "for_a", "delta_for_a", "for_b", "delta_for_b", "size"}]``
``categories``, ``category_differences``, ``category_buckets``, ``span_agreement``, ``annotation_analysis``: the
                    sections of ``--annotations`` (:mod:`metrics.reports.annotation_analysis`)

Segment numbers: ``segment`` and ``segments`` are 0-based indices (positions in the score lists, as sacrebleu and
mt-metrics-eval count); ``line`` and ``lines`` are the same segments' 1-based line numbers in the input files — the
numbers the app and ``--format table`` show. CSV: one long table per section (:func:`analysis_tables`), numbers with
their metric's signature, as the results schema's tables.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from metrics.analysis.agreement import SOURCE, Agreement
from metrics.analysis.buckets import Bucketing
from metrics.analysis.disagreement import Disagreement
from metrics.analysis.documents import DocumentScores, RankingFlip
from metrics.analysis.ngrams import NgramContrast, NgramReport
from metrics.analysis.scoring import BucketResult, BucketSettings, significant
from metrics.analysis.words import WordAccuracy
from metrics.core.evaluation import Evaluation
from metrics.reports.results import (
    Cell,
    Note,
    Results,
    Statistics,
    StatisticsSettings,
    Table,
    agreement_json,
    build_results,
    header,
)
from metrics.reports.results import json_text as results_json_text

if TYPE_CHECKING:  # the annotation sections are imported only when an analysis has them (they load the families)
    from metrics.annotations.analysis import AnnotationAnalysis


@dataclass(frozen=True)
class BucketSection:
    """The scores of one bucketing."""

    bucketing: Bucketing
    results: tuple[BucketResult, ...]


@dataclass(frozen=True)
class AnalysisSettings:
    """How the analysis was computed; ``tokens`` is the unit of lengths, words and n-grams, ``frequencies`` where
    word frequencies were counted."""

    buckets: BucketSettings
    baseline: str
    tokens: str | None = None
    frequencies: str | None = None
    ngram_orders: tuple[int, int] = (1, 4)
    ngram_alpha: float = 1.0


@dataclass(frozen=True)
class Analysis:
    """Every computed section; ``results`` supplies the header (metrics, signatures, dataset title)."""

    results: Results
    settings: AnalysisSettings
    buckets: tuple[BucketSection, ...] = ()
    word_accuracy: tuple[WordAccuracy, ...] = ()
    ngrams: tuple[NgramReport, ...] = ()
    documents: tuple[DocumentScores, ...] = ()
    flips: tuple[RankingFlip, ...] = ()
    agreement: tuple[Agreement, ...] = ()
    disagreements: tuple[Disagreement, ...] = ()
    notes: tuple[str, ...] = field(default=())
    annotations: tuple[AnnotationAnalysis, ...] = ()


def analysis_header(
    evaluation: Evaluation, settings: AnalysisSettings, title: str | None = None, notes: Sequence[Note] = ()
) -> Results:
    """The results header of an analysis: signatures with the bucket bootstrap's ``bs:N|seed:S`` fields; ``notes``
    on the input come before the metrics' own warnings."""
    stats = StatisticsSettings(
        seed=settings.buckets.seed, n_bootstrap=settings.buckets.n_bootstrap, method="bs", baseline=settings.baseline
    )
    return build_results(evaluation, Statistics(stats), notes=notes, title=title)


def _bucket_json(section: BucketSection, alpha: float) -> Iterator[dict[str, Any]]:
    for result in section.results:
        scores: dict[str, dict[str, Any]] = {}
        for entry in result.scores:
            iv, d = entry.interval, entry.difference
            scores.setdefault(entry.system, {})[entry.metric] = {
                "score": iv.score,
                "ci": [iv.lo, iv.hi],
                "mean": iv.mean,
                "p_value": entry.p_value,
                "significant": significant(entry, alpha),
                "difference": None if d is None else {"delta": d.score, "ci": [d.lo, d.hi]},
            }
        yield {
            "by": result.by,
            "label": result.label,
            "title": section.bucketing.title,
            "system": result.system,
            "segments": list(result.segments),
            "scores": scores,
        }


def _ngram_json(contrast: NgramContrast, direction: str) -> dict[str, Any]:
    return {
        "a": contrast.a,
        "b": contrast.b,
        "n": contrast.n,
        "ngram": contrast.text,
        "direction": direction,
        "ratio": contrast.ratio,
        "matches": {contrast.a: contrast.matches_a, contrast.b: contrast.matches_b},
        "segments": list(contrast.segments),
        "lines": [i + 1 for i in contrast.segments],
    }


def _directions(report: NgramReport) -> Iterator[tuple[NgramContrast, str]]:
    yield from ((c, f"{report.a} > {report.b}") for c in report.a_better)
    yield from ((c, f"{report.b} > {report.a}") for c in report.b_better)


def json_document(analysis: Analysis) -> dict[str, Any]:
    s = analysis.settings
    document = header(analysis.results)
    document["analysis"] = {
        "seed": s.buckets.seed,
        "n_bootstrap": s.buckets.n_bootstrap,
        "alpha": s.buckets.alpha,
        "baseline": s.baseline,
        "tokens": s.tokens,
        "frequencies": s.frequencies,
        "ngram_orders": list(s.ngram_orders),
        "ngram_alpha": s.ngram_alpha,
        "agreement_source": SOURCE,
    }
    if analysis.buckets:
        document["buckets"] = [r for section in analysis.buckets for r in _bucket_json(section, s.buckets.alpha)]
    if analysis.word_accuracy:
        document["word_accuracy"] = [
            {
                "system": w.system,
                "bucket": w.label,
                "matches": w.matches,
                "ref_words": w.ref_words,
                "out_words": w.out_words,
                "precision": w.precision,
                "recall": w.recall,
                "fmeasure": w.fmeasure,
                "ci": [w.interval.lo, w.interval.hi],
            }
            for w in analysis.word_accuracy
        ]
    if analysis.ngrams:
        document["ngrams"] = [_ngram_json(c, d) for report in analysis.ngrams for c, d in _directions(report)]
    if analysis.documents:
        document["documents"] = [
            {"document": d.document, "segments": list(d.segments), "scores": d.scores} for d in analysis.documents
        ]
        document["ranking_flips"] = [
            {
                "document": f.document,
                "metric": f.metric,
                "segments": f.n_segments,
                "flipped": [list(p) for p in f.pairs],
                "pairs": f.n_pairs,
                "significant": [
                    {"better_here": here, "better_on_corpus": corpus, "reversal": margin}
                    for (here, corpus), margin in zip(f.significant, f.reversals, strict=True)
                ],
            }
            for f in analysis.flips
        ]
    if analysis.agreement:
        document["agreement"] = [agreement_json(g) for g in analysis.agreement]
    if analysis.disagreements:
        document["disagreements"] = [
            {
                "segment": d.segment,
                "line": d.segment + 1,
                "a": d.a,
                "b": d.b,
                "for_a": d.for_a,
                "delta_for_a": d.delta_for_a,
                "for_b": d.for_b,
                "delta_for_b": d.delta_for_b,
                "size": d.size,
            }
            for d in analysis.disagreements
        ]
    if analysis.annotations:
        from metrics.reports.annotation_analysis import annotation_json

        document.update(annotation_json(analysis.annotations))
    document["notes"] = [
        *({"metric": n.metric, "systems": list(n.systems), "message": n.message} for n in analysis.results.notes),
        *({"metric": None, "systems": [], "message": text} for text in analysis.notes),
    ]
    return document


def to_json(analysis: Analysis) -> str:
    return results_json_text(json_document(analysis))


# ------------------------------------------------------------------------------------------------------------ CSV


def _bucket_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    sig = analysis.results.signatures
    alpha = analysis.settings.buckets.alpha
    for section in analysis.buckets:
        for r in section.results:
            for e in r.scores:
                iv, d = e.interval, e.difference
                yield (
                    r.by,
                    r.label,
                    r.system,
                    e.system,
                    e.metric,
                    e.n_segments,
                    iv.score,
                    iv.lo,
                    iv.hi,
                    None if d is None else d.score,
                    None if d is None else d.lo,
                    None if d is None else d.hi,
                    e.p_value,
                    significant(e, alpha),
                    sig[e.metric],
                )


def _word_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    for w in analysis.word_accuracy:
        yield (w.system, w.label, w.matches, w.ref_words, w.out_words, w.precision, w.recall, w.fmeasure,
               w.interval.lo, w.interval.hi)  # fmt: skip


def _ngram_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    for report in analysis.ngrams:
        for c, direction in _directions(report):
            segments = " ".join(str(i) for i in c.segments)
            lines = " ".join(str(i + 1) for i in c.segments)
            yield (c.a, c.b, direction, c.n, c.text, c.matches_a, c.matches_b, c.ratio, segments, lines)


def _document_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    sig = analysis.results.signatures
    for d in analysis.documents:
        for system, by_metric in d.scores.items():
            yield from ((d.document, len(d.segments), system, m, v, sig[m]) for m, v in by_metric.items())


def _flip_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    for f in analysis.flips:
        margins = dict(zip(f.significant, f.reversals, strict=True))
        for pair in f.pairs:
            yield (f.document, f.metric, f.n_segments, *pair, f.n_pairs, pair in margins, margins.get(pair))


def _agreement_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    sig = analysis.results.signatures
    for g in analysis.agreement:
        yield (g.metric, g.a, g.b, g.delta, g.p_value, g.human_agreement, SOURCE, g.fit, sig[g.metric])


def _disagreement_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    for d in analysis.disagreements:
        yield (d.segment, d.segment + 1, d.a, d.b, d.for_a, d.delta_for_a, d.for_b, d.delta_for_b, d.size)


def _note_rows(analysis: Analysis) -> Iterator[tuple[Cell, ...]]:
    for n in analysis.results.notes:
        yield from ((n.metric, system, n.message) for system in (n.systems or (None,)))
    yield from ((None, None, text) for text in analysis.notes)


TABLES = (
    ("buckets", ("by", "bucket", "segments_of", "system", "metric", "segments", "score", "ci_lo", "ci_hi", "delta",
                 "delta_lo", "delta_hi", "p_value", "significant", "signature"), _bucket_rows),
    ("word_accuracy", ("system", "frequency", "matches", "ref_words", "out_words", "precision", "recall", "fmeasure",
                       "ci_lo", "ci_hi"), _word_rows),
    ("ngrams", ("a", "b", "direction", "n", "ngram", "matches_a", "matches_b", "ratio", "segments", "lines"),
     _ngram_rows),
    ("documents", ("document", "segments", "system", "metric", "score", "signature"), _document_rows),
    ("ranking_flips", ("document", "metric", "segments", "better_here", "better_on_corpus", "pairs",
                       "significant_on_corpus", "reversal"), _flip_rows),
    ("agreement", ("metric", "a", "b", "delta", "p_value", "human_agreement", "estimate", "fit", "signature"),
     _agreement_rows),
    ("disagreements", ("segment", "line", "a", "b", "for_a", "delta_for_a", "for_b", "delta_for_b", "size"),
     _disagreement_rows),
    ("notes", ("metric", "system", "message"), _note_rows),
)  # fmt: skip


def analysis_tables(analysis: Analysis) -> tuple[Table, ...]:
    """One table per computed section (``segments_of``: the system whose segments a per-system bucket holds;
    n-gram ``segments`` are space-separated 0-based indices, ``lines`` the same as 1-based line numbers)."""
    found = (Table(name, columns, tuple(rows(analysis))) for name, columns, rows in TABLES)
    tables = tuple(t for t in found if t.rows)
    if not analysis.annotations:
        return tables
    from metrics.reports.annotation_analysis import annotation_tables

    notes = tuple(t for t in tables if t.name == "notes")  # the notes stay last
    return (*(t for t in tables if t.name != "notes"), *annotation_tables(analysis.annotations), *notes)
