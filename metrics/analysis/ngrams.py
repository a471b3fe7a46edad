"""Characteristic n-grams of two systems: the n-grams system A matches in the references more often than system B
does, and the other way round (compare-mt's n-gram difference analysis, ``compare_type="match"``).

compare-mt (``ngram_utils.compare_ngrams``) counts, per segment, every output n-gram that still has an unused
occurrence in the reference, i.e. ``min(count in output, count in reference)`` per n-gram — the clipped count of
BLEU. With several references the clip is the largest count over them (BLEU's rule; compare-mt takes one
reference, and with one reference the two agree). The matches are summed over the corpus per system, and each
n-gram is ranked by the smoothed match ratio of ``stat_utils.extract_salient_features``:
``(m_A + α) / (m_A + m_B + 2α)`` with α = 1 (its default), highest first for "A > B" and lowest first for
"B > A". compare-mt leaves ties in arbitrary order; here they go to the n-gram with more matches in all, then
alphabetical order. Tokens are the analysis unit's (a metric's own tokenizer, see :mod:`metrics.analysis.units`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from metrics.analysis.defaults import NGRAM_ALPHA, NGRAM_TOP
from metrics.core.ngrams import Ngram, ngram_counts

Tokens = Sequence[str]


@dataclass(frozen=True)
class NgramContrast:
    """One n-gram: how often A and B matched it over the corpus, its smoothed ratio, and the segments (0-based)
    where A or B matched it."""

    a: str
    b: str
    tokens: Ngram
    matches_a: int
    matches_b: int
    ratio: float
    segments: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def text(self) -> str:
        return " ".join(self.tokens)


@dataclass(frozen=True)
class NgramReport:
    """The ``top`` n-grams where A matches more than B (``a_better``) and where B matches more (``b_better``)."""

    a: str
    b: str
    min_n: int
    max_n: int
    alpha: float
    a_better: tuple[NgramContrast, ...]
    b_better: tuple[NgramContrast, ...]


def reference_counts(refs: Sequence[Sequence[Tokens]], min_n: int = 1, max_n: int = 4) -> list[Counter[Ngram]]:
    """Per segment, the largest count of every n-gram over its references (``refs[i]``: segment ``i``'s token
    lists): what an output may match, computed once for every system."""
    found = []
    for segment in refs:
        allowed: Counter[Ngram] = Counter()
        for ref in segment:
            allowed |= ngram_counts(ref, min_n, max_n)  # | keeps the maximum count per n-gram
        found.append(allowed)
    return found


def corpus_matches(
    hyps: Sequence[Tokens], allowed: Sequence[Counter[Ngram]], min_n: int = 1, max_n: int = 4
) -> list[Counter[Ngram]]:
    """Per segment, the clipped matches of a system's output against :func:`reference_counts`."""
    if len(hyps) != len(allowed):
        raise ValueError(f"{len(hyps)} outputs for {len(allowed)} segments of references")
    found = []
    for hyp, limit in zip(hyps, allowed, strict=True):
        counts = ngram_counts(hyp, min_n, max_n)
        found.append(Counter({g: min(c, limit[g]) for g, c in counts.items() if g in limit}))
    return found


def _check(a: str, b: str, min_n: int, max_n: int, alpha: float, top: int) -> None:
    if a == b:
        raise ValueError(f"characteristic n-grams compare two different systems; both are {a!r}")
    if not 1 <= min_n <= max_n:
        raise ValueError(f"n-gram orders must satisfy 1 ≤ min ≤ max, not {min_n}..{max_n}")
    if not alpha > 0:
        raise ValueError(f"the smoothing α must be positive, not {alpha}")
    if top < 1:
        raise ValueError(f"report at least one n-gram, not {top}")


def characteristic_ngrams(
    a: str,
    b: str,
    matches: Mapping[str, Sequence[Counter[Ngram]]],
    *,
    min_n: int = 1,
    max_n: int = 4,
    alpha: float = NGRAM_ALPHA,
    top: int = NGRAM_TOP,
) -> NgramReport:
    """The n-grams that tell A and B apart, from each system's per-segment matches (:func:`corpus_matches`)."""
    _check(a, b, min_n, max_n, alpha, top)
    for name in (a, b):
        if name not in matches:
            raise ValueError(f"no system named {name!r}; systems: {', '.join(matches)}")
    totals = {name: Counter[Ngram]() for name in (a, b)}
    where: dict[Ngram, list[int]] = {}
    for i, (seg_a, seg_b) in enumerate(zip(matches[a], matches[b], strict=True)):
        for name, seg in ((a, seg_a), (b, seg_b)):
            for gram, count in seg.items():
                if min_n <= len(gram) <= max_n:
                    totals[name][gram] += count
        for gram in seg_a.keys() | seg_b.keys():
            if min_n <= len(gram) <= max_n:
                where.setdefault(gram, []).append(i)

    def contrast(gram: Ngram) -> NgramContrast:
        m_a, m_b = totals[a][gram], totals[b][gram]
        return NgramContrast(a, b, gram, m_a, m_b, (m_a + alpha) / (m_a + m_b + 2 * alpha), tuple(where[gram]))

    found = [contrast(gram) for gram in where]
    a_better = sorted(found, key=lambda c: (-c.ratio, -(c.matches_a + c.matches_b), c.tokens))
    b_better = sorted(found, key=lambda c: (c.ratio, -(c.matches_a + c.matches_b), c.tokens))
    return NgramReport(
        a,
        b,
        min_n,
        max_n,
        alpha,
        tuple(c for c in a_better[:top] if c.ratio > 0.5),
        tuple(c for c in b_better[:top] if c.ratio < 0.5),
    )
