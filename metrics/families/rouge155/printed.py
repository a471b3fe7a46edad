"""What ROUGE-1.5.5.pl prints, reproduced from un-rounded per-segment recall and precision.

ScoreLens keeps ROUGE-W/S/SU un-rounded (``metrics.families.rouge155``). The perl script instead

1. rounds each evaluation's R and P to 5 decimals (``sprintf("%7.5f")``), computes F from the *rounded* values,
   ``F = P·R / ((1-α)·P + α·R)`` (0 when the denominator is 0), and rounds F again — the ``-d`` per-evaluation lines;
2. prints as ``Average_R/P/F`` not the mean of those values but the mean of 1000 bootstrap resample means
   (``-r 1000``; resample ``s`` seeds perl's RNG with ``srand(s)`` and draws ``int(rand(N))`` N times over the
   evaluations sorted by their id string ``"<n>.<peer>"``, so ``10.X`` sorts before ``2.X``), with the 95 %
   interval (``-c 95``) interpolated from the sorted resample means.

Since perl 5.20 ``rand`` is perl's own drand48 on every platform: state ``(seed << 16) + 0x330E``, next state
``(0x5DEECE66D·x + 0xB) mod 2^48``, value ``x / 2^48``. Implemented here from that description and vectorized over
the resamples; the summation order (sequential, as perl adds) is kept so the printed digits match exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

_A = np.uint64(0x5DEECE66D)
_C = np.uint64(0xB)
_MASK = np.uint64((1 << 48) - 1)
_TWO_48 = float(1 << 48)


def round5(value: float) -> float:
    """ROUGE-1.5.5's ``sprintf("%7.5f", value)`` read back as a number (correctly rounded, like C's printf)."""
    return float(f"{value:7.5f}")


def f_measure(recall: float, precision: float, alpha: float) -> float:
    """ROUGE-1.5.5's F: ``P·R / ((1-α)·P + α·R)``, 0 when the denominator is not positive (same operation order)."""
    denominator = (1 - alpha) * precision + alpha * recall
    return (precision * recall) / denominator if denominator > 0 else 0.0


def printed_evaluation(recall: float, precision: float, alpha: float = 0.5) -> tuple[float, float, float]:
    """The ``R: P: F:`` values of one ``-d`` per-evaluation line, from the un-rounded recall and precision."""
    r, p = round5(recall), round5(precision)
    return r, p, round5(f_measure(r, p, alpha))


@dataclass(frozen=True)
class PrintedAverage:
    """One ``Average_X: avg (95%-conf.int. low - high)`` line of ROUGE-1.5.5.pl (``-t`` not given)."""

    average: float
    low: float
    high: float


@dataclass(frozen=True)
class PrintedReport:
    """Everything ROUGE-1.5.5.pl prints for one metric and one system: per evaluation and the bootstrap averages."""

    evaluations: tuple[tuple[float, float, float], ...]  # (R, P, F) per segment, in segment order
    recall: PrintedAverage
    precision: PrintedAverage
    f: PrintedAverage
    plain_mean_f: float  # mean of the rounded per-evaluation F (the ``-t``-less ``computeAverages`` value, unprinted)


def perl_sort_order(n: int, peer_id: str = "X") -> list[int]:
    """Segment indices in the order perl's string ``sort`` puts the evaluation ids ``"1.X"`` … ``"n.X"``."""
    return sorted(range(n), key=lambda i: f"{i + 1}.{peer_id}")


def _sequential_mean(values: np.ndarray) -> float:
    total = 0.0
    for value in values.tolist():  # left to right, as perl adds (numpy would sum pairwise)
        total += value
    return total / len(values)


def bootstrap_average(
    evaluations: Sequence[tuple[float, float, float]], resamples: int = 1000, confidence: float = 95.0
) -> tuple[PrintedAverage, PrintedAverage, PrintedAverage]:
    """ROUGE-1.5.5's printed averages (R, P, F) of per-evaluation rounded ``(R, P, F)`` triples in segment order."""
    n = len(evaluations)
    if n == 0:
        zero = PrintedAverage(0.0, 0.0, 0.0)
        return zero, zero, zero
    if resamples < 2:
        raise ValueError(f"resamples must be at least 2, not {resamples}")
    scores = np.asarray(evaluations, dtype=np.float64)[perl_sort_order(n)]
    state = (np.arange(resamples, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    sums = np.zeros((resamples, 3))
    for _ in range(n):
        state = (_A * state + _C) & _MASK  # uint64 products wrap mod 2^64, so the low 48 bits are exact
        index = (n * (state.astype(np.float64) / _TWO_48)).astype(np.int64)
        sums += scores[index]
    means = sums / n
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper = int(resamples - delta - 1)
    lower = int(delta)
    ratio = resamples - delta - 1 - upper
    averages = []
    for k in range(3):
        ranked = np.sort(means[:, k])
        low = ranked[lower] + (ranked[lower + 1] - ranked[lower]) * ratio
        high = ranked[upper] + (ranked[upper + 1] - ranked[upper]) * ratio
        averages.append(PrintedAverage(round5(_sequential_mean(ranked)), round5(low), round5(high)))
    return averages[0], averages[1], averages[2]


def printed_report(
    recall: Sequence[float] | np.ndarray,
    precision: Sequence[float] | np.ndarray,
    alpha: float = 0.5,
    resamples: int = 1000,
    confidence: float = 95.0,
) -> PrintedReport:
    """What ROUGE-1.5.5.pl ``-d`` prints for per-segment un-rounded recall and precision (eval ids 1..N in order)."""
    evaluations = tuple(printed_evaluation(r, p, alpha) for r, p in zip(recall, precision, strict=True))
    r, p, f = bootstrap_average(evaluations, resamples, confidence)
    plain = round5(_sequential_mean(np.array([e[2] for e in evaluations]))) if evaluations else 0.0
    return PrintedReport(evaluations, r, p, f, plain)
