"""Scores per document, and the documents on which the ranking of systems flips relative to the corpus ranking.

A document's score is the corpus score of its segments' pooled statistics, as for a bucket (so BLEU of a document
is sacrebleu's corpus BLEU of its lines). A *flip* is a pair of systems in one order on the corpus and in the other
on the document (a tie on either side is no flip).

With many systems nearly every document flips some pair — most pairs of a dozen systems are close, and a short
document reorders close systems by chance (WMT23 he-en paragraphs, 12 systems: 170 of 171 documents). What matters
is a flip of a pair whose corpus-level difference is *significant* (given by the caller, e.g. Holm-corrected paired
bootstrap p < 0.05): the document goes against a difference the corpus establishes. Such documents come first,
largest reversal first — the reversal being how much better, on the document and in the metric's units, the system
that is worse on the corpus scores; then the documents that flip only close pairs, by the share of pairs flipped.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.analysis.scoring import subset
from metrics.core.base import Metric, SegmentStats
from metrics.stats.significance import PairResult


@dataclass(frozen=True)
class DocumentScores:
    """One document: its segments (0-based) and every system's score under every metric on them."""

    document: str
    segments: tuple[int, ...]
    scores: Mapping[str, Mapping[str, float]]  # system → metric id → score


@dataclass(frozen=True)
class RankingFlip:
    """A document where systems come in another order than on the corpus, under one metric. ``pairs``: each
    flipped pair as ``(better here, better on the corpus)``; ``n_pairs``: the pairs compared; ``significant``: the
    flipped pairs whose corpus difference is significant, largest reversal first, with ``reversals`` their
    document-level margins (how much better the first scores here, in the metric's units, always positive)."""

    document: str
    metric: str
    n_segments: int
    pairs: tuple[tuple[str, str], ...]
    n_pairs: int
    significant: tuple[tuple[str, str], ...] = ()
    reversals: tuple[float, ...] = ()

    @property
    def reversal(self) -> float:
        """The largest reversal of a significantly different pair (0 when none flips)."""
        return self.reversals[0] if self.reversals else 0.0

    @property
    def share(self) -> float:
        return len(self.pairs) / self.n_pairs if self.n_pairs else 0.0


def document_scores(
    documents: Sequence[str], metrics: Mapping[str, Metric], stats: Mapping[str, Mapping[str, SegmentStats]]
) -> tuple[DocumentScores, ...]:
    """Every document's scores, documents in order of first appearance (``documents[i]``: segment ``i``'s id)."""
    names = list(stats)
    if not names:
        raise ValueError("no systems to analyse")
    n = len(next(iter(stats[names[0]].values())))
    if len(documents) != n:
        raise ValueError(f"{len(documents)} document ids for {n} segments")
    order = list(dict.fromkeys(documents))
    number = {doc: k for k, doc in enumerate(order)}
    column = np.array([number[d] for d in documents])
    indices = [np.flatnonzero(column == k) for k in range(len(order))]
    values: dict[str, dict[str, np.ndarray]] = {name: {} for name in names}
    for metric_id, metric in metrics.items():
        for name in names:
            pooled = np.stack([subset(stats[name][metric_id], index).pooled() for index in indices])
            values[name][metric_id] = np.asarray(metric.score_pooled(pooled), dtype=np.float64)
    return tuple(
        DocumentScores(
            doc,
            tuple(int(i) for i in indices[k]),
            {name: {m: float(values[name][m][k]) for m in metrics} for name in names},
        )
        for k, doc in enumerate(order)
    )


def differs(result: PairResult, alpha: float) -> bool:
    """Whether an all-pairs test says the two systems differ at ``alpha``: by the Holm-corrected p where the report
    has it (as the overview marks them); identical systems never."""
    return not result.identical and (result.p_value if result.p_corrected is None else result.p_corrected) < alpha


def _flipped(
    here: Mapping[str, float], corpus: Mapping[str, float], higher_is_better: bool
) -> list[tuple[tuple[str, str], float]]:
    """Every flipped pair as ``(better here, better on the corpus)`` with its margin here."""
    sign = 1.0 if higher_is_better else -1.0
    names = list(corpus)
    flips = []
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            on_corpus = sign * (corpus[x] - corpus[y])
            on_document = sign * (here[x] - here[y])
            if on_corpus * on_document < 0:
                flips.append(((x, y) if on_document > 0 else (y, x), abs(on_document)))
    return flips


def ranking_flips(
    documents: Sequence[DocumentScores],
    corpus: Mapping[str, Mapping[str, float]],
    higher_is_better: Mapping[str, bool],
    significant: Mapping[str, Collection[frozenset[str]]] | None = None,
) -> tuple[RankingFlip, ...]:
    """Documents whose ranking differs from the corpus ranking (``corpus[system][metric_id]``), under each metric.

    ``significant[metric_id]``: the pairs of systems (as frozensets) whose corpus difference is significant. Order:
    documents flipping such a pair first, by their largest reversal; then by the share of pairs flipped (then
    larger documents first)."""
    names = list(corpus)
    n_pairs = len(names) * (len(names) - 1) // 2
    found = []
    for metric_id, higher in higher_is_better.items():
        on_corpus = {name: corpus[name][metric_id] for name in names}
        established = frozenset((significant or {}).get(metric_id, ()))
        for doc in documents:
            here = {name: doc.scores[name][metric_id] for name in names}
            flips = _flipped(here, on_corpus, higher)
            if flips:
                strong = sorted((f for f in flips if frozenset(f[0]) in established), key=lambda f: -f[1])
                found.append(
                    RankingFlip(
                        doc.document,
                        metric_id,
                        len(doc.segments),
                        tuple(pair for pair, _ in flips),
                        n_pairs,
                        tuple(pair for pair, _ in strong),
                        tuple(margin for _, margin in strong),
                    )
                )
    return tuple(sorted(found, key=lambda f: (-f.reversal, -f.share, -f.n_segments)))
