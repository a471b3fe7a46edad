"""Resample scores exactly as sacrebleu 2.6.0 computes them, float32 quirks included.

sacrebleu's bootstrap (``significance._bootstrap_resample`` behind ``--confidence`` and ``corpus_score(...,
n_bootstrap=N)``, and ``_paired_bs_test`` behind ``--paired-bs``) converts the segment statistics to a **float32**
array, sums each resample in float32 and passes the float32 sums to ``_compute_score_from_stats``. Under NumPy 2's
promotion rules (NEP 50) a Python float meeting a ``np.float32`` stays float32, so part of the score arithmetic runs
in single precision: BLEU's n-gram precisions, every step of chrF's F-score and TER's ratio. The results differ from
the float64 scores by ~1e-7 relative, and chrF/TER resample scores (and hence sacrebleu's reported means and
half-widths) are themselves float32. To reproduce sacrebleu's numbers to the last digit, this module replays that
arithmetic vectorized over resamples, operation by operation, keeping track of which intermediate values are
float32 and which are Python floats (an ``eps`` or a ``0.0`` literal is a Python float until it meets a float32).

Only sacrebleu's own metrics (``bleu``, ``chrf``, ``ter``) have such a replica; :func:`float32_scorer` returns
``None`` for every other metric, which the statistics layer then scores in float64 with ``Metric.score_pooled``.
The approximate-randomization test (``--paired-ar``) sums integer statistics in int64 and never goes through
float32, so it needs no replica.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

_LOG_ZERO = -9999999999.0  # sacrebleu's my_log(0)
_EPS = 1e-16  # sacrebleu CHRF's eps, a Python float


@dataclass(frozen=True)
class Float32Scores:
    """Scores of many resamples as sacrebleu holds them.

    ``values`` are float64 (each exactly the value sacrebleu computed); ``dtype`` is the dtype of the NumPy array
    sacrebleu builds from them with ``np.array([...])``: float32 when every score is a ``np.float32``, float64 when
    any is a Python float (BLEU always; chrF/TER only when some resample hit a literal ``0.0``).
    """

    values: np.ndarray
    dtype: type[np.floating[Any]]

    def array(self) -> np.ndarray:
        return self.values.astype(self.dtype)


class _Mixed:
    """Values that are either np.float32 or Python floats, elementwise: ``v`` float64 values, ``f32`` flags."""

    __slots__ = ("v", "f32")

    def __init__(self, v: np.ndarray, f32: np.ndarray) -> None:
        self.v = v
        self.f32 = f32

    @staticmethod
    def const(value: float, shape: tuple[int, ...]) -> _Mixed:
        return _Mixed(np.full(shape, float(value)), np.zeros(shape, dtype=bool))

    @staticmethod
    def single(values: np.ndarray) -> _Mixed:
        return _Mixed(values.astype(np.float32).astype(np.float64), np.ones(values.shape, dtype=bool))

    def where(self, cond: np.ndarray, other: _Mixed) -> _Mixed:
        return _Mixed(np.where(cond, self.v, other.v), np.where(cond, self.f32, other.f32))

    def _op(self, other: _Mixed | float, ufunc: np.ufunc) -> _Mixed:
        if not isinstance(other, _Mixed):
            other = _Mixed.const(other, self.v.shape)
        single = self.f32 | other.f32
        # a Python float meeting a float32 is first rounded to float32 (NEP 50), then the op runs in float32
        with np.errstate(divide="ignore", invalid="ignore"):
            as32 = ufunc(self.v.astype(np.float32), other.v.astype(np.float32)).astype(np.float64)
            as64 = ufunc(self.v, other.v)
        return _Mixed(np.where(single, as32, as64), single)

    def __add__(self, other: _Mixed | float) -> _Mixed:
        return self._op(other, np.add)

    def __mul__(self, other: _Mixed | float) -> _Mixed:
        return self._op(other, np.multiply)

    def __truediv__(self, other: _Mixed | float) -> _Mixed:
        return self._op(other, np.divide)

    def rmul(self, scalar: float) -> _Mixed:
        """``scalar * self`` for a Python scalar on the left (same value as on the right: IEEE ops commute)."""
        return self._op(scalar, np.multiply)


def _bleu(metric: Any, pooled: np.ndarray) -> Float32Scores:
    """``BLEU._compute_score_from_stats`` on float32 sums: precisions in float32, the rest in Python floats."""
    c = metric.config
    n = c.max_ngram_order
    rows = pooled.astype(np.float32)
    m = len(rows)
    sys_len = rows[:, 0].astype(np.float64)  # int(stats[0]): integer counts, exact
    ref_len = rows[:, 1].astype(np.float64)
    correct = rows[:, 2 : 2 + n].copy()
    total = rows[:, 2 + n : 2 + 2 * n].copy()
    any_match = (correct != 0).any(axis=1)  # checked before add-k touches the counts
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0), 1.0)
        precisions = np.zeros((m, n))
        alive = np.ones(m, dtype=bool)
        smooth_mteval = np.ones(m)
        eff = np.full(m, n)
        amount = c.smooth_amount
        for i in range(n):
            if c.smooth == "add-k" and i > 0:
                correct[:, i] += amount
                total[:, i] += amount
            alive &= total[:, i] != 0
            if c.effective_order:
                eff = np.where(alive, i + 1, eff)
            zero = correct[:, i] == 0
            if c.smooth == "exp":
                smooth_mteval = np.where(alive & zero, smooth_mteval * 2, smooth_mteval)
                smoothed = (100.0 / (smooth_mteval.astype(np.float32) * total[:, i])).astype(np.float64)
            elif c.smooth == "floor":
                smoothed = ((100.0 * amount) / total[:, i]).astype(np.float64)
            else:
                smoothed = np.zeros(m)
            plain = (100.0 * correct[:, i] / total[:, i]).astype(np.float64)
            precisions[:, i] = np.where(alive, np.where(zero, smoothed, plain), 0.0)
        logs = np.where(precisions == 0.0, _LOG_ZERO, np.log(np.where(precisions > 0, precisions, 1.0)))
        log_sum = np.zeros(m)
        for i in range(n):  # Python's sum() over precisions[:eff_order], left to right
            log_sum = np.where(i < eff, log_sum + logs[:, i], log_sum)
        scores = np.where(any_match, bp * np.exp(log_sum / eff), 0.0)
    return Float32Scores(scores, np.float64)


def _chrf(metric: Any, pooled: np.ndarray) -> Float32Scores:
    """``CHRF._compute_f_score`` on float32 sums."""
    c = metric.config
    order = c.char_order + c.word_order
    factor = c.beta**2
    rows = pooled.astype(np.float32)
    m = len(rows)
    shape = (m,)
    eps = _Mixed.const(_EPS, shape)
    score = _Mixed.const(0.0, shape)
    avg_prec = _Mixed.const(0.0, shape)
    avg_rec = _Mixed.const(0.0, shape)
    effective = np.zeros(m, dtype=np.int64)
    for i in range(order):
        n_hyp = _Mixed.single(rows[:, 3 * i])
        n_ref = _Mixed.single(rows[:, 3 * i + 1])
        n_match = _Mixed.single(rows[:, 3 * i + 2])
        has_hyp, has_ref = n_hyp.v > 0, n_ref.v > 0
        prec = (n_match / n_hyp).where(has_hyp, eps)
        rec = (n_match / n_ref).where(has_ref, eps)
        if c.eps_smoothing:
            denom = prec.rmul(factor) + rec
            f = ((prec.rmul(1 + factor) * rec) / denom).where(denom.v > 0, eps)
            score = score + f
        present = has_hyp & has_ref
        avg_prec = (avg_prec + prec).where(present, avg_prec)
        avg_rec = (avg_rec + rec).where(present, avg_rec)
        effective += present
    if c.eps_smoothing:
        result = score.rmul(100) / float(order)
        return _finish(result.v, result.f32)
    has_order = effective > 0
    divisor = _Mixed(np.where(has_order, effective, 1).astype(np.float64), np.zeros(m, dtype=bool))
    # ``avg /= effective_order`` (an int): the int divides a float32 in float32
    avg_prec = (avg_prec / divisor).where(has_order, _Mixed.const(0.0, shape))
    avg_rec = (avg_rec / divisor).where(has_order, _Mixed.const(0.0, shape))
    nonzero = (avg_prec + avg_rec).v != 0
    value = (avg_prec.rmul(1 + factor) * avg_rec) / (avg_prec.rmul(factor) + avg_rec)
    value = value.rmul(100)
    zero = _Mixed.const(0.0, shape)
    result = value.where(nonzero, zero)
    return _finish(result.v, result.f32)


def _ter(metric: Any, pooled: np.ndarray) -> Float32Scores:
    """``TER._compute_score_from_stats`` on float32 sums of ``[edits, ref_len]``."""
    columns = metric.columns
    rows = pooled.astype(np.float32)
    edits = _Mixed.single(rows[:, columns.index("edits")])
    ref_len = _Mixed.single(rows[:, columns.index("ref_len")])
    shape = (len(rows),)
    ratio = (edits / ref_len).where(
        ref_len.v > 0, _Mixed.const(1.0, shape).where(edits.v > 0, _Mixed.const(0.0, shape))
    )
    result = ratio.rmul(100)
    return _finish(result.v, result.f32)


def _finish(values: np.ndarray, single: np.ndarray) -> Float32Scores:
    return Float32Scores(values, np.float32 if bool(single.all()) else np.float64)


_SCORERS: dict[str, tuple[str, Callable[[Any, np.ndarray], Float32Scores]]] = {
    "bleu": ("metrics.families.bleu.metric:BLEU", _bleu),
    "chrf": ("metrics.families.chrf.metric:CHRF", _chrf),
    "ter": ("metrics.families.ter.metric:TER", _ter),
}


def float32_scorer(metric: Any) -> Callable[[np.ndarray], Float32Scores] | None:
    """sacrebleu's float32 resample scoring for ``metric``, or ``None`` if sacrebleu has no such metric.

    Only our own BLEU, CHRF and TER classes qualify (other BLEU variants have other ids and statistics).
    ``pooled`` passed to the returned function must be the float32 sums sacrebleu would form (exact integer sums
    are; see :func:`metrics.stats.resampling.resampled_scores`).
    """
    entry = _SCORERS.get(getattr(metric, "id", ""))
    if entry is None:
        return None
    target, scorer = entry
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not isinstance(metric, cls):
        return None
    return lambda pooled: scorer(metric, np.atleast_2d(pooled))
