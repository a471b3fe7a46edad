"""chrF and chrF++ (Popović, 2015, "chrF: character n-gram F-score for automatic MT evaluation"; Popović, 2017,
"chrF++: words helping character n-grams"), equal to sacrebleu 2.6.0's ``CHRF``.

Equivalent sacrebleu call: ``CHRF(char_order=6, word_order=0|2, beta=2, lowercase=…, whitespace=…,
eps_smoothing=…)``; command line ``sacrebleu REFS -i HYP -m chrf [--chrf-word-order 2]``.

Per segment and order (character orders first, then word orders) the statistics are ``[n_hyp, n_ref, n_match]``
against the reference with the highest sentence F (first wins ties). ``n_hyp`` is zero when the reference has no
n-grams of that order, so such hypothesis n-grams are not penalised, as in sacrebleu. The corpus score is the F of
the summed statistics; by default precision and recall are averaged over the orders present on both sides before
the F is taken ("effective order"); ``eps_smoothing=True`` averages per-order F instead (chrF++.py, Moses, nltk).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import ClassVar, Literal, NamedTuple

import numpy as np

from metrics.core.base import Metric, Progress, Rows, each_segment
from metrics.core.cache import BoundedCache
from metrics.core.config import check_options, option
from metrics.core.explanation import Explanation
from metrics.core.tokens import locate
from metrics.kernels import kernel

REFERENCE_VERSION = "2.6.0"
_EPS = 1e-16
_PUNCTS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


@dataclass(frozen=True)
class CHRFConfig:
    char_order: int = option(
        6, label="Character n-gram order", help="Character n-grams of orders 1..this (6).", low=1, high=20, step=1
    )
    word_order: int = option(0, label="Word n-gram order", help="0 = chrF, 2 = chrF++.", low=0, high=10, step=1)
    beta: float = option(
        2.0, label="β", help="Recall is β times as important as precision (chrF uses β = 2).", low=0.0, step=0.5
    )
    lowercase: bool = option(False, label="Lowercase", help="Lowercase both sides first.")
    whitespace: bool = option(
        False, label="Keep whitespace", help="Count spaces as characters (sacrebleu whitespace=True)."
    )
    eps_smoothing: bool = option(
        False,
        label="Average F over orders (eps smoothing)",
        help="Average the per-order F (chrF++.py, Moses, nltk) instead of averaging P and R first (sacrebleu).",
    )

    def __post_init__(self) -> None:
        check_options(self)


def split_punctuation(text: str) -> list[str]:
    """chrF++'s word tokenization: whitespace split, then one punctuation char split off the end or else the start."""
    words: list[str] = []
    for w in text.split():
        if len(w) == 1:
            words.append(w)
        elif w[-1] in _PUNCTS:
            words += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


@dataclass(frozen=True)
class NgramCount:
    ngram: str  # characters for char orders, space-joined words for word orders
    hyp_count: int
    ref_count: int
    matched: int
    hyp_spans: tuple[tuple[int, int], ...] = ()  # [start, end) in the hypothesis text of each occurrence, if located


@dataclass(frozen=True)
class CHRFOrder:
    kind: Literal["char", "word"]
    n: int
    ngrams: tuple[NgramCount, ...]  # every hypothesis n-gram, then reference-only n-grams
    n_hyp: int
    n_ref: int
    n_match: int
    precision: float
    recall: float
    averaged: bool  # n-grams on both sides: the order enters sacrebleu's average of P and R

    @property
    def label(self) -> str:
        return f"{'character' if self.kind == 'char' else 'word'} {self.n}-grams"


@dataclass(frozen=True)
class AveragedPR:
    """sacrebleu's combination: precision and recall averaged over the ``orders`` orders with n-grams on both
    sides, then one F_β of the averages."""

    precision: float
    recall: float
    orders: int


@dataclass(frozen=True)
class AveragedF:
    """The ``eps_smoothing`` combination (chrF++.py, Moses, nltk): F_β of every order, averaged over all orders."""

    f: tuple[float, ...]
    mean: float


@dataclass(frozen=True, kw_only=True)
class CHRFExplanation(Explanation):
    """chrF of one segment against the reference with the best sentence chrF (``best_ref``, the first on ties),
    whose statistics the row keeps; ``combination`` is how the per-order precisions and recalls became the score."""

    best_ref: int
    orders: tuple[CHRFOrder, ...]
    ref_scores: tuple[float, ...]  # sentence chrF against every reference
    hyp_chars: str  # the hypothesis as character n-grams saw it (whitespace removed unless whitespace=True)
    combination: AveragedPR | AveragedF


class _Units(NamedTuple):
    chars: str
    vocab: dict[str, int]
    words: list[int]


class _Combined(NamedTuple):
    averages: np.ndarray  # (rows, 3): averaged precision, recall and the number of orders averaged
    f: np.ndarray  # (rows, orders): per-order F (eps smoothing only)
    mean_f: np.ndarray  # their mean (eps smoothing only)
    scores: np.ndarray


def _char_offsets(text: str, keep_whitespace: bool) -> tuple[str, tuple[int, ...]]:
    offsets = tuple(i for i, ch in enumerate(text) if keep_whitespace or not ch.isspace())
    chars = "".join(text[i] for i in offsets)
    if not keep_whitespace and chars != "".join(text.split()):
        # str.isspace and str.split disagree on a few separators (e.g. U+001C..U+001F); split decides, as in sacrebleu
        chars = "".join(text.split())
        offsets = tuple(range(len(chars)))
    return chars, offsets


class CHRF(Metric[CHRFConfig, CHRFExplanation]):
    id: ClassVar[str] = "chrf"
    aggregate: ClassVar[Literal["sum"]] = "sum"
    Config: ClassVar[type] = CHRFConfig
    explanation_type: ClassVar[type[CHRFExplanation]] = CHRFExplanation

    def __init__(self, config: CHRFConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._ref_cache: BoundedCache[str, tuple[list[Counter[str]], list[int]]] = BoundedCache()
        self._ref_units_cache: BoundedCache[str, _Units] = BoundedCache()

    @property
    def order(self) -> int:
        return self.config.char_order + self.config.word_order

    @property
    def name(self) -> str:
        beta = self.config.beta
        return f"chrF{int(beta) if float(beta).is_integer() else beta}" + "+" * self.config.word_order

    @property
    def columns(self) -> tuple[str, ...]:
        c = self.config
        kinds = [f"c{n}" for n in range(1, c.char_order + 1)] + [f"w{n}" for n in range(1, c.word_order + 1)]
        return tuple(f"{stat}_{kind}" for kind in kinds for stat in ("hyp", "ref", "match"))

    def signature(self) -> str:
        """sacrebleu's chrF signature; it leaves β to the metric's name (chrF2, chrF3), so ``beta:`` is added when
        β is not 2 and the signature alone says what was computed."""
        c = self.config
        beta = f"|beta:{c.beta:g}" if c.beta != 2 else ""
        return (
            f"case:{'lc' if c.lowercase else 'mixed'}|eff:{'no' if c.eps_smoothing else 'yes'}|nc:{c.char_order}"
            f"|nw:{c.word_order}|space:{'yes' if c.whitespace else 'no'}{beta}|version:{REFERENCE_VERSION}"
        )

    def _ngrams(self, text: str) -> list[Counter[str]]:
        c = self.config
        if c.lowercase:
            text = text.lower()
        chars = text if c.whitespace else "".join(text.split())
        counters = [Counter(chars[i : i + n] for i in range(len(chars) - n + 1)) for n in range(1, c.char_order + 1)]
        if c.word_order:
            words = split_punctuation(text)
            counters += [
                Counter(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))
                for n in range(1, c.word_order + 1)
            ]
        return counters

    def _ref_ngrams(self, ref: str) -> tuple[list[Counter[str]], list[int]]:
        """A reference's n-gram counters and their totals, computed once per distinct reference string."""

        def prepare() -> tuple[list[Counter[str]], list[int]]:
            counters = self._ngrams(ref)
            return counters, [sum(c.values()) for c in counters]

        return self._ref_cache.get_or_make(ref, prepare)

    @staticmethod
    def _match(
        hyp: Sequence[Counter[str]], hyp_totals: Sequence[int], ref: tuple[list[Counter[str]], list[int]]
    ) -> list[int]:
        stats: list[int] = []
        for h, h_total, r, r_total in zip(hyp, hyp_totals, *ref, strict=True):
            # Only n-grams on both sides can match; the key intersection runs in C.
            matched = sum(min(h[g], r[g]) for g in h.keys() & r.keys())
            stats += [h_total if r else 0, r_total, matched]
        return stats

    def _units(self, text: str) -> _Units:
        """What the character and word n-grams are taken from: the characters as one string, the words as ids of
        the text's own vocabulary."""
        c = self.config
        if c.lowercase:
            text = text.lower()
        vocab: dict[str, int] = {}
        ids = [vocab.setdefault(w, len(vocab)) for w in split_punctuation(text)] if c.word_order else []
        return _Units(text if c.whitespace else "".join(text.split()), vocab, ids)

    def _compiled_candidates(self, hyp: str, refs: Sequence[str], ngrams: ModuleType) -> list[list[int]]:
        """The statistics of :meth:`_candidates` from the compiled clipped counts (metrics.kernels._ngrams)."""
        c = self.config
        mine = self._units(hyp)
        words = split_punctuation(hyp.lower() if c.lowercase else hyp) if c.word_order else []
        candidates = []
        for ref in refs:
            theirs = self._ref_units_cache.get_or_make(ref, lambda ref=ref: self._units(ref))  # type: ignore[misc]
            matched = ngrams.clipped_matches(mine.chars, [theirs.chars], 1, c.char_order)
            sizes = [(len(mine.chars), len(theirs.chars))] * c.char_order
            if c.word_order:
                get = theirs.vocab.get
                matched += ngrams.clipped_matches([get(w, -1) for w in words], [theirs.words], 1, c.word_order)
                sizes += [(len(words), len(theirs.words))] * c.word_order
            stats: list[int] = []
            for n, ((h_len, r_len), m) in enumerate(zip(sizes, matched, strict=True)):
                order = n + 1 if n < c.char_order else n + 1 - c.char_order
                h_total, r_total = max(h_len - order + 1, 0), max(r_len - order + 1, 0)
                stats += [h_total if r_total else 0, r_total, m]
            candidates.append(stats)
        return candidates

    def _candidates(self, hyp: str, refs: Sequence[str]) -> tuple[list[list[int]], list[Counter[str]]]:
        """Statistics of ``hyp`` against every reference; the best is chosen by sentence F."""
        if not refs:
            raise ValueError("chrF needs at least one reference per segment")
        hyp_ngrams = self._ngrams(hyp)
        totals = [sum(c.values()) for c in hyp_ngrams]
        return [self._match(hyp_ngrams, totals, self._ref_ngrams(ref)) for ref in refs], hyp_ngrams

    def _choose(self, candidates: Sequence[Sequence[list[int]]]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Per segment the statistics of the reference with the highest sentence F, the first of equal ones as
        sacrebleu's strict ``>`` keeps; all candidates are scored in one vectorized call."""
        flat = np.array([row for segment in candidates for row in segment], dtype=np.float64).reshape(
            -1, 3 * self.order
        )
        scores = self.score_pooled(flat)
        rows, per_segment, at = [], [], 0
        for segment in candidates:
            own = scores[at : at + len(segment)]
            rows.append(flat[at + int(np.argmax(own))])
            per_segment.append(own)
            at += len(segment)
        return np.array(rows).reshape(-1, 3 * self.order), per_segment

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        """Every segment's candidate rows first, then the choice among them in one vectorized call."""
        candidates = [
            self._segment_candidates(hyp, seg_refs) for _, hyp, seg_refs in each_segment(hyps, refs, progress)
        ]
        return Rows(self._choose(candidates)[0])

    def _segment_candidates(self, hyp: str, refs: Sequence[str]) -> list[list[int]]:
        ngrams = kernel("ngrams")
        if ngrams is None:
            return self._candidates(hyp, refs)[0]
        if not refs:
            raise ValueError("chrF needs at least one reference per segment")
        return self._compiled_candidates(hyp, refs, ngrams)

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        return self._choose([self._segment_candidates(hyp, refs)])[0][0]

    def _prec_rec(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n_hyp, n_ref, n_match = rows[:, 0::3], rows[:, 1::3], rows[:, 2::3]
        with np.errstate(divide="ignore", invalid="ignore"):
            prec = np.where(n_hyp > 0, n_match / np.where(n_hyp > 0, n_hyp, 1), _EPS)
            rec = np.where(n_ref > 0, n_match / np.where(n_ref > 0, n_ref, 1), _EPS)
        return prec, rec, (n_hyp > 0) & (n_ref > 0)

    def _combine(self, rows: np.ndarray) -> _Combined:
        """Per-order precision and recall of every row combined into its score (see the module docstring)."""
        factor = self.config.beta**2
        prec, rec, present = self._prec_rec(rows)
        m = len(rows)
        averages = np.zeros((m, 3))
        per_order = np.zeros((m, self.order))
        mean_f = np.zeros(m)
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.config.eps_smoothing:
                total = np.zeros(m)
                for i in range(self.order):  # left to right, as sacrebleu accumulates
                    denom = factor * prec[:, i] + rec[:, i]
                    f = np.where(denom > 0, (1 + factor) * prec[:, i] * rec[:, i] / np.where(denom > 0, denom, 1), _EPS)
                    per_order[:, i] = f
                    total = total + f
                scores = 100 * total / self.order
                mean_f = total / self.order
            else:
                avg_p, avg_r, eff = np.zeros(m), np.zeros(m), np.zeros(m)
                for i in range(self.order):
                    avg_p = np.where(present[:, i], avg_p + prec[:, i], avg_p)
                    avg_r = np.where(present[:, i], avg_r + rec[:, i], avg_r)
                    eff = eff + present[:, i]
                safe = np.where(eff > 0, eff, 1)
                avg_p = np.where(eff > 0, avg_p / safe, 0.0)
                avg_r = np.where(eff > 0, avg_r / safe, 0.0)
                num = (1 + factor) * avg_p * avg_r
                denom = (factor * avg_p) + avg_r
                scores = np.where(avg_p + avg_r != 0, 100 * (num / np.where(denom != 0, denom, 1)), 0.0)
                averages = np.stack([avg_p, avg_r, eff], axis=1)
        return _Combined(averages, per_order, mean_f, scores)

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        scores = self._combine(np.atleast_2d(pooled)).scores
        return scores if np.ndim(pooled) == 2 else scores[0]

    def _explain(self, hyp: str, refs: Sequence[str]) -> CHRFExplanation:
        candidates, hyp_ngrams = self._candidates(hyp, refs)
        chosen, scores = self._choose([candidates])
        row = chosen[0]
        best_k = int(np.argmax(scores[0]))
        stats = [int(x) for x in row]
        ref_ngrams = self._ref_ngrams(refs[best_k])[0]
        prec, rec, present = self._prec_rec(row[None, :])
        c = self.config
        spans = self._hyp_spans(hyp)
        orders = []
        for i, (h, r) in enumerate(zip(hyp_ngrams, ref_ngrams, strict=True)):
            at = spans[i]
            counts = [NgramCount(g, h[g], r.get(g, 0), min(h[g], r.get(g, 0)), tuple(at.get(g, ()))) for g in h]
            counts += [NgramCount(g, 0, r[g], 0) for g in r if g not in h]
            kind: Literal["char", "word"] = "char" if i < c.char_order else "word"
            n = i + 1 if kind == "char" else i + 1 - c.char_order
            orders.append(
                CHRFOrder(
                    kind,
                    n,
                    tuple(counts),
                    stats[3 * i],
                    stats[3 * i + 1],
                    stats[3 * i + 2],
                    float(prec[0, i]),
                    float(rec[0, i]),
                    bool(present[0, i]),
                )
            )
        combined = self._combine(row[None, :])
        combination: AveragedPR | AveragedF
        if c.eps_smoothing:
            f = tuple(float(x) for x in combined.f[0])
            combination = AveragedF(f, float(combined.mean_f[0]))
        else:
            avg_p, avg_r, eff = combined.averages[0]
            combination = AveragedPR(float(avg_p), float(avg_r), int(eff))
        return CHRFExplanation(
            score=float(combined.scores[0]),
            row=tuple(float(x) for x in row),
            best_ref=best_k,
            orders=tuple(orders),
            ref_scores=tuple(float(f) for f in scores[0]),
            hyp_chars=self._chars(hyp)[0],
            combination=combination,
        )

    def _chars(self, hyp: str) -> tuple[str, tuple[int, ...]]:
        """The characters the character n-grams are taken from, with their offsets in ``hyp``."""
        c = self.config
        text = hyp.lower() if c.lowercase and len(hyp.lower()) == len(hyp) else hyp
        return _char_offsets(text, c.whitespace)

    def _hyp_spans(self, hyp: str) -> list[dict[str, list[tuple[int, int]]]]:
        """Per order, every hypothesis n-gram's occurrences as character spans of ``hyp`` (those that can be
        located: lowercasing that changes a text's length leaves its character n-grams unlocated)."""
        c = self.config
        chars, offsets = self._chars(hyp)
        result: list[dict[str, list[tuple[int, int]]]] = []
        for n in range(1, c.char_order + 1):
            at: dict[str, list[tuple[int, int]]] = {}
            for i in range(len(chars) - n + 1):
                at.setdefault(chars[i : i + n], []).append((offsets[i], offsets[i + n - 1] + 1))
            result.append(at)
        words = split_punctuation(hyp.lower() if c.lowercase else hyp)
        tokens = locate(hyp, words, casefold=c.lowercase)
        for n in range(1, c.word_order + 1):
            at = {}
            for i in range(len(words) - n + 1):
                first, last = tokens[i], tokens[i + n - 1]
                if first.start is not None and last.end is not None:
                    at.setdefault(" ".join(words[i : i + n]), []).append((first.start, last.end))
            result.append(at)
        return result
