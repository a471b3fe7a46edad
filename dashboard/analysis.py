"""The Analysis page's computations, cached by content through the compute pipeline (:mod:`dashboard.compute`).

Every result is keyed by what it depends on: the metrics (their signatures carry every option), the references,
each system's name and outputs, the baseline and the bootstrap settings, and — for metadata buckets — the column's
values. Lengths and tokens are derived once per dataset and kept; bucket scores come from the cached segment
statistics of :func:`dashboard.state.evaluation`. Each section computes only when the page shows it.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

import streamlit as st

from dashboard import segment_metadata, state
from dashboard.compute import LRU, Job, run_cached
from dashboard.dataset import Dataset, stream_hash
from metrics.analysis import agreement as agreement_module
from metrics.analysis.disagreement import Disagreement, disagreements
from metrics.analysis.documents import (
    DocumentScores,
    RankingFlip,
    differs,
    document_scores,
    ranking_flips,
)
from metrics.analysis.ngrams import NgramReport, characteristic_ngrams, corpus_matches, reference_counts
from metrics.analysis.plan import BucketSpec, build
from metrics.analysis.scoring import BucketSettings, bucket_scores
from metrics.analysis.slices import Slice, by_slices, drop_circular_tests
from metrics.analysis.units import Lengths, TokenUnit, lengths, unit_for, word_unit
from metrics.analysis.words import FREQUENCY_EDGES, WordAccuracy, frequencies, reference_frequencies, word_accuracy
from metrics.core.evaluation import Evaluation
from metrics.core.language import Language
from metrics.core.ngrams import Ngram
from metrics.io.metadata import Metadata
from metrics.reports.analysis import BucketSection

SETTINGS = BucketSettings(n_bootstrap=state.N_RESAMPLES, seed=state.SEED)


@st.cache_resource(show_spinner=False)
def _store() -> LRU:
    return LRU(256)


def metadata() -> Metadata | None:
    """The loaded segment metadata, if it fits the loaded data (a new dataset drops it)."""
    return segment_metadata.loaded(len(state.dataset()))


def _content(data: Dataset, evaluation: Evaluation) -> tuple[Hashable, ...]:
    systems = tuple((r.name, data.system_hash(r.name)) for r in evaluation.systems)
    signatures = (tuple(evaluation.signatures.items()), tuple(evaluation.segment_signatures.items()))
    return (signatures, data.refs_hash, systems)


def _column_hash(values: Sequence[str]) -> str:
    return hashlib.sha256(json.dumps(list(values), ensure_ascii=False).encode()).hexdigest()[:32]


def _one(key: Hashable, message: str, label: str, run: Any) -> Any:
    found, _ = run_cached(_store(), {0: Job(key, message, run)}, label)
    return found[0]


def lengths_of(evaluation: Evaluation, metric_id: str) -> Lengths:
    """Reference and output lengths in ``metric_id``'s tokens (from its rows where they hold them)."""
    data = state.dataset()
    metric = evaluation.metrics[metric_id]
    refs = [list(stream) for stream in data.refs]
    systems = {r.name: list(data.systems[r.name]) for r in evaluation.systems}

    def run() -> Lengths:
        stats = {r.name: r.stats[metric_id] for r in evaluation.systems}
        return lengths(unit_for(metric, refs), refs, systems, stats)

    key = ("lengths", metric_id, evaluation.signatures[metric_id], _content(data, evaluation))
    return _one(key, metric.name, "Measuring lengths", run)


def bucket_section(evaluation: Evaluation, spec: BucketSpec, baseline: str) -> tuple[BucketSection, tuple[str, ...]]:
    """The scores of one bucketing (``ValueError`` when it cannot be built: no source, no metadata column…)."""
    data = state.dataset()
    meta = metadata()
    column = (
        _column_hash(meta.column(spec.column))
        if meta is not None and spec.column is not None and spec.column in meta.columns
        else None
    )
    bucketing = build(spec, evaluation, lambda m: lengths_of(evaluation, m), data.source, meta)

    def run() -> tuple[BucketSection, tuple[str, ...]]:
        stats = {r.name: dict(r.stats) for r in evaluation.systems}
        results, notes = bucket_scores(bucketing, evaluation.metrics, stats, baseline, SETTINGS)
        return BucketSection(bucketing, results), notes

    key = ("buckets", spec, column, baseline, SETTINGS, _content(data, evaluation))
    return _one(key, bucketing.title, f"Scoring buckets ({SETTINGS.n_bootstrap} resamples)", run)


def token_unit(evaluation: Evaluation, metric_id: str | None) -> tuple[TokenUnit, Hashable]:
    """The unit of words and n-grams: ``metric_id``'s tokens, or the first word-level metric's; and its cache key."""
    data = state.dataset()
    chosen = [evaluation.metrics[metric_id]] if metric_id else list(evaluation.metrics.values())
    unit = word_unit(chosen, [list(stream) for stream in data.refs])
    source = metric_id or next((m for m in evaluation.metrics), None)
    return unit, (unit.label, source, evaluation.signatures.get(source or "", ""))


def _tokens(unit: TokenUnit, unit_key: Hashable, texts: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    def run() -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(unit.tokens(t)) for t in texts)

    return _one(("tokens", unit_key, stream_hash(texts)), unit.label, "Tokenizing", run)


def _ref_tokens(unit: TokenUnit, unit_key: Hashable) -> list[list[tuple[str, ...]]]:
    data = state.dataset()
    streams = [_tokens(unit, unit_key, stream) for stream in data.refs]
    return [[stream[i] for stream in streams] for i in range(len(data))]


def ngram_report(
    evaluation: Evaluation, a: str, b: str, metric_id: str | None, orders: tuple[int, int], top: int
) -> NgramReport:
    """Characteristic n-grams of A and B in the chosen unit (``ValueError`` for a system compared with itself)."""
    data = state.dataset()
    unit, unit_key = token_unit(evaluation, metric_id)
    if a == b:
        raise ValueError(f"characteristic n-grams compare two different systems; both are {a!r}")

    def allowed() -> list[Counter[Ngram]]:
        key = ("allowed", unit_key, orders, data.refs_hash)
        return _one(key, "references", "Counting reference n-grams",
                    lambda: reference_counts(_ref_tokens(unit, unit_key), orders[0], orders[1]))  # fmt: skip

    def matches(name: str) -> list[Counter[Ngram]]:
        def run() -> list[Counter[Ngram]]:
            return corpus_matches(_tokens(unit, unit_key, data.systems[name]), allowed(), orders[0], orders[1])

        key = ("matches", unit_key, orders, data.refs_hash, data.system_hash(name))
        return _one(key, name, "Counting n-gram matches", run)

    found = {name: matches(name) for name in (a, b)}
    return characteristic_ngrams(a, b, found, min_n=orders[0], max_n=orders[1], top=top)


def words_by_frequency(
    evaluation: Evaluation, metric_id: str | None, corpus: Sequence[str] | None, corpus_name: str | None
) -> tuple[tuple[WordAccuracy, ...], str]:
    """Word accuracy of every system by frequency bucket, frequencies from ``corpus`` (a training corpus) or each
    word's own reference; and the unit's label."""
    data = state.dataset()
    unit, unit_key = token_unit(evaluation, metric_id)
    corpus_key = stream_hash(corpus) if corpus is not None else None

    def run() -> tuple[WordAccuracy, ...]:
        refs = _ref_tokens(unit, unit_key)
        counts = reference_frequencies(refs) if corpus is None else frequencies(unit.tokens(t) for t in corpus)
        outputs = {r.name: _tokens(unit, unit_key, data.systems[r.name]) for r in evaluation.systems}
        return word_accuracy(outputs, refs, counts, FREQUENCY_EDGES, SETTINGS)

    key = ("words", unit_key, corpus_key, corpus_name, SETTINGS, _content(data, evaluation))
    return _one(key, unit.label, "Word accuracy by frequency", run), unit.label


def documents(evaluation: Evaluation, column: str) -> tuple[tuple[DocumentScores, ...], tuple[RankingFlip, ...]]:
    """Scores per document of the metadata ``column`` and the documents whose ranking flips, those flipping a
    significantly different pair first."""
    data = state.dataset()
    meta = metadata()
    if meta is None:
        raise ValueError("load a metadata file with a document-id column first")
    ids = meta.column(column)
    reports = state.statistics(evaluation) or {}
    # the pairs the overview marks as significantly different (Holm-corrected, all pairs)
    significant = {
        m: frozenset(pair for pair, p in r["pairs"].items() if differs(p, SETTINGS.alpha)) for m, r in reports.items()
    }

    def run() -> tuple[tuple[DocumentScores, ...], tuple[RankingFlip, ...]]:
        stats = {r.name: dict(r.stats) for r in evaluation.systems}
        found = document_scores(ids, evaluation.metrics, stats)
        corpus = {r.name: dict(r.scores) for r in evaluation.systems}
        higher = {m: bool(metric.higher_is_better) for m, metric in evaluation.metrics.items()}
        return found, ranking_flips(found, corpus, higher, significant)

    key = ("documents", _column_hash(ids), tuple(sorted(significant.items())), _content(data, evaluation))
    return _one(key, column, "Scoring documents", run)


def agreement(evaluation: Evaluation, language: Language | None) -> tuple[agreement_module.Agreement, ...]:
    """The estimated human agreement of every pair of systems under every covered metric (on references in
    ``language``), beside the all-pairs paired bootstrap p-value the overview computes (the same cached report)."""
    names = [r.name for r in evaluation.systems]
    if len(names) < 2 or not state.translation_fits_apply():  # the fits are of WMT translation pairs
        return ()
    reports = state.statistics(evaluation) or {}
    p_values = {}
    for metric_id, report in reports.items():
        for pair_names, pair in report["pairs"].items():
            first, second = sorted(pair_names, key=names.index)
            p_values[(metric_id, first, second)] = pair.p_value
    scores = {r.name: dict(r.scores) for r in evaluation.systems}
    pairs = agreement_module.all_pairs(names)
    return agreement_module.agreements(evaluation.metrics, scores, pairs, p_values, language)


def metric_disagreements(evaluation: Evaluation, a: str, b: str) -> tuple[Disagreement, ...]:
    segment = {r.name: dict(r.segment_scores) for r in evaluation.systems}
    higher = {m: bool(metric.higher_is_better) for m, metric in evaluation.metrics.items()}
    return disagreements(a, b, segment, higher)


def slice_sections(evaluation: Evaluation, pieces: tuple[Slice, ...], baseline: str) -> tuple[BucketSection, ...]:
    """Every system's score and interval on each slice (a one-bucket bucketing each), tested against the baseline
    except where the test is circular (the slice was chosen by that metric's scores of either system)."""
    data = state.dataset()

    def run() -> tuple[BucketSection, ...]:
        stats = {r.name: dict(r.stats) for r in evaluation.systems}
        found = []
        for piece, bucketing in zip(pieces, by_slices(pieces, len(data)), strict=True):
            results, _ = bucket_scores(bucketing, evaluation.metrics, stats, baseline, SETTINGS)
            found.append(BucketSection(bucketing, drop_circular_tests(results, piece, baseline)))
        return tuple(found)

    key = ("slices", pieces, baseline, SETTINGS, _content(data, evaluation))
    return _one(key, f"{len(pieces)} slices", f"Scoring slices ({SETTINGS.n_bootstrap} resamples)", run)
