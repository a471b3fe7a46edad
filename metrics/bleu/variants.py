"""Two BLEU variants users meet in the wild, each equal to its own reference code.

* :class:`NltkBLEU` — nltk 3.10.4 ``corpus_bleu`` / ``sentence_bleu`` with ``SmoothingFunction().method0`` …
  ``method7`` (Chen & Cherry, 2014, "A Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU").
  Precisions keep their raw numerators and denominators (``max(1, #hyp n-grams)``), orders whose smoothed precision
  is not positive drop out of the sum, and methods 5–7 look at the *last* segment of the corpus, as nltk's loop
  leaves it: corpus BLEU under those methods depends on segment order. Resampling those methods pools the extra
  5-gram column instead (a bootstrap sample has no meaningful "last" segment).
* :class:`GoogleBLEU` — the Google/TensorFlow ``compute_bleu`` (tensorflow/nmt ``scripts/bleu.py``): the *shortest*
  reference length, no smoothing or add-one on every order (``smooth=True``), weights ``1/N`` inside the log sum.

Both take whitespace-tokenized text (``str.split()``), as their references take token lists.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

import numpy as np

from metrics.bleu.metric import _LOG_ZERO, BLEU, BLEUExplanation, _Combined, max_order_option
from metrics.core.base import Metric, SegmentStats
from metrics.core.config import check_options, option
from metrics.core.explanation import Explanation
from metrics.core.ngrams import ngram_counts
from metrics.kernels import kernel

NLTK_VERSION = "3.10.4"
_EXTRA_ORDER = 5  # nltk's method5 always adds the 5-gram precision, whatever the maximum order


@dataclass(frozen=True)
class NltkBLEUConfig:
    max_ngram_order: int = max_order_option()
    smoothing: int = option(
        0,
        label="Smoothing method",
        help="nltk's SmoothingFunction().method0 … method7 (Chen & Cherry 2014); 0 = none.",
        low=0,
        high=7,
        step=1,
    )
    epsilon: float = option(0.1, label="ε (method 1)", help="Method 1 adds ε to a zero n-gram count.", step=0.01)
    alpha: float = option(5.0, label="α (method 6)", help="Method 6's weight of the prior from lower orders.", step=0.5)
    k: float = option(
        5.0,
        label="k (methods 4 and 7)",
        help="Methods 4 and 7: the j-th zero precision becomes 1 / (2^j · k / ln(hypothesis length)) / total.",
        step=0.5,
    )
    auto_reweigh: bool = option(
        False,
        label="Auto re-weigh",
        help="nltk auto_reweigh: a hypothesis shorter than 4 words weighs its orders 1..length uniformly.",
    )

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True, kw_only=True)
class NltkBLEUExplanation(Explanation):
    """nltk's sentence BLEU from the segment's counts; ``best_ref`` is None (clipping pools every reference)."""

    numerators: tuple[int, ...]
    denominators: tuple[int, ...]
    precisions: tuple[float, ...]  # after smoothing; orders with a precision <= 0 are left out of the score
    weights: tuple[float, ...]
    hyp_len: int
    ref_len: int
    brevity_penalty: float


def _modified_precision(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int) -> tuple[int, int]:
    counts = ngram_counts(hyp, n, n)
    ref_counts = [ngram_counts(r, n, n) for r in refs]
    clipped = sum(min(c, max(rc[g] for rc in ref_counts)) for g, c in counts.items())
    return clipped, max(1, sum(counts.values()))


class NltkBLEU(Metric[NltkBLEUConfig, NltkBLEUExplanation]):
    id: ClassVar[str] = "bleu-nltk"
    aggregate: ClassVar[Literal["sum"]] = "sum"
    Config: ClassVar[type] = NltkBLEUConfig
    explanation_type: ClassVar[type[NltkBLEUExplanation]] = NltkBLEUExplanation

    @property
    def name(self) -> str:
        return f"BLEU (nltk, method{self.config.smoothing})"

    @property
    def columns(self) -> tuple[str, ...]:
        n = self.config.max_ngram_order
        return (
            "hyp_len",
            "ref_len",
            *(f"num_{i}" for i in range(1, n + 1)),
            *(f"den_{i}" for i in range(1, n + 1)),
            "num_5_last",
            "den_5_last",
        )

    def signature(self) -> str:
        c = self.config
        return f"ngram:{c.max_ngram_order}|smooth:method{c.smoothing}|reweigh:{'yes' if c.auto_reweigh else 'no'}|nltk:{NLTK_VERSION}"

    def segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        if not refs:
            raise ValueError("BLEU needs at least one reference per segment")
        hyp_tokens = hyp.split()
        ref_tokens = [r.split() for r in refs]
        n = self.config.max_ngram_order
        closest = min((len(r) for r in ref_tokens), key=lambda length: (abs(length - len(hyp_tokens)), length))
        ngrams = kernel("ngrams")
        if ngrams is None:
            fractions = [_modified_precision(hyp_tokens, ref_tokens, i) for i in range(1, _EXTRA_ORDER + 1)]
        else:  # the same clipped counts, compiled (metrics.kernels._ngrams), over ids of the references' words
            vocab: dict[str, int] = {}
            ref_ids = [[vocab.setdefault(w, len(vocab)) for w in r] for r in ref_tokens]
            hyp_ids = [vocab.get(w, -1) for w in hyp_tokens]
            fractions = [
                (clipped, max(1, len(hyp_tokens) - order + 1))
                for order, clipped in zip(
                    range(1, _EXTRA_ORDER + 1), ngrams.clipped_matches(hyp_ids, ref_ids, 1, _EXTRA_ORDER), strict=True
                )
            ]
        if n > _EXTRA_ORDER:
            fractions += [_modified_precision(hyp_tokens, ref_tokens, i) for i in range(_EXTRA_ORDER + 1, n + 1)]
        extra = fractions[_EXTRA_ORDER - 1]
        fractions = fractions[:n]
        return np.array(
            [len(hyp_tokens), closest, *(f[0] for f in fractions), *(f[1] for f in fractions), *extra],
            dtype=np.float64,
        )

    def _smooth(self, nums: list[int], dens: list[int], hyp_len: int, last: np.ndarray) -> list[float | Fraction]:
        """nltk's SmoothingFunction methods on raw numerators/denominators (``last`` is the last segment's row)."""
        c = self.config
        p: list[float | Fraction] = [Fraction(a, b) for a, b in zip(nums, dens, strict=True)]
        method = c.smoothing
        if method == 0:
            return [p[i] if nums[i] != 0 else sys.float_info.min for i in range(len(p))]
        if method == 1:
            return [(nums[i] + c.epsilon) / dens[i] if nums[i] == 0 else p[i] for i in range(len(p))]
        if method == 2:
            return [Fraction(nums[i] + 1, dens[i] + 1) if i != 0 else p[0] for i in range(len(p))]
        if method == 3:
            k = 1
            for i in range(len(p)):
                if nums[i] == 0:
                    p[i] = 1 / (2**k * dens[i])
                    k += 1
            return p
        if method in (4, 7):
            k = 1
            for i in range(len(p)):
                if nums[i] == 0 and hyp_len > 1:
                    p[i] = (1 / (2**k * c.k / math.log(hyp_len))) / dens[i]
                    k += 1
            if method == 4:
                return p
        if method in (5, 7):
            n = self.config.max_ngram_order
            extra = Fraction(int(last[2 + 2 * n]), int(last[3 + 2 * n]))
            following = [*p, extra]
            previous = p[0] + 1
            for i in range(len(p)):
                p[i] = (previous + p[i] + following[i + 1]) / 3
                previous = p[i]
            return p
        # method 6: interpolate with a prior from the two lower orders, over the last segment's n-gram counts
        if p[2] == 0:
            raise ValueError("nltk smoothing method6 needs a non-zero trigram precision")
        last_len = int(last[0])
        for i in range(2, len(p)):
            prior = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
            count = max(0, last_len - i)
            p[i] = (nums[i] + c.alpha * prior) / (count + c.alpha)
        return p

    def _explain_pooled(self, pooled: np.ndarray, last: np.ndarray) -> NltkBLEUExplanation:
        n = self.config.max_ngram_order
        hyp_len, ref_len = int(pooled[0]), int(pooled[1])
        nums = [int(x) for x in pooled[2 : 2 + n]]
        dens = [int(x) for x in pooled[2 + n : 2 + 2 * n]]
        bp = 1.0 if hyp_len > ref_len else 0.0 if hyp_len == 0 else math.exp(1 - ref_len / hyp_len)
        weights = (1 / n,) * n
        if self.config.auto_reweigh and hyp_len < 4 and n == 4:
            weights = (1 / hyp_len,) * hyp_len
        precisions: Sequence[float | Fraction] = (0.0,) * n
        score = 0.0
        if nums[0] != 0:
            precisions = self._smooth(nums, dens, hyp_len, last)
            # zip stops at the shorter of weights and precisions, as nltk's does after auto_reweigh
            terms = (w * math.log(p) for w, p in zip(weights, precisions) if p > 0)  # noqa: B905
            score = bp * math.exp(math.fsum(terms))
        return NltkBLEUExplanation(
            score=score,
            row=tuple(float(x) for x in pooled),
            numerators=tuple(nums),
            denominators=tuple(dens),
            precisions=tuple(float(p) for p in precisions),
            weights=weights,
            hyp_len=hyp_len,
            ref_len=ref_len,
            brevity_penalty=bp,
        )

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        rows = np.atleast_2d(pooled)
        scores = np.array([self._explain_pooled(row, row).score for row in rows])
        return scores if np.ndim(pooled) == 2 else scores[0]

    def segment_scores(self, stats: SegmentStats) -> np.ndarray:
        """``sentence_bleu`` per segment; NaN where nltk refuses the segment (method6 without trigram matches)."""
        scores = []
        for row in stats.rows:
            try:
                scores.append(self._explain_pooled(row, row).score)
            except ValueError:
                scores.append(math.nan)
        return np.array(scores, dtype=np.float64)

    def corpus_score(self, stats: SegmentStats) -> float:
        """``corpus_bleu``: summed statistics, but smoothing methods 5–7 read the last segment, as nltk's do."""
        if len(stats) == 0:
            raise ValueError(f"{self.id}: cannot score an empty corpus")
        return self._explain_pooled(stats.pooled(), stats.rows[-1]).score

    def explain(self, hyp: str, refs: Sequence[str]) -> NltkBLEUExplanation:
        row = self.segment_row(hyp, refs)
        return self._explain_pooled(row, row)


@dataclass(frozen=True)
class GoogleBLEUConfig:
    max_ngram_order: int = max_order_option()
    smooth: bool = option(
        False,
        label="Add-one smoothing",
        help="Add one to every order's matches and possible matches (compute_bleu smooth=True, Lin & Och 2004).",
    )

    def __post_init__(self) -> None:
        check_options(self)

    # What the shared BLEU counting reads: whitespace tokens, the shortest reference.
    tokenize: ClassVar[str] = "none"
    lowercase: ClassVar[bool] = False
    ref_length: ClassVar[str] = "shortest"
    effective_order: ClassVar[bool] = False


@dataclass(frozen=True, kw_only=True)
class GoogleBLEUExplanation(BLEUExplanation):
    """BLEU as the Google/TensorFlow ``compute_bleu`` scores one segment: precisions and score on a 0–1 scale, every
    order in the mean (no effective order), ``mean_log_precision`` the weighted sum Σ (1/N)·log p_n it exponentiates;
    ``geometric_mean`` is 0 when some precision is 0 (no smoothing)."""


class GoogleBLEU(BLEU):
    """BLEU as the Google/TensorFlow ``compute_bleu`` scores it; 0–1 scale like that code.

    Where that code divides by zero (``ratio = translation_length / reference_length``, then ``1 / ratio``) and
    raises ``ZeroDivisionError`` — no hypothesis words, or no reference words — the score here is 0 where one side
    has words (no hypothesis words: brevity penalty ``exp(1 − 1/0) = 0``; no reference words: every precision is 0)
    and NaN, undefined, where neither has any (``0/0``), as ``tests/test_fuzz.py`` found.
    """

    id: ClassVar[str] = "bleu-google"
    Config: ClassVar[type] = GoogleBLEUConfig
    explanation_type: ClassVar[type[BLEUExplanation]] = GoogleBLEUExplanation

    @property
    def name(self) -> str:
        return "BLEU (Google)"

    def signature(self) -> str:
        c = self.config
        return f"tok:none|reflen:shortest|ngram:{c.max_ngram_order}|smooth:{'add-one' if c.smooth else 'none'}|impl:tensorflow-nmt"

    def _combine(self, pooled: np.ndarray, effective: bool) -> _Combined:
        n = self.config.max_ngram_order
        rows = np.atleast_2d(pooled)
        matches, possible = rows[:, 2 : 2 + n], rows[:, 2 + n : 2 + 2 * n]
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.config.smooth:
                precisions = (matches + 1.0) / (possible + 1.0)
            else:
                precisions = np.where(possible > 0, matches / np.where(possible > 0, possible, 1), 0.0)
            ratio = rows[:, 0] / rows[:, 1]
            exponent = 1 - 1.0 / ratio
            bp = np.where(ratio > 1.0, 1.0, np.exp(exponent))
            positive = (precisions > 0).all(axis=1)
            logs = np.where(precisions > 0, np.log(np.where(precisions > 0, precisions, 1.0)), _LOG_ZERO)
            log_sum = np.zeros(len(rows))
            for i in range(n):  # sum((1/N) * log p) left to right, as the reference does
                log_sum = log_sum + (1.0 / n) * np.log(np.where(positive, precisions[:, i], 1.0))
        geometric = np.where(positive, np.exp(log_sum), 0.0)
        eff = np.full(len(rows), n)
        halvings = np.zeros((len(rows), n), dtype=np.int64)
        return _Combined(exponent, bp, precisions, halvings, eff, logs, log_sum, geometric, geometric * bp)

    def segment_scores(self, stats: SegmentStats) -> np.ndarray:
        return np.asarray(self._score(stats.rows, False), dtype=np.float64)
