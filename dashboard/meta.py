"""The Meta-evaluation page's state: the scopes it offers (all segments, each value of a loaded metadata column,
each saved slice), the meta-evaluation of the chosen metrics on one of them (:mod:`metrics.reports.meta_build`,
cached by content: metrics and options, references, each judged system's outputs and human scores, the scope's
segments, the settings), and the jumps to the evidence — a system pair opens the Explorer on the two systems under
the metric, a segment pair opens the Segment view on that segment with the two systems and the metric's evidence."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from dashboard import keys, navigation, segment_metadata, slices, state
from dashboard.compute import LRU, Job, run_cached
from dashboard.dataset import Dataset
from dashboard.keys import Choice
from dashboard.navigation import Task
from metrics.core.evaluation import Evaluation
from metrics.meta import Comparison, MetaSettings, Statistic
from metrics.reports.meta import MetaDocument, Scope, all_segments, bucket, slice_scope
from metrics.reports.meta_build import comparisons, meta_document
from metrics.stats.human import HumanScores

# WMT's settings (as ``scorelens meta`` without --seed): the page's numbers are the command line's.
SETTINGS = MetaSettings(max_segment_pairs=50)
MAX_BUCKETS = 30  # a metadata column with more distinct values (document ids) is not offered as buckets


@st.cache_resource(show_spinner=False)
def _store() -> LRU:
    return LRU(64)


def scopes(n_segments: int) -> list[Scope]:
    """All segments, then each value of every loaded metadata column with at most :data:`MAX_BUCKETS` values (a
    domain, a genre), then every saved slice."""
    found = [all_segments(n_segments)]
    metadata = segment_metadata.loaded(n_segments)
    if metadata is not None:
        for column in metadata.columns:
            values = metadata.column(column)
            distinct = sorted(set(values))
            if 1 < len(distinct) <= MAX_BUCKETS:
                found += [bucket(values, column, value) for value in distinct]
    found += [slice_scope(s.name, s.segments) for s in slices.saved() if s.segments[-1] < n_segments]
    return found


def _segments_hash(segments: Sequence[int]) -> str:
    return hashlib.sha256(",".join(map(str, segments)).encode()).hexdigest()[:32]


def _key(evaluation: Evaluation, scope: Scope) -> tuple[Any, ...]:
    """What a meta-evaluation depends on: the metrics (their signatures carry every option; an external metric's,
    its file's digest, as the Analysis page keys them), references, each system's id, name (shown), outputs and
    human scores, the scope and the settings."""
    data = state.dataset()
    names = [r.name for r in evaluation.systems]
    content = tuple((data.system_id(n), n, data.system_hash(n), data.human_hash(n)) for n in names)
    source = human_source(data)
    marked = (source, data.annotations_hash(source), str(state.mqm_weights())) if source else None
    metrics = (tuple(evaluation.signatures.items()), tuple(evaluation.segment_signatures.items()))
    return (metrics, data.refs_hash, content, marked, scope.label, _segments_hash(scope.segments), SETTINGS, data.title)


def human_source(data: Dataset) -> str | None:
    """What the metrics are meta-evaluated against: the loaded human scores, else the MQM (ESA) of the first loaded
    error annotations — the id of that annotation metric, which is then no metric under test; None: neither."""
    if data.human is not None:
        return ""
    return next(iter(data.annotations), None)


def _human() -> HumanScores:
    data = state.dataset()
    name = human_source(data)
    if name is None:
        raise ValueError("no human scores are loaded")
    if not name:
        return data.human  # type: ignore[return-value]  # human_source says it is there
    metric = state.annotation_metric(data, name)
    return HumanScores({s: metric.values(s) for s in data.systems}, f"{metric.name} of the annotations {name}")


def under_test(evaluation: Evaluation) -> Evaluation:
    """``evaluation`` without the annotation metric the humans' scores come from (it would agree with itself)."""
    name = human_source(state.dataset())
    if not name or name not in evaluation.metrics:
        return evaluation
    return evaluation.without(name)


def document(evaluation: Evaluation, scope: Scope) -> MetaDocument:
    """The meta-evaluation of every metric of ``evaluation`` on ``scope`` (the loaded data has human scores),
    without the metrics' permutation tests (:func:`with_clusters` adds them); ``ValueError`` says why there is none
    (fewer than two judged systems in the scope)."""
    human, title = _human(), state.dataset().title

    def run() -> MetaDocument:
        return meta_document(evaluation, human, scope, SETTINGS, title=title, statistics=())

    job = Job(("document", *_key(evaluation, scope)), f"Meta-evaluation on {scope.label}", run)
    found, failed = run_cached(_store(), {0: job}, "Meta-evaluation", expected=(ValueError,))
    if failed:
        raise failed[0]
    return found[0]


def _clusters_job(evaluation: Evaluation, scope: Scope) -> Job[dict[Statistic, Comparison]]:
    human = _human()

    def run() -> dict[Statistic, Comparison]:
        return comparisons(evaluation, human, scope, SETTINGS)

    return Job(("clusters", *_key(evaluation, scope)), "Permutation tests between the metrics", run)


def clusters_known(evaluation: Evaluation, scope: Scope) -> bool:
    """Whether the metrics' comparisons on ``scope`` are computed (cached) already."""
    return _clusters_job(evaluation, scope).key in _store()


def with_clusters(doc: MetaDocument, evaluation: Evaluation) -> MetaDocument:
    """``doc`` with the metrics compared by WMT's permutation tests (SPA, pairwise accuracy, acc_eq): the slow
    part, computed once per content and kept."""
    found, _ = run_cached(_store(), {0: _clusters_job(evaluation, doc.scope)}, "Significance clusters")
    return replace(doc, report=replace(doc.report, comparisons=found[0]))


def ask_for_clusters(scope: Scope) -> None:
    """Button callback: compute the clusters of ``scope`` at the next run."""
    keys.META_CLUSTERS.set(scope.label)


def clusters_asked(scope: Scope) -> bool:
    return keys.META_CLUSTERS.get(None) == scope.label


def _preset(choice: Choice[Any], value: Any) -> None:
    """Set the value a page's widget starts from at its next draw (its own state is dropped, so it takes it)."""
    st.session_state.pop(choice.name, None)
    choice.keep(value)


def _with(choice: Choice[list[str]], wanted: Sequence[str]) -> None:
    """Make sure a multiselect's kept choice includes ``wanted`` (an empty one means all: left so)."""
    kept = st.session_state.get(keys.KEPT + choice.name)
    if kept:
        _preset(choice, [*kept, *(w for w in wanted if w not in kept)])


def open_pair(metric_id: str, better: str, worse: str) -> None:
    """Button callback: the Explorer on ``better`` − ``worse`` under ``metric_id``."""
    _with(keys.EX_SYSTEMS, [better, worse])
    _with(keys.EX_METRICS, [metric_id])
    _preset(keys.EX_DIFF_A, better)
    _preset(keys.EX_DIFF_B, worse)
    _preset(keys.EX_DIFF_METRIC, metric_id)
    navigation.request(Task.EXPLORER)


def open_segment(metric_id: str, segment: int, systems: Sequence[str]) -> None:
    """Button callback: the Segment view on ``segment`` (0-based), ``systems`` side by side, ``metric_id``'s
    evidence."""
    state.set_segment(segment)
    _preset(keys.SEG_SYSTEMS, list(systems))
    _preset(keys.SEG_METRIC, metric_id)
    navigation.request(Task.SEGMENT)
