"""How long one text may be before a metric whose work grows faster than its length stops reading it.

A shared server scores whatever a user uploads: one 343 KB line made ROUGE-Lsum build a 15 GB table, and TER's or
ROUGE-W's tables grow with the square of a line too. Each such metric states here the most characters of one
hypothesis or reference it reads (characters, not tokens, because every tokenizer makes at most one token per
character, so the bound holds whatever the options). A longer text is scored on its first ``characters``
characters, cut back to the last whitespace so that no word is split; the rest of the corpus is scored as before,
and :meth:`~metrics.core.base.Metric.stats` adds a note naming the segments cut, as the explanation of such a
segment does. The limits lie above sentences, summaries and WMT paragraphs (2,800 characters), so scores of ordinary data are
unchanged.

The numbers: CPU time and peak memory of ``stats()`` on one segment of two texts at the limit (2 shared cores), for
words of a 2,000-word vocabulary / for one-letter words (a token per two characters, the most matches):

=================  ==========  ============================================================================
metric             characters  at the limit (words / one-letter words)
=================  ==========  ============================================================================
TER                5,000       0.9 s, 36 MB / 0.6 s, 83 MB (a 9-byte table cell per word pair); 2.3 s for
                               2,400 words of a ten-word vocabulary against them reversed (every position a
                               shift candidate), which Stop ends (:mod:`metrics.core.checkpoint`)
ROUGE-L            200,000     0.07 s, 38 MB / 0.6 s, 31 MB (bit-parallel LCS)
ROUGE-Lsum         12,000      0.03 s, 48 MB / 0.15 s, 167 MB (a 4-byte cell per token pair of one sentence)
ROUGE-W            5,000       0.05 s, 30 MB / 1.6 s, 84 MB (a weighted-LCS table in numpy)
METEOR             30,000      1.0 s, 64 MB / 0.16 s, 65 MB (its alignment search)
CharacTER          2,000       0.06 s, 31 MB / 0.4 s, 31 MB (a shift search over character edit distances)
ROUGE-S/SU         12,000      with a skip distance over ``WIDE_SKIP`` or none (ROUGE-S*), whose skip bigrams
                               grow with the square of the length: 0.3 s, 125 MB for 2,000 words (10,000
                               words took 7.5 s and 1.7 GB); within ``WIDE_SKIP`` they are linear, no limit
=================  ==========  ============================================================================

Before the limits, one 60,000-word line made TER raise a bare MemoryError (65,536 words crashed the process),
ROUGE-W run past two minutes, and a 116 KB one-line upload made ROUGE-Lsum peak at 1.6 GB (a 343 KB one needed
15 GB).

Bounded otherwise, and so not listed: WER, CER, MER, WIL and WIP (``max_cells``: a banded, then chunked, distance;
2.2 s and 46 MB for two 60,000-word lines), EED (``max_cells``: a pair beyond it scores 1.0 unaligned), TER's
shift search (``search_budget``). The n-gram metrics (BLEU, chrF, ROUGE-N, CIDEr-D, ROUGE-S/SU within
``WIDE_SKIP``) are linear in the length; BERTScore reads the model's maximum length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CHARACTER",
    "METEOR",
    "ROUGE_L",
    "ROUGE_LSUM",
    "ROUGE_S_WIDE",
    "ROUGE_W",
    "TER",
    "Clipped",
    "SegmentLimit",
    "clip",
    "clip_corpus",
    "pair_cells",
]


@dataclass(frozen=True)
class SegmentLimit:
    """The most characters of one hypothesis or reference a metric reads; ``why`` names what grows past it."""

    characters: int
    why: str

    def __post_init__(self) -> None:
        if self.characters < 1:
            raise ValueError(f"a segment limit must be positive, not {self.characters}")

    @property
    def kind(self) -> str:
        """The note's words: what was done to the texts over the limit (the same for every system)."""
        return (
            f"a hypothesis or reference longer than {self.characters:,} characters was scored on its first "
            f"{self.characters:,} characters (back to the last space before the cut, if any) to bound {self.why}"
        )


TER = SegmentLimit(5_000, "the memory and time of TER's edit-distance table")
ROUGE_L = SegmentLimit(200_000, "the time of the longest-common-subsequence search")
ROUGE_LSUM = SegmentLimit(12_000, "the memory of ROUGE-Lsum's sentence tables")
ROUGE_W = SegmentLimit(5_000, "the memory and time of ROUGE-W's weighted-LCS table")
METEOR = SegmentLimit(30_000, "the time of METEOR's alignment search")
CHARACTER = SegmentLimit(2_000, "the time of CharacTER's shift search")
ROUGE_S_WIDE = SegmentLimit(12_000, "the skip bigrams of a wide or unlimited skip distance")
# ROUGE-S/SU skip distances up to this make at most 17 skip bigrams per word: a 1 MB line is a few million.
WIDE_SKIP = 16


def clip(text: str, limit: SegmentLimit) -> str:
    """``text``, or its first ``limit.characters`` characters cut back to the last whitespace (a text with none
    there is cut at the limit)."""
    if len(text) <= limit.characters:
        return text
    head = text[: limit.characters + 1]  # a space right after the limit ends the last whole word
    for end in range(len(head) - 1, 0, -1):
        if head[end].isspace():
            return head[:end].rstrip()
    return text[: limit.characters]


@dataclass(frozen=True)
class Clipped:
    """A corpus with every text within a limit: ``hyps`` and ``refs`` as :meth:`Metric.stats` takes them, and the
    0-based segments that had a text cut."""

    hyps: Sequence[str]
    refs: Sequence[Sequence[str | None]]
    segments: tuple[int, ...]


def clip_corpus(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], limit: SegmentLimit) -> Clipped:
    """The corpus with its texts over ``limit`` cut (:func:`clip`); the caller's lists are the ones returned when
    nothing is over it, and are never changed."""
    size = limit.characters
    if max(map(len, hyps), default=0) <= size and all(
        max((len(text) for text in stream if text is not None), default=0) <= size for stream in refs
    ):
        return Clipped(hyps, refs, ())
    cut = sorted(
        {i for i, hyp in enumerate(hyps) if len(hyp) > size}
        | {i for stream in refs for i, text in enumerate(stream) if text is not None and len(text) > size}
    )
    return Clipped(
        [clip(hyp, limit) for hyp in hyps],
        [[None if text is None else clip(text, limit) for text in stream] for stream in refs],
        tuple(cut),
    )


def pair_cells(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], limit: SegmentLimit) -> int:
    """The cells of every hypothesis/reference table a metric reading texts up to ``limit`` fills: the sum over
    the pairs of the product of their word counts (words split at whitespace, after :func:`clip`), for a
    :class:`~metrics.core.base.CostEstimated` metric whose time grows with it (ROUGE-Lsum, ROUGE-W)."""
    lengths = [len(clip(hyp, limit).split()) for hyp in hyps]
    return sum(
        lengths[i] * len(clip(text, limit).split())
        for stream in refs
        for i, text in enumerate(stream)
        if text is not None
    )
