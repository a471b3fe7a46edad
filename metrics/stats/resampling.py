"""Resampled corpus scores from cached segment statistics: bootstrap resamples and randomization trials.

Nothing is re-tokenized: a resample is a multiset of segment rows, so its pooled statistics are ``counts @ rows``
where ``counts[b, i]`` says how often segment ``i`` was drawn in resample ``b`` (for "sum" metrics; "mean" metrics
divide by the number of draws). One matrix product serves every system of a metric, and
``Metric.score_pooled`` scores all resamples of all systems in one vectorized call. Metrics whose corpus score is
a mean of segment scores (ROUGE, METEOR, CIDEr-D, …) thus resample segment rows; CIDEr-D's rows were computed with
the document frequencies of the full corpus, which stay fixed (see :mod:`metrics.families.cider.metric`).

The random draws are sacrebleu 2.6.0's, in its order (``significance.py``):

* bootstrap: ``np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)`` — a fresh generator
  for every system, so all systems share the same resamples (that is what makes the test paired);
* approximate randomization: ``rng = np.random.default_rng(seed)``, then ``rng.integers(2, size=(n_trials, n),
  dtype=bool)`` (``True`` keeps the baseline's segment in pseudo-system A), then, only when a confidence interval
  is asked for, ``rng.choice(n, size=(n_confidence, n), replace=True)`` from the same generator.

sacrebleu's default seed is 12345 (its ``SACREBLEU_SEED`` environment variable); ours is an explicit argument with
the same default, and no function here touches NumPy's global random state.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from metrics.core.base import SegmentStats
from metrics.stats.defaults import ARITHMETICS, DEFAULT_SEED, Arithmetic
from metrics.stats.sacrebleu_compat import float32_scorer

_FLOAT32_EXACT = 2.0**24  # integers below this are exact in float32, and so is every partial sum that stays below
_TRIAL_CHUNK = 2000  # randomization trials per matrix product (bounds memory at chunk × segments floats)
_BLOCK_CELLS = 1 << 22  # resample × segment cells per block: bounds the memory of any number of resamples


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r} (there is no unseeded mode)")
    return int(seed)


def check_count(name: str, value: int, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer ≥ {minimum}, not {value!r}")
    return int(value)


def check_arithmetic(arithmetic: str) -> None:
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be one of {', '.join(ARITHMETICS)}, not {arithmetic!r}")


def bootstrap_indices(n_segments: int, n_samples: int = 1000, seed: int = DEFAULT_SEED) -> np.ndarray:
    """Segment indices of ``n_samples`` bootstrap resamples (rows), drawn as sacrebleu draws them."""
    check_count("number of segments", n_segments)
    check_count("number of bootstrap resamples", n_samples)
    return np.concatenate(list(_index_blocks(n_segments, n_samples, check_seed(seed))))


def _block_rows(n_segments: int, width: int = 1) -> int:
    """Resamples per block, so that a block of ``n_segments × width`` cells stays near :data:`_BLOCK_CELLS`."""
    return max(1, _BLOCK_CELLS // max(1, n_segments * width))


def _index_blocks(n_segments: int, n_samples: int, seed: int, width: int = 1) -> Iterator[np.ndarray]:
    """sacrebleu's draws ``default_rng(seed).choice(n, size=(n_samples, n))`` in consecutive blocks of resamples:
    the generator's stream is the same whether it fills one array or several in turn."""
    rng = np.random.default_rng(seed)
    step = _block_rows(n_segments, width)
    for start in range(0, n_samples, step):
        yield rng.choice(n_segments, size=(min(step, n_samples - start), n_segments), replace=True)


def randomization_draws(
    n_segments: int, n_trials: int = 10000, seed: int = DEFAULT_SEED, n_confidence: int = 0
) -> tuple[np.ndarray, np.ndarray | None]:
    """sacrebleu's approximate-randomization draws: the swap mask (``True``: pseudo-system A takes the baseline's
    segment) and, when ``n_confidence > 0``, bootstrap indices drawn afterwards from the same generator."""
    check_count("number of segments", n_segments)
    check_count("number of randomization trials", n_trials)
    rng = np.random.default_rng(check_seed(seed))
    mask = rng.integers(2, size=(n_trials, n_segments), dtype=bool)
    index = rng.choice(n_segments, size=(n_confidence, n_segments), replace=True) if n_confidence > 0 else None
    return mask, index


def _counts(index: np.ndarray, n_segments: int) -> np.ndarray:
    """Integer counts ``[b, i]`` of segment ``i`` in resample ``b`` of ``index``."""
    flat = (index + n_segments * np.arange(len(index))[:, None]).ravel()
    return np.bincount(flat, minlength=len(index) * n_segments).reshape(len(index), n_segments)


def resample_counts(index: np.ndarray, n_segments: int) -> np.ndarray:
    """``counts[b, i]``: how many times resample ``b`` of ``index`` (resamples × draws) drew segment ``i``."""
    index = _checked_index(index, n_segments)
    return _counts(index, n_segments).astype(np.float64)


def _checked_index(index: np.ndarray, n_segments: int) -> np.ndarray:
    index = np.asarray(index)
    if index.ndim != 2:
        raise ValueError(f"resample indices must be 2-D (resamples × draws), not of shape {index.shape}")
    if index.size and (index.min() < 0 or index.max() >= n_segments):
        raise ValueError(f"resample indices must lie in [0, {n_segments})")
    return index


def _compact(blocks: Iterator[np.ndarray], n_samples: int, n_segments: int) -> np.ndarray:
    """Counts of every resample in the smallest unsigned dtype that holds them (a count above 255 is possible only
    in theory for real corpora, but then the array is widened rather than wrapped)."""
    compact = np.empty((n_samples, n_segments), dtype=np.uint8)
    start = 0
    for index in blocks:
        counts = _counts(index, n_segments)
        if counts.max(initial=0) > np.iinfo(compact.dtype).max:
            compact = compact.astype(np.uint32)
        compact[start : start + len(index)] = counts
        start += len(index)
    return compact


@dataclass(frozen=True)
class Resamples:
    """Bootstrap resamples of ``n_segments`` segments, each of ``n_draws`` draws: how often each resample drew each
    segment, stored compactly (one byte a cell), read-only, so one object serves every system and metric.

    The statistics only ever need the counts (pooled statistics are ``counts @ rows``), handed out in blocks of
    resamples (:meth:`count_blocks`) so that tens of thousands of resamples never materialize a float matrix of
    all of them. The drawn indices themselves — needed only to replay sacrebleu's in-order float32 sums of
    non-integer statistics — are regenerated from the seed block by block (:meth:`index_blocks`), or kept when the
    resamples were built from explicit indices (:meth:`from_index`).
    """

    n_segments: int
    n_samples: int
    n_draws: int
    compact: np.ndarray
    seed: int | None = None
    explicit: np.ndarray | None = None

    @staticmethod
    def draw(n_segments: int, n_samples: int, seed: int) -> Resamples:
        """sacrebleu's bootstrap draws (see :func:`bootstrap_indices`) for ``seed``."""
        compact = _compact(_index_blocks(n_segments, n_samples, seed), n_samples, n_segments)
        compact.setflags(write=False)
        return Resamples(n_segments, n_samples, n_segments, compact, seed)

    @staticmethod
    def from_index(index: np.ndarray, n_segments: int) -> Resamples:
        index = np.array(_checked_index(index, n_segments), dtype=np.intp)
        compact = _compact(iter([index]), len(index), n_segments)
        for array in (index, compact):
            array.setflags(write=False)
        return Resamples(n_segments, len(index), int(index.shape[1]), compact, None, index)

    def index_blocks(self, width: int = 1) -> Iterator[np.ndarray]:
        """The drawn segment indices, in blocks of resamples of about :data:`_BLOCK_CELLS` / ``width`` draws."""
        if self.explicit is not None:
            step = _block_rows(self.n_draws, width)
            yield from (self.explicit[start : start + step] for start in range(0, self.n_samples, step))
        elif self.seed is not None:
            yield from _index_blocks(self.n_segments, self.n_samples, self.seed, width)

    def count_blocks(self, dtype: type[np.floating[Any]] = np.float32) -> Iterator[tuple[int, np.ndarray]]:
        """``(first resample, counts of a block of resamples as dtype)``, in order."""
        step = _block_rows(self.n_segments)
        for start in range(0, self.n_samples, step):
            yield start, self.compact[start : start + step].astype(dtype)

    @property
    def index(self) -> np.ndarray:
        """Every drawn index (resamples × draws); materializes them, for small runs and checks."""
        return np.concatenate(list(self.index_blocks()))

    @property
    def counts(self) -> np.ndarray:
        """Every count as float64 (resamples × segments); materializes them, for small runs and checks."""
        return self.compact.astype(np.float64)


@functools.lru_cache(maxsize=4)
def bootstrap_resamples(n_segments: int, n_samples: int = 1000, seed: int = DEFAULT_SEED) -> Resamples:
    """sacrebleu's bootstrap draws (:func:`bootstrap_indices`) as :class:`Resamples`, cached: every metric and
    system of a run shares them."""
    check_count("number of segments", n_segments)
    check_count("number of bootstrap resamples", n_samples)
    return Resamples.draw(n_segments, n_samples, check_seed(seed))


def check_systems(systems: Sequence[SegmentStats]) -> None:
    if not systems:
        raise ValueError("no systems to resample")
    first = systems[0]
    for stats in systems[1:]:
        if stats.columns != first.columns or stats.aggregate != first.aggregate:
            raise ValueError(f"systems disagree on the statistics of {first.metric}: cannot resample them together")
        if len(stats) != len(first):
            raise ValueError(
                f"{first.metric}: systems have {len(first)} and {len(stats)} segments; paired resampling needs "
                "the same segments for every system"
            )
    if len(first) == 0:
        raise ValueError(f"{first.metric}: cannot resample an empty corpus")


def _is_integral(rows: np.ndarray, n_draws: int) -> bool:
    """Whether every partial sum of ``n_draws`` rows is exactly representable in float32, whatever the order of
    summation: all values are multiples of a power of two ≥ 1/256 (integer counts, or TER's average reference
    length over two or four references) and ``n_draws · max|value|`` stays below 2^24 such units."""
    if rows.size == 0:
        return True
    largest = n_draws * float(np.abs(rows).max())
    for scale in (1.0, 2.0, 4.0, 256.0):
        if largest * scale >= _FLOAT32_EXACT:
            return False
        scaled = rows * scale
        if np.all(scaled == np.round(scaled)):
            return True
    return False


@dataclass(frozen=True)
class ResampledScores:
    """Corpus scores of every resample of every system: ``values[s, b]`` for system ``s``, resample ``b``.

    ``values`` has the dtype sacrebleu would hold them in (float32 for chrF/TER resamples in sacrebleu arithmetic,
    otherwise float64), because sacrebleu's means, half-widths and p-values are computed in that dtype.
    ``exact_sacrebleu`` is True when they replay sacrebleu's float32 arithmetic (BLEU, chrF, TER).
    """

    values: np.ndarray
    arithmetic: str
    exact_sacrebleu: bool


def pooled_resamples(systems: Sequence[SegmentStats], resamples: Resamples) -> np.ndarray:
    """Pooled statistics of every resample of every system: shape (systems, resamples, columns), float64.

    Integer statistics are summed with a float32 matrix product when every sum stays below 2^24 (then it is exact
    and twice as fast); anything else in float64. Resamples are pooled block by block.
    """
    k = len(systems[0].columns)
    rows = np.concatenate([s.rows for s in systems], axis=1)  # segments × (systems · columns)
    dtype: type[np.floating[Any]] = np.float32 if _is_integral(rows, resamples.n_draws) else np.float64
    typed = rows.astype(dtype)
    pooled = np.empty((resamples.n_samples, rows.shape[1]), dtype=np.float64)
    for start, counts in resamples.count_blocks(dtype):
        pooled[start : start + len(counts)] = counts @ typed
    if systems[0].aggregate == "mean":
        pooled /= resamples.n_draws
    return pooled.reshape(resamples.n_samples, len(systems), k).transpose(1, 0, 2)


def _gathered_float32(stats: SegmentStats, resamples: Resamples) -> np.ndarray:
    """sacrebleu's float32 sums of non-integer rows, resample by resample in draw order (``rows[index].sum``)."""
    rows = stats.rows.astype(np.float32)
    blocks = [rows[index].sum(axis=1) for index in resamples.index_blocks(rows.shape[1])]
    return np.concatenate(blocks) if blocks else np.empty((0, rows.shape[1]), dtype=np.float32)


def resampled_scores(
    metric: Any, systems: Sequence[SegmentStats], resamples: Resamples, arithmetic: Arithmetic = "sacrebleu"
) -> ResampledScores:
    """Score every bootstrap resample of every system in ``systems`` (all scored by ``metric``).

    ``arithmetic="sacrebleu"`` replays sacrebleu's float32 arithmetic for BLEU, chrF and TER (see
    :mod:`metrics.stats.sacrebleu_compat`); other metrics, and ``arithmetic="float64"``, use ``metric.score_pooled``.
    """
    check_arithmetic(arithmetic)
    check_systems(systems)
    if len(systems[0]) != resamples.n_segments:
        raise ValueError(f"resamples of {resamples.n_segments} segments do not fit {len(systems[0])} segments")
    scorer = float32_scorer(metric) if arithmetic == "sacrebleu" and systems[0].aggregate == "sum" else None
    shape = (len(systems), resamples.n_samples)
    if scorer is not None:
        if all(_is_integral(s.rows, resamples.n_draws) for s in systems):
            pooled32 = pooled_resamples(systems, resamples).astype(np.float32)  # exact: the same sums as float32's
        else:
            # non-integer rows (TER's average reference length): sum in float32, in order, as sacrebleu does
            pooled32 = np.stack([_gathered_float32(s, resamples) for s in systems])
        scores = scorer(pooled32.reshape(-1, pooled32.shape[-1]))
        return ResampledScores(scores.array().reshape(shape), arithmetic, True)
    pooled = pooled_resamples(systems, resamples)
    values = np.asarray(metric.score_pooled(pooled.reshape(-1, pooled.shape[-1])), dtype=np.float64)
    return ResampledScores(values.reshape(shape), arithmetic, False)


def randomized_scores(
    metric: Any, systems: Sequence[SegmentStats], pairs: Sequence[tuple[int, int]], mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Scores of the shuffled pseudo-systems of approximate randomization for each ``(baseline, other)`` pair of
    indices into ``systems``.

    Trial ``t`` builds pseudo-system A from the baseline's segments where ``mask[t]`` is True and the other
    system's elsewhere, and pseudo-system B from the rest (sacrebleu's ``pos_sel @ bl + neg_sel @ sys``).
    Returns ``(a, b)`` of shape (pairs, trials), float64: sacrebleu sums int64 statistics here, no float32.
    """
    check_systems(systems)
    mask = np.asarray(mask, dtype=bool)
    n = len(systems[0])
    if mask.ndim != 2 or mask.shape[1] != n:
        raise ValueError(f"randomization mask of shape {mask.shape} does not fit {n} segments")
    k = len(systems[0].columns)
    rows = np.concatenate([s.rows for s in systems], axis=1)
    totals = rows.sum(axis=0).reshape(-1, k)
    first = np.array([i for i, _ in pairs], dtype=np.intp)
    second = np.array([j for _, j in pairs], dtype=np.intp)
    # A = Σ_mask first + Σ_¬mask second = total(second) + mask @ first − mask @ second, B = total(first) − (…):
    # exact for integer rows whatever the order of summation, so float32 products serve while sums stay < 2^24
    dtype = np.float32 if _is_integral(rows, n) else np.float64
    rows_d: np.ndarray = rows.astype(dtype)
    a = np.empty((len(pairs), len(mask)))
    b = np.empty((len(pairs), len(mask)))
    for start in range(0, len(mask), _TRIAL_CHUNK):
        chunk: np.ndarray = mask[start : start + _TRIAL_CHUNK].astype(dtype)
        selected = (chunk @ rows_d).astype(np.float64).reshape(len(chunk), len(systems), k)
        moved = selected[:, first] - selected[:, second]
        pooled_a = totals[None, second] + moved
        pooled_b = totals[None, first] - moved
        if systems[0].aggregate == "mean":
            pooled_a, pooled_b = pooled_a / n, pooled_b / n
        both = np.stack([pooled_a, pooled_b]).reshape(-1, k)
        scores = np.asarray(metric.score_pooled(both), dtype=np.float64).reshape(2, len(chunk), len(pairs))
        a[:, start : start + len(chunk)] = scores[0].T
        b[:, start : start + len(chunk)] = scores[1].T
    return a, b
