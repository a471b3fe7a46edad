"""CIDEr-D, exactly as pycocoevalcap 1.2 computes it (``pycocoevalcap.cider.Cider``, which *is* CIDEr-D).

Vedantam, Zitnick and Parikh, "CIDEr: Consensus-based Image Description Evaluation", CVPR 2015
(arXiv:1411.5726); the "-D" changes (clipping, Gaussian length penalty, ×10) are from the coco-caption code.

Equivalent reference call: ``Cider(n=4, sigma=6.0).compute_score(gts, res)`` with ``gts[i]`` the references and
``res[i] = [hypothesis]`` of image ``i``. With ``tokenize="ptb"`` (the default) ``gts`` and ``res`` are first put
through pycocoevalcap's ``PTBTokenizer`` as ``COCOEvalCap.evaluate`` does — lowercased, PTB-tokenized, punctuation
dropped, the references as one stream in image order and the hypotheses as another (:mod:`metrics.core.ptb`) —
which is the number COCO caption papers report. With ``tokenize="split"`` the raw text is only split on whitespace
(``str.split()``): pycocoevalcap's ``Cider`` called directly, a different and usually lower number.

What makes CIDEr-D unlike the other metrics is that a segment's score depends on the whole corpus: n-gram
weights are TF-IDF weights whose document frequencies are counted over the *references of every image*. So
:meth:`CiderD.stats` first binds the corpus (:meth:`CiderD.prepare`), and :meth:`CiderD.explain` /
:meth:`CiderD.segment_row` use the document frequencies of the corpus bound last (or an explicit
:class:`DocumentFrequencies`). When the statistics layer bootstraps or resamples segments it resamples the
per-image scores only: **the document frequencies stay those of the full corpus**, they are not recounted per
resample (pycocoevalcap run on a resampled corpus would recount them, and duplicate images would change them).

Traps reproduced (parity.md §8): df counts an n-gram once per image over the union of its references and never
counts hypotheses; idf = ln(#images) − ln(max(1, df)), so a one-image corpus scores 0 everywhere; a sentence's
"length" is its number of bigrams (len − 1); similarity per order is Σ min(v_h, v_r)·v_r divided by the norms
only when both are non-zero, times ``e ** (−δ²/2σ²)`` (Python float power, as ``np.e ** x``); per image the 4
orders are averaged with ``np.mean``, divided by the number of references and multiplied by 10.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from metrics.core.base import (
    CorpusDependent,
    CorpusSummary,
    Metric,
    Progress,
    Rows,
    SegmentStats,
    StatsNote,
    check_corpus,
    check_segment,
    segment_refs,
)
from metrics.core.config import check_options, option
from metrics.core.explanation import Explanation
from metrics.core.ngrams import ngram_positions
from metrics.core.ptb import PtbLine, ptb_tokenize_lines
from metrics.core.tokens import Token, locate
from metrics.core.traits import Traits

NGram = tuple[str, ...]
VERSION = "scorelens-0.1.0"


# pycocoevalcap cooks n-grams of orders 1..4 whatever ``Cider(n=...)`` says (``cook_refs``/``cook_test`` ignore
# it): n < 4 raises IndexError there and n > 4 only divides the score by n. So the order is fixed, not an option.
ORDERS = 4

# How captions become words: "ptb" as the COCO caption evaluation does, "split" the raw text on whitespace.
Tokenize = Literal["ptb", "split"]
RAW_TEXT_NOTE = (
    "CIDEr-D on raw text (tok:split) is not the number COCO caption papers report: they PTB-tokenize, lowercase "
    "and drop punctuation first, as CIDEr-D's default tokenization (tok:ptb) does"
)


@dataclass(frozen=True)
class CiderDConfig:
    """``sigma``: σ of the Gaussian length penalty (pycocoevalcap default 6.0); ``tokenize``: how captions become
    words (PTB as COCOEvalCap, or raw text split on whitespace)."""

    tokenize: Tokenize = option(
        "ptb",
        label="Tokenization",
        help="ptb = pycocoevalcap's PTBTokenizer (lowercase, PTB tokens, no punctuation), as COCO caption papers "
        "report; split = raw text split on spaces (pycocoevalcap's Cider called on untokenized text).",
        choice_labels={"ptb": "PTB (COCO caption evaluation)", "split": "none (split on spaces)"},
    )
    sigma: float = option(
        6.0,
        label="σ of the length penalty",
        help="Gaussian penalty exp(−δ²/2σ²); 6 in CIDEr-D.",
        low=0.0,
        low_open=True,
        step=0.5,
    )

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True)
class DocumentFrequencies(CorpusSummary):
    """Document frequencies of a reference corpus: ``counts[g]`` is the number of images whose references contain
    n-gram ``g``; ``images`` is the number of images (segments). Read-only once built."""

    counts: Mapping[NGram, int]
    images: int

    def __add__(self, other: DocumentFrequencies) -> DocumentFrequencies:
        """The frequencies of two disjoint sets of images together: each image is counted in one of them only, so
        the counts add up exactly (a distributed run counts its partitions apart)."""
        counts = Counter(self.counts)
        counts.update(other.counts)
        return DocumentFrequencies(counts, self.images + other.images)

    @property
    def log_images(self) -> float:
        """ln(#images), pycocoevalcap's ``ref_len``; 0 for a one-image corpus, which zeroes every weight."""
        return float(np.log(float(self.images)))

    def df(self, gram: NGram) -> int:
        return self.counts.get(gram, 0)

    def idf(self, gram: NGram) -> float:
        return self.log_images - float(np.log(max(1.0, float(self.df(gram)))))


@dataclass(frozen=True)
class GramWeight:
    """One n-gram of a sentence: term frequency, document frequency, idf, its TF-IDF weight ``tf·idf`` and the token
    index where each occurrence starts."""

    gram: NGram
    tf: int
    df: int
    idf: float
    weight: float
    positions: tuple[int, ...]


@dataclass(frozen=True)
class ClippedTerm:
    """A hypothesis n-gram that the reference also has: its contribution ``min(v_h, v_r)·v_r`` to the dot product."""

    gram: NGram
    hyp_weight: float
    ref_weight: float
    contribution: float


@dataclass(frozen=True)
class OrderSimilarity:
    """Similarity of the hypothesis and one reference at one n-gram order.

    ``cosine`` is ``dot / (hyp_norm·ref_norm)``, or ``dot`` itself when a norm is 0 (pycocoevalcap divides only
    when both are non-zero); ``value = cosine · penalty``.
    """

    order: int
    terms: tuple[ClippedTerm, ...]
    dot: float
    hyp_norm: float
    ref_norm: float
    cosine: float
    penalty: float
    value: float


@dataclass(frozen=True)
class ReferenceEvidence:
    """One reference: its tokens, its TF-IDF entries per order, its norms, δ and the Gaussian penalty."""

    tokens: tuple[Token, ...]
    grams: tuple[tuple[GramWeight, ...], ...]
    norms: tuple[float, ...]
    length: int
    delta: float
    penalty: float
    orders: tuple[OrderSimilarity, ...]


@dataclass(frozen=True, kw_only=True)
class CiderExplanation(Explanation):
    """Evidence behind one image's CIDEr-D; ``best_ref`` is None: the score averages over every reference.

    ``per_order[k]`` is Σ over references of the order-``k+1`` similarity, ``mean_similarity`` their mean over the
    orders, and ``score = 10 · mean_similarity / #refs``. ``length`` is the bigram count that δ uses.
    ``images``/``log_images`` describe the corpus whose document frequencies weighted the n-grams.
    """

    tokens: tuple[Token, ...]
    grams: tuple[tuple[GramWeight, ...], ...]
    norms: tuple[float, ...]
    length: int
    references: tuple[ReferenceEvidence, ...]
    per_order: tuple[float, ...]
    mean_similarity: float
    images: int
    log_images: float
    sigma: float


@dataclass(frozen=True)
class _Vector:
    """TF-IDF vector of one sentence: per order ``{gram: weight}``, norms and bigram length."""

    counts: tuple[dict[NGram, int], ...]
    weights: tuple[dict[NGram, float], ...]
    norms: tuple[float, ...]
    length: int


class _Weights:
    """idf per n-gram of one reference corpus, computed with the same primitives as pycocoevalcap."""

    def __init__(self, df: DocumentFrequencies) -> None:
        self.df = df
        self.log_images = np.log(float(df.images))
        # idf depends only on the df count, so np.log runs once per distinct count, not once per n-gram, and no
        # second corpus-sized map is kept: an n-gram's idf is that of its count.
        self.by_count = {c: float(self.log_images - np.log(max(1.0, float(c)))) for c in set(df.counts.values())}
        self.unseen = float(self.log_images - np.log(1.0))

    def idf(self, gram: NGram) -> float:
        count = self.df.counts.get(gram)
        return self.unseen if count is None else self.by_count[count]

    def vector(self, counts: tuple[dict[NGram, int], ...]) -> _Vector:
        df, by_count, unseen = self.df.counts, self.by_count, self.unseen
        weights = []
        norms = []
        for order_counts in counts:
            vec = {}
            sq = 0.0
            for gram, tf in order_counts.items():
                count = df.get(gram)
                w = float(tf) * (unseen if count is None else by_count[count])
                vec[gram] = w
                sq += w * w
            weights.append(vec)
            norms.append(math.sqrt(sq))
        length = sum(counts[1].values()) if len(counts) > 1 else 0
        return _Vector(counts, tuple(weights), tuple(norms), length)


_PIECE = re.compile(r"\S+")  # the words str.split() makes of a token


def _ptb_words(line: PtbLine) -> tuple[Token, ...]:
    """The words CIDEr-D counts in a PTB-tokenized caption. pycocoevalcap joins the tokens with spaces and its
    ``Cider`` splits on any whitespace, so a token that holds U+00A0 (``3\u00a01/2``, an SGML tag) counts as two
    words; each keeps its span inside the token's when the token is as long as its source text (PTB put U+00A0
    where a space was), else none."""
    words: list[Token] = []
    for token in line.tokens:
        pieces = list(_PIECE.finditer(token.text))
        if len(pieces) == 1:
            words.append(token)
        elif token.start is not None and token.end is not None and token.end - token.start == len(token.text):
            words += [Token(p.group(), token.start + p.start(), token.start + p.end()) for p in pieces]
        else:
            words += [Token(p.group(), None, None) for p in pieces]
    return tuple(words)


def caption_tokens(captions: Sequence[str], tokenize: Tokenize) -> list[tuple[Token, ...]]:
    """The words of each caption as CIDEr-D counts them, with their spans. PTB tokenizes ``captions`` as one
    stream in this order, as pycocoevalcap does (see :mod:`metrics.core.ptb`)."""
    if tokenize == "split":
        return [locate(caption, caption.split()) for caption in captions]
    return [_ptb_words(line) for line in ptb_tokenize_lines(captions)]


def caption_words(captions: Sequence[str], tokenize: Tokenize) -> list[list[str]]:
    """The words alone (the scoring path, which needs no spans)."""
    if tokenize == "split":
        return [caption.split() for caption in captions]
    return [line.text.split() for line in ptb_tokenize_lines(captions)]


def _image_words(refs: Sequence[Sequence[str | None]], tokenize: Tokenize) -> list[list[list[str]]]:
    """Words of every image's references; PTB reads them as pycocoevalcap's ``gts``: image by image, one stream."""
    per_image = [segment_refs(refs, i) for i in range(len(refs[0]))] if refs else []
    words = iter(caption_words([ref for image in per_image for ref in image], tokenize))
    return [[next(words) for _ in image] for image in per_image]


def ngram_counts(words: Sequence[str], n: int) -> tuple[dict[NGram, int], ...]:
    """Counts of the n-grams of each order 1..n, each dict in order of first occurrence (as pycocoevalcap)."""
    return tuple(Counter(zip(*(words[j:] for j in range(k)), strict=False)) for k in range(1, n + 1))


Cooked = list[list[tuple[dict[NGram, int], ...]]]  # per image, per reference: n-gram counts of each order


def _count_documents(cooked: Cooked) -> DocumentFrequencies:
    counts: Counter[NGram] = Counter()
    for image in cooked:
        grams: set[NGram] = set()
        for ref in image:
            for order in ref:
                grams.update(order)
        counts.update(grams)
    return DocumentFrequencies(counts, len(cooked))


def document_frequencies(refs: Sequence[Sequence[str | None]], tokenize: Tokenize = "ptb") -> DocumentFrequencies:
    """Document frequencies of reference streams ``refs`` (``refs[k][i]``: reference ``k`` of image ``i``)."""
    return _count_documents([[ngram_counts(ref, ORDERS) for ref in image] for image in _image_words(refs, tokenize)])


def _mean4(values: list[float]) -> float:
    # np.mean, not sum()/k: numpy's reduction order differs from left-to-right summation in the last bit.
    return float(np.mean(np.array(values)))


class CiderD(Metric[CiderDConfig, CiderExplanation], CorpusDependent):
    """CIDEr-D (pycocoevalcap 1.2 ``Cider``): consensus TF-IDF n-gram similarity with clipping and a length
    penalty, 0–10. Rows hold one score per image (aggregate "mean"), the reference averages image scores."""

    id = "cider"
    aggregate = "mean"
    Config = CiderDConfig
    explanation_type = CiderExplanation

    def __init__(self, config: CiderDConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._fit_key: tuple[tuple[str | None, ...], ...] | None = None
        self._weights: _Weights | None = None
        self._ref_vectors: list[list[_Vector]] = []

    @property
    def traits(self) -> Traits:
        """PTB reads the captions as one stream, and whether a caption's last period stands alone can depend on the
        next caption (:mod:`metrics.core.ptb`), so partitions would differ at their edges: the dask engine scores
        CIDEr-D with PTB as one task."""
        if self.config.tokenize == "ptb":
            return Traits(partitionable=False, whole_task=True)
        return Traits()

    @property
    def name(self) -> str:
        return "CIDEr-D"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("cider",)

    @property
    def document_frequencies(self) -> DocumentFrequencies | None:
        """Document frequencies of the corpus bound by :meth:`prepare` or :meth:`stats` (``None`` before)."""
        return self._weights.df if self._weights is not None else None

    def prepare(self, refs: Sequence[Sequence[str | None]]) -> None:
        """Bind the reference corpus whose document frequencies weight every n-gram.

        Binding equal reference streams again reuses the cached n-gram vectors (several systems, one corpus).
        """
        self._fit(refs)

    def _fit(self, refs: Sequence[Sequence[str | None]]) -> _Weights:
        if isinstance(refs, str) or not refs or any(isinstance(stream, str) for stream in refs):
            raise TypeError("cider: references must be a list of reference streams (a list of lists of strings)")
        key = tuple(tuple(stream) for stream in refs)
        if key == self._fit_key and self._weights is not None:
            return self._weights
        cooked = self._cooked(key)
        weights = _Weights(_count_documents(cooked))
        self._ref_vectors = self._vectors(weights, cooked)
        self._weights = weights
        self._fit_key = key
        return weights

    def _cooked(self, refs: Sequence[Sequence[str | None]]) -> Cooked:
        lengths = {len(stream) for stream in refs}
        if len(lengths) != 1:
            raise ValueError(f"cider: reference streams have different lengths {sorted(lengths)}")
        for i in range(len(refs[0])):
            if not segment_refs(refs, i):
                raise ValueError(f"cider: segment {i + 1} has no reference (CIDEr-D needs at least one per image)")
        # One object per distinct word: the n-grams kept for the whole corpus would otherwise hold a copy of every
        # word of every reference (tens of megabytes on CNN/DailyMail).
        vocabulary: dict[str, str] = {}
        word = vocabulary.setdefault
        return [
            [ngram_counts([word(w, w) for w in ref], ORDERS) for ref in image]
            for image in _image_words(refs, self.config.tokenize)
        ]

    @staticmethod
    def _vectors(weights: _Weights, cooked: Cooked) -> list[list[_Vector]]:
        """Every image's reference vectors under ``weights``, emptying ``cooked`` as it goes. Scoring reads a
        reference's weights, norms and length; its counts (evidence only) are left out, as an explanation
        recomputes its references' vectors."""
        vectors = []
        for k, image in enumerate(cooked):
            vectors.append([replace(weights.vector(ref), counts=()) for ref in image])
            cooked[k] = []
        return vectors

    def summarize(self, refs: Sequence[Sequence[str | None]]) -> DocumentFrequencies:
        """Document frequencies of these images' references; a partition's add up to the corpus's (see ``+``)."""
        return _count_documents(self._cooked(refs))

    def stats_within(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], summary: CorpusSummary
    ) -> SegmentStats:
        """Score these images with the document frequencies ``summary`` of a corpus that contains them, which
        :meth:`explain` then uses too. PTB tokenizes this partition's captions as one stream: the last caption does
        not see the next partition's first, which can keep a final single-letter abbreviation's period."""
        if not isinstance(summary, DocumentFrequencies):
            raise TypeError(f"cider: scores within DocumentFrequencies, not {type(summary).__name__}")
        check_corpus(hyps, refs, self.id)
        if self._weights is None or self._weights.df is not summary:
            # Bound once per summary: every partition a worker scores shares the one broadcast object.
            self._weights, self._fit_key = _Weights(summary), None
        rows = self._scored(hyps, self._weights, self._vectors(self._weights, self._cooked(refs)))
        return SegmentStats(self.id, self.columns, rows.matrix, self.aggregate, rows.notes)

    def _bound(self, df: DocumentFrequencies | None) -> _Weights:
        if df is not None:
            if self._weights is not None and self._weights.df is df:
                return self._weights
            return _Weights(df)
        if self._weights is None:
            raise ValueError(
                "cider: CIDEr-D weights n-grams by document frequencies of the whole reference corpus; "
                "call prepare(refs) or stats(hyps, refs) first, or pass df=document_frequencies(refs)"
            )
        return self._weights

    def _similarities(
        self, hyp: _Vector, refs: Sequence[_Vector], evidence: bool
    ) -> tuple[list[float], list[list[OrderSimilarity]], list[tuple[float, float]]]:
        """Σ over references of the per-order similarity (the one arithmetic path for rows and explanations)."""
        n = ORDERS
        two_sigma_sq = 2 * self.config.sigma**2
        totals = [0.0] * n
        details: list[list[OrderSimilarity]] = []
        deltas: list[tuple[float, float]] = []
        for ref in refs:
            delta = float(hyp.length - ref.length)
            penalty = math.e ** (-(delta**2) / two_sigma_sq)
            orders = []
            for k in range(n):
                hvec, rvec = hyp.weights[k], ref.weights[k]
                dot = 0.0
                terms = []
                for gram, vh in hvec.items():
                    vr = rvec.get(gram)
                    if vr is None:
                        continue
                    term = (vr if vr < vh else vh) * vr
                    dot += term
                    if evidence:
                        terms.append(ClippedTerm(gram, vh, vr, term))
                cosine = dot
                if hyp.norms[k] != 0 and ref.norms[k] != 0:
                    cosine = dot / (hyp.norms[k] * ref.norms[k])
                value = cosine * penalty
                totals[k] += value
                if evidence:
                    orders.append(
                        OrderSimilarity(k + 1, tuple(terms), dot, hyp.norms[k], ref.norms[k], cosine, penalty, value)
                    )
            details.append(orders)
            deltas.append((delta, penalty))
        return totals, details, deltas

    def _image_score(self, totals: list[float], nrefs: int) -> tuple[float, float]:
        """(mean similarity over the orders, the image's score)."""
        mean = _mean4(totals)
        return mean, mean / nrefs * 10.0

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        """Score of one image with the document frequencies of the bound corpus (see :meth:`prepare`)."""
        return np.array(self._explain(hyp, refs).row, dtype=np.float64)

    def explain(self, hyp: str, refs: Sequence[str], df: DocumentFrequencies | None = None) -> CiderExplanation:
        """Evidence for one image, weighted by ``df`` or by the corpus bound last with :meth:`prepare`/:meth:`stats`."""
        return self._explain(*check_segment(hyp, refs, self.name), df)

    def _explain(self, hyp: str, refs: Sequence[str], df: DocumentFrequencies | None = None) -> CiderExplanation:
        refs = list(refs)
        if not refs:
            raise ValueError("cider: CIDEr-D needs at least one reference per image")
        weights = self._bound(df)
        n = ORDERS
        # The evidence tokenizes one image's captions alone; in a corpus run the caption after each one can decide
        # whether a final abbreviation keeps its period (metrics.core.ptb), which this cannot see.
        hyp_tokens = caption_tokens([hyp], self.config.tokenize)[0]
        ref_tokens = caption_tokens(refs, self.config.tokenize)
        hyp_words = [t.text for t in hyp_tokens]
        ref_words = [[t.text for t in tokens] for tokens in ref_tokens]
        hvec = weights.vector(ngram_counts(hyp_words, n))
        rvecs = [weights.vector(ngram_counts(words, n)) for words in ref_words]
        totals, details, deltas = self._similarities(hvec, rvecs, evidence=True)
        mean, score = self._image_score(totals, len(refs))

        def grams(vec: _Vector, words: Sequence[str]) -> tuple[tuple[GramWeight, ...], ...]:
            return tuple(
                tuple(
                    GramWeight(
                        g,
                        tf,
                        weights.df.df(g),
                        weights.idf(g),
                        vec.weights[k][g],
                        tuple(at.get(g, ())),
                    )
                    for g, tf in vec.counts[k].items()
                )
                for k, at in enumerate(ngram_positions(words, order) for order in range(1, n + 1))
            )

        references = tuple(
            ReferenceEvidence(
                tokens=tokens,
                grams=grams(rvec, words),
                norms=rvec.norms,
                length=rvec.length,
                delta=delta,
                penalty=penalty,
                orders=tuple(orders),
            )
            for tokens, words, rvec, orders, (delta, penalty) in zip(
                ref_tokens, ref_words, rvecs, details, deltas, strict=True
            )
        )
        return CiderExplanation(
            score=score,
            row=(score,),
            tokens=hyp_tokens,
            grams=grams(hvec, hyp_words),
            norms=hvec.norms,
            length=hvec.length,
            references=references,
            per_order=tuple(totals),
            mean_similarity=mean,
            images=weights.df.images,
            log_images=float(weights.log_images),
            sigma=self.config.sigma,
        )

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        """Bind ``refs`` as the corpus (document frequencies) and score every image against it."""
        return self._scored(hyps, self._fit(refs), self._ref_vectors, progress)

    def _scored(
        self,
        hyps: Sequence[str],
        weights: _Weights,
        ref_vectors: list[list[_Vector]],
        progress: Progress | None = None,
    ) -> Rows:
        scores = np.empty(len(hyps), dtype=np.float64)
        # PTB reads the hypotheses as pycocoevalcap's ``res``: one stream in image order.
        hyp_words = caption_words(hyps, self.config.tokenize)
        for i, (words, rvecs) in enumerate(zip(hyp_words, ref_vectors, strict=True)):
            hvec = weights.vector(ngram_counts(words, ORDERS))
            totals, _, _ = self._similarities(hvec, rvecs, evidence=False)
            scores[i] = self._image_score(totals, len(rvecs))[1]
            if progress is not None:
                progress(i + 1)
        notes: list[StatsNote] = []
        if self.config.tokenize == "split":
            notes.append(StatsNote(RAW_TEXT_NOTE))
        if weights.df.images == 1:
            notes.append(
                StatsNote(
                    "CIDEr-D of a one-image corpus is 0 for every hypothesis: idf = ln(1) − ln(df) = 0 (as pycocoevalcap)"
                )
            )
        return Rows(scores[:, None], tuple(notes))

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., 0]

    def signature(self) -> str:
        # nrefs is prepended by metrics.core.evaluation.full_signature, which sees the reference streams.
        return f"tok:{self.config.tokenize}|df:corpus|n:{ORDERS}|sigma:{self.config.sigma:g}|ref:pycocoevalcap-1.2|version:{VERSION}"
