"""Two BLEU variants users meet in the wild, each equal to its own reference code.

* :class:`NltkBLEU` — nltk 3.10.4 ``corpus_bleu`` / ``sentence_bleu`` with ``SmoothingFunction().method0`` …
  ``method7`` (Chen & Cherry, 2014, "A Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU").
  Precisions keep their raw numerators and denominators (``max(1, #hyp n-grams)``), orders whose smoothed precision
  is not positive drop out of the sum, and methods 5–7 look at the *last* segment of the corpus, as nltk's loop
  leaves it: corpus BLEU under those methods depends on segment order. Resampling those methods pools the extra
  5-gram column instead (a bootstrap sample has no meaningful "last" segment). ``weights`` are nltk's n-gram
  weights (uniform 1/N by default; one per order, so as many as ``max_ngram_order``); several weight sets at once,
  as ``corpus_bleu(weights=[…])`` returns a list, are :meth:`NltkBLEU.corpus_scores` and
  :meth:`NltkBLEU.sentence_scores` on the same statistics. Where nltk's unsmoothed ``method0`` warns that a
  hypothesis has no n-gram overlap of some order (the score is then about 0, whatever the lower orders), the
  explanation and the statistics carry the warning as a note.
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

from metrics.core.base import Metric, SegmentStats, StatsNote, segments_text
from metrics.core.config import check_options, option
from metrics.core.explanation import Explanation
from metrics.core.ngrams import ngram_counts
from metrics.families.bleu.metric import _LOG_ZERO, BLEU, BLEUExplanation, _Combined, max_order_option
from metrics.kernels import kernel

NLTK_VERSION = "3.10.4"
_EXTRA_ORDER = 5  # nltk's method5 always adds the 5-gram precision, whatever the maximum order


@dataclass(frozen=True)
class NltkBLEUConfig:
    max_ngram_order: int = max_order_option()
    weights: tuple[float, ...] | None = option(
        None,
        label="n-gram weights",
        help="nltk's weights, one per order 1..N (as many as the max order), e.g. 0.4,0.3,0.2,0.1. none (left "
        "empty) = uniform 1/N, nltk's default.",
        low=0.0,
    )
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
        help="nltk auto_reweigh: a hypothesis shorter than 4 words weighs its orders 1..length uniformly (only "
        "with the weights 0.25 × 4).",
    )

    def __post_init__(self) -> None:
        check_options(self)
        if self.weights is not None and len(self.weights) != self.max_ngram_order:
            raise ValueError(
                f"option 'weights': {len(self.weights)} weights for max_ngram_order={self.max_ngram_order}; give one "
                "weight per order (nltk takes the order from the weights: set max_ngram_order to their number)"
            )

    @property
    def order_weights(self) -> tuple[float, ...]:
        n = self.max_ngram_order
        return self.weights if self.weights is not None else (1 / n,) * n


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
        """``smooth:methodK`` carries the parameter the method reads (ε, k or α), as sacrebleu's ``smooth:floor[0.10]``;
        ``w:`` the weights (every digit) when they are not the uniform default."""
        c = self.config
        param = {1: f"[eps={c.epsilon:g}]", 4: f"[k={c.k:g}]", 6: f"[alpha={c.alpha:g}]", 7: f"[k={c.k:g}]"}
        smooth = f"method{c.smoothing}{param.get(c.smoothing, '')}"
        n = c.max_ngram_order
        weights = "" if c.order_weights == (1 / n,) * n else "|w:" + ",".join(repr(w) for w in c.order_weights)
        reweigh = "yes" if c.auto_reweigh else "no"
        return f"ngram:{n}{weights}|smooth:{smooth}|reweigh:{reweigh}|nltk:{NLTK_VERSION}"

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
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

    def _explain_pooled(
        self, pooled: np.ndarray, last: np.ndarray, weights: tuple[float, ...] | None = None
    ) -> NltkBLEUExplanation:
        """nltk's score of pooled counts (``last``: the row smoothing methods 5–7 read) under ``weights`` (the
        config's by default; a shorter set weighs only the first orders, as in nltk's list of weight sets)."""
        n = self.config.max_ngram_order
        hyp_len, ref_len = int(pooled[0]), int(pooled[1])
        nums = [int(x) for x in pooled[2 : 2 + n]]
        dens = [int(x) for x in pooled[2 + n : 2 + 2 * n]]
        bp = 1.0 if hyp_len > ref_len else 0.0 if hyp_len == 0 else math.exp(1 - ref_len / hyp_len)
        weights = weights or self.config.order_weights
        if self.config.auto_reweigh and hyp_len < 4 and weights == (0.25, 0.25, 0.25, 0.25):
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
            notes=self._overlap_warning(nums),
        )

    def _missing_orders(self, nums: Sequence[int]) -> str:
        """The orders nltk's method0 warns about (``"2-, 3- and 4-gram"``): no overlap after a unigram match (none at
        all scores 0 at once); ``""`` when it does not warn."""
        missing = [str(i + 1) for i, count in enumerate(nums) if count == 0]
        if self.config.smoothing != 0 or not missing or nums[0] == 0:
            return ""
        return "-, ".join(missing[:-1]) + ("- and " if len(missing) > 1 else "") + f"{missing[-1]}-gram"

    def _overlap_warning(self, nums: Sequence[int]) -> tuple[str, ...]:
        orders = self._missing_orders(nums)
        if not orders:
            return ()
        return (
            f"the hypothesis contains 0 counts of {orders} overlaps (nltk warns): without smoothing (method0) that "
            "precision becomes sys.float_info.min, so the score is about 0 however many lower-order n-grams match; "
            "use a lower n-gram order or a smoothing method",
        )

    def _corpus_notes(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], rows: np.ndarray
    ) -> tuple[StatsNote, ...]:
        """nltk's no-overlap warnings (method0): for the segments ``sentence_bleu`` warns about, and for the corpus
        when ``corpus_bleu`` would warn."""
        n = self.config.max_ngram_order
        nums = rows[:, 2 : 2 + n]
        warned = [i + 1 for i, row in enumerate(nums) if self._missing_orders([int(x) for x in row])]
        notes: list[StatsNote] = []
        if warned:
            kind = (
                "no n-gram overlap of some order: nltk's sentence_bleu warns for each of these segments and, without "
                "smoothing (method0), scores them about 0"
            )
            notes.append(StatsNote(kind, segments_text(warned)))
        corpus_orders = self._missing_orders([int(x) for x in nums.sum(0)]) if len(rows) else ""
        if corpus_orders:
            kind = (
                "the corpus has no n-gram overlap of some order: nltk's corpus_bleu warns and, without smoothing "
                "(method0), scores it about 0"
            )
            notes.append(StatsNote(kind, f"0 counts of {corpus_orders} overlaps"))
        return tuple(notes)

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

    def _explain(self, hyp: str, refs: Sequence[str]) -> NltkBLEUExplanation:
        row = self._segment_row(hyp, refs)
        return self._explain_pooled(row, row)

    def _weight_sets(self, weight_sets: Sequence[Sequence[float]]) -> list[tuple[float, ...]]:
        sets = [tuple(float(w) for w in weights) for weights in weight_sets]
        if not sets or max(len(w) for w in sets) != self.config.max_ngram_order:
            raise ValueError(
                f"{self.id}: the longest weight set must have max_ngram_order={self.config.max_ngram_order} weights "
                "(nltk counts n-grams up to the longest set, and its smoothing sees every order counted)"
            )
        return sets

    def corpus_scores(self, stats: SegmentStats, weight_sets: Sequence[Sequence[float]]) -> list[float]:
        """nltk's ``corpus_bleu(refs, hyps, weights=[w1, w2, …])``: one corpus score per weight set, from the same
        statistics and the same smoothed precisions. The longest set has ``max_ngram_order`` weights."""
        if len(stats) == 0:
            raise ValueError(f"{self.id}: cannot score an empty corpus")
        pooled, last = stats.pooled(), stats.rows[-1]
        return [self._explain_pooled(pooled, last, w).score for w in self._weight_sets(weight_sets)]

    def sentence_scores(self, hyp: str, refs: Sequence[str], weight_sets: Sequence[Sequence[float]]) -> list[float]:
        """nltk's ``sentence_bleu(refs, hyp, weights=[w1, w2, …])``: one score per weight set."""
        row = self.segment_row(hyp, refs)
        return [self._explain_pooled(row, row, w).score for w in self._weight_sets(weight_sets)]


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
    segment_effective_order: ClassVar[bool] = False


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
    and NaN, undefined, where neither has any (``0/0``), as ``tests/parity/test_fuzz.py`` found.
    """

    id: ClassVar[str] = "bleu-google"
    Config: ClassVar[type] = GoogleBLEUConfig
    explanation_type: ClassVar[type[BLEUExplanation]] = GoogleBLEUExplanation

    @property
    def name(self) -> str:
        return "BLEU (Google)"

    def _signature(self, effective: bool) -> str:
        del effective  # compute_bleu has no effective order: one signature for the corpus and the segment scores
        c = self.config
        return f"tok:none|reflen:shortest|ngram:{c.max_ngram_order}|smooth:{'add-one' if c.smooth else 'none'}|impl:tensorflow-nmt"

    def _combine(self, pooled: np.ndarray, effective: bool) -> _Combined:
        del effective  # every order is in compute_bleu's mean
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

    def _notes(self, row: np.ndarray) -> tuple[str, ...]:
        return ()  # compute_bleu has no effective order to turn on
