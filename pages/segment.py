"""Segment view: source, references and every system's output side by side, with the evidence behind one metric's
score — n-gram matches, the LCS grid, the METEOR alignment, the TER edit trace, CIDEr-D weights — drawn from the
metrics' explanation objects, and above it in each card the raters' error spans (MQM, ESA) of that output, on the
same line as a learned metric's spans (xCOMET) when that metric is the one shown. Choosing a segment never
recomputes corpus statistics."""

from __future__ import annotations

from typing import Literal

import pandas as pd
import streamlit as st

from dashboard import keys, state
from dashboard.sidebar import scored_page
from dashboard.widgets import select, select_many
from metrics.families.comet.explanation import CometExplanation
from rendering.annotations import human_parts, segment_marks
from rendering.evidence import explanation_parts, order_labels
from rendering.ngram_view import plain_html
from rendering.parts import Part
from rendering.tables import metric_labels
from rendering.text import escape_markdown

TABLE_ROWS_SHOWN = 40

data, evaluation = scored_page("segment", "Segment view")
labels = metric_labels(evaluation)
n = len(data)


def typed(key: str) -> None:
    state.step_segment(int(st.session_state[key]) - 1)


# Previous and next are the box's − and +: the browser counts those clicks and sends the number it reached, so a
# burst of clicks on a busy server moves as many segments as it has clicks. Buttons could not: Streamlit folds
# clicks that arrive while a run is under way into one. The box's key changes only when code chooses the segment
# (a row opened in the Explorer, a load), so the browser's copy of it never sends the view back.
index = state.segment()
box = state.segment_box()
nav = st.columns([1, 3], vertical_alignment="bottom")
nav[0].number_input(f"Segment (1–{n})", 1, n, index + 1, key=box, on_change=typed, args=(box,))
nav[1].caption("− and + step to the previous and next segment; type a number to jump.")

controls = st.columns([2, 2, 2, 1])
with controls[0]:
    metric_id = select("Evidence of", list(evaluation.metrics), keys.SEG_METRIC, format_func=labels.__getitem__)
all_systems = [r.name for r in evaluation.systems]
with controls[1]:
    shown = select_many("Systems", all_systems, keys.SEG_SYSTEMS, default=all_systems)
reference_options = ["best (as scored)", *(f"reference {k + 1}: {name}" for k, name in enumerate(data.ref_names))]
reference_choice = 0  # without references there is none to choose
if data.refs:
    with controls[2]:
        reference_choice = select(
            "Reference", range(len(reference_options)), keys.SEG_REFERENCE, format_func=reference_options.__getitem__
        )
columns = keys.SEG_COLUMNS
per_row = columns.keep(int(controls[3].number_input("Columns", 1, 4, min(3, len(shown)), key=columns.widget())))

if data.source is not None:
    st.markdown("**Source**")
    st.html(plain_html(data.source[index]))
for k, (name, stream) in enumerate(zip(data.ref_names, data.refs, strict=True)):
    st.markdown(f"**Reference {k + 1}** · {escape_markdown(name)}")
    st.html(plain_html(stream[index]))
if not data.refs:
    st.caption("No references are loaded: the metrics shown read none.")

scores = pd.DataFrame(
    {labels[m]: [float(evaluation.system(s).segment_scores[m][index]) for s in shown] for m in evaluation.metrics},
    index=pd.Index(shown, name="system"),
)
st.dataframe(scores.style.format("{:.4f}"), height="content", key="segment_scores")

explanations = state.explain_all(evaluation, metric_id, shown, index)
# The order choice is made once for all systems, from the first explanation's orders.
orders = order_labels(explanations[shown[0]])
order = 1
if orders:
    label = st.radio("n-gram order", orders, horizontal=True, key=f"seg_order:{metric_id}")
    order = orders.index(label) + 1 if label is not None else 1
st.caption(f"Signature of the segment scores: {escape_markdown(evaluation.segment_signatures[metric_id])}")


def show(part: Part, key: str) -> None:
    if part.title:
        st.caption(escape_markdown(part.title))
    if part.kind == "html":
        st.html(part.payload)
    elif part.kind == "figure":
        st.plotly_chart(part.payload, key=key)
    elif part.kind == "table":
        # Every row in view while that stays short; a longer table scrolls inside its frame.
        height: Literal["content", "auto"] = "content" if len(part.payload) <= TABLE_ROWS_SHOWN else "auto"
        st.dataframe(part.payload, key=key, hide_index=True, height=height)
    else:
        st.caption(escape_markdown(str(part.payload)))


def show_all(parts: list[Part], key: str) -> None:
    for k, part in enumerate(p for p in parts if not p.detail):
        show(part, f"{key}:part:{k}")
    details = [p for p in parts if p.detail]
    if details:
        with st.expander("More detail"):
            for k, part in enumerate(details):
                show(part, f"{key}:detail:{k}")


# Systems side by side in columns; what needs a page's width to be read (tables, figures, alignment drawings)
# follows each row of columns at full width, one block per system.
for start in range(0, len(shown), int(per_row)):
    row = shown[start : start + int(per_row)]
    full_rows: dict[str, list[Part]] = {}
    for column, system in zip(st.columns(int(per_row)), row, strict=False):
        with column, st.container(border=True):
            score = evaluation.system(system).segment_scores[metric_id][index]
            st.markdown(f"**{escape_markdown(system)}** — {escape_markdown(labels[metric_id])} {score:.4f}")
            if any(system in marked.ratings for marked in data.annotations.values()):
                marks = segment_marks(data.annotations, system, index)
                evidence = explanations[system]
                learned = evidence.spans if isinstance(evidence, CometExplanation) else ()
                human = human_parts(
                    data.systems[system][index],
                    None if data.source is None else data.source[index],
                    marks.spans,
                    learned,
                    raters=marks.raters,
                    summary=marks.summary,
                )
                show_all(human, f"{system}:human")
            parts = explanation_parts(
                explanations[system],
                data.systems[system][index],
                data.segment_refs(index),
                order=order,
                reference=None if reference_choice == 0 else reference_choice - 1,
            )
            show_all([p for p in parts if per_row == 1 or not p.full_row], f"{system}:narrow")
            full_rows[system] = [p for p in parts if per_row > 1 and p.full_row]
    for system, parts in full_rows.items():
        if parts:
            with st.container(border=True):
                st.markdown(f"**{escape_markdown(system)}** — {escape_markdown(labels[metric_id])}, continued")
                show_all(parts, f"{system}:wide")
