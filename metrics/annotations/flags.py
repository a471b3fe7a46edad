"""What a metric flags in an output: the characters its own evidence marks as not matching, read from the
explanation of its score (:func:`metrics.core.base.explain_segment`, the path that computes the score), as
``[start, end)`` character offsets into the output.

The rules, one per kind of evidence (a token the tokenizer rewrote so that it cannot be found in the output — no
offsets — cannot be drawn and is counted in ``unlocated`` instead):

* **BLEU** (:class:`~metrics.families.bleu.metric.BLEUExplanation`): an occurrence of a hypothesis n-gram is
  *matched* when it is among the first ``clipped`` occurrences of that n-gram, left to right (clipping credits
  ``clipped`` of its ``hyp_count`` occurrences and does not say which; the first ones is the rule). A token is
  *covered* when it lies inside a matched occurrence of some order ``≥ bleu_order`` (default 1: any order). The
  flags are the characters of every token not covered — with ``bleu_order=1``, the words the references do not
  have (or have fewer times).
* **chrF** (:class:`~metrics.families.chrf.metric.CHRFExplanation`): the same rule over *character* n-grams
  (their occurrences' ``hyp_spans``): a character is covered when it lies inside a matched occurrence of a
  character order ``≥ chrf_order``; flagged characters are the non-whitespace characters not covered. The default
  is the metric's highest character order (6 for chrF): a character unigram matches almost any letter, so "any
  order" would flag next to nothing. Word n-grams (chrF++) are not used.
* **TER** (:class:`~metrics.families.ter.metric.TERExplanation`): against the reference the score kept
  (``best_ref``), the characters of every output word its alignment substitutes or inserts (a word the reference
  lacks), and of every word a shift moved. A deleted reference word has no characters in the output.
* **METEOR** (:class:`~metrics.families.meteor.metric.MeteorExplanation`): the output words the kept alignment
  (``best_ref``) leaves unaligned (no exact, stem or synonym match).
* **BERTScore** (:class:`~metrics.families.bertscore.metric.BERTScoreExplanation`): the output subword tokens
  whose greedy-match cosine similarity (``hyp_best``) is below ``bertscore_threshold`` against every reference
  (default 0.9, an option: raw cosine similarities of contextual embeddings crowd near 1, so the threshold is a
  choice, stated with the result; special tokens have no characters).
* **xCOMET** (:class:`~metrics.families.comet.explanation.CometExplanation`): its error spans on the output (any
  severity). A COMET model without word-level tags flags nothing and is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from metrics.core.base import Metric, explain_segment, segment_refs
from metrics.core.edits import EditOp
from metrics.core.explanation import Explanation
from metrics.core.spans import Side
from metrics.core.tokens import Token
from metrics.families.bertscore.metric import BERTScoreExplanation
from metrics.families.bleu.metric import BLEUExplanation
from metrics.families.chrf.metric import CHRFExplanation
from metrics.families.comet.explanation import CometExplanation, Estimator
from metrics.families.meteor.metric import MeteorExplanation
from metrics.families.ter.metric import TERExplanation

DEFAULT_BERTSCORE_THRESHOLD = 0.9


# command-line spelling → (field, type) of FlagOptions
_OPTIONS: dict[str, tuple[str, type[int] | type[float]]] = {
    "bleu-order": ("bleu_order", int),
    "chrf-order": ("chrf_order", int),
    "bertscore-below": ("bertscore_threshold", float),
}


@dataclass(frozen=True)
class FlagOptions:
    """The choices the rules leave open (module docstring). ``chrf_order=None``: the metric's highest character
    order."""

    bleu_order: int = 1
    chrf_order: int | None = None
    bertscore_threshold: float = DEFAULT_BERTSCORE_THRESHOLD

    def __post_init__(self) -> None:
        for name in ("bleu_order", "chrf_order"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be an order ≥ 1, not {value!r}")
        if not -1.0 <= self.bertscore_threshold <= 1.0:
            raise ValueError(
                f"the BERTScore threshold is a cosine similarity in [-1, 1], not {self.bertscore_threshold}"
            )

    def describe(self) -> str:
        chrf = "highest" if self.chrf_order is None else str(self.chrf_order)
        return f"bleu-order:{self.bleu_order}|chrf-order:{chrf}|bertscore-below:{self.bertscore_threshold:g}"

    @classmethod
    def parse(cls, spec: str) -> FlagOptions:
        """Options from ``"bleu-order=2,chrf-order=3,bertscore-below=0.85"`` (unnamed ones keep their default)."""
        values: dict[str, Any] = {}
        for item in (s.strip() for s in spec.split(",")):
            if not item:
                continue
            key, sep, text = (part.strip() for part in item.partition("="))
            found = _OPTIONS.get(key)
            problem = f"span flag option {item!r}: expected bleu-order=N, chrf-order=N or bertscore-below=X"
            if not sep or found is None:
                raise ValueError(problem)
            name, kind = found
            try:
                values[name] = kind(text)
            except ValueError:
                raise ValueError(problem) from None
        return cls(**values)


DEFAULT_FLAG_OPTIONS = FlagOptions()


@dataclass(frozen=True)
class SegmentFlags:
    """The flagged characters of one output, as sorted, disjoint ``[start, end)`` intervals; ``unlocated``:
    flagged tokens that have no offsets in the output."""

    spans: tuple[tuple[int, int], ...]
    unlocated: int = 0


class Unflaggable(ValueError):
    """The metric's evidence marks nothing in the output (a sentence-level model, a metric without token evidence)."""


def _merged(intervals: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[list[int]] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((a, b) for a, b in merged)


def _flags_of(tokens: Sequence[Token]) -> SegmentFlags:
    located = [(t.start, t.end) for t in tokens if t.start is not None and t.end is not None]
    return SegmentFlags(_merged(located), len(tokens) - len(located))


def _bleu(e: BLEUExplanation, order: int) -> SegmentFlags:
    covered = [False] * len(e.hyp_tokens)
    for evidence in e.orders:
        if evidence.order < order:
            continue
        for ngram in evidence.ngrams:
            for position in sorted(ngram.positions)[: ngram.clipped]:
                covered[position : position + evidence.order] = [True] * evidence.order
    return _flags_of([t for t, c in zip(e.hyp_tokens, covered, strict=True) if not c])


def _chrf(e: CHRFExplanation, hyp: str, order: int | None) -> SegmentFlags:
    chars = [o for o in e.orders if o.kind == "char"]
    lowest = max(o.n for o in chars) if order is None else order
    covered = [False] * len(hyp)
    for evidence in chars:
        if evidence.n < lowest:
            continue
        for ngram in evidence.ngrams:
            for start, end in sorted(ngram.hyp_spans)[: ngram.matched]:
                covered[start:end] = [True] * (end - start)
    flagged = [(i, i + 1) for i, ch in enumerate(hyp) if not covered[i] and not ch.isspace()]
    return SegmentFlags(_merged(flagged))


def _ter(e: TERExplanation) -> SegmentFlags:
    chosen = e.chosen
    if chosen.alignment is None:
        raise Unflaggable("TER could not align this segment (its search was bounded): no edits to flag")
    edited = [
        chosen.hypothesis[step.hyp_index]
        for step in chosen.alignment
        if step.op in (EditOp.SUBSTITUTE, EditOp.INSERT) and step.hyp_index is not None
    ]
    moved = [token for shift in chosen.shifts for token in shift.tokens]
    return _flags_of([*edited, *moved])


def _meteor(e: MeteorExplanation) -> SegmentFlags:
    aligned = {m.hyp_index for m in e.chosen.matches}
    return _flags_of([t for k, t in enumerate(e.chosen.hyp_tokens) if k not in aligned])


def _bertscore(e: BERTScoreExplanation, threshold: float) -> SegmentFlags:
    best = [max(r.hyp_best[k] for r in e.references) for k in range(len(e.hyp_tokens))]
    low = [t for t, s in zip(e.hyp_tokens, best, strict=True) if s < threshold and t.start is not None]
    return _flags_of(low)


def _comet(e: CometExplanation) -> SegmentFlags:
    if e.estimator is not Estimator.XCOMET:
        raise Unflaggable(f"{e.model} gives a sentence score only: no spans to compare")
    return SegmentFlags(_merged((s.start, s.end) for s in e.spans if s.side is Side.TARGET))


def flags(explanation: Explanation, hyp: str, options: FlagOptions = DEFAULT_FLAG_OPTIONS) -> SegmentFlags:
    """The characters of ``hyp`` that ``explanation`` (of ``hyp``'s score) flags, by the rules of the module
    docstring; :class:`Unflaggable` for evidence that marks nothing in the output."""
    if isinstance(explanation, BLEUExplanation):
        return _bleu(explanation, options.bleu_order)
    if isinstance(explanation, CHRFExplanation):
        return _chrf(explanation, hyp, options.chrf_order)
    if isinstance(explanation, TERExplanation):
        return _ter(explanation)
    if isinstance(explanation, MeteorExplanation):
        return _meteor(explanation)
    if isinstance(explanation, BERTScoreExplanation):
        return _bertscore(explanation, options.bertscore_threshold)
    if isinstance(explanation, CometExplanation):
        return _comet(explanation)
    raise Unflaggable(f"{type(explanation).__name__} has no token-level evidence to compare with error spans")


def flaggable(metric: Metric[Any, Any]) -> bool:
    """Whether :func:`flags` reads this metric's explanations (a COMET model may still turn out to give no spans)."""
    types = (BLEUExplanation, CHRFExplanation, TERExplanation, MeteorExplanation, BERTScoreExplanation)
    return issubclass(metric.explanation_type, (*types, CometExplanation))


def metric_flags(
    metric: Metric[Any, Any],
    system: str,
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    segments: Iterable[int],
    source: Sequence[str] | None = None,
    options: FlagOptions = DEFAULT_FLAG_OPTIONS,
) -> dict[int, SegmentFlags]:
    """The flags of ``segments`` (0-based) of one system's outputs ``hyps``: each from
    :func:`~metrics.core.base.explain_segment` of that segment, the explanation of its score."""
    found = {}
    for i in segments:
        explanation = explain_segment(
            metric, system, i, hyps[i], segment_refs(refs, i), source=None if source is None else source[i]
        )
        found[i] = flags(explanation, hyps[i], options)
    return found
