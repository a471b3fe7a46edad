"""The human-error computations of the Analysis page and the Explorer, cached by content (:mod:`dashboard.compute`):
errors by category × severity per system with intervals, the two-system comparison across categories (Holm), the
same on a slice's segments, and how far each metric's token-level evidence lands on the raters' spans.

Keys hold what a result depends on: the annotations' content hash, the systems' names and outputs, the segments and
the bootstrap settings (and, for span agreement, the metric's signature and the references)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from dashboard import state
from dashboard.compute import LRU, Job, run_cached
from dashboard.dataset import Dataset
from metrics.annotations.agreement import AgreementTable, agreement_rows, agreement_table
from metrics.annotations.analysis import AnnotationAnalysis, analyse_annotations
from metrics.annotations.categories import (
    ALL,
    CategoryDifference,
    CategoryRows,
    CategoryTable,
    Cell,
    Rate,
    all_category_rows,
    category_table,
    compare_categories,
)
from metrics.annotations.flags import Unflaggable, metric_flags
from metrics.core.evaluation import Evaluation
from metrics.core.spans import Severity

N_SAMPLES = state.N_RESAMPLES
SEED = state.SEED


@st.cache_resource(show_spinner=False)
def _store() -> LRU:
    return LRU(256)


def _one(key: Hashable, label: str, run: Any) -> Any:
    found, _ = run_cached(_store(), {0: Job(key, label, run)}, label)
    return found[0]


def _systems_key(data: Dataset, name: str) -> tuple[Hashable, ...]:
    return (name, data.annotations_hash(name), tuple((s, data.system_hash(s)) for s in data.annotations[name].systems))


def rows(data: Dataset, name: str) -> dict[str, CategoryRows]:
    """Every annotated system's rows (a segment: rated, words, a count per cell) of the annotations ``name``."""
    marked = data.annotations[name]
    outputs = {s: data.systems[s] for s in marked.systems}
    return dict(
        _one(
            ("category rows", *_systems_key(data, name)), "Counting errors", lambda: all_category_rows(marked, outputs)
        )
    )


def tables(data: Dataset, name: str, segments: Sequence[int] | None = None) -> dict[str, CategoryTable]:
    """Each system's category table on ``segments`` (default all), over its rated segments; systems rated on none of
    them are left out."""
    found = rows(data, name)
    picked = None if segments is None else np.asarray(segments, dtype=np.intp)

    def run() -> dict[str, CategoryTable]:
        made = {s: category_table(r, picked, N_SAMPLES, SEED) for s, r in found.items()}
        return {s: t for s, t in made.items() if t is not None}

    where = None if segments is None else tuple(segments)
    return dict(_one(("category tables", *_systems_key(data, name), where, N_SAMPLES, SEED), "Errors by category", run))


def compare(
    data: Dataset, name: str, baseline: str, system: str, rate: Rate, segments: Sequence[int] | None = None
) -> tuple[CategoryDifference, ...]:
    """``system − baseline`` in every cell's rate on the segments both had rated (of ``segments``), Holm-corrected
    across the cells tested."""
    found = rows(data, name)
    picked = None if segments is None else np.asarray(segments, dtype=np.intp)
    where = None if segments is None else tuple(segments)
    key = ("category tests", *_systems_key(data, name), baseline, system, rate, where, SEED)
    return tuple(
        _one(
            key,
            "Testing categories",
            lambda: compare_categories(found[baseline], found[system], rate, None, SEED, picked),
        )
    )


@dataclass(frozen=True)
class MetricAgreement:
    """One metric's span agreement with the raters, per system (``tables``), or why it has none (``reason``)."""

    metric: str
    tables: dict[str, AgreementTable]
    reason: str = ""


def span_agreement(data: Dataset, evaluation: Evaluation, name: str, metric_id: str) -> MetricAgreement:
    """Character-level precision, recall and F1 of ``metric_id``'s flags against the raters' output spans, per
    annotated system, with intervals."""
    metric = evaluation.metrics[metric_id]  # one whose evidence marks characters (metrics.annotations.flags)
    marked = data.annotations[name]
    refs = [list(stream) for stream in data.refs]
    source = None if data.source is None else list(data.source)
    cells = tuple(Cell(c) for c in (ALL, *top_categories(data, name)))

    def run() -> MetricAgreement:
        made: dict[str, AgreementTable] = {}
        for system in marked.systems:
            hyps = list(data.systems[system])
            rated = [int(i) for i in np.flatnonzero(marked.rated(system))]
            try:
                flags = metric_flags(metric, system, hyps, refs, rated, source)
            except Unflaggable as err:
                return MetricAgreement(metric_id, {}, str(err))
            found = agreement_table(
                agreement_rows(marked, system, hyps, flags, cells, metric_id), None, N_SAMPLES, SEED
            )
            if found is not None:
                made[system] = found
        return MetricAgreement(metric_id, made)

    key = (
        "span agreement",
        *_systems_key(data, name),
        metric_id,
        evaluation.segment_signatures[metric_id],
        data.refs_hash,
        data.source_hash,
        N_SAMPLES,
        SEED,
    )
    return _one(key, f"Span agreement of {metric.name}", run)


def analysis(data: Dataset, evaluation: Evaluation, name: str, baseline: str, rate: Rate) -> AnnotationAnalysis:
    """The whole analysis of the annotations ``name`` as the command line's ``analyze --annotations`` makes it (every
    system's table, each system against ``baseline``, span agreement of every chosen metric with token evidence):
    the Human errors section's downloads."""
    marked = data.annotations[name]
    outputs = {s: list(data.systems[s]) for s in marked.systems}
    refs = [list(stream) for stream in data.refs]
    source = None if data.source is None else list(data.source)
    metrics = {m: metric for m, metric in evaluation.metrics.items() if m not in data.annotations}
    signatures = tuple(evaluation.segment_signatures[m] for m in metrics)

    def run() -> AnnotationAnalysis:
        return analyse_annotations(
            marked, outputs, refs, metrics, label=name, source=source, baseline=baseline, rate=rate,
            n_samples=N_SAMPLES, seed=SEED,
        )  # fmt: skip

    key = (
        "annotation analysis",
        *_systems_key(data, name),
        baseline,
        rate,
        signatures,
        data.refs_hash,
        data.source_hash,
    )
    found: AnnotationAnalysis = _one(key, "Analysing the annotations", run)
    return found


def top_categories(data: Dataset, name: str) -> tuple[str, ...]:
    """The top-level categories of the annotations' errors (``Accuracy``, ``Fluency``…), sorted."""
    return tuple(sorted({c.category for r in rows(data, name).values() for c in r.cells if c.depth == 1}))


def kinds(data: Dataset, name: str) -> tuple[str, ...]:
    """Every category path of the annotations' errors at any level, sorted (the Explorer's choice)."""
    return tuple(sorted({c.category for r in rows(data, name).values() for c in r.cells if c.depth >= 1}))


def has_error(
    data: Dataset,
    name: str,
    system: str,
    category: str | None,
    severities: Sequence[Severity],
    rater: str | None = None,
) -> np.ndarray:
    """Mask over the segments: ``system``'s output has an error of ``category`` (at any level of its path: ``Accuracy``
    holds ``Accuracy/Mistranslation``; ``None``: any) with one of ``severities`` (none chosen: any), marked by
    ``rater`` (``None``: any rater)."""
    marked = data.annotations[name]
    mask = np.zeros(len(data), dtype=bool)
    if system not in marked.ratings:
        return mask
    wanted = set(severities)
    for i, ratings in enumerate(marked.ratings[system]):
        for rating in ratings:
            if rater is not None and rating.rater != rater:
                continue
            if any(
                (not wanted or e.severity in wanted) and (category is None or _within(e.category, category))
                for e in rating.errors
            ):
                mask[i] = True
                break
    return mask


def _within(category: str | None, wanted: str) -> bool:
    """Whether ``category`` is ``wanted`` or lies under it (``Accuracy/Mistranslation`` under ``Accuracy``); case as
    the file writes it is ignored, as MQM's weights ignore it."""
    parts = [p.strip().casefold() for p in (category or "").split("/")]
    target = [p.strip().casefold() for p in wanted.split("/")]
    return parts[: len(target)] == target
