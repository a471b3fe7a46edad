"""Errors by category and severity: per system, how many errors of each kind the raters marked, per rated segment
and per 100 words of output, with bootstrap intervals; which kinds differ significantly between two systems; the
same inside any bucket or slice.

**Cells.** A cell is a category at one level of its ``/``-separated path (``Accuracy`` and
``Accuracy/Mistranslation`` are both cells: the first counts every Accuracy error) crossed with a severity, or with
every severity (``severity=None``); the category ``All`` counts every error. An error without a category counts in
``All`` only (under ``(none)``, too). Errors on the source side (omissions) count like any other: they are errors
of the output.

**A segment is a row of numbers** (:class:`CategoryRows`): ``rated`` (1 when at least one rater rated it, else 0),
``words`` (the output's words, counted only on rated segments) and one count per cell. With several raters a
segment's count is the **mean over its raters** of each rater's count, as MQM averages the raters' scores; an
error a rater marked without a location (WMT's ``<v>`` without ``</v>``) still counts. Rows add up, so a corpus, a
bootstrap resample, a bucket and a slice are all sums of rows: the rate per segment is ``Σ count / Σ rated`` and
the rate per 100 words ``100 · Σ count / Σ words``.

**Words** are whitespace-separated tokens of the output, except for CJK targets (more than half the letters of the
outputs are Han, kana or Hangul, :func:`metrics.analysis.units.is_cjk`), where each Han, kana or Hangul character
counts as one word and other runs split on whitespace (:data:`metrics.analysis.units.CJK_CHARACTERS`) — a
Chinese sentence is not one "word". The unit is chosen once for all systems, so rates compare.

**Intervals** are bootstrap percentile intervals over the rated segments (sacrebleu's draws for that many segments
and the seed, :mod:`metrics.stats.resampling`; 2.5 % / 97.5 % order statistics, as
:func:`metrics.stats.significance.estimate_interval`). **Tests**: :func:`compare_categories` runs
:func:`metrics.stats.significance.paired_test` (paired bootstrap, float64 arithmetic) on the segments both systems
had rated, one test per cell in which either system has an error, and Holm-corrects the p-values across those
cells (:func:`metrics.stats.significance.holm`): a cell is a significant difference when its corrected p-value is
below α.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from metrics.analysis.buckets import Bucketing
from metrics.analysis.scoring import intervals_of
from metrics.analysis.units import CJK_CHARACTERS, WHITESPACE_WORDS, is_cjk
from metrics.annotations.model import AnnotatedError, Annotations, Rating
from metrics.core.base import SegmentStats
from metrics.core.spans import Severity
from metrics.core.tokens import TokenUnit
from metrics.stats.defaults import DEFAULT_ALPHA, DEFAULT_SEED
from metrics.stats.resampling import bootstrap_resamples, check_count, check_seed
from metrics.stats.significance import Interval, holm, paired_test, resamples_for

ALL = "All"
NO_CATEGORY = "(none)"
_FIXED = ("rated", "words")


class Rate(str, Enum):
    """What a count is divided by."""

    PER_SEGMENT = "per-segment"  # errors per rated segment
    PER_100_WORDS = "per-100-words"  # errors per 100 words of rated output


@dataclass(frozen=True, order=True)
class Cell:
    """A category (at one level of its path; ``All`` = every error) and a severity (``None`` = every severity)."""

    category: str
    severity: Severity | None = None

    @property
    def label(self) -> str:
        return f"{self.category} · {self.severity.value if self.severity else 'any'}"

    @property
    def depth(self) -> int:
        """0 for ``All``, 1 for a top-level category, 2 for ``Accuracy/Mistranslation``, …"""
        return 0 if self.category == ALL else self.category.count("/") + 1


EVERY_ERROR = Cell(ALL)


def category_levels(category: str | None) -> tuple[str, ...]:
    """Every prefix level of a category path: ``Accuracy/Mistranslation`` → ``Accuracy``,
    ``Accuracy/Mistranslation``; ``None`` or blank → ``(none)``. Parts are stripped; case is kept."""
    parts = [p.strip() for p in (category or "").split("/")]
    if not any(parts):
        return (NO_CATEGORY,)
    return tuple("/".join(parts[: k + 1]) for k in range(len(parts)))


def kind_cells(category: str | None, severity: Severity) -> tuple[Cell, ...]:
    """Every cell an error of this category and severity counts in: ``All`` and each level of its category, each
    at its severity and at any."""
    return tuple(Cell(c, s) for c in (ALL, *category_levels(category)) for s in (severity, None))


def error_cells(error: AnnotatedError) -> tuple[Cell, ...]:
    """Every cell one error counts in (:func:`kind_cells` of its category and severity)."""
    return kind_cells(error.category, error.severity)


def cells_of(annotations: Annotations) -> tuple[Cell, ...]:
    """Every cell some error of ``annotations`` counts in, plus ``All · any``; sorted by category, then severity
    (any first, then in :class:`~metrics.core.spans.Severity` order)."""
    found = {EVERY_ERROR}
    for rows in annotations.ratings.values():
        for ratings in rows:
            for rating in ratings:
                for error in rating.errors:
                    found.update(error_cells(error))
    order: dict[Severity | None, int] = {None: -1, **{s: k for k, s in enumerate(Severity)}}
    return tuple(sorted(found, key=lambda c: (c.category != ALL, c.category, order[c.severity])))


def word_unit(outputs: Sequence[Sequence[str]]) -> TokenUnit:
    """The unit of "words" for these outputs (every system's): CJK characters for CJK text, else whitespace words."""
    sample = [text for system in outputs for text in system[:200]]
    return CJK_CHARACTERS if is_cjk(sample) else WHITESPACE_WORDS


@dataclass(frozen=True)
class CategoryRows:
    """One system's segments as rows: ``rows[i] = (rated, words, count of cells[0], …)``; see the module
    docstring. ``unit`` says how words were counted."""

    system: str
    cells: tuple[Cell, ...]
    rows: np.ndarray
    unit: str

    def __post_init__(self) -> None:
        if self.rows.ndim != 2 or self.rows.shape[1] != len(_FIXED) + len(self.cells):
            raise ValueError(f"{self.system}: rows of shape {self.rows.shape} do not fit {len(self.cells)} cells")
        self.rows.setflags(write=False)

    @property
    def rated(self) -> np.ndarray:
        return self.rows[:, 0] > 0

    def counts(self, cell: Cell) -> np.ndarray:
        """The segments' counts of one cell."""
        return self.rows[:, len(_FIXED) + self.cells.index(cell)]


def _segment_counts(ratings: Sequence[Rating], cells: Mapping[Cell, int]) -> np.ndarray:
    counts = np.zeros(len(cells))
    for rating in ratings:
        for error in rating.errors:
            for cell in error_cells(error):
                counts[cells[cell]] += 1
    return counts / len(ratings)


def category_rows(
    annotations: Annotations,
    system: str,
    outputs: Sequence[str],
    cells: Sequence[Cell],
    unit: TokenUnit = WHITESPACE_WORDS,
) -> CategoryRows:
    """The rows of one system, whose output lines are ``outputs`` (one per segment of ``annotations``)."""
    if len(outputs) != annotations.n_segments:
        raise ValueError(f"{system}: {len(outputs)} output lines for {annotations.n_segments} annotated segments")
    where = {cell: k for k, cell in enumerate(cells)}
    rows = np.zeros((annotations.n_segments, len(_FIXED) + len(cells)))
    for i, ratings in enumerate(annotations.ratings[system]):
        if ratings:
            rows[i, 0] = 1.0
            rows[i, 1] = len(unit.tokens(outputs[i]))
            rows[i, len(_FIXED) :] = _segment_counts(ratings, where)
    return CategoryRows(system, tuple(cells), rows, unit.label)


def all_category_rows(
    annotations: Annotations, outputs: Mapping[str, Sequence[str]], systems: Sequence[str] | None = None
) -> dict[str, CategoryRows]:
    """Rows of ``systems`` (default: every annotated system), over the cells of the whole file and one word unit
    for all of them; each needs its output lines in ``outputs``."""
    chosen = list(annotations.systems if systems is None else systems)
    missing = [s for s in chosen if s not in outputs or s not in annotations.ratings]
    if missing:
        raise ValueError(f"system(s) without both annotations and loaded output: {', '.join(missing)}")
    cells = cells_of(annotations)
    unit = word_unit([outputs[s] for s in chosen])
    return {s: category_rows(annotations, s, outputs[s], cells, unit) for s in chosen}


@dataclass(frozen=True)
class CellEstimate:
    """One cell of one system: ``errors`` is the total count (sum over rated segments of the mean over raters),
    ``per_segment`` and ``per_100_words`` the rates with their bootstrap intervals."""

    cell: Cell
    errors: float
    per_segment: Interval
    per_100_words: Interval

    def rate(self, rate: Rate) -> Interval:
        return self.per_segment if rate is Rate.PER_SEGMENT else self.per_100_words


@dataclass(frozen=True)
class CategoryTable:
    """Every cell of one system on some segments (all, a bucket's or a slice's): ``n_rated`` rated segments with
    ``words`` words (``unit``), ``n_samples`` bootstrap resamples with ``seed``."""

    system: str
    n_rated: int
    words: float
    unit: str
    estimates: tuple[CellEstimate, ...]
    n_samples: int
    seed: int

    def estimate(self, cell: Cell) -> CellEstimate:
        for e in self.estimates:
            if e.cell == cell:
                return e
        raise KeyError(f"{self.system}: no cell {cell.label}")


def _ratio(numerator: np.ndarray, denominator: np.ndarray, scale: float) -> np.ndarray:
    out = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    return np.divide(scale * numerator, denominator, out=out, where=denominator > 0)


def category_table(
    rows: CategoryRows, segments: np.ndarray | None = None, n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> CategoryTable | None:
    """The table of one system on ``segments`` (0-based; default all), over its rated ones; ``None`` if none of
    them is rated. The bootstrap resamples the rated segments (sacrebleu's draws for their number and ``seed``)."""
    check_count("n_samples", n_samples)
    check_seed(seed)
    picked = rows.rows if segments is None else rows.rows[np.asarray(segments, dtype=np.intp)]
    picked = picked[picked[:, 0] > 0]
    if len(picked) == 0:
        return None
    total = picked.sum(axis=0)
    pooled = np.empty((n_samples, picked.shape[1]))
    for start, counts in bootstrap_resamples(len(picked), n_samples, seed).count_blocks(np.float64):
        pooled[start : start + len(counts)] = counts @ picked
    counts_total, counts_samples = total[len(_FIXED) :], pooled[:, len(_FIXED) :]
    per_segment = intervals_of(_ratio(counts_total, total[0], 1.0), _ratio(counts_samples, pooled[:, :1], 1.0).T)
    per_words = intervals_of(_ratio(counts_total, total[1], 100.0), _ratio(counts_samples, pooled[:, 1:2], 100.0).T)
    estimates = tuple(
        CellEstimate(cell, float(counts_total[k]), per_segment[k], per_words[k]) for k, cell in enumerate(rows.cells)
    )
    return CategoryTable(rows.system, len(picked), float(total[1]), rows.unit, estimates, n_samples, seed)


def category_tables(
    rows: Mapping[str, CategoryRows], n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> dict[str, CategoryTable]:
    """:func:`category_table` of every system on all its rated segments (systems rated nowhere are left out)."""
    found = {s: category_table(r, None, n_samples, seed) for s, r in rows.items()}
    return {s: t for s, t in found.items() if t is not None}


class _CellRate:
    """One cell's rate as the paired test scores it: pooled ``(denominator, count)`` → count per rated segment
    (denominator ``rated``) or per 100 words (``words``); lower is better (fewer errors). Only the columns the rate
    reads are given, so that two systems with the same counts on the same segments are *identical* to the test
    (:attr:`~metrics.stats.significance.PairResult.identical`: p = 1), not at sacrebleu's p-value floor."""

    higher_is_better = False

    def __init__(self, cell: Cell, rate: Rate) -> None:
        self.cell = cell
        self.rate = rate
        self.name = f"{cell.label} {rate.value}"

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        pooled = np.asarray(pooled, dtype=np.float64)
        return _ratio(pooled[..., 1], pooled[..., 0], 1.0 if self.rate is Rate.PER_SEGMENT else 100.0)

    def corpus_score(self, stats: SegmentStats) -> float:
        return float(self.score_pooled(stats.pooled()))


@dataclass(frozen=True)
class CategoryDifference:
    """``system − baseline`` in one cell's rate on the segments both had rated (negative: fewer errors), its
    paired-bootstrap interval, p-value, and the Holm-adjusted p-value across the tested cells. ``identical``: both
    systems have the same counts (and denominators) of this cell on every tested segment, so no test can tell them
    apart: ``p_value`` is then sacrebleu's floor 1/(n+1), and the correction counts the cell as p = 1."""

    cell: Cell
    baseline: str
    system: str
    rate: Rate
    baseline_rate: float
    system_rate: float
    difference: float
    difference_ci: tuple[float, float]
    p_value: float
    p_corrected: float
    n_segments: int
    n_samples: int
    identical: bool = False

    def significant(self, alpha: float = DEFAULT_ALPHA) -> bool:
        return self.p_corrected < alpha


def compare_categories(
    baseline: CategoryRows,
    system: CategoryRows,
    rate: Rate = Rate.PER_SEGMENT,
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    segments: np.ndarray | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> tuple[CategoryDifference, ...]:
    """Paired bootstrap test of every cell in which either system has an error, on the segments (of ``segments``,
    default all) both had rated; Holm-corrected across those cells (module docstring). Empty when no segment was
    rated for both or neither has an error. ``n_samples`` defaults to enough resamples that the smallest corrected
    p-value can fall well below ``alpha`` (:func:`~metrics.stats.significance.resamples_for` of the number of
    tested cells): with 1000 resamples and 50 cells no cell could ever be significant at 0.05."""
    if baseline.cells != system.cells:
        raise ValueError(f"{baseline.system} and {system.system} were counted over different cells")
    both = baseline.rated & system.rated
    if segments is not None:
        keep = np.zeros(len(both), dtype=bool)
        keep[np.asarray(segments, dtype=np.intp)] = True
        both &= keep
    index = np.flatnonzero(both)
    if len(index) == 0:
        return ()
    columns_tested = [
        len(_FIXED) + k
        for k in range(len(baseline.cells))
        if baseline.rows[index, len(_FIXED) + k].any() or system.rows[index, len(_FIXED) + k].any()
    ]
    if not columns_tested:
        return ()
    count = resamples_for(len(columns_tested), alpha) if n_samples is None else check_count("n_samples", n_samples)
    tested, results = [], []
    for column in columns_tested:
        cell = baseline.cells[column - len(_FIXED)]
        denominator = 0 if rate is Rate.PER_SEGMENT else 1
        columns = (_FIXED[denominator], cell.label)
        stats = {
            name: SegmentStats(cell.label, columns, r.rows[index][:, [denominator, column]], "sum")
            for name, r in ((baseline.system, baseline), (system.system, system))
        }
        metric = _CellRate(cell, rate)
        pair = paired_test(metric, stats, baseline.system, "bs", count, seed, "float64", label=cell.label).pairs[0]
        tested.append(pair.evidence)
        results.append(
            (cell, metric.corpus_score(stats[baseline.system]), metric.corpus_score(stats[system.system]), pair)
        )
    adjusted = holm(tested)
    return tuple(
        CategoryDifference(
            cell,
            baseline.system,
            system.system,
            rate,
            base,
            mine,
            pair.diff,
            pair.diff_ci,
            pair.p_value,
            float(p),
            len(index),
            count,
            pair.identical,
        )
        for (cell, base, mine, pair), p in zip(results, adjusted, strict=True)
    )


@dataclass(frozen=True)
class CategoryBucket:
    """The category tables of every system on one bucket (or slice) of a bucketing; per-system bucketings hold
    other segments for every system (``segments`` then maps a system to its own)."""

    by: str
    label: str
    position: int
    tables: Mapping[str, CategoryTable]
    segments: Mapping[str, tuple[int, ...]]


def category_buckets(
    bucketing: Bucketing, rows: Mapping[str, CategoryRows], n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> tuple[CategoryBucket, ...]:
    """:func:`category_table` of every system inside every bucket of ``bucketing`` (a bucket no system rated any
    segment of is left out). Use :func:`compare_categories` with ``segments`` for a test inside a shared bucket."""
    found = []
    for position, label in enumerate(bucketing.labels):
        tables: dict[str, CategoryTable] = {}
        segments: dict[str, tuple[int, ...]] = {}
        for name, r in rows.items():
            index = bucketing.segments(position, None if bucketing.shared else name)
            table = category_table(r, index, n_samples, seed) if len(index) else None
            if table is not None:
                tables[name] = table
                segments[name] = tuple(int(i) for i in index)
        if tables:
            found.append(CategoryBucket(bucketing.key, label, position, tables, segments))
    return tuple(found)
