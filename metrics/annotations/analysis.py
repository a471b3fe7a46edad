"""One annotation file analysed against the loaded outputs and the scored metrics: category tables per system,
category differences against the baseline, category tables per bucket and slice, and the span agreement of every
metric with token-level evidence — what ``scorelens analyze`` reports and the app can render
(:class:`AnnotationAnalysis`; the definitions are in :mod:`~metrics.annotations.categories`,
:mod:`~metrics.annotations.flags` and :mod:`~metrics.annotations.agreement`).

Only systems that are both loaded and annotated are analysed (a reference rated as a system is not an output).
Span agreement is also given over every analysed system together (``system`` = :data:`ALL_SYSTEMS`): the rows of
all systems' rated segments pooled, each (system, segment) one unit of the bootstrap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from metrics.analysis.buckets import Bucketing
from metrics.annotations.agreement import AgreementRows, AgreementTable, agreement_rows, agreement_table
from metrics.annotations.categories import (
    CategoryBucket,
    CategoryDifference,
    CategoryTable,
    Rate,
    all_category_rows,
    category_buckets,
    category_tables,
    cells_of,
    compare_categories,
)
from metrics.annotations.flags import DEFAULT_FLAG_OPTIONS, FlagOptions, Unflaggable, flaggable, metric_flags
from metrics.annotations.model import Annotations
from metrics.core.base import Metric, MissingInput
from metrics.stats.defaults import DEFAULT_ALPHA, DEFAULT_SEED

ALL_SYSTEMS = "(all systems)"


@dataclass(frozen=True)
class AnnotationAnalysis:
    """Everything computed from one annotation file (``label``: the human metric's id, e.g. ``mqm``; ``source``:
    the file). ``rate``: the rate the differences test; ``options``: the span-flag options
    (:meth:`FlagOptions.describe`); ``notes``: what was left out and why."""

    label: str
    source: str
    unit: str
    baseline: str | None
    rate: Rate
    tables: tuple[CategoryTable, ...]
    differences: tuple[CategoryDifference, ...]
    buckets: tuple[CategoryBucket, ...]
    agreement: tuple[AgreementTable, ...]
    options: str
    alpha: float
    n_samples: int
    seed: int
    notes: tuple[str, ...] = ()


def pooled_rows(rows: Sequence[AgreementRows]) -> AgreementRows:
    """The rows of several systems (same metric and cells) as one corpus of (system, segment) units, system after
    system; its ``segments`` number those units (0-based), not lines."""
    first = rows[0]
    stacked = np.concatenate([r.rows for r in rows])
    return AgreementRows(
        first.metric,
        ALL_SYSTEMS,
        first.cells,
        tuple(range(len(stacked))),
        stacked,
        sum(r.unlocated for r in rows),
        first.options,
    )


def _agreement(
    annotations: Annotations,
    systems: Sequence[str],
    outputs: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    source: Sequence[str] | None,
    metrics: Mapping[str, Metric[Any, Any]],
    options: FlagOptions,
    n_samples: int,
    seed: int,
) -> tuple[list[AgreementTable], list[str]]:
    """Agreement tables of every metric with token evidence: per system, then all systems pooled."""
    cells = cells_of(annotations)
    tables: list[AgreementTable] = []
    notes: list[str] = []
    for metric_id, metric in metrics.items():
        if not flaggable(metric):
            continue
        found = []
        try:
            for system in systems:
                rated = [int(i) for i in np.flatnonzero(annotations.rated(system))]
                flags = metric_flags(metric, system, outputs[system], refs, rated, source, options)
                found.append(
                    agreement_rows(annotations, system, outputs[system], flags, cells, metric_id, options.describe())
                )
        except (Unflaggable, MissingInput) as err:
            notes.append(f"span agreement of {metric_id}: left out ({err})")
            continue
        for rows in (*found, pooled_rows(found)):
            table = agreement_table(rows, n_samples=n_samples, seed=seed)
            if table is not None:
                tables.append(table)
    return tables, notes


def analyse_annotations(
    annotations: Annotations,
    outputs: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Mapping[str, Metric[Any, Any]],
    *,
    label: str = "",
    source: Sequence[str] | None = None,
    baseline: str | None = None,
    bucketings: Sequence[Bucketing] = (),
    rate: Rate = Rate.PER_SEGMENT,
    options: FlagOptions = DEFAULT_FLAG_OPTIONS,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> AnnotationAnalysis:
    """The analysis of one annotation file (module docstring). ``outputs``: the loaded systems' lines; ``refs``:
    the reference streams and ``source`` the source lines the metrics' explanations read; ``metrics``: the scored
    metrics (those with token evidence get span agreement); ``baseline``: every other analysed system's categories
    are tested against it (none when it is not analysed)."""
    systems = [s for s in annotations.systems if s in outputs]
    notes = []
    others = [s for s in annotations.systems if s not in outputs]
    if others:
        notes.append(f"annotated but not a loaded output (left out of the category tables): {', '.join(others)}")
    if not systems:
        raise ValueError(f"{annotations.source or 'the annotations'}: no annotated system is a loaded output")
    rows = all_category_rows(annotations, outputs, systems)
    tables = category_tables(rows, n_samples, seed)
    tested = baseline if baseline in rows else None
    differences = tuple(
        d
        for s in systems
        if tested is not None and s != tested
        for d in compare_categories(rows[tested], rows[s], rate, None, seed, alpha=alpha)
    )
    buckets = tuple(b for bucketing in bucketings for b in category_buckets(bucketing, rows, n_samples, seed))
    agreement, left_out = _agreement(annotations, systems, outputs, refs, source, metrics, options, n_samples, seed)
    return AnnotationAnalysis(
        label,
        annotations.source,
        next(iter(rows.values())).unit,
        tested,
        rate,
        tuple(tables.values()),
        differences,
        buckets,
        tuple(agreement),
        options.describe(),
        alpha,
        n_samples,
        seed,
        (*notes, *left_out),
    )
