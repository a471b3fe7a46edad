"""The app's frame: the shared stylesheet and the sidebar (the loaded dataset, the metric choice and every option).

``app.py`` draws the frame once per run, inside ``st.navigation``, around whichever page is shown: the same sidebar
widgets are drawn on every run, so Streamlit keeps their values across page switches and nothing is re-seeded. A
page run on its own (``streamlit run pages/…``, the tests) draws the frame itself in :func:`page_setup`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dashboard import keys, legacy_pages, state
from dashboard.dataset import Dataset
from dashboard.options import OptionField, family_fields, family_values, unoffered, widget_value
from dashboard.server_config import DEVICES_ENV, ENV, MAX_FILE_OPTION_BYTES, server_config
from dashboard.widgets import file_widget, model_widget, option_widget
from metrics.core.config import Resource
from metrics.core.evaluation import Evaluation
from metrics.core.registry import SPECS
from rendering.text import escape_markdown

CSS = Path(__file__).resolve().parent.parent / "assets" / "style.css"
_FRAMED: ContextVar[bool] = ContextVar("scorelens_framed", default=False)


@contextmanager
def app_frame() -> Iterator[None]:
    """Draw the frame, then run the page inside it (``with app_frame(): page.run()``)."""
    _draw_frame()
    token = _FRAMED.set(True)
    try:
        yield
    finally:
        _FRAMED.reset(token)


def page_setup(title: str) -> Dataset:
    """The opening of every page: its browser title, the frame unless ``app.py`` drew it, and the loaded data."""
    if not _FRAMED.get():
        legacy_pages.hand_routing_to_app()
    st.set_page_config(page_title=f"ScoreLens — {title}", layout="wide")
    if not _FRAMED.get():
        _draw_frame()
    return state.dataset()


def _draw_frame() -> None:
    st.set_page_config(layout="wide")
    if CSS.exists():
        st.html(CSS)
    _sidebar()


def _options_panel(chosen: list[str]) -> None:
    stored_all = state.options()
    for family, fields in family_fields(chosen).items():
        stored = stored_all.get(family, {})
        refused = unoffered(fields, stored)
        panel = st.expander(f"{family} options", expanded=bool(refused))
        if refused:
            panel.warning(
                f"Not offered for the chosen metrics, back to the default: {escape_markdown(', '.join(refused))}"
            )
        values = {f.name: _field_widget(panel, f, stored) for f in fields}
        members = [m for m in chosen if SPECS[m].family == family]
        wanted = family_values(fields, values, stored, members)
        if wanted != stored:
            error = state.set_family_options(family, wanted)
            if error:
                panel.error(f"Not applied: {escape_markdown(error)}")


def _field_widget(panel: DeltaGenerator, f: OptionField, stored: dict[str, Any]) -> Any:
    """One option's widget: a file comes as an upload and a model from the server's list, never as text."""
    key, resource = state.widget_key(f.key), f.option.info.resource
    if resource is Resource.FILE:
        return file_widget(panel, f.shown, key, stored.get(f.name, f.default), MAX_FILE_OPTION_BYTES)
    if resource is Resource.MODEL or resource is Resource.DEVICE:
        choices = server_config().choices(f.family, f.option)
        chosen = model_widget(panel, f.shown, key, stored.get(f.name, f.default), choices)
        if len(choices) == 1:
            what, env = ("models", ENV) if resource is Resource.MODEL else ("devices", DEVICES_ENV)
            panel.caption(f"Other {what} are the server's to offer: its owner lists them in {env}.")
        return chosen
    return option_widget(panel, f.shown, key, widget_value(f, stored), f.choices, f.unavailable)


def _sidebar() -> None:
    data = state.dataset()
    with st.sidebar:
        if server_config().error:  # its text names a server path: the server's log has it
            st.error(f"The server's model list ({ENV}) could not be read; only the default models are offered.")
        st.markdown(f"**{escape_markdown(data.title)}**")
        st.caption(f"{len(data.systems)} systems · {len(data)} segments · {describe_inputs(data)}")
        _metric_form()
        _options_panel([m for m in state.metric_ids() if m in SPECS])


def _metric_form() -> None:
    """The metric choice, applied by its button: a user picking three metrics waits for one run, not three (each
    click in the box would otherwise rerun the page and start scoring). Applying computes only the metrics never
    computed before on this data; removing one is a lookup."""
    offered = list(state.offered_metrics())
    reasons = state.unavailable(offered)  # offered still: the user may load what they need next
    box = state.widget_key(keys.METRICS_BOX)
    with st.form("metrics_form", border=False):
        st.multiselect(
            "Metrics",
            offered,
            # A value put in the box's state (the Data page adding an external metric) wins over the default.
            default=None if box in st.session_state else [m for m in state.metric_ids() if m in offered],
            format_func=lambda m: state.label(m) + (f" — {reasons[m]}" if m in reasons else ""),
            key=box,
            help="Choose or remove any number of metrics, then apply them: only metrics not computed before on "
            "this data are computed.",
        )
        st.form_submit_button("Apply", key="metrics_apply", on_click=_apply_metrics, args=(box,))
    if reasons:
        st.caption(
            "Metrics marked “needs the references” or “needs the source” cannot run on this data; "
            "load what they need on the Data page."
        )
    if keys.METRICS_EMPTY.get(False):
        keys.METRICS_EMPTY.pop()
        st.caption("Choose at least one metric; the previous choice is kept.")


def _apply_metrics(box: str) -> None:
    """The Apply button's callback: the box's metrics become the choice; an empty box puts the choice back."""
    chosen = list(st.session_state.get(box) or ())
    if not chosen:
        st.session_state[box] = state.metric_ids()
        keys.METRICS_EMPTY.set(True)
    elif chosen != state.metric_ids():
        state.set_metric_ids(chosen)


def no_metric_warning(data: Dataset) -> None:
    """Why a page has no score to show, and what to choose: on data without references, a metric that reads none."""
    if data.refs:
        st.warning("No metric could be computed; choose metrics in the sidebar.")
    else:
        st.warning(
            "No metric that reads no references is chosen: choose one in the sidebar (perplexity with a corpus file "
            "or a causal model), or add external scores on the Data page."
        )


def describe_inputs(data: Dataset) -> str:
    """``2 reference(s) and a source``, ``no references``…: what the loaded data gives the metrics besides the
    outputs."""
    refs = f"{len(data.refs)} reference(s)" if data.refs else "no references"
    return refs + (" and a source" if data.source is not None else "")


def scored_page(key: str, title: str) -> tuple[Dataset, Evaluation]:
    """The opening of a page that shows scores: setup, title and the evaluation; the page stops with a warning when
    no metric could be computed, so what follows may assume at least one."""
    data = page_setup(key)
    st.title(title)
    evaluation = state.evaluation()
    if not evaluation.metrics:
        no_metric_warning(data)
        st.stop()
    return data, evaluation
