"""Session state shared by every page: the loaded dataset, the chosen metrics and options, cached results.

Every page calls :func:`sidebar` first, so any page works on its own (a fresh session starts on the bundled MT
sample) and all pages share one evaluation, computed once per (data, metrics, options) and reused on every rerun.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import streamlit as st

from dashboard.samples import SAMPLES, Dataset, load_sample
from metrics.available import available_metrics
from metrics.evaluate import Evaluation, evaluate
from metrics.registry import SPECS, create_many

DATASET = "dataset"
METRICS = "metric_ids"
OPTIONS = "metric_options"


def fingerprint(dataset: Dataset) -> str:
    digest = hashlib.sha256()
    for name, texts in sorted(dataset.systems.items()):
        digest.update(name.encode() + b"\x00" + "\x1e".join(texts).encode() + b"\x1f")
    for stream in dataset.refs:
        digest.update("\x1e".join(stream).encode() + b"\x1d")
    return digest.hexdigest()


def set_dataset(dataset: Dataset) -> None:
    st.session_state[DATASET] = dataset
    st.session_state[METRICS] = [m for m in dataset.default_metrics if m in available_metrics()]


def dataset() -> Dataset:
    if DATASET not in st.session_state:
        set_dataset(load_sample("mt"))
    return st.session_state[DATASET]


def metric_ids() -> list[str]:
    dataset()
    return list(st.session_state[METRICS])


def options() -> dict[str, dict[str, Any]]:
    return dict(st.session_state.get(OPTIONS, {}))


@st.cache_resource(max_entries=8, show_spinner=False)
def _evaluate(key: str, _dataset: Dataset, ids: tuple[str, ...], options_json: str) -> Evaluation:
    metrics = create_many(ids, json.loads(options_json))
    bar = st.progress(0.0, text="Scoring…")
    try:
        return evaluate(
            {name: list(texts) for name, texts in _dataset.systems.items()},
            [list(r) for r in _dataset.refs],
            metrics,
            progress=lambda fraction, message: bar.progress(min(fraction, 1.0), text=f"Scoring: {message}"),
        )
    finally:
        bar.empty()


def evaluation() -> Evaluation:
    data = dataset()
    ids = tuple(metric_ids())
    opts = {family: values for family, values in options().items() if any(SPECS[m].family == family for m in ids)}
    return _evaluate(fingerprint(data), data, ids, json.dumps(opts, sort_keys=True))


def sidebar() -> Dataset:
    """Dataset and metric choice, in one place for every page."""
    data = dataset()
    with st.sidebar:
        st.caption("Dataset")
        st.markdown(f"**{escape_md(data.title)}**")
        choice = st.selectbox(
            "Bundled example",
            ["(keep current)", *SAMPLES],
            format_func=lambda k: SAMPLES[k].title if k in SAMPLES else k,
            key="sample_choice",
        )
        if choice in SAMPLES and SAMPLES[choice].title != data.title:
            set_dataset(load_sample(choice))
            data = dataset()
        chosen = st.multiselect(
            "Metrics",
            available_metrics(),
            default=metric_ids(),
            format_func=lambda m: SPECS[m].label,
            key="metrics_box",
        )
        if chosen and chosen != metric_ids():
            st.session_state[METRICS] = chosen
    return data


def escape_md(text: str) -> str:
    from rendering.text import escape_markdown

    return escape_markdown(text)
