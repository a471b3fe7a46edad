"""Session state shared by every page, and the caches behind it.

Every page opens with :func:`dashboard.sidebar.page_setup` and then calls :func:`evaluation`, so any page works on
its own (a fresh session starts on the bundled MT sample). Results are cached per (metric, options, references, one system's
outputs) by content hash, process-wide: switching page, renaming a system or choosing a segment is a lookup, adding
an eleventh system scores only that system, and a progress bar appears only while something is computed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, cast

import numpy as np
import streamlit as st

from dashboard import keys, segment_metadata, slices
from dashboard.compute import LRU, Job, NotComputed, report, run_cached
from dashboard.dataset import Dataset, stream_hash
from dashboard.keys import (
    AUTO_OPTIONS,
    BASELINE,
    DATASET,
    DETECTED,
    LANGUAGE,
    METRIC_CHOICE,
    METRICS,
    MQM_WEIGHTS,
    OPTIONS,
    RESAMPLES,
    SCRIPT,
    SEGMENT,
    SEGMENT_MOVES,
    WIDGET_GENERATION,
)
from dashboard.samples import load_sample
from dashboard.server_config import browser_selection, check_browser_options, refusal
from dashboard.workspace import Settings
from metrics.annotations.metric import AnnotationMetric, HumanScore
from metrics.annotations.model import Annotations, Scheme
from metrics.annotations.mqm import MqmWeights
from metrics.core.base import (
    Metric,
    MissingInput,
    ReadsSource,
    SegmentStats,
    expected_seconds,
    explain_segment,
    missing_input,
)
from metrics.core.caveats import LanguageCaveat
from metrics.core.caveats import language_caveats as core_caveats
from metrics.core.defaults import MetricChoice, choose_metrics
from metrics.core.evaluation import Evaluation, SystemResult, full_signature
from metrics.core.explanation import Explanation
from metrics.core.family import Task
from metrics.core.language import LanguageSettings, ScriptCounts, apply_language, detect_language, language_settings
from metrics.core.registry import SPECS, available_metrics, metric_class
from metrics.core.selection import OptionError, Selection, metric_key, taken, takes
from metrics.evaluate import evaluate
from metrics.families.external import External
from metrics.stats.correlation import Correlation, correlate
from metrics.stats.human import HumanScores
from metrics.stats.significance import DEFAULT_ALPHA, n_pairs, resamples_for
from rendering.text import escape_markdown

VIEW_KEYS = (BASELINE, SEGMENT)
# Metrics whose rows are data about a named system (not computed from its text): the system is part of their keys.
OWNED = (External, AnnotationMetric)
N_RESAMPLES = 1000  # correlation intervals; sacrebleu's count, the floor of the significance tests' counts
RESAMPLE_CHOICES = (1000, 2000, 5000, 10000, 20000, 50000)
SEED = 12345


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
def metric_for(key: str, refs_hash: str, _metric: Metric[Any, Any]) -> Metric[Any, Any]:
    """One metric instance per (metric and signature, :func:`metrics.core.selection.metric_key`; reference corpus):
    its reference caches and, for CIDEr-D, its document frequencies then always belong to the corpus being shown.
    ``_metric`` is a fresh instance of that key, kept the first time."""
    del key, refs_hash  # the cache key only
    return _metric


# ------------------------------------------------------------------------------------------------ session data


def offered_metrics() -> tuple[str, ...]:
    """Metric ids whose requirements are installed here, then the loaded data's external metrics and human
    annotations' scores."""
    data = dataset()
    return (*available_metrics(), *data.external, *data.annotations)


def label(metric_id: str) -> str:
    """How the metric choice names a metric id."""
    if metric_id in SPECS:
        return SPECS[metric_id].label
    if metric_id in dataset().annotations:
        return f"{metric_id} (human {human_score(dataset().annotations[metric_id]).name} scores)"
    return f"{metric_id} (external scores)"


def human_score(annotations: Annotations) -> HumanScore:
    """The score a set of annotations is: ESA's own scores for ESA, MQM from the errors for MQM and spans."""
    return HumanScore.ESA if annotations.scheme is Scheme.ESA else HumanScore.MQM


def mqm_weights() -> MqmWeights:
    """The MQM weights the user set on the Data page (WMT's by default)."""
    return MqmWeights.parse(st.session_state.get(MQM_WEIGHTS, ""))


def annotation_metric(data: Dataset, name: str) -> AnnotationMetric:
    """The MQM or ESA scores of the annotations ``name`` as a metric; a loaded system they do not rate is rated on
    no segment (its score is then undefined, and its unrated count says why)."""
    marked = data.annotations[name]
    missing = {system: ((),) * len(data) for system in data.systems if system not in marked.ratings}
    if missing:
        marked = replace(marked, ratings=MappingProxyType({**marked.ratings, **missing}))
    return AnnotationMetric(marked, human_score(marked), mqm_weights(), name)


def default_metrics(data: Dataset, task: Task | None = None) -> tuple[list[str], MetricChoice | None]:
    """The metrics to start from: the dataset's own (a bundled example's, a workspace's), else those of ``task``
    or of the task read from its references, source and outputs, with the reason (``metrics.core.defaults``)."""
    offered = offered_metrics()
    if data.default_metrics is not None and task is None:
        return [m for m in data.default_metrics if m in offered], None
    choice = choose_metrics(data.refs, offered, source=data.source, outputs=list(data.systems.values()), task=task)
    return list(choice.metrics), choice


def set_dataset(data: Dataset, *, keep_metrics: bool = False) -> None:
    """Load ``data``. New references bring their own defaults — metrics chosen from them, the options their
    language calls for — while systems added to, renamed in or removed from the same references keep the choice
    (``keep_metrics``)."""
    previous = st.session_state.get(DATASET)
    new_refs = previous is None or previous.refs_hash != data.refs_hash
    st.session_state[DATASET] = data
    if new_refs:
        keys.forget_choices()
        segment_metadata.replace(None)  # its rows belong to the segments of the references it was loaded for
        _adopt_language(data)
    if new_refs or DETECTED not in st.session_state:
        st.session_state[DETECTED] = choose_metrics(
            data.refs, offered_metrics(), source=data.source, outputs=list(data.systems.values())
        )
    if not keep_metrics or new_refs or METRICS not in st.session_state:
        detected: MetricChoice = st.session_state[DETECTED]
        if data.default_metrics is None:  # the detected choice is the default: read once
            _adopt_choice(list(detected.metrics), detected)
        else:
            _adopt_choice(*default_metrics(data))
    set_segment(0)
    if st.session_state.get(BASELINE) not in data.systems:
        st.session_state[BASELINE] = next(iter(data.systems))


def _adopt_choice(ids: list[str], choice: MetricChoice | None) -> None:
    """Choose ``ids`` as ``choice`` said, with the options it set so that they read the references' letters (kept
    with the language's, and taken back with them when the references change)."""
    st.session_state[METRICS] = ids
    st.session_state[METRIC_CHOICE] = choice
    if choice is None or not choice.options:
        return
    current, auto = options(), st.session_state.get(AUTO_OPTIONS, {})
    for family, values in choice.options.items():
        for name, value in values.items():
            current.setdefault(family, {}).setdefault(name, value)
            auto.setdefault(family, {})[name] = value
    st.session_state[OPTIONS] = current
    st.session_state[AUTO_OPTIONS] = auto


def detected_choice() -> MetricChoice | None:
    """The metrics and task read from the loaded data, whatever was chosen since (``None`` before any data)."""
    return st.session_state.get(DETECTED)


def current_task() -> Task | None:
    """The task the metrics were chosen for: the user's or the detected one (``None`` for a bundled example's
    or a workspace's own metrics)."""
    choice: MetricChoice | None = st.session_state.get(METRIC_CHOICE)
    return choice.task if choice is not None else None


def translation_fits_apply() -> bool:
    """Whether human-agreement estimates may be shown: their fits come from WMT translation system pairs, so not
    for data read (or stated) as summaries or captions."""
    return current_task() in (None, Task.TRANSLATION)


def set_task(task: Task) -> None:
    """The user states the task: its default metrics replace the chosen ones (nothing is computed here; the pages
    compute what is chosen when shown)."""
    _adopt_choice(*default_metrics(dataset(), task))
    st.session_state[widget_key(keys.METRICS_BOX)] = metric_ids()


@st.cache_resource(show_spinner=False)
def _caveats() -> LRU:
    return LRU(64)


def language_caveats(ids: Sequence[str]) -> tuple[LanguageCaveat, ...]:
    """What the chosen metrics cannot read in the loaded texts (``metrics.core.caveats``), once per family."""
    data = dataset()
    current = options()
    key = (data.fingerprint(), tuple(ids), repr(sorted((f, sorted(v.items())) for f, v in current.items())))
    found = _caveats().get(key)
    if found is None:
        found = core_caveats(ids, data.refs, list(data.systems.values()), current)
        _caveats().put(key, found)
    return cast(tuple[LanguageCaveat, ...], found)


def _adopt_language(data: Dataset) -> None:
    """Set the options the references' language calls for (``metrics.core.language``), except those the user set:
    values the previous references set and the user left as they were are taken back first."""
    current = options()
    for family, values in st.session_state.get(AUTO_OPTIONS, {}).items():
        for name, value in values.items():
            if current.get(family, {}).get(name) == value:
                del current[family][name]
    counts = detect_language(data.refs)
    families = {spec.family for spec in SPECS.values()}
    chosen, applied = apply_language(language_settings(counts.language), current, families)
    st.session_state[OPTIONS] = {family: values for family, values in chosen.items() if values}
    auto: dict[str, dict[str, Any]] = {}
    for choice in applied.choices:
        auto.setdefault(choice.family, {})[choice.name] = choice.value
    st.session_state[AUTO_OPTIONS] = auto
    st.session_state[SCRIPT] = counts
    st.session_state[LANGUAGE] = applied


def language_note(ids: Sequence[str]) -> str | None:
    """What was detected in the references and what it set for the chosen metrics (options the user changed since
    are left out), for the screen; ``None`` for references of no language with options of its own. Plain text."""
    counts: ScriptCounts | None = st.session_state.get(SCRIPT)
    applied: LanguageSettings | None = st.session_state.get(LANGUAGE)
    if counts is None or counts.language is None or applied is None:
        return None
    families = {SPECS[m].family for m in ids if m in SPECS}
    current = options()
    held = tuple(
        c for c in applied.choices if c.family in families and current.get(c.family, {}).get(c.name) == c.value
    )
    fallbacks = tuple(f for f in applied.fallbacks if f.family in families)
    if not held and not fallbacks:
        changed = [c.setting for c in applied.choices if c.family in families]
        if changed:  # the user (or a loaded workspace) set these otherwise: say so, never "no option for it"
            return f"References look {counts.describe()}; not in use for the chosen metrics: {', '.join(changed)}."
        return f"References look {counts.describe()}; the chosen metrics have no option for it."
    summary = LanguageSettings(applied.language, held, fallbacks).summary()
    return f"References look {counts.describe()}: {summary}. Options can be changed in the sidebar."


def metric_choice_note(ids: Sequence[str]) -> str | None:
    """Why these metrics, while they are the ones chosen from the data (plain text); ``None`` otherwise."""
    choice: MetricChoice | None = st.session_state.get(METRIC_CHOICE)
    if choice is None or list(choice.metrics) != list(ids):
        return None
    origin = "from the data" if choice.detected else "for the stated task"
    return f"Metrics chosen {origin} — {choice.explain()}. Choose others in the sidebar."


def resamples(n_systems: int) -> int:
    """Bootstrap resamples of the significance tests: the user's count, else enough for the Holm-corrected tests
    of all pairs of ``n_systems`` systems to be able to reject (``metrics.stats.significance.resamples_for``)."""
    chosen = st.session_state.get(RESAMPLES)
    return int(chosen) if chosen is not None else auto_resamples(n_systems)


def auto_resamples(n_systems: int) -> int:
    return resamples_for(max(1, n_pairs(n_systems)), DEFAULT_ALPHA)


def set_resamples(count: int | None) -> None:
    """The user's count of resamples (``None``: automatic)."""
    if count is None:
        st.session_state.pop(RESAMPLES, None)
    else:
        st.session_state[RESAMPLES] = int(count)


def dataset() -> Dataset:
    if DATASET not in st.session_state:
        set_dataset(load_sample("mt"))
    return st.session_state[DATASET]


def metric_ids() -> list[str]:
    data = dataset()
    return [m for m in st.session_state[METRICS] if m in SPECS or m in data.external or m in data.annotations]


def set_metric_ids(ids: Sequence[str]) -> None:
    st.session_state[METRICS] = [m for m in ids if m in offered_metrics()]


def options() -> dict[str, dict[str, Any]]:
    return {family: dict(values) for family, values in st.session_state.get(OPTIONS, {}).items()}


def set_family_options(family: str, values: dict[str, Any]) -> str | None:
    """Keep ``values`` as ``family``'s options, unless the server refuses one (a value naming a server resource it
    does not offer, :mod:`dashboard.server_config`) or the chosen metrics refuse the part that reaches them: then
    nothing changes and the error, which names the option, is returned."""
    ids = [m for m in metric_ids() if m in SPECS]
    try:
        check_browser_options({family: values})
        browser_selection(tuple(ids), taken(ids, {family: values}))
    except ValueError as err:
        return str(err)
    current = options()
    current[family] = dict(values)
    st.session_state[OPTIONS] = {f: v for f, v in current.items() if v}
    return None


def settings() -> Settings:
    view = {key: st.session_state[key] for key in VIEW_KEYS if key in st.session_state}
    meta = segment_metadata.loaded(len(dataset()))
    weights = st.session_state.get(MQM_WEIGHTS, "")
    return Settings(tuple(metric_ids()), options(), view, slices.saved(), meta, weights)


def apply_settings(loaded: Settings) -> list[str]:
    """Adopt loaded settings; returns notes on anything that could not be applied (it is left out)."""
    notes = []
    st.session_state[MQM_WEIGHTS] = loaded.mqm_weights  # checked when the workspace was read
    st.session_state.pop(keys.MQM_WEIGHTS_BOX, None)
    ids = [m for m in loaded.metrics if m in offered_metrics()]
    dropped = [m for m in loaded.metrics if m not in ids]
    if dropped:
        notes.append(f"metrics not available here, left out: {', '.join(dropped)}")
    chosen = ids or default_metrics(dataset())[0]
    st.session_state[METRICS] = chosen
    st.session_state[METRIC_CHOICE] = None
    kept: dict[str, dict[str, Any]] = {}
    for family, values in loaded.options.items():
        unknown = [name for name in values if not any(takes(m, name) for m in SPECS if SPECS[m].family == family)]
        if unknown:  # no metric of the family has them: nothing could ever use them
            notes.append(f"options for {family} not applied: no {family} metric takes {', '.join(unknown)}")
            values = {name: value for name, value in values.items() if name not in unknown}
        refused = {name: reason for name, value in values.items() if (reason := refusal(family, name, value))}
        if refused:  # a value naming a server resource the server does not offer: left out, the rest applies
            notes.append(f"not applied: {'; '.join(refused.values())}")
            values = {name: value for name, value in values.items() if name not in refused}
        # As in the sidebar: the part that reaches the chosen metrics must build them, the rest waits for its metric.
        members = [m for m in chosen if m in SPECS and SPECS[m].family == family]
        try:
            browser_selection(tuple(members), taken(members, {family: values}))
        except ValueError as err:
            notes.append(f"options for {family} not applied: {err}")
            continue
        if values:
            kept[family] = dict(values)
    st.session_state[OPTIONS] = kept
    data = dataset()
    if loaded.view.get(BASELINE) in data.systems:
        st.session_state[BASELINE] = loaded.view[BASELINE]
    segment = loaded.view.get(SEGMENT)
    if isinstance(segment, int) and 0 <= segment < len(data):
        set_segment(segment)
    slices.replace_all(loaded.slices)
    segment_metadata.replace(loaded.metadata)
    reset_widgets()
    return notes


def widget_key(name: str) -> str:
    """The key of a widget that shows a setting (the metric choice, an option, the baseline), new after every
    :func:`reset_widgets`."""
    generation = st.session_state.get(WIDGET_GENERATION, 0)
    return f"{name}@{generation}" if generation else name


def reset_widgets() -> None:
    """Redraw the widgets that show settings from the settings, after code changed them (a sample, an upload or a
    workspace was loaded). They get new keys: a browser sends its copy of every widget's value with its next
    request, and the old widget's copy would otherwise put the old value back (the browser never redraws a widget
    whose key stays the same from a changed default)."""
    st.session_state[WIDGET_GENERATION] = st.session_state.get(WIDGET_GENERATION, 0) + 1


def segment() -> int:
    data = dataset()
    return min(max(int(st.session_state.get(SEGMENT, 0)), 0), len(data) - 1)


def set_segment(index: int) -> None:
    """Choose the segment from anywhere but the segment view's number box: the box is drawn anew from it."""
    st.session_state[SEGMENT] = int(index)
    st.session_state[SEGMENT_MOVES] = st.session_state.get(SEGMENT_MOVES, 0) + 1


def segment_box() -> str:
    """The key of the segment view's number box. It changes only when code chooses the segment
    (:func:`set_segment`), never when the box does (:func:`step_segment`): stepping through segments with its − and +
    is counted by the browser, which sends the number it reached, so no click is lost to a busy server, and a box
    whose key stayed the same keeps counting from where it is."""
    return f"segment_box:{st.session_state.get(SEGMENT_MOVES, 0)}"


def step_segment(index: int) -> None:
    """The segment view's number box chose the segment."""
    st.session_state[SEGMENT] = int(index)


# ------------------------------------------------------------------------------------------------- evaluation


def _content_key(metric_id: str, metric: Metric[Any, Any]) -> str:
    """What a metric's results depend on besides the outputs and references: its id and signature, or an external
    metric's scores; and the source, for a metric that reads it."""
    data = dataset()
    if metric_id in data.annotations:
        return f"{metric_id}|annotations:{data.annotations_hash(metric_id)}|{metric.signature()}"
    if metric_id not in SPECS:
        return f"{metric_id}|external:{data.external[metric_id].fingerprint()}"
    if isinstance(metric, ReadsSource):
        return f"{metric_key(metric_id, metric)}|source:{dataset().source_hash}"
    return metric_key(metric_id, metric)


def selection(ids: Sequence[str]) -> tuple[Selection, list[str]]:
    """The chosen registry metrics with the stored options that reach them; a family whose options they refuse is
    left out, with the error (it names the option)."""
    chosen = [m for m in ids if m in SPECS]
    errors: list[str] = []
    for metric_id in list(chosen):
        try:
            metric_class(metric_id)
        except ImportError as err:  # a metric module that cannot load here leaves that metric out, not the page
            errors.append(f"{label(metric_id)}: {err}")
            chosen.remove(metric_id)
    while True:
        try:
            return browser_selection(chosen, taken(chosen, options())), errors
        except OptionError as err:
            left_out = [m for m in chosen if SPECS[m].family == err.family]
            if not left_out:  # not the chosen metrics' fault: leaving one out would not help
                raise
            errors.append(f"{', '.join(map(label, left_out))}: {err}")
            chosen = [m for m in chosen if m not in left_out]


def metrics_for(data: Dataset, ids: Sequence[str]) -> tuple[dict[str, Metric[Any, Any]], list[str]]:
    """The chosen metrics, built by their :func:`selection`, one instance per signature and reference corpus;
    errors name the metric (it is then left out)."""
    chosen, errors = selection(ids)
    built: dict[str, Metric[Any, Any]] = {}
    for metric_id in ids:
        if metric_id in data.external:
            built[metric_id] = External(data.external[metric_id])
        elif metric_id in data.annotations:
            try:
                built[metric_id] = annotation_metric(data, metric_id)
            except ValueError as err:  # no rated segment, or weights the user typed wrong
                errors.append(f"{label(metric_id)}: {err}")
        elif metric_id in chosen.metric_ids:
            try:
                fresh = chosen.metric(metric_id)
                built[metric_id] = metric_for(metric_key(metric_id, fresh), data.refs_hash, fresh)
            except (ValueError, ImportError, AttributeError) as err:  # a model or file the signature reads
                errors.append(f"{label(metric_id)}: {err}")
    return built, errors


def lacking(data: Dataset, metrics: Mapping[str, Metric[Any, Any]]) -> dict[str, str]:
    """Why each of ``metrics`` that cannot run on ``data`` cannot (``needs the references``, ``needs the
    source``), by id; the metrics that can run are left out."""
    found = {}
    for metric_id, metric in metrics.items():
        missing: MissingInput | None = missing_input(
            metric, references=data.has_references, source=data.source is not None
        )
        if missing is not None:
            found[metric_id] = f"needs the {missing.needs}"
    return found


def unavailable(ids: Sequence[str]) -> dict[str, str]:
    """:func:`lacking` of the metric ids ``ids`` with the options the user set. Building a metric reads only its
    config (microseconds), once its module is imported."""
    data = dataset()
    if data.has_references and data.source is not None:
        return {}
    built: dict[str, Metric[Any, Any]] = {}
    for metric_id in ids:
        if metric_id not in SPECS:
            continue  # external scores read neither
        try:
            built[metric_id] = browser_selection((metric_id,), taken([metric_id], options())).metric(metric_id)
        except (ValueError, ImportError):
            continue  # a metric whose options or install fail says so when it is computed
    return lacking(data, built)


def unavailable_note(reasons: dict[str, str]) -> str:
    """One sentence naming the metrics that cannot run on the loaded data and what to load (plain text)."""
    by_need: dict[str, list[str]] = {}
    for metric_id, reason in reasons.items():
        by_need.setdefault(reason, []).append(label(metric_id).split(" (")[0])
    parts = [f"{', '.join(names)} ({reason})" for reason, names in by_need.items()]
    return f"Not available on this data: {'; '.join(parts)}. Load what they need on the Data page."


def evaluation() -> Evaluation:
    """Corpus and segment scores of every system under every chosen metric, from the cache where possible. A
    chosen metric that needs what the data lacks (references, the source) is left out with the reason, as
    unavailable rather than as an error."""
    data = dataset()
    metrics, errors = metrics_for(data, metric_ids())
    reasons = lacking(data, metrics)
    for metric_id in reasons:
        del metrics[metric_id]
    if reasons:
        st.info(escape_markdown(unavailable_note(reasons)), icon="ℹ️")
    refs = [list(stream) for stream in data.refs]
    source = None if data.source is None else list(data.source)
    keys = {metric_id: _content_key(metric_id, metric) for metric_id, metric in metrics.items()}

    def job(name: str, metric_id: str) -> Job[tuple[SegmentStats, float, np.ndarray]]:
        metric, hyps = metrics[metric_id], list(data.systems[name])

        def run() -> tuple[SegmentStats, float, np.ndarray]:
            single = evaluate({name: hyps}, refs, {metric_id: metric}, progress=report, source=source).systems[0]
            return single.stats[metric_id], single.scores[metric_id], single.segment_scores[metric_id]

        # An external metric's rows belong to the named system, whatever its text (two may have the same outputs).
        owner = name if isinstance(metric, OWNED) else None
        key = (keys[metric_id], data.refs_hash, data.system_hash(name), owner)
        return Job(key, f"{metric.name} on {name}", run, lambda: expected_seconds(metric, hyps, refs))

    jobs = {(name, m): job(name, m) for m in metrics for name in data.systems}
    results, failed = run_cached(_results(), jobs, "Scoring", expected=(ValueError, TypeError, NotComputed))
    dropped: dict[str, str] = {}
    for (name, metric_id), err in failed.items():
        if isinstance(err, NotComputed):  # run_cached said why; the metric waits, the others are shown
            dropped.setdefault(metric_id, "")
        else:
            dropped[metric_id] = dropped.get(metric_id) or f"{label(metric_id)} on {name}: {err}"
    for metric_id in dropped:
        del metrics[metric_id]
    for message in [*errors, *filter(None, dropped.values())]:
        st.error(f"Left out — {escape_markdown(message)}", icon="⚠️")
    systems = []
    for name in data.systems:
        stats, scores, segments = {}, {}, {}
        for metric_id in metrics:
            stats[metric_id], scores[metric_id], segments[metric_id] = results[(name, metric_id)]
        systems.append(SystemResult(name, stats, scores, segments))
    signatures = {m: full_signature(metric, refs) for m, metric in metrics.items()}
    return Evaluation(metrics, signatures, tuple(systems))


# ------------------------------------------------------------------------------------------------- statistics


def statistics(evaluation: Evaluation) -> dict[str, Any] | None:
    """Per metric id, the significance module's all-pairs report (intervals, pairs, tied groups), with system
    names as shown now; ``None`` when that module is not installed. Cached by the systems' ids and content, so
    renames are free."""
    try:
        from metrics.stats import significance
    except ImportError:
        return None
    data = dataset()
    names = [r.name for r in evaluation.systems]
    count = resamples(len(names))
    ids = [data.system_id(name) for name in names]  # stable: systems with identical outputs stay apart
    to_name = dict(zip(ids, names, strict=True))
    content = tuple((i, data.system_hash(name)) for i, name in zip(ids, names, strict=True))

    def job(metric_id: str) -> Job[Any]:
        def run() -> Any:
            metric = evaluation.metrics[metric_id]
            stats = {i: evaluation.system(n).stats[metric_id] for i, n in zip(ids, names, strict=True)}
            if len(stats) > 1:
                return significance.all_pairs(metric, stats, n_samples=count, seed=SEED)
            intervals = significance.confidence_intervals(metric, stats, count, SEED)
            return significance.PairedReport(metric.name, "bs", None, intervals, (), ((ids[0],),))

        key = (_content_key(metric_id, evaluation.metrics[metric_id]), data.refs_hash, content, count, SEED)
        return Job(key, evaluation.metrics[metric_id].name, run)

    jobs = {m: job(m) for m in evaluation.metrics}
    reports, _ = run_cached(_statistics(), jobs, f"Bootstrap resampling ({count:,} samples)", expected=(NotComputed,))
    return {metric_id: _renamed(report, to_name) for metric_id, report in reports.items()}


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

    def job(metric_id: str) -> Job[tuple[Correlation, ...]]:
        def run() -> tuple[Correlation, ...]:
            stats = {name: evaluation.system(name).stats[metric_id] for name in judged}
            metric = evaluation.metrics[metric_id]
            return correlate(metric, stats, scores, N_RESAMPLES, SEED, levels=levels, label=metric_id)

        metric_content = _content_key(metric_id, evaluation.metrics[metric_id])
        key = (metric_content, data.refs_hash, content, levels, N_RESAMPLES, SEED)
        return Job(key, evaluation.metrics[metric_id].name, run)

    jobs = {m: job(m) for m in evaluation.metrics}
    label = f"Correlation with human scores ({N_RESAMPLES} resamples)"
    results, failed = run_cached(_correlations(), jobs, label, expected=(ValueError, NotComputed))
    messages = [
        f"{evaluation.metrics[metric_id].name}: {err}"
        for metric_id, err in failed.items()
        if not isinstance(err, NotComputed)
    ]
    if len(judged) < 2:
        messages.append("system-level correlation needs at least two systems with human scores")
    return results, messages


# ----------------------------------------------------------------------------------------------- explanations


def explain_all(evaluation: Evaluation, metric_id: str, systems: Sequence[str], index: int) -> dict[str, Explanation]:
    """The metric's evidence for one segment of every shown system (cached; the corpus statistics are not
    touched), computed within the loaded reference corpus (CIDEr-D's document frequencies)."""
    data = dataset()
    metric = evaluation.metrics[metric_id]
    refs = data.segment_refs(index)
    source = None if data.source is None else data.source[index]
    content = _content_key(metric_id, metric)

    def job(system: str) -> Job[Explanation]:
        hyp = data.systems[system][index]

        def run() -> Explanation:
            metric.prepare([list(stream) for stream in data.refs])
            return explain_segment(metric, system, index, hyp, refs, source=source)

        # An external metric's evidence is the system's own score, so the system is part of its key.
        owner = system if isinstance(metric, OWNED) else None
        key = (metric_id, content, data.refs_hash, stream_hash([hyp, *refs]), index, owner)
        return Job(key, system, run)

    found, _ = run_cached(_explanations(), {s: job(s) for s in systems}, f"Explaining {metric.name}")
    return found
