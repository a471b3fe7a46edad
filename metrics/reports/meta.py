"""The meta-evaluation document: what ``scorelens meta`` prints and what the app's Meta-evaluation page downloads.

JSON (``schema_version`` as the results schema's, ``"document": "meta-evaluation"``), keys:

``dataset``, ``human``     the data's title and the human scores' source
``scope``                  ``{"kind": "all"|"bucket"|"slice", "label", "segments", "rated"}``: the segments
                           meta-evaluated (a metadata bucket such as ``domain = news``, or a slice) and the
                           (system, segment) cells of them with a human score
``settings``               the statistics' settings (:class:`metrics.meta.results.MetaSettings`)
``systems``                the systems with human scores, in input order
``metrics``                ``{id: {"name", "signature", "higher_is_better"}}``
``system_level``           ``[{"metric", "n_systems", "n_pairs", "pearson", "kendall", "accuracy", "spa"}]``, each
                           statistic ``{"value", "ci": [lo, hi], "chance"}`` (``ci`` null where not computed)
``segment_level``          ``[{"metric", "acc_eq", "tie_threshold", "pearson", "pearson_by_item", "kendall":
                           [{"variant", "grouping", "value", "groups"}], "n_items", "n_pairs", "n_errors"}]``
``comparisons``            ``[{"statistic", "test", "seed", "ranking": [{"metric", "value", "rank"}], "p_values":
                           [{"better", "other", "p_value", "resamples"}]}]``: the significance clusters (rank 1 the
                           best cluster) and the permutation p-value of "other is at least as good as better"
``system_pairs``           ``[{"metric", "better", "worse", "outcome", "human_delta", "human_ci", "metric_delta",
                           "metric_ci", "human_p", "metric_p"}]``: the system pairs each metric orders against the
                           humans; ``better`` is better by the humans; deltas are ``better − worse`` on each side's
                           scale (the metric's own units: an error rate's delta is negative where it agrees);
                           ``metric_ci`` is null for a metric whose corpus score is not a mean of segment scores
                           (BLEU): its system scores cannot be resampled from segment scores
``segment_pairs``          ``[{"metric", "segment", "line", "a", "b", "outcome", "human_a", "human_b", "metric_a",
                           "metric_b", "weight"}]``: the heaviest segment pairs each metric orders against the humans
``notes``                  what a reader should know (systems without human scores, …)

``outcome``: ``discordant`` (both order the pair, oppositely), ``false_tie`` (the humans order it, the metric ties it
within its threshold), ``missed_tie`` (the humans tie it, the metric orders it). Segment numbers as the analysis
document's: ``segment`` 0-based, ``line`` 1-based. CSV: one long table per section (:func:`meta_tables`); LaTeX: the
ranking as a booktabs table and the other tables as ``longtable`` (:func:`meta_latex`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any

from metrics.meta.results import (
    Comparison,
    Estimate,
    MetaReport,
    MetricMeta,
    SegmentPairError,
    Statistic,
    SystemPairError,
)
from metrics.reports.latex import PACKAGES, direction, escape_latex, table_latex
from metrics.reports.results import SCHEMA_VERSION, Cell, MetricInfo, Table, json_text


class ScopeKind(Enum):
    ALL = "all"
    BUCKET = "bucket"
    SLICE = "slice"


@dataclass(frozen=True)
class Scope:
    """The segments meta-evaluated (0-based, increasing): all of them, a metadata bucket or a slice."""

    kind: ScopeKind
    label: str
    segments: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.segments:
            raise ValueError(f"{self.label}: no segments to meta-evaluate")
        if list(self.segments) != sorted(set(self.segments)) or self.segments[0] < 0:
            raise ValueError(f"{self.label}: segments must be increasing 0-based numbers without repeats")


def all_segments(n_segments: int) -> Scope:
    return Scope(ScopeKind.ALL, "all segments", tuple(range(n_segments)))


def bucket(values: Sequence[str], column: str, value: str) -> Scope:
    """The segments whose metadata ``column`` (its ``values``, one per segment) is ``value``."""
    chosen = tuple(i for i, v in enumerate(values) if v == value)
    if not chosen:
        found = ", ".join(sorted(set(values))[:12])
        raise ValueError(f"no segment has {column} = {value!r}; its values: {found}")
    return Scope(ScopeKind.BUCKET, f"{column} = {value}", chosen)


def slice_scope(name: str, segments: Sequence[int]) -> Scope:
    return Scope(ScopeKind.SLICE, f"slice {name}", tuple(segments))


# The statistics of each level, as the document names them.
SYSTEM_STATISTICS = ("pearson", "kendall", "accuracy", "spa")
STATISTIC_LABELS = {
    "pearson": "Pearson",
    "kendall": "Kendall τ-b",
    "accuracy": "pairwise accuracy",
    "spa": "SPA",
    "acc_eq": "acc_eq",
    "seg_pearson": "Pearson (pooled)",
}


@dataclass(frozen=True)
class MetaDocument:
    """A meta-evaluation with what it was computed on: the data's ``title``, the human scores' ``human`` source,
    the ``scope``, each metric's name, signature and direction, and notes. ``report`` holds the metric scores
    oriented so that higher is better (an error rate negated); the document gives them back in the metric's own
    units."""

    report: MetaReport
    scope: Scope
    metrics: tuple[MetricInfo, ...]
    title: str = ""
    human: str = ""
    notes: tuple[str, ...] = ()
    fixed: frozenset[str] = frozenset()  # metrics whose own corpus scores stayed fixed across the resamples

    def info(self, metric_id: str) -> MetricInfo:
        return next(m for m in self.metrics if m.id == metric_id)

    def sign(self, metric_id: str) -> float:
        """+1 for a metric where higher is better, −1 for one whose scores the report holds negated."""
        return 1.0 if self.info(metric_id).higher_is_better else -1.0

    def line(self, segment: int) -> int:
        """The 1-based line in the input files of the report's ``segment`` (its position within the scope)."""
        return self.scope.segments[segment] + 1

    def system_errors(self, metric_id: str) -> tuple[SystemPairError, ...]:
        """The metric's system pairs against the humans, its deltas in its own units (no interval where its corpus
        scores stayed fixed across the resamples: the interval would be the point)."""
        sign = self.sign(metric_id)
        fixed = metric_id in self.fixed
        return tuple(
            SystemPairError(
                e.better,
                e.worse,
                e.outcome,
                e.human_delta,
                e.human_interval,
                sign * e.metric_delta,
                NO_INTERVAL if fixed else _oriented(e.metric_interval, sign),
                e.human_p,
                e.metric_p,
            )
            for e in self.report.metrics[metric_id].system_errors
        )

    def segment_errors(self, metric_id: str) -> tuple[SegmentPairError, ...]:
        """The metric's heaviest segment pairs against the humans, with the scores in its own units and the
        segments numbered as in the input files (0-based)."""
        sign = self.sign(metric_id)
        return tuple(
            SegmentPairError(
                self.scope.segments[e.segment],
                e.system_a,
                e.system_b,
                e.outcome,
                e.human_a,
                e.human_b,
                sign * e.metric_a,
                sign * e.metric_b,
                e.weight,
            )
            for e in self.report.metrics[metric_id].segment_errors
        )


NO_INTERVAL = (math.nan, math.nan)


def _oriented(interval: tuple[float, float], sign: float) -> tuple[float, float]:
    lo, hi = interval
    return (lo, hi) if sign > 0 else (-hi, -lo)


# ------------------------------------------------------------------------------------------------------------ JSON


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _interval(bounds: tuple[float, float]) -> list[float] | None:
    return list(bounds) if all(math.isfinite(b) for b in bounds) else None


def _estimate(e: Estimate) -> dict[str, Any]:
    ci = [e.lo, e.hi] if math.isfinite(e.lo) and math.isfinite(e.hi) else None
    return {"value": _number(e.value), "ci": ci, "chance": _number(e.chance)}


def _system_json(metric_id: str, meta: MetricMeta) -> dict[str, Any]:
    s = meta.system
    level = {name: _estimate(getattr(s, name)) for name in SYSTEM_STATISTICS}
    return {"metric": metric_id, "n_systems": s.n_systems, "n_pairs": s.n_pairs, **level}


def _segment_json(metric_id: str, meta: MetricMeta) -> dict[str, Any]:
    s = meta.segment
    return {
        "metric": metric_id,
        "acc_eq": _estimate(s.acc_eq),
        "tie_threshold": s.calibration.threshold,
        "pearson": _estimate(s.pearson),
        "pearson_by_item": _number(s.pearson_by_item),
        "kendall": [
            {"variant": k.variant.value, "grouping": k.grouping.value, "value": _number(k.value), "groups": k.n_groups}
            for k in s.kendall
        ],
        "n_items": s.n_items,
        "n_pairs": s.n_pairs,
        "n_errors": meta.n_segment_errors,
    }


def _comparison_json(c: Comparison) -> dict[str, Any]:
    n = len(c.metrics)
    return {
        "statistic": c.statistic.value,
        "test": c.test.value,
        "seed": c.seed,
        "ranking": [
            {"metric": m, "value": _number(v), "rank": r} for m, v, r in zip(c.metrics, c.values, c.ranks, strict=True)
        ],
        "p_values": [
            {
                "better": c.metrics[i],
                "other": c.metrics[j],
                "p_value": _number(float(c.p_values[i, j])),
                "resamples": int(c.k_used[i, j]),
            }
            for i in range(n)
            for j in range(i + 1, n)
        ],
    }


def json_document(doc: MetaDocument) -> dict[str, Any]:
    report = doc.report
    return {
        "schema_version": SCHEMA_VERSION,
        "document": "meta-evaluation",
        "dataset": doc.title,
        "human": doc.human,
        "scope": {
            "kind": doc.scope.kind.value,
            "label": doc.scope.label,
            "segments": len(doc.scope.segments),
            "rated": report.n_rated,
        },
        "settings": asdict(report.settings),
        "systems": list(report.systems),
        "metrics": {
            m.id: {"name": m.name, "signature": m.signature, "higher_is_better": m.higher_is_better}
            for m in doc.metrics
        },
        "system_level": [_system_json(m, meta) for m, meta in report.metrics.items()],
        "segment_level": [_segment_json(m, meta) for m, meta in report.metrics.items()],
        "comparisons": [_comparison_json(c) for c in report.comparisons.values()],
        "system_pairs": [
            {
                "metric": m,
                "better": e.better,
                "worse": e.worse,
                "outcome": e.outcome.value,
                "human_delta": e.human_delta,
                "human_ci": _interval(e.human_interval),
                "metric_delta": e.metric_delta,
                "metric_ci": _interval(e.metric_interval),
                "human_p": e.human_p,
                "metric_p": e.metric_p,
            }
            for m in report.metrics
            for e in doc.system_errors(m)
        ],
        "segment_pairs": [
            {
                "metric": m,
                "segment": e.segment,
                "line": e.segment + 1,
                "a": e.system_a,
                "b": e.system_b,
                "outcome": e.outcome.value,
                "human_a": e.human_a,
                "human_b": e.human_b,
                "metric_a": e.metric_a,
                "metric_b": e.metric_b,
                "weight": e.weight,
            }
            for m in report.metrics
            for e in doc.segment_errors(m)
        ],
        "notes": list(doc.notes),
    }


def to_json(doc: MetaDocument) -> str:
    return json_text(json_document(doc))


# ------------------------------------------------------------------------------------------------------------- CSV

ESTIMATE_COLUMNS = ("value", "ci_lo", "ci_hi", "chance")


def _estimate_cells(e: Estimate) -> tuple[Cell, ...]:
    return (e.value, e.lo, e.hi, e.chance)


def _system_rows(doc: MetaDocument) -> Iterator[tuple[Cell, ...]]:
    ranks = ranks_by_statistic(doc.report)
    statistics = dict(zip(SYSTEM_STATISTICS, SYSTEM_LEVEL_RANKED, strict=True))
    for m, meta in doc.report.metrics.items():
        for name in SYSTEM_STATISTICS:
            rank = ranks.get(statistics[name], {}).get(m)
            yield (m, name, *_estimate_cells(getattr(meta.system, name)), rank, meta.system.n_systems)


def _segment_rows(doc: MetaDocument) -> Iterator[tuple[Cell, ...]]:
    ranks = ranks_by_statistic(doc.report)
    for m, meta in doc.report.metrics.items():
        s = meta.segment
        acc_rank = ranks.get(Statistic.SEGMENT_ACC_EQ, {}).get(m)
        yield (m, "acc_eq", "item", *_estimate_cells(s.acc_eq), acc_rank, s.calibration.threshold)
        pearson_rank = ranks.get(Statistic.SEGMENT_PEARSON, {}).get(m)
        yield (m, "pearson", "none", *_estimate_cells(s.pearson), pearson_rank, None)
        yield (m, "pearson", "item", s.pearson_by_item, None, None, None, None, None)
        for k in s.kendall:
            yield (m, f"kendall_{k.variant.value}", k.grouping.value, k.value, None, None, None, None, None)


def _cluster_rows(doc: MetaDocument) -> Iterator[tuple[Cell, ...]]:
    for c in doc.report.comparisons.values():
        for m, v, r in zip(c.metrics, c.values, c.ranks, strict=True):
            yield (c.statistic.value, c.test.value, r, m, v)


def _p_value_rows(doc: MetaDocument) -> Iterator[tuple[Cell, ...]]:
    for c in doc.report.comparisons.values():
        n = len(c.metrics)
        for i in range(n):
            for j in range(i + 1, n):
                yield (c.statistic.value, c.metrics[i], c.metrics[j], float(c.p_values[i, j]), int(c.k_used[i, j]))


def _system_pair_rows(doc: MetaDocument) -> Iterator[tuple[Cell, ...]]:
    for m in doc.report.metrics:
        for e in doc.system_errors(m):
            yield (
                m,
                e.better,
                e.worse,
                e.outcome.value,
                e.human_delta,
                *e.human_interval,
                e.metric_delta,
                *e.metric_interval,
                e.human_p,
                e.metric_p,
            )


def _segment_pair_rows(doc: MetaDocument) -> Iterator[tuple[Cell, ...]]:
    for m in doc.report.metrics:
        for e in doc.segment_errors(m):
            yield (
                m,
                e.segment,
                e.segment + 1,
                e.system_a,
                e.system_b,
                e.outcome.value,
                e.human_a,
                e.human_b,
                e.metric_a,
                e.metric_b,
                e.weight,
            )


SYSTEM_LEVEL_RANKED = (
    Statistic.SYSTEM_PEARSON,
    Statistic.SYSTEM_KENDALL,
    Statistic.PAIRWISE_ACCURACY,
    Statistic.SOFT_PAIRWISE_ACCURACY,
)


def ranks_by_statistic(report: MetaReport) -> dict[Statistic, dict[str, int]]:
    """Each compared statistic's significance rank of every metric (1: the best cluster)."""
    return {s: dict(zip(c.metrics, c.ranks, strict=True)) for s, c in report.comparisons.items()}


def meta_tables(doc: MetaDocument) -> tuple[Table, ...]:
    """The document as long tables, one CSV file each."""
    return (
        Table("system_level", ("metric", "statistic", *ESTIMATE_COLUMNS, "rank", "systems"), tuple(_system_rows(doc))),
        Table(
            "segment_level",
            ("metric", "statistic", "grouping", *ESTIMATE_COLUMNS, "rank", "tie_threshold"),
            tuple(_segment_rows(doc)),
        ),
        Table("clusters", ("statistic", "test", "rank", "metric", "value"), tuple(_cluster_rows(doc))),
        Table("comparisons", ("statistic", "better", "other", "p_value", "resamples"), tuple(_p_value_rows(doc))),
        Table(
            "system_pairs",
            (
                "metric",
                "better",
                "worse",
                "outcome",
                "human_delta",
                "human_lo",
                "human_hi",
                "delta",
                "delta_lo",
                "delta_hi",
                "human_p",
                "metric_p",
            ),  # fmt: skip
            tuple(_system_pair_rows(doc)),
        ),
        Table(
            "segment_pairs",
            ("metric", "segment", "line", "a", "b", "outcome", "human_a", "human_b", "metric_a", "metric_b", "weight"),
            tuple(_segment_pair_rows(doc)),
        ),
        Table("notes", ("note",), tuple((n,) for n in doc.notes)),
    )


# ----------------------------------------------------------------------------------------------------------- LaTeX

RANKED_COLUMNS = (
    ("SPA", Statistic.SOFT_PAIRWISE_ACCURACY),
    ("Acc.", Statistic.PAIRWISE_ACCURACY),
    ("Pearson", Statistic.SYSTEM_PEARSON),
    ("Kendall", Statistic.SYSTEM_KENDALL),
    ("acc$_{eq}$", Statistic.SEGMENT_ACC_EQ),
    ("Pearson", Statistic.SEGMENT_PEARSON),
)


def statistic_estimate(meta: MetricMeta, statistic: Statistic) -> Estimate:
    return {
        Statistic.SYSTEM_PEARSON: meta.system.pearson,
        Statistic.SYSTEM_KENDALL: meta.system.kendall,
        Statistic.PAIRWISE_ACCURACY: meta.system.accuracy,
        Statistic.SOFT_PAIRWISE_ACCURACY: meta.system.spa,
        Statistic.SEGMENT_PEARSON: meta.segment.pearson,
        Statistic.SEGMENT_ACC_EQ: meta.segment.acc_eq,
    }[statistic]


def leading_statistic(report: MetaReport) -> Statistic:
    """What the metrics are listed by: SPA, as WMT24 ranks them, where it was compared."""
    for statistic in (Statistic.SOFT_PAIRWISE_ACCURACY, *report.comparisons):
        if statistic in report.comparisons:
            return statistic
    return Statistic.SOFT_PAIRWISE_ACCURACY


def ordered_metrics(report: MetaReport) -> list[str]:
    """The metrics best first by the leading statistic: its comparison's order (value, then name, as
    mt-metrics-eval sorts), the same order where the metrics were not compared."""
    statistic = leading_statistic(report)
    comparison = report.comparisons.get(statistic)
    if comparison is not None:
        return list(comparison.metrics)
    value = {m: statistic_estimate(meta, statistic).value for m, meta in report.metrics.items()}
    return sorted(report.metrics, key=lambda m: (-value[m] if math.isfinite(value[m]) else math.inf, m))


def _cell(e: Estimate, rank: int | None) -> str:
    if not math.isfinite(e.value):
        return "--"
    text = f"{e.value:.3f}"
    return text + (f"$^{{({rank})}}$" if rank is not None else "")


def meta_latex(doc: MetaDocument) -> str:
    """The ranking (system level: SPA, pairwise accuracy, Pearson, Kendall; segment level: acc_eq, Pearson), each
    value with its significance cluster's rank, the chance levels as the last row; then the system and segment
    pairs as longtables."""
    report = doc.report
    ranks = ranks_by_statistic(report)
    labels = {m.id: m.name for m in doc.metrics}
    higher = {m.id: m.higher_is_better for m in doc.metrics}
    lines = [
        f"% ScoreLens meta-evaluation: {escape_latex(doc.title)}; human scores {escape_latex(doc.human)}; "
        f"{escape_latex(doc.scope.label)} ({len(doc.scope.segments)} segments)",
        *(f"% {escape_latex(m.id)}: {escape_latex(m.signature)}" for m in doc.metrics),
        PACKAGES,
        "\\begin{tabular}{l" + "r" * len(RANKED_COLUMNS) + "}",
        "\\toprule",
        " & \\multicolumn{4}{c}{System level} & \\multicolumn{2}{c}{Segment level} \\\\",
        "\\cmidrule(lr){2-5}\\cmidrule(lr){6-7}",
        "Metric & " + " & ".join(name for name, _ in RANKED_COLUMNS) + " \\\\",
        "\\midrule",
    ]
    for m in ordered_metrics(report):
        meta = report.metrics[m]
        cells = [_cell(statistic_estimate(meta, s), ranks.get(s, {}).get(m)) for _, s in RANKED_COLUMNS]
        name = f"{escape_latex(labels.get(m, m))} {direction(higher.get(m, True))}"
        lines.append(f"{name} & " + " & ".join(cells) + " \\\\")
    if report.metrics:
        first = next(iter(report.metrics.values()))
        chance = [statistic_estimate(first, s).chance for _, s in RANKED_COLUMNS]
        lines += ["\\midrule", "chance & " + " & ".join(f"{c:.3f}" if math.isfinite(c) else "--" for c in chance)
                  + " \\\\"]  # fmt: skip
    lines += [
        "\\bottomrule",
        "\\end{tabular}",
        "",
        "$^{(r)}$\\,significance cluster (permutation tests, rank 1 the best).\\\\",
        "",
    ]
    pairs = [t for t in meta_tables(doc) if t.name in ("system_pairs", "segment_pairs") and t.rows]
    return "\n".join(lines) + "\n" + "\n".join(table_latex(t, labels, higher) for t in pairs)
