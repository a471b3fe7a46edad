"""An evaluation: the sufficient statistics, corpus and segment scores of several systems under several metrics, and
each metric's full signature — what both engines of :func:`metrics.evaluate.evaluate` return, and what the reports,
the statistics and the app read.

:func:`assemble` makes it from the whole corpus's rows, so every engine that computes the same rows gives the same
numbers to the last digit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass

import numpy as np

from metrics.core.base import Metric, SegmentStats

Progress = Callable[[float, str], None]  # progress(fraction done, message), as an engine tells a front end


def reference_counts(refs: Sequence[Sequence[str | None]]) -> frozenset[int]:
    """The distinct numbers of references a segment has."""
    if not refs:
        return frozenset({0})
    if refs[0] and not any(None in stream for stream in refs):  # every segment has them all: no walk over them
        return frozenset({len(refs)})
    return frozenset(sum(stream[i] is not None for stream in refs) for i in range(len(refs[0])))


def nrefs_field(counts: Set[int]) -> str:
    """sacrebleu's ``nrefs`` signature field: the number of references, or ``var`` when it varies by segment."""
    return str(next(iter(counts))) if len(counts) == 1 else "var"


def nrefs_label(refs: Sequence[Sequence[str | None]]) -> str:
    return nrefs_field(reference_counts(refs))


def full_signature(metric: Metric, refs: Sequence[Sequence[str | None]]) -> str:
    """The metric's signature, led by sacrebleu's ``nrefs`` field when its scores depend on the references."""
    return signature_with(metric, nrefs_label(refs))


def signature_with(metric: Metric, nrefs: str) -> str:
    """The metric's signature led by the ``nrefs`` field (see :func:`nrefs_field`) when its scores depend on the
    references."""
    return f"nrefs:{nrefs}|{metric.signature()}" if metric.traits.reads_references else metric.signature()


def segment_signature_of(metric: Metric, full: str) -> str:
    """The full signature of ``metric``'s segment scores, from ``full``, the full signature of its corpus score
    (:func:`signature_with`: the metric's own signature after the fields that lead it)."""
    corpus, segment = metric.signature(), metric.segment_signature()
    if segment == corpus:
        return full
    if not full.endswith(corpus):
        raise ValueError(f"{metric.id}: {full!r} is not a full signature of {corpus!r}")
    return full.removesuffix(corpus) + segment


@dataclass(frozen=True)
class SystemResult:
    name: str
    stats: Mapping[str, SegmentStats]
    scores: Mapping[str, float]
    segment_scores: Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Evaluation:
    metrics: Mapping[str, Metric]
    signatures: Mapping[str, str]
    systems: tuple[SystemResult, ...]

    @property
    def segment_signatures(self) -> dict[str, str]:
        """Each metric's full signature of its segment scores (:meth:`Metric.segment_signature`): the corpus
        signature's except where a family scores segments otherwise (BLEU's ``eff:yes``)."""
        return {m: segment_signature_of(metric, self.signatures[m]) for m, metric in self.metrics.items()}

    def without(self, metric_id: str) -> Evaluation:
        """The same evaluation without one metric (a human score taken as the reference side of a comparison)."""
        keep = {m: metric for m, metric in self.metrics.items() if m != metric_id}
        systems = tuple(
            SystemResult(
                r.name,
                {m: v for m, v in r.stats.items() if m in keep},
                {m: v for m, v in r.scores.items() if m in keep},
                {m: v for m, v in r.segment_scores.items() if m in keep},
            )
            for r in self.systems
        )
        return Evaluation(keep, {m: self.signatures[m] for m in keep}, systems)

    def system(self, name: str) -> SystemResult:
        for result in self.systems:
            if result.name == name:
                return result
        raise KeyError(f"no system named {name!r}; systems: {', '.join(s.name for s in self.systems)}")


def assemble(metrics: Mapping[str, Metric], stats: Mapping[str, Mapping[str, SegmentStats]], nrefs: str) -> Evaluation:
    """The evaluation of the whole corpus from its rows (system → metric id → statistics): corpus and segment scores
    of every system, and every metric's signature with ``nrefs`` (see :func:`nrefs_field`)."""
    results = []
    for name, by_metric in stats.items():
        scores = {m: metric.corpus_score(by_metric[m]) for m, metric in metrics.items()}
        segments = {m: metric.segment_scores(by_metric[m]) for m, metric in metrics.items()}
        results.append(SystemResult(name, {m: by_metric[m] for m in metrics}, scores, segments))
    signatures = {m: signature_with(metric, nrefs) for m, metric in metrics.items()}
    return Evaluation(dict(metrics), signatures, tuple(results))
