"""Session state shared by every page, and the caches behind it.

Every page calls :func:`dashboard.sidebar.sidebar` and then :func:`evaluation`, so any page works on its own (a
fresh session starts on the bundled MT sample). Results are cached per (metric, options, references, one system's
outputs) by content hash, process-wide: switching page, renaming a system or choosing a segment is a lookup, adding
an eleventh system scores only that system, and a progress bar appears only while something is computed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import streamlit as st

from dashboard.dataset import Dataset, stream_hash
from dashboard.samples import load_sample
from dashboard.workspace import Settings
from metrics.core.base import Metric
from metrics.core.registry import SPECS, available_metrics, create
from metrics.evaluate import Evaluation, SystemResult, evaluate, full_signature
from metrics.stats.correlation import Correlation, correlate
from metrics.stats.human import HumanScores
from rendering.text import escape_markdown

DATASET = "dataset"
METRICS = "metric_ids"
OPTIONS = "metric_options"
SEGMENT = "segment"  # 0-based index of the segment the segment view shows
BASELINE = "baseline"
VIEW_KEYS = (BASELINE, SEGMENT)
N_RESAMPLES = 1000
SEED = 12345


class LRU:
    """A small thread-safe LRU map; Streamlit serves several sessions from threads of one process."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            if key not in self._data:
                return None
            self._data.move_to_end(key)
            return self._data[key]

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._data

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _results() -> LRU:
    return LRU(4096)


@st.cache_resource(show_spinner=False)
def _statistics() -> LRU:
    return LRU(512)


@st.cache_resource(show_spinner=False)
def _correlations() -> LRU:
    return LRU(512)


@st.cache_resource(show_spinner=False)
def _explanations() -> LRU:
    return LRU(4096)


@st.cache_resource(max_entries=64, show_spinner=False)
def metric_for(metric_id: str, options_json: str, refs_hash: str) -> Metric[Any, Any]:
    """One metric instance per (metric, options, reference corpus): its reference caches and, for CIDEr-D, its
    document frequencies then always belong to the corpus being shown."""
    del refs_hash  # part of the cache key only
    return create(metric_id, json.loads(options_json))


# ------------------------------------------------------------------------------------------------ session data


def offered_metrics() -> tuple[str, ...]:
    """Metric ids whose requirements are installed here."""
    return available_metrics()


def set_dataset(data: Dataset, *, keep_metrics: bool = False) -> None:
    st.session_state[DATASET] = data
    if not keep_metrics or METRICS not in st.session_state:
        st.session_state[METRICS] = [m for m in data.default_metrics if m in offered_metrics()]
    st.session_state[SEGMENT] = 0
    if st.session_state.get(BASELINE) not in data.systems:
        st.session_state[BASELINE] = next(iter(data.systems))


def dataset() -> Dataset:
    if DATASET not in st.session_state:
        set_dataset(load_sample("mt"))
    return st.session_state[DATASET]


def metric_ids() -> list[str]:
    dataset()
    return [m for m in st.session_state[METRICS] if m in SPECS]


def set_metric_ids(ids: Sequence[str]) -> None:
    st.session_state[METRICS] = [m for m in ids if m in offered_metrics()]


def options() -> dict[str, dict[str, Any]]:
    return {family: dict(values) for family, values in st.session_state.get(OPTIONS, {}).items()}


def set_family_options(family: str, values: dict[str, Any]) -> None:
    current = options()
    current[family] = dict(values)
    st.session_state[OPTIONS] = {f: v for f, v in current.items() if v}


def family_options(ids: Sequence[str], all_options: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    families = {SPECS[m].family for m in ids}
    return {f: v for f, v in all_options.items() if f in families and v}


def settings() -> Settings:
    view = {key: st.session_state[key] for key in VIEW_KEYS if key in st.session_state}
    return Settings(tuple(metric_ids()), options(), view)


def apply_settings(loaded: Settings) -> list[str]:
    """Adopt loaded settings; returns notes on anything that could not be applied (it is left out)."""
    notes = []
    ids = [m for m in loaded.metrics if m in offered_metrics()]
    dropped = [m for m in loaded.metrics if m not in ids]
    if dropped:
        notes.append(f"metrics not available here, left out: {', '.join(dropped)}")
    chosen = ids or [m for m in dataset().default_metrics if m in offered_metrics()]
    st.session_state[METRICS] = chosen
    kept: dict[str, dict[str, Any]] = {}
    for family, values in loaded.options.items():
        members = [m for m in chosen if SPECS[m].family == family]
        try:
            for m in members:
                create(m, values)
        except ValueError as err:
            notes.append(f"options for {family} not applied: {err}")
            continue
        if members:
            kept[family] = dict(values)
    st.session_state[OPTIONS] = kept
    data = dataset()
    if loaded.view.get(BASELINE) in data.systems:
        st.session_state[BASELINE] = loaded.view[BASELINE]
    segment = loaded.view.get(SEGMENT)
    if isinstance(segment, int) and 0 <= segment < len(data):
        st.session_state[SEGMENT] = segment
    reset_widgets()
    return notes


def reset_widgets() -> None:
    """Forget widget state that mirrors settings, so widgets re-read the settings on the next run."""
    for key in list(st.session_state):
        if isinstance(key, str) and (key.startswith("opt:") or key in {"metrics_box", "baseline_box", "segment_box"}):
            del st.session_state[key]


def segment() -> int:
    data = dataset()
    return min(max(int(st.session_state.get(SEGMENT, 0)), 0), len(data) - 1)


def set_segment(index: int) -> None:
    """Choose the segment; call from callbacks or before the segment number widget exists in this run."""
    st.session_state[SEGMENT] = int(index)
    st.session_state["segment_box"] = int(index) + 1


# ------------------------------------------------------------------------------------------------- evaluation


def _options_json(metric_id: str, all_options: dict[str, dict[str, Any]]) -> str:
    return json.dumps(all_options.get(SPECS[metric_id].family, {}), sort_keys=True)


def _with_progress(jobs: Sequence[tuple[str, Callable[[], None]]], label: str) -> None:
    """Run ``jobs`` (message, thunk) under one progress bar; nothing is drawn when there is nothing to do."""
    if not jobs:
        return
    bar = st.progress(0.0, text=label)
    try:
        for k, (message, job) in enumerate(jobs):
            bar.progress(k / len(jobs), text=f"{label}: {message}")
            job()
    finally:
        bar.empty()


def metrics_for(data: Dataset, ids: Sequence[str]) -> tuple[dict[str, Metric[Any, Any]], list[str]]:
    """The chosen metrics built with the current options; errors name the metric (it is then left out)."""
    all_options = options()
    built, errors = {}, []
    for metric_id in ids:
        try:
            built[metric_id] = metric_for(metric_id, _options_json(metric_id, all_options), data.refs_hash)
        except (ValueError, ImportError, AttributeError) as err:
            errors.append(f"{SPECS[metric_id].label}: {err}")
    return built, errors


def evaluation() -> Evaluation:
    """Corpus and segment scores of every system under every chosen metric, from the cache where possible."""
    data = dataset()
    metrics, errors = metrics_for(data, metric_ids())
    refs = [list(stream) for stream in data.refs]
    store = _results()
    all_options = options()

    def key(name: str, metric_id: str) -> tuple[str, ...]:
        return (metric_id, _options_json(metric_id, all_options), data.refs_hash, data.system_hash(name))

    failed: dict[str, str] = {}

    def job(name: str, metric_id: str) -> Callable[[], None]:
        def run() -> None:
            try:
                result = evaluate({name: list(data.systems[name])}, refs, {metric_id: metrics[metric_id]})
            except (ValueError, TypeError) as err:
                failed[metric_id] = f"{SPECS[metric_id].label} on {name}: {err}"
                return
            single = result.systems[0]
            store.put(
                key(name, metric_id),
                (single.stats[metric_id], single.scores[metric_id], single.segment_scores[metric_id]),
            )

        return run

    jobs = [
        (f"{metrics[m].name} on {name}", job(name, m))
        for m in metrics
        for name in data.systems
        if key(name, m) not in store
    ]
    _with_progress(jobs, "Scoring")
    for metric_id in failed:
        metrics.pop(metric_id, None)
    for message in [*errors, *failed.values()]:
        st.error(f"Left out — {escape_markdown(message)}", icon="⚠️")
    systems = []
    for name in data.systems:
        stats, scores, segments = {}, {}, {}
        for metric_id in metrics:
            cached = store.get(key(name, metric_id))
            if cached is None:  # evicted between the jobs and now by another session: score it again
                job(name, metric_id)()
                cached = store.get(key(name, metric_id))
            stats[metric_id], scores[metric_id], segments[metric_id] = cached
        systems.append(SystemResult(name, stats, scores, segments))
    signatures = {m: full_signature(metric, refs) for m, metric in metrics.items()}
    return Evaluation(metrics, signatures, tuple(systems))


# ------------------------------------------------------------------------------------------------- statistics


def statistics(evaluation: Evaluation) -> dict[str, Any] | None:
    """Per metric id, the significance module's all-pairs report (intervals, pairs, tied groups), with system
    names as shown now; ``None`` when that module is not installed. Cached by content, so renames are free."""
    try:
        from metrics.stats import significance
    except ImportError:
        return None
    data = dataset()
    store = _statistics()
    all_options = options()
    names = [r.name for r in evaluation.systems]
    ids: list[str] = []
    for name in names:  # content ids; a duplicate output gets a suffix so it stays a separate system
        base = data.system_hash(name)
        ids.append(base if base not in ids else f"{base}#{len(ids)}")
    to_name = dict(zip(ids, names, strict=True))

    def key(metric_id: str) -> tuple[Any, ...]:
        return (metric_id, _options_json(metric_id, all_options), data.refs_hash, tuple(ids), N_RESAMPLES, SEED)

    def job(metric_id: str) -> Callable[[], None]:
        def run() -> None:
            metric = evaluation.metrics[metric_id]
            stats = {i: evaluation.system(n).stats[metric_id] for i, n in zip(ids, names, strict=True)}
            if len(stats) > 1:
                report = significance.all_pairs(metric, stats, n_samples=N_RESAMPLES, seed=SEED)
            else:
                intervals = significance.confidence_intervals(metric, stats, N_RESAMPLES, SEED)
                report = significance.PairedReport(metric.name, "bs", None, intervals, (), ((ids[0],),))
            store.put(key(metric_id), report)

        return run

    jobs = [(evaluation.metrics[m].name, job(m)) for m in evaluation.metrics if key(m) not in store]
    _with_progress(jobs, f"Bootstrap resampling ({N_RESAMPLES} samples)")
    reports = {}
    for metric_id in evaluation.metrics:
        report = store.get(key(metric_id))
        if report is None:
            job(metric_id)()
            report = store.get(key(metric_id))
        reports[metric_id] = _renamed(report, to_name)
    return reports


def _renamed(report: Any, to_name: dict[str, str]) -> dict[str, Any]:
    """A report as plain mappings keyed by current system names."""
    intervals = {to_name[i]: v for i, v in report.intervals.items() if i in to_name}
    pairs = {
        frozenset((to_name[p.baseline], to_name[p.system])): p
        for p in report.pairs
        if p.baseline in to_name and p.system in to_name
    }
    groups = [[to_name[i] for i in group] for group in (report.groups or ())]
    return {"intervals": intervals, "pairs": pairs, "groups": groups}


# ------------------------------------------------------------------------------------------------ correlation


def correlations(evaluation: Evaluation) -> tuple[dict[str, tuple[Correlation, ...]], list[str]]:
    """Per metric id, its correlations with the loaded human scores (``metrics.stats.correlation.correlate`` on the cached
    segment statistics, bootstrap ``N_RESAMPLES``/``SEED``), and messages on what could not be computed. Cached by
    content (metric, options, references, each judged system's outputs and human scores), so renames are free."""
    data = dataset()
    human = data.human
    if human is None:
        return {}, []
    judged = [r.name for r in evaluation.systems if r.name in human.scores]
    if not judged:
        return {}, ["no loaded system has human scores"]
    levels: tuple[Any, ...] = ("segment", "system") if len(judged) > 1 else ("segment",)
    scores = HumanScores({name: human.scores[name] for name in judged}, human.source)
    content = tuple((data.system_hash(name), data.human_hash(name)) for name in judged)
    store = _correlations()
    all_options = options()
    failed: dict[str, str] = {}

    def key(metric_id: str) -> tuple[Any, ...]:
        return (metric_id, _options_json(metric_id, all_options), data.refs_hash, content, levels, N_RESAMPLES, SEED)

    def job(metric_id: str) -> Callable[[], None]:
        def run() -> None:
            stats = {name: evaluation.system(name).stats[metric_id] for name in judged}
            try:
                found = correlate(
                    evaluation.metrics[metric_id], stats, scores, N_RESAMPLES, SEED, levels=levels, label=metric_id
                )
            except ValueError as err:
                failed[metric_id] = f"{evaluation.metrics[metric_id].name}: {err}"
                return
            store.put(key(metric_id), found)

        return run

    jobs = [(evaluation.metrics[m].name, job(m)) for m in evaluation.metrics if key(m) not in store]
    _with_progress(jobs, f"Correlation with human scores ({N_RESAMPLES} resamples)")
    results: dict[str, tuple[Correlation, ...]] = {}
    for metric_id in evaluation.metrics:
        if metric_id in failed:
            continue
        found = store.get(key(metric_id))
        if found is None:  # evicted by another session since the jobs ran
            job(metric_id)()
            found = store.get(key(metric_id))
        if found is not None:
            results[metric_id] = found
    messages = list(failed.values())
    if len(judged) < 2:
        messages.append("system-level correlation needs at least two systems with human scores")
    return results, messages


# ----------------------------------------------------------------------------------------------- explanations


def _explain_key(metric_id: str, data: Dataset, system: str, index: int) -> tuple[Any, ...]:
    hyp = data.systems[system][index]
    text_hash = stream_hash([hyp, *data.segment_refs(index)])
    return (metric_id, _options_json(metric_id, options()), data.refs_hash, text_hash, index)


def explain(evaluation: Evaluation, metric_id: str, system: str, index: int) -> Any:
    """The metric's evidence for one segment of one system (cached; the corpus statistics are not touched)."""
    data = dataset()
    key = _explain_key(metric_id, data, system, index)
    store = _explanations()
    cached = store.get(key)
    if cached is None:
        metric = evaluation.metrics[metric_id]
        fit = getattr(metric, "fit", None)
        if callable(fit):  # CIDEr-D weights n-grams by the corpus document frequencies
            fit([list(stream) for stream in data.refs])
        cached = metric.explain(data.systems[system][index], data.segment_refs(index))
        store.put(key, cached)
    return cached


def explain_all(evaluation: Evaluation, metric_id: str, systems: Sequence[str], index: int) -> dict[str, Any]:
    """Evidence for every shown system; a progress bar appears while any of it is computed."""
    data = dataset()
    store = _explanations()
    missing = [s for s in systems if _explain_key(metric_id, data, s, index) not in store]
    jobs = [(s, lambda s=s: explain(evaluation, metric_id, s, index)) for s in missing]
    _with_progress(jobs, f"Explaining {evaluation.metrics[metric_id].name}")
    return {s: explain(evaluation, metric_id, s, index) for s in systems}
