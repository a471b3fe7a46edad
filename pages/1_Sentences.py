"""Per-sentence scores of two systems side by side."""

from __future__ import annotations

import streamlit as st

from dashboard import state
from rendering.tables import segment_table

st.set_page_config(page_title="ScoreLens — sentences", layout="wide")
st.title("Sentences")

data = state.sidebar()
evaluation = state.evaluation()
names = list(data.systems)
if len(names) < 2:
    st.info("Load at least two systems to compare them sentence by sentence.")
    st.stop()

left, right = st.columns(2)
first = left.selectbox("System A", names, index=0, key="sent_a")
second = right.selectbox("System B", names, index=1, key="sent_b")
metric_id = st.selectbox(
    "Metric", list(evaluation.metrics), format_func=lambda m: evaluation.metrics[m].name, key="sent_metric"
)

frame = segment_table(evaluation, [first, second] if first != second else [first], metric_id)
if first != second:
    frame["A − B"] = frame[first] - frame[second]
frame.insert(0, "reference", [data.refs[0][i] for i in range(len(frame))])
frame.insert(1, f"{first} (A)", [data.systems[first][i] for i in range(len(frame))])
if first != second:
    frame.insert(2, f"{second} (B)", [data.systems[second][i] for i in range(len(frame))])
st.dataframe(frame, key="sentences_table")
