"""The results of what the app's overview shows, as the schema of :mod:`metrics.reports.results` has them: the same
document ``scorelens score --paired-bs --all-pairs`` writes for the same data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from metrics.analysis.agreement import Agreement
from metrics.core.evaluation import Evaluation
from metrics.reports.results import Note, Results, Statistics, StatisticsSettings, build_results
from metrics.stats.correlation import Correlation
from metrics.stats.significance import DEFAULT_ALPHA, Interval, PairResult


def overview_results(
    evaluation: Evaluation,
    reports: Mapping[str, Mapping[str, Any]] | None,
    correlations: Mapping[str, Sequence[Correlation]],
    *,
    seed: int,
    n_resamples: int,
    title: str,
    human: str | None = None,
    notes: Sequence[str] = (),
    agreement: Sequence[Agreement] = (),
) -> Results:
    """The results of what the overview shows: ``reports`` per metric id as the dashboard keeps them (``intervals``
    and ``groups`` by current system names, ``pairs`` keyed by the pair's two names; ``None`` without the
    significance module), from ``all_pairs`` with ``n_resamples`` paired-bootstrap resamples and ``seed``; the
    correlations with ``human`` scores; ``notes`` on the input; ``agreement``: the human-agreement estimate of each
    system's difference to the baseline, as the table shows it. Equals the CLI's ``--paired-bs --all-pairs`` on the
    same data, but for ``agreement``."""
    names = [r.name for r in evaluation.systems]
    intervals: dict[str, Mapping[str, Interval]] = {}
    pairs: dict[str, tuple[PairResult, ...]] = {}
    groups: dict[str, Sequence[Sequence[str]]] = {}
    for metric_id, report in (reports or {}).items():
        intervals[metric_id] = {name: iv for name, iv in report["intervals"].items() if iv is not None}
        oriented = _named_pairs(report["pairs"], names)
        if oriented:
            pairs[metric_id] = oriented
            groups[metric_id] = report["groups"]
    compared = bool(pairs)
    settings = StatisticsSettings(
        seed,
        n_resamples,
        method="bs" if compared else None,
        all_pairs=compared,
        alpha=DEFAULT_ALPHA if compared else None,
        human=human if correlations else None,
    )
    statistics = Statistics(settings, intervals, pairs, groups, correlations) if reports or correlations else None
    return build_results(evaluation, statistics, notes=[Note(n) for n in notes], title=title, agreement=agreement)


def _named_pairs(pairs: Mapping[frozenset[str], PairResult], names: Sequence[str]) -> tuple[PairResult, ...]:
    """The pairs with the names shown now (the records inside name systems by content) in all_pairs' order: the
    earlier system of the input is the baseline of a pair."""
    order = {name: i for i, name in enumerate(names)}
    found = []
    for key, pair in pairs.items():
        first, second = sorted(key, key=order.__getitem__)
        found.append(replace(pair, baseline=first, system=second))
    return tuple(sorted(found, key=lambda p: (order[p.baseline], order[p.system])))
