"""The sidebar every page shows: the loaded dataset, the metric choice and every option — in one place."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard import state
from dashboard.dataset import Dataset
from dashboard.options import OptionField, changed_values, family_fields, validate, widget_value
from metrics.core.registry import SPECS
from metrics.evaluate import Evaluation
from rendering.text import escape_markdown

CSS = Path(__file__).resolve().parent.parent / "assets" / "style.css"
_PAGE = "_page"
_SIDEBAR_PAGE = "_sidebar_page"
METRICS_BOX = "metrics_box"


def page_setup(title: str) -> None:
    """Page config and the shared stylesheet; call first on every page."""
    st.set_page_config(page_title=f"ScoreLens — {title}", layout="wide")
    st.session_state[_PAGE] = title
    if CSS.exists():
        st.html(CSS)


def _option_widget(f: OptionField) -> object:
    label = f.name.replace("_", " ")
    if f.kind == "bool":
        return st.checkbox(label, key=f.key)
    if f.kind == "choice":
        return st.selectbox(label, list(f.choices), key=f.key)
    if f.kind == "int":
        return st.number_input(label, step=1, key=f.key)
    if f.kind == "float":
        return st.number_input(label, step=0.1, format="%g", key=f.key)
    return st.text_input(label + (" (empty = default)" if f.optional else ""), key=f.key)


def _options_panel(chosen: list[str]) -> None:
    stored_all = state.options()
    for family, fields in family_fields(chosen).items():
        stored = stored_all.get(family, {})
        with st.expander(f"{family} options", expanded=False):
            values = {}
            for f in fields:
                if f.key not in st.session_state or _page_changed():
                    st.session_state[f.key] = widget_value(f, stored)
                values[f.name] = _option_widget(f)
            changed = changed_values(fields, values)
            if changed != stored:
                error = validate(family, chosen, changed)
                if error:
                    st.error(f"Not applied: {escape_markdown(error)}")
                else:
                    state.set_family_options(family, changed)


def sidebar() -> Dataset:
    data = state.dataset()
    with st.sidebar:
        st.markdown(f"**{escape_markdown(data.title)}**")
        st.caption(f"{len(data.systems)} systems · {len(data)} segments · {len(data.refs)} reference(s)")
        if METRICS_BOX not in st.session_state or _page_changed():
            st.session_state[METRICS_BOX] = state.metric_ids()
        chosen = st.multiselect(
            "Metrics", list(state.offered_metrics()), format_func=lambda m: SPECS[m].label, key=METRICS_BOX
        )
        if not chosen:
            st.caption("Choose at least one metric; keeping the previous choice.")
        elif chosen != state.metric_ids():
            state.set_metric_ids(chosen)
        _options_panel(state.metric_ids())
    st.session_state[_SIDEBAR_PAGE] = st.session_state.get(_PAGE)
    return data


def _page_changed() -> bool:
    """True on the first run of a page after another one: the sidebar's widgets belong to the page that draws them,
    so Streamlit starts them empty there, and they are seeded again from the settings kept in session state."""
    return st.session_state.get(_SIDEBAR_PAGE) != st.session_state.get(_PAGE)


def scored_page(key: str, title: str) -> tuple[Dataset, Evaluation]:
    """The opening of a page that shows scores: setup, title, sidebar and the evaluation; the page stops with a
    warning when no metric could be computed, so what follows may assume at least one."""
    page_setup(key)
    st.title(title)
    data = sidebar()
    evaluation = state.evaluation()
    if not evaluation.metrics:
        st.warning("No metric could be computed; choose metrics in the sidebar.")
        st.stop()
    return data, evaluation
