"""Sentence explorer for error analysis: two chosen systems' outputs, their scores and the A − B difference first,
the differences between the outputs highlighted, then every segment score of every system and metric; sort,
filter by score, by the difference, by length and by text; choosing a row opens the segment view."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dashboard import slices, state
from dashboard.sidebar import scored_page
from metrics.core.language import length_unit, text_length
from rendering.comparison import ComparedRow, comparison_html
from rendering.tables import column_name, metric_labels, sentence_scores

PAGE_ROWS = 20  # rows of the side-by-side comparison per page

data, evaluation = scored_page("explorer", "Sentence explorer")

labels = metric_labels(evaluation)
all_systems = [r.name for r in evaluation.systems]
left, right = st.columns(2)
metric_ids = left.multiselect(
    "Metrics", list(evaluation.metrics), default=list(evaluation.metrics), format_func=labels.get, key="ex_metrics"
)
systems = right.multiselect("Systems", all_systems, default=all_systems, key="ex_systems")
metric_ids = metric_ids or list(evaluation.metrics)
systems = systems or all_systems

# The two systems under study lead every row: their difference, their scores and their outputs.
d1, d2, d3 = st.columns(3)
system_a = d1.selectbox("Compare system A", systems, key="ex_diff_a")
others = [s for s in systems if s != system_a]
system_b = d2.selectbox("with system B", others or [system_a], key="ex_diff_b")
diff_metric = d3.selectbox("under", metric_ids, format_func=labels.get, key="ex_diff_metric")
compared = system_b != system_a
label = labels[diff_metric]
scores_a = evaluation.system(system_a).segment_scores[diff_metric]
scores_b = evaluation.system(system_b).segment_scores[diff_metric]
diff = scores_a - scores_b

scores = sentence_scores(evaluation, systems, metric_ids)
lead = [column_name(system_a, label), *([column_name(system_b, label)] if compared else [])]
frame = scores[lead].copy()
diff_column = f"{system_a} − {system_b} · {label}"
if compared:
    frame.insert(0, diff_column, diff)
frame[f"{system_a} output"] = list(data.systems[system_a])
if compared:
    frame[f"{system_b} output"] = list(data.systems[system_b])
frame = frame.join(scores.drop(columns=lead))
unit = length_unit(data.language)  # Chinese and Japanese put no spaces between words
ref_lengths = np.array([text_length(r, unit) for r in data.refs[0]])
frame[f"ref {unit}"] = ref_lengths
frame["reference"] = list(data.refs[0])
if data.source is not None:
    frame["source"] = list(data.source)
mask = np.ones(len(frame), dtype=bool)

with st.expander("Filters", expanded=True):
    text = st.text_input("Text contains (source, references or the chosen outputs; case-insensitive)", key="ex_text")
    if text.strip():
        needle = text.strip().casefold()
        streams = [*data.refs, *(data.systems[s] for s in systems), *([data.source] if data.source else [])]
        mask &= np.array([any(needle in stream[i].casefold() for stream in streams) for i in range(len(data))])

    low, high = int(ref_lengths.min()), int(ref_lengths.max())
    if low < high:
        length = st.slider(f"Reference length ({unit})", low, high, (low, high), key="ex_len")
        mask &= (ref_lengths >= length[0]) & (ref_lengths <= length[1])

    c1, c2, c3 = st.columns(3)
    score_system = c1.selectbox("Score of system", ["(no score filter)", *systems], key="ex_score_sys")
    score_metric = c2.selectbox("under metric", metric_ids, format_func=labels.get, key="ex_score_metric")
    if score_system in systems:
        column = column_name(score_system, labels[score_metric])
        values = frame[column].to_numpy()
        lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
        if lo < hi:
            chosen = c3.slider("range", lo, hi, (lo, hi), key=f"ex_score_range:{column}")
            mask &= (values >= chosen[0]) & (values <= chosen[1])

    lo, hi = float(np.nanmin(diff)), float(np.nanmax(diff))
    if compared and lo < hi:
        chosen = st.slider(f"{diff_column} range", lo, hi, (lo, hi), key=f"ex_diff_range:{diff_column}")
        mask &= (diff >= chosen[0]) & (diff <= chosen[1])

view = frame[mask]
slices.save_form(mask)  # the Analysis page scores saved slices
s1, s2 = st.columns([3, 1])
texts = {"reference", "source", f"{system_a} output", f"{system_b} output"}
sort_by = s1.selectbox("Sort by", ["segment", *[c for c in view.columns if c not in texts]], key="ex_sort")
descending = s2.toggle("Descending", key="ex_desc")
if sort_by == "segment":
    view = view.sort_index(ascending=not descending)
else:
    view = view.sort_values(sort_by, ascending=not descending, kind="stable")

st.caption(f"{len(view)} of {len(frame)} segments. Choose a row to open it in the segment view.")
with st.expander("Signatures"):
    for metric_id in metric_ids:
        st.code(f"{labels[metric_id]}: {evaluation.signatures[metric_id]}", language=None)
event = st.dataframe(
    view,
    on_select="rerun",
    selection_mode="single-row",
    key="explorer_table",
    column_config={
        **{c: st.column_config.NumberColumn(format="%.4f") for c in view.columns if "·" in c},
        **{c: st.column_config.TextColumn(width="large") for c in view.columns if c in texts},
    },
)
rows = list(event.selection.rows) if event is not None else []
chosen_segment = int(view.index[rows[0]]) - 1 if rows and rows[0] < len(view) else None
if chosen_segment is not None and st.session_state.get("ex_handled") != chosen_segment:
    st.session_state["ex_handled"] = chosen_segment
    state.set_segment(chosen_segment)
    st.switch_page("pages/3_Segment.py")
if chosen_segment is None:
    st.session_state.pop("ex_handled", None)

g1, g2 = st.columns([1, 3])
number = g1.number_input("Or open segment number", 1, len(data), state.segment() + 1, key="ex_goto")
if g2.button("Open in the segment view", key="ex_open"):
    state.set_segment(int(number) - 1)
    st.switch_page("pages/3_Segment.py")

if compared and len(view):
    st.subheader(f"{system_a} and {system_b} side by side", anchor=False)
    st.caption(
        f"In the order above. Highlighted: what one output has and the other lacks ({unit}); "
        f"A − B is the difference of their {label}."
    )
    pages = (len(view) - 1) // PAGE_ROWS + 1
    page = st.number_input(f"Page (1–{pages})", 1, pages, 1, key="ex_page") if pages > 1 else 1
    for segment in view.index[(page - 1) * PAGE_ROWS : page * PAGE_ROWS]:
        i = int(segment) - 1
        row = ComparedRow(
            int(segment),
            data.systems[system_a][i],
            data.systems[system_b][i],
            scores_a[i],
            scores_b[i],
            data.refs[0][i],
        )
        opened, body = st.columns([1, 11])
        if opened.button(f"#{segment}", key=f"ex_row:{segment}", help="Open in the segment view"):
            state.set_segment(i)
            st.switch_page("pages/3_Segment.py")
        body.html(comparison_html(row, label, unit))
