"""Bucketings named as the command line names them, built on one evaluation.

    ref-length[:METRIC]     mean reference length in METRIC's tokens (default: the first metric)
    length-diff[:METRIC]    output length − reference length, per system
    score:METRIC            each system's own sentence score under METRIC
    src-length              source length (whitespace words; characters for CJK)
    meta:COLUMN             one bucket per value of a metadata column

Edges default to compare-mt's (lengths ``10:20:…:60``, differences ``-20:-10:-5:…:11:21``, scores tenths of the
scale); ``edges`` overrides them per bucketing kind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.analysis.buckets import (
    LENGTH_DIFF_EDGES,
    Bucketing,
    BucketKind,
    by_category,
    by_values,
    length_edges,
    score_edges,
)
from metrics.analysis.units import CJK_CHARACTERS, WHITESPACE_WORDS, Lengths, is_cjk, output_lengths
from metrics.core.evaluation import Evaluation
from metrics.io.metadata import Metadata

LengthsOf = Callable[[str], Lengths]  # metric id → lengths in its unit (cached by the caller)


@dataclass(frozen=True)
class BucketSpec:
    """One requested bucketing: its kind, the metric it measures with (lengths' unit, or the sentence score), the
    metadata column, and edges (``None``: the defaults)."""

    kind: BucketKind
    metric: str | None = None
    column: str | None = None
    edges: tuple[float, ...] | None = None

    @property
    def key(self) -> str:
        if self.kind is BucketKind.METADATA:
            return f"meta:{self.column}"
        if self.kind is BucketKind.SCORE:
            return f"score:{self.metric}"
        return self.kind.value


def parse_spec(text: str, metric_ids: Sequence[str]) -> BucketSpec:
    """``ref-length``, ``length-diff:chrf``, ``score:chrf``, ``src-length`` or ``meta:domain``."""
    name, _, arg = text.strip().partition(":")
    kinds = {k.value: k for k in BucketKind if k is not BucketKind.SLICE}
    if name not in kinds:
        raise ValueError(f"unknown bucketing {text!r}; valid: {', '.join(kinds)} (score:METRIC, meta:COLUMN)")
    kind = kinds[name]
    if kind is BucketKind.METADATA:
        if not arg:
            raise ValueError(f"{text!r}: name the metadata column (meta:COLUMN)")
        return BucketSpec(kind, column=arg)
    if kind is BucketKind.SOURCE_LENGTH:
        if arg:
            raise ValueError(f"{text!r}: the source length takes no metric")
        return BucketSpec(kind)
    if kind is BucketKind.SCORE and not arg:
        raise ValueError(f"{text!r}: name the metric of the sentence score (score:METRIC)")
    metric = arg or (metric_ids[0] if metric_ids else None)
    if metric not in metric_ids:
        raise ValueError(f"{text!r}: metric {metric!r} is not among the scored metrics ({', '.join(metric_ids)})")
    return BucketSpec(kind, metric=metric)


def build(
    spec: BucketSpec,
    evaluation: Evaluation,
    lengths_of: LengthsOf,
    source: Sequence[str] | None = None,
    metadata: Metadata | None = None,
) -> Bucketing:
    """The bucketing ``spec`` asks for, on ``evaluation``; errors say what is missing (no source, no column)."""
    names = tuple(r.name for r in evaluation.systems)
    if spec.kind is BucketKind.METADATA:
        if metadata is None or spec.column is None:
            raise ValueError(f"{spec.key}: load a metadata file (one row per segment) first")
        return by_category(spec.key, f"metadata column {spec.column}", metadata.column(spec.column))
    if spec.kind is BucketKind.SOURCE_LENGTH:
        if source is None:
            raise ValueError("src-length: no source is loaded")
        unit = CJK_CHARACTERS if is_cjk(source) else WHITESPACE_WORDS
        values = output_lengths(unit, source)
        edges = spec.edges or length_edges(values)
        return by_values(spec.kind, spec.key, f"source length ({unit.label})", values, edges)
    metric_id = spec.metric
    if metric_id is None or metric_id not in evaluation.metrics:
        raise ValueError(f"{spec.key}: metric {metric_id!r} was not scored")
    label = evaluation.metrics[metric_id].name
    if spec.kind is BucketKind.SCORE:
        scores = np.stack([np.asarray(r.segment_scores[metric_id], dtype=np.float64) for r in evaluation.systems])
        edges = spec.edges or score_edges(scores)
        return by_values(spec.kind, spec.key, f"sentence {label} of each system's output", scores, edges, names)
    found = lengths_of(metric_id)
    if spec.kind is BucketKind.REF_LENGTH:
        title = f"reference length ({found.unit})"
        return by_values(spec.kind, spec.key, title, found.refs, spec.edges or length_edges(found.refs))
    diffs = np.stack([found.hyps[name] - found.refs for name in names])
    title = f"output − reference length ({found.unit})"
    return by_values(spec.kind, spec.key, title, diffs, spec.edges or LENGTH_DIFF_EDGES, names)
