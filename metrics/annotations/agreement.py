"""Do the metrics see what the raters saw? Character-level agreement of a metric's flags
(:mod:`metrics.annotations.flags`) with the raters' error spans on the output.

**Characters.** Only the output's non-whitespace characters count: raters mark ``aus dem Licht`` with its inner
spaces, token evidence marks the words, and a space is neither an error nor a match. On segment ``i`` of a system:

* ``F`` = the characters the metric flags; ``H`` = the characters inside any rater's error span on the output
  (the union over raters; spans on the source — omissions — have no output characters and are not counted);
* ``precision = |F ∩ H| / |F|`` (the share of flagged characters inside human spans), ``recall = |F ∩ H| / |H|``
  (the share of human-marked characters flagged), ``F1 = 2 |F ∩ H| / (|F| + |H|)``.

**Pooling.** *Micro* (the headline): the counts are summed over the rated segments first, then divided — a long
segment weighs by its characters. *Macro F1*: the mean over segments of each segment's F1, over the segments where
it is defined (``|F| + |H| > 0``; a segment with neither flags nor human spans agrees trivially and is left out).
The xCOMET paper (Guerreiro et al., TACL 2024) evaluates its error spans with character-level F1 in the manner of
the WMT23 QE error-span task; which pooling it uses we could not confirm from the sources at hand, so both are
given. Per :class:`~metrics.annotations.categories.Cell` (a category level × severity): ``H`` holds only the spans
of that cell, ``F`` stays the metric's flags, so a cell's recall is "how much of this kind of error the metric
sees" and its precision "the share of all flags that land on this kind of error" (cells' precisions add up over
disjoint categories).

**Intervals**: bootstrap percentile intervals over the rated segments (sacrebleu's draws for their number and the
seed); a resample in which a ratio is undefined (no flags, no human characters of the cell) is left out of that
ratio's interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.annotations.categories import EVERY_ERROR, Cell, kind_cells
from metrics.annotations.flags import SegmentFlags
from metrics.annotations.model import Annotations
from metrics.core.spans import ErrorSpan, Side
from metrics.stats.defaults import DEFAULT_SEED
from metrics.stats.resampling import bootstrap_resamples, check_count, check_seed
from metrics.stats.significance import Interval, estimate_interval

_FIXED = ("characters", "flagged")
_PER_CELL = ("marked", "overlap", "f1_sum", "f1_defined")


def character_mask(text: str, spans: Sequence[tuple[int, int]]) -> np.ndarray:
    """Boolean mask over ``text``: True on the non-whitespace characters inside any of ``spans``."""
    mask = np.zeros(len(text), dtype=bool)
    for start, end in spans:
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"span [{start}, {end}) does not lie in a text of {len(text)} characters")
        mask[start:end] = True
    return mask & ~np.array([ch.isspace() for ch in text], dtype=bool)


def _target_spans(spans: Sequence[ErrorSpan], cell: Cell) -> list[tuple[int, int]]:
    return [(s.start, s.end) for s in spans if s.side is Side.TARGET and cell in kind_cells(s.category, s.severity)]


@dataclass(frozen=True)
class AgreementRows:
    """One metric on one system: a row per rated segment (``segments``: their 0-based numbers),
    ``(characters, flagged, then for each cell: marked, overlap, F1 sum, F1 defined)`` in non-whitespace characters — rows add up, so a
    resample, a bucket or a slice is a sum of rows. ``unlocated``: flagged tokens without offsets (not drawn)."""

    metric: str
    system: str
    cells: tuple[Cell, ...]
    segments: tuple[int, ...]
    rows: np.ndarray
    unlocated: int
    options: str

    def __post_init__(self) -> None:
        if self.rows.shape != (len(self.segments), len(_FIXED) + len(_PER_CELL) * len(self.cells)):
            raise ValueError(f"{self.metric}/{self.system}: rows of shape {self.rows.shape} do not fit")
        self.rows.setflags(write=False)


def agreement_rows(
    annotations: Annotations,
    system: str,
    hyps: Sequence[str],
    flags: Mapping[int, SegmentFlags],
    cells: Sequence[Cell],
    metric: str,
    options: str = "",
) -> AgreementRows:
    """The rows of every segment of ``system`` the raters rated; ``flags`` must hold each of them."""
    rated = np.flatnonzero(annotations.rated(system))
    missing = [int(i) + 1 for i in rated if int(i) not in flags]
    if missing:
        raise ValueError(f"{metric}/{system}: no flags for rated segment(s) {missing[:5]}")
    rows = np.zeros((len(rated), len(_FIXED) + len(_PER_CELL) * len(cells)))
    for r, i in enumerate(int(i) for i in rated):
        text, spans = hyps[i], annotations.spans(system, i)
        flagged = character_mask(text, flags[i].spans)
        rows[r, :2] = character_mask(text, [(0, len(text))]).sum(), flagged.sum()
        for k, cell in enumerate(cells):
            marked = character_mask(text, _target_spans(spans, cell))
            overlap = int((flagged & marked).sum())
            both = rows[r, 1] + marked.sum()
            rows[r, 2 + 4 * k : 6 + 4 * k] = (marked.sum(), overlap, 2 * overlap / both if both else 0.0, both > 0)
    unlocated = sum(flags[int(i)].unlocated for i in rated)
    return AgreementRows(metric, system, tuple(cells), tuple(int(i) for i in rated), rows, unlocated, options)


@dataclass(frozen=True)
class AgreementEstimate:
    """One cell: micro precision, recall and F1 and macro F1 (intervals; ``nan`` where undefined), and the
    character counts behind them (``flagged``: |F|, ``marked``: |H|, ``overlap``: |F ∩ H|, ``characters``: every
    non-whitespace character) over ``n_segments``. ``chance_precision`` = ``marked / characters``: the precision
    of flags thrown at random characters — the floor a metric's precision is read against."""

    cell: Cell
    precision: Interval
    recall: Interval
    f1: Interval
    macro_f1: Interval
    flagged: int
    marked: int
    overlap: int
    characters: int
    n_segments: int

    @property
    def chance_precision(self) -> float:
        return self.marked / self.characters if self.characters else float("nan")


@dataclass(frozen=True)
class AgreementTable:
    """Every cell of one metric on one system (or on a bucket's segments of it)."""

    metric: str
    system: str
    options: str
    estimates: tuple[AgreementEstimate, ...]
    unlocated: int
    n_samples: int
    seed: int

    def estimate(self, cell: Cell = EVERY_ERROR) -> AgreementEstimate:
        for e in self.estimates:
            if e.cell == cell:
                return e
        raise KeyError(f"{self.metric}/{self.system}: no cell {cell.label}")


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    return np.divide(numerator, denominator, out=out, where=denominator > 0)


def _interval(score: float, samples: np.ndarray) -> Interval:
    finite = samples[np.isfinite(samples)]
    if not np.isfinite(score) or len(finite) == 0:
        return Interval(score, np.nan, np.nan, np.nan, np.nan, 0)
    return estimate_interval(score, finite)


def _ratios(pooled: np.ndarray, k: int) -> tuple[np.ndarray, ...]:
    """Precision, recall, micro F1 and macro F1 of cell ``k`` from pooled rows (any leading shape)."""
    flagged = pooled[..., 1]
    marked, overlap, f1_sum, defined = (pooled[..., 2 + 4 * k + j] for j in range(4))
    return (
        _ratio(overlap, flagged),
        _ratio(overlap, marked),
        _ratio(2 * overlap, flagged + marked),
        _ratio(f1_sum, defined),
    )


def agreement_table(
    rows: AgreementRows, segments: np.ndarray | None = None, n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> AgreementTable | None:
    """Micro and macro agreement of every cell over the rated segments (those among ``segments``, 0-based
    segment numbers, when given), with bootstrap intervals; ``None`` when no rated segment is left."""
    check_count("n_samples", n_samples)
    check_seed(seed)
    picked = rows.rows
    if segments is not None:
        wanted = set(int(i) for i in segments)
        picked = picked[[r for r, i in enumerate(rows.segments) if i in wanted]]
    if len(picked) == 0:
        return None
    total = picked.sum(axis=0)
    pooled = np.empty((n_samples, picked.shape[1]))
    for start, counts in bootstrap_resamples(len(picked), n_samples, seed).count_blocks(np.float64):
        pooled[start : start + len(counts)] = counts @ picked
    estimates = []
    for k, cell in enumerate(rows.cells):
        observed, sampled = _ratios(total, k), _ratios(pooled, k)
        p, r, f, macro = (_interval(float(o), s) for o, s in zip(observed, sampled, strict=True))
        marked, overlap = int(total[2 + 4 * k]), int(total[3 + 4 * k])
        sizes = (int(total[1]), marked, overlap, int(total[0]), len(picked))
        estimates.append(AgreementEstimate(cell, p, r, f, macro, *sizes))
    return AgreementTable(rows.metric, rows.system, rows.options, tuple(estimates), rows.unlocated, n_samples, seed)
