"""Corpus scores of buckets: every system and metric on a bucket's segments, from their pooled statistics, with a
bootstrap interval and — for shared buckets — a paired test against the baseline inside the bucket.

Nothing is re-tokenized: a bucket's statistics are the rows of its segments (``SegmentStats.rows[index]``), its
score is ``Metric.corpus_score`` of them (their sum or mean through ``score_pooled``), so BLEU of a bucket is
sacrebleu's corpus BLEU of exactly those lines. Intervals and p-values are those of
:func:`metrics.stats.significance.paired_test` (``method="bs"``, ``arithmetic="float64"``) run on the bucket's
statistics alone: sacrebleu's draws for the bucket's number of segments and seed, its order statistics and its
p-value; in float64, so they differ from sacrebleu's float32 resample arithmetic by ~1e-7 relative. A
per-system bucket (length difference, the system's own sentence score, as compare-mt buckets them) holds other
segments for every system: it gets its interval but no paired test. The p-values are uncorrected: one test per
system and bucket, a mark of where to look rather than a family-wise claim; a bucket of fewer than
``min_test_segments`` segments (10) gets no test, as its resamples barely vary (sacrebleu's test gives one
segment p = 1/1001).

CIDEr-D's rows keep the document frequencies of the whole corpus (as its bootstrap does), so a CIDEr-D bucket is
the mean of those segment scores, not pycocoevalcap run on the bucket alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from metrics.analysis.buckets import Bucketing
from metrics.core.base import Metric, SegmentStats
from metrics.stats.resampling import DEFAULT_SEED, bootstrap_indices, check_count, check_seed, resample_counts
from metrics.stats.significance import DEFAULT_ALPHA, Interval


@dataclass(frozen=True)
class BucketScore:
    """One system under one metric on one bucket's segments. ``p_value``: paired bootstrap against ``baseline``
    on the same segments (``None`` for the baseline itself, in per-system buckets and below the minimum size);
    uncorrected. ``difference``: ``score(system) − score(baseline)`` on the bucket with its paired-bootstrap
    interval — the same draws as the p-value, the order statistics of ``paired_test``'s ``diff_ci`` — in every
    bucket of a shared bucketing (``None`` for the baseline and in per-system buckets)."""

    system: str
    metric: str
    interval: Interval
    n_segments: int
    p_value: float | None = None
    difference: Interval | None = None

    @property
    def score(self) -> float:
        return self.interval.score


@dataclass(frozen=True)
class BucketResult:
    """One bucket: its label, its segments (``system`` set in a per-system bucketing, whose segments are that
    system's), and the scores of the systems on them."""

    by: str
    label: str
    position: int  # the bucket's number in its bucketing (labels keep their order)
    segments: tuple[int, ...]
    scores: tuple[BucketScore, ...]
    system: str | None = None

    def score(self, system: str, metric: str) -> BucketScore:
        for entry in self.scores:
            if entry.system == system and entry.metric == metric:
                return entry
        raise KeyError(f"no score of {system!r} under {metric!r} in bucket {self.label!r}")


@dataclass(frozen=True)
class BucketSettings:
    """How bucket intervals and tests were computed: resamples, seed, and the level of the significance mark."""

    n_bootstrap: int = 1000
    seed: int = DEFAULT_SEED
    alpha: float = DEFAULT_ALPHA
    min_test_segments: int = 10  # below this a resample cannot vary enough for a test (one segment: p = 1/1001)

    def __post_init__(self) -> None:
        check_count("n_bootstrap", self.n_bootstrap)
        check_count("min_test_segments", self.min_test_segments)
        check_seed(self.seed)
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must lie strictly between 0 and 1, not {self.alpha}")


DEFAULT_SETTINGS = BucketSettings()


def subset(stats: SegmentStats, index: np.ndarray) -> SegmentStats:
    """The statistics of the segments in ``index`` (their rows, in that order)."""
    return SegmentStats(stats.metric, stats.columns, stats.rows[index], stats.aggregate, stats.notes)


@dataclass(frozen=True)
class _Group:
    """Segments scored together: a bucket of a shared bucketing (every system), or one system's part of a bucket
    of a per-system bucketing."""

    position: int
    systems: tuple[int, ...]
    index: np.ndarray


def _groups(bucketing: Bucketing, names: Sequence[str]) -> tuple[list[_Group], list[str]]:
    groups, empty = [], []
    for position, label in enumerate(bucketing.labels):
        if bucketing.shared:
            found = [_Group(position, tuple(range(len(names))), bucketing.segments(position))]
        else:
            found = [_Group(position, (s,), bucketing.segments(position, name)) for s, name in enumerate(names)]
        found = [g for g in found if len(g.index)]
        if not found:
            empty.append(label)
        groups += found
    return groups, empty


class _Resampler:
    """Bootstrap counts per number of segments, drawn once per call (sacrebleu's draws, see resampling)."""

    def __init__(self, settings: BucketSettings) -> None:
        self.settings = settings
        self._counts: dict[int, np.ndarray] = {}

    def counts(self, n: int) -> np.ndarray:
        found = self._counts.get(n)
        if found is None:
            index = bootstrap_indices(n, self.settings.n_bootstrap, self.settings.seed)
            found = self._counts[n] = resample_counts(index, n)
        return found


def intervals_of(observed: np.ndarray, samples: np.ndarray) -> list[Interval]:
    """:func:`~metrics.stats.significance.estimate_interval` (NumPy mean) of many rows of resample scores."""
    ordered = np.sort(samples, axis=1)
    n = ordered.shape[1]
    lower = n // 40
    lo, hi = ordered[:, lower], ordered[:, n - lower - 1]
    means = ordered.mean(axis=1)
    return [
        Interval(float(observed[g]), float(means[g]), float(lo[g]), float(hi[g]), float(0.5 * (hi[g] - lo[g])), n)
        for g in range(len(observed))
    ]


def _p_values(samples: np.ndarray, observed: np.ndarray, base: int) -> np.ndarray:
    """sacrebleu's paired-bootstrap p-value of every row against row ``base`` (see significance)."""
    diffs = np.abs(samples - samples[base])
    centred = diffs - diffs.mean(axis=1, keepdims=True)
    exceed = (centred > np.abs(observed - observed[base])[:, None]).sum(axis=1)
    return (exceed + 1) / (samples.shape[1] + 1)


def bucket_scores(
    bucketing: Bucketing,
    metrics: Mapping[str, Metric],
    stats: Mapping[str, Mapping[str, SegmentStats]],
    baseline: str | None = None,
    settings: BucketSettings = DEFAULT_SETTINGS,
) -> tuple[tuple[BucketResult, ...], tuple[str, ...]]:
    """Scores of every non-empty bucket, and notes naming the empty ones (left out).

    ``stats[system][metric_id]`` are the cached segment statistics; ``baseline`` (default: the first system) is
    what every other system is tested against inside a shared bucket. One matrix product per group of segments
    pools every metric and system at once, and each metric scores all resamples of all groups in one call.
    """
    names = list(stats)
    if not names:
        raise ValueError("no systems to analyse")
    base = names[0] if baseline is None else baseline
    if base not in stats:
        raise ValueError(f"baseline {base!r} is not one of the systems: {', '.join(names)}")
    if not bucketing.shared and tuple(names) != bucketing.systems:
        raise ValueError(f"{bucketing.key} was built for systems {', '.join(bucketing.systems)}")
    groups, empty = _groups(bucketing, names)
    metric_ids = list(metrics)
    # every metric's rows side by side, per system: one product pools them all
    widths = [len(stats[names[0]][m].columns) for m in metric_ids]
    offsets = np.cumsum([0, *widths])
    rows = [np.concatenate([stats[name][m].rows for m in metric_ids], axis=1) for name in names]
    resampler = _Resampler(settings)
    pooled = []  # per group: (systems, resamples, columns)
    # Many small products: BLAS threads cost more than they give (20x slower on a busy two-core machine)
    with threadpool_limits(limits=1, user_api="blas"):
        for group in groups:
            counts = resampler.counts(len(group.index))
            block = np.concatenate([rows[s][group.index] for s in group.systems], axis=1)
            product = (counts @ block).reshape(len(counts), len(group.systems), -1)
            pooled.append(product.transpose(1, 0, 2))
    scores: list[list[BucketScore]] = [[] for _ in groups]
    for k, metric_id in enumerate(metric_ids):
        metric = metrics[metric_id]
        part = [p[:, :, offsets[k] : offsets[k + 1]] for p in pooled]
        if stats[names[0]][metric_id].aggregate == "mean":
            part = [p / len(g.index) for p, g in zip(part, groups, strict=True)]
        stacked = np.concatenate([p.reshape(-1, widths[k]) for p in part])
        samples = np.asarray(metric.score_pooled(stacked), dtype=np.float64).reshape(-1, settings.n_bootstrap)
        totals = np.stack([subset(stats[names[s]][metric_id], g.index).pooled() for g in groups for s in g.systems])
        observed = np.asarray(metric.score_pooled(totals), dtype=np.float64)  # each equals corpus_score of its rows
        row = 0
        b = names.index(base)
        for found, g in zip(scores, groups, strict=True):
            width = len(g.systems)
            intervals = intervals_of(observed[row : row + width], samples[row : row + width])
            p_values: list[float | None] = [None] * width
            differences: list[Interval | None] = [None] * width
            if bucketing.shared and width > 1:
                mine, seen = samples[row : row + width], observed[row : row + width]
                paired = intervals_of(seen - seen[b], mine - mine[b])  # paired: both on the same resamples
                differences = [None if s == b else paired[s] for s in range(width)]
                if len(g.index) >= settings.min_test_segments:
                    tested = _p_values(mine, seen, b)
                    p_values = [None if s == b else float(tested[s]) for s in range(width)]
            for s, interval, p, d in zip(g.systems, intervals, p_values, differences, strict=True):
                found.append(BucketScore(names[s], metric_id, interval, len(g.index), p, d))
            row += width
    results = tuple(
        BucketResult(
            bucketing.key,
            bucketing.labels[g.position],
            g.position,
            tuple(int(i) for i in g.index),
            tuple(found),
            None if bucketing.shared else names[g.systems[0]],
        )
        for g, found in zip(groups, scores, strict=True)
    )
    notes = [f"{bucketing.title}: no segments in bucket(s) {', '.join(empty)}; left out"] if empty else []
    small = [
        bucketing.labels[g.position] for g in groups if bucketing.shared and len(g.index) < settings.min_test_segments
    ]
    if small and len(names) > 1:
        notes.append(
            f"{bucketing.title}: bucket(s) {', '.join(small)} hold fewer than {settings.min_test_segments} segments; "
            "no paired test there"
        )
    return results, tuple(notes)


def significant(score: BucketScore, alpha: float) -> bool:
    return score.p_value is not None and score.p_value < alpha
