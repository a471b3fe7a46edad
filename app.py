"""ScoreLens: the overview page. Opens on the bundled WMT22 sample; other pages live in ``pages/``."""

from __future__ import annotations

import streamlit as st

from dashboard import state
from rendering.tables import best_per_column, scores_table
from rendering.text import escape_markdown

st.set_page_config(page_title="ScoreLens", layout="wide")
st.title("ScoreLens — overview")

data = state.sidebar()
evaluation = state.evaluation()

st.markdown(
    f"{escape_markdown(data.title)}: {len(data.systems)} systems, {len(data)} segments, {len(data.refs)} reference(s)."
)
table = scores_table(evaluation)
st.dataframe(table.style.format("{:.4f}"), key="scores_table")
best = best_per_column(evaluation)
st.caption("Best per metric: " + "; ".join(f"{escape_markdown(m)}: {escape_markdown(s)}" for m, s in best.items()))

st.subheader("Signatures")
for metric_id, signature in evaluation.signatures.items():
    st.code(f"{evaluation.metrics[metric_id].name}: {signature}", language=None)
