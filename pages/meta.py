"""Meta-evaluation: which of the chosen metrics agrees with the loaded human scores, how sure that is, and where each
goes wrong — WMT's statistics (system level: SPA, pairwise accuracy, Pearson, Kendall with intervals and chance
levels; segment level: acc_eq with a calibrated tie threshold, Pearson, Kendall variants), the significance clusters
of the metrics, and for each metric the system pairs and segment pairs it orders against the humans, each a click
away from the Explorer or the Segment view. On all segments, a metadata value (a domain) or a saved slice."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import meta as compute
from dashboard import navigation
from dashboard.keys import Choice
from dashboard.sidebar import scored_page
from dashboard.widgets import select
from metrics.reports.archive import tables_zip
from metrics.reports.meta import MetaDocument, meta_latex, meta_tables, ordered_metrics, to_json
from rendering.meta import (
    clusters_table,
    segment_pairs_table,
    segment_table,
    system_pairs_table,
    system_table,
)
from rendering.tables import metric_labels
from rendering.text import escape_markdown

SCOPE: Choice[str] = Choice("meta_scope")
METRIC: Choice[str] = Choice("meta_metric")
NUMBER_FORMAT = "%.4f"
HOW_TO_LOAD = (
    "The meta-evaluation compares the metrics with human scores of the loaded systems, and none are loaded. "
    "Attach them on the **Data** page (tab *Human scores*): JSON lines with `SYS`, `seg_id` and `human_score` "
    "(THumB's layout), or a table with `system`, `segment` (0-based) and `score` columns, `null` where a segment "
    "was not rated (WMT's `mqm.seg.tsv`) — or error annotations (tab *Error annotations*), whose MQM or ESA "
    "score is then the humans' side. The command line does the same: `scorelens meta -r REF -i SYSTEMS … "
    "--human mqm.seg.tsv`."
)

navigation.follow_request()  # a pair's button asked for the Explorer or the Segment view
data, evaluation = scored_page("meta", "Meta-evaluation")
if compute.human_source(data) is None:
    st.info(HOW_TO_LOAD, icon="ℹ️")
    st.stop()
if compute.human_source(data):
    st.caption(
        f"Human scores: {escape_markdown(compute.human_source(data) or '')}, the error annotations' score (no "
        "segment-level human scores are loaded); it is the humans' side here, not a metric under test."
    )
evaluation = compute.under_test(evaluation)
if not evaluation.metrics:
    st.info("Choose a metric to meta-evaluate in the sidebar: the chosen ones are the humans' scores.", icon="ℹ️")
    st.stop()
labels = metric_labels(evaluation)

offered = compute.scopes(len(data))
by_label = {s.label: s for s in offered}
chosen = select(
    "Meta-evaluate on",
    list(by_label),
    SCOPE,
    format_func=lambda label: f"{label} ({len(by_label[label].segments)} segments)",
    help="All segments, the segments of one value of a loaded metadata column (a domain), or a saved slice "
    "(Explorer). Load metadata on the Data page.",
)
scope = by_label[chosen]
try:
    doc = compute.document(evaluation, scope)
except ValueError as err:
    st.warning(escape_markdown(str(err)))
    st.stop()
if compute.clusters_asked(scope) or compute.clusters_known(evaluation, scope):  # the slow part: when asked
    doc = compute.with_clusters(doc, evaluation)
report = doc.report
first = next(iter(report.metrics.values()))
for note in doc.notes:
    st.caption(escape_markdown(note))


def number_columns(frame_columns: list[str]) -> dict[str, Any]:
    return {c: st.column_config.NumberColumn(format=NUMBER_FORMAT) for c in frame_columns}


st.subheader("System level", anchor=False)
frame = system_table(doc, labels)
numeric = [c for c in frame.columns if frame[c].dtype.kind == "f"]
st.dataframe(frame, hide_index=True, key="meta_system", column_config=number_columns(numeric))
st.caption(
    f"{first.system.n_systems} systems with human scores, {first.system.n_pairs} pairs, on "
    f"{escape_markdown(scope.label)}. SPA: agreement of the metric's and the humans' p-values for every system pair "
    "(WMT24); accuracy: the share of pairs the metric orders as the humans do (WMT23); τ-b: Kendall's. CI: 95% "
    "bootstrap intervals over segments; rank: the metric's significance cluster (1 the best); chance: what a metric "
    "carrying no information about the humans' scores reaches."
)

st.subheader("Segment level", anchor=False)
frame = segment_table(doc, labels)
numeric = [c for c in frame.columns if frame[c].dtype.kind == "f"]
st.dataframe(frame, hide_index=True, key="meta_segment", column_config=number_columns(numeric))
st.caption(
    f"acc_eq: pairwise accuracy over the translations of each segment with ties as outcomes, the metric's tie "
    f"threshold ε calibrated to maximise it (Deutsch et al. 2023), {first.segment.n_items} items. Kendall variants "
    "(τ_b, τ_c, τ_23) pooled over every rated (system, segment), by item (per segment, averaged) and by system; "
    "Pearson pooled and by item. CI: 95% bootstrap intervals."
)

st.subheader("Which metrics are significantly better", anchor=False)
if report.comparisons:
    st.dataframe(clusters_table(doc, labels), hide_index=True, key="meta_clusters")
    st.caption(
        "Permutation tests between every two metrics, as WMT's (seed "
        f"{report.settings.seed}); a metric starts a new cluster when one of the current cluster is significantly "
        f"better at p < {report.settings.p_value:g}. The same seed gives the same clusters; the tables above now "
        "show each metric's rank."
    )
else:
    st.caption(
        f"WMT's permutation tests between every two of the {len(report.metrics)} metrics on SPA, pairwise accuracy "
        "and acc_eq rank them into significance clusters. They recompute each statistic a thousand times per pair "
        "of metrics, which takes minutes on thousands of segments: computed when asked, then kept."
    )
    st.button(
        "Compute the significance clusters",
        key="meta_compute_clusters",
        on_click=compute.ask_for_clusters,
        args=(scope,),
    )

st.subheader("Where each metric goes wrong", anchor=False)
order = ordered_metrics(report)
metric_id = select("Metric", order, METRIC, format_func=lambda m: labels.get(m, m))


def pair_rows(document: MetaDocument, chosen_metric: str) -> None:
    errors = document.system_errors(chosen_metric)
    st.markdown(f"**System pairs ordered against the humans: {len(errors)} of {first.system.n_pairs}**")
    if not errors:
        st.caption("None: the metric orders every system pair as the humans do.")
        return
    table = system_pairs_table(document, chosen_metric)
    st.dataframe(table, hide_index=True, key=f"meta_pairs:{chosen_metric}", column_config=number_columns(
        ["human Δ", "metric Δ", "human p", "metric p"]))  # fmt: skip
    st.caption(
        "Δ: better − worse by the humans, each on its own scale, with 95% bootstrap intervals; p: the permutation "
        "p-value of each side's difference (SPA's). A metric whose corpus score is not a mean of its segment scores "
        "(BLEU, chrF, TER) has no Δ interval: its corpus scores are not resampled. Open a pair in the Explorer, the "
        "two systems side by side."
    )
    columns = st.columns(4)
    for k, e in enumerate(errors):
        columns[k % 4].button(
            escape_markdown(f"{e.better} vs {e.worse}"),
            key=f"meta_open_pair:{chosen_metric}:{k}",
            help=f"Open {escape_markdown(e.better)} and {escape_markdown(e.worse)} under {escape_markdown(labels[chosen_metric])} in the Explorer",
            on_click=compute.open_pair,
            args=(chosen_metric, e.better, e.worse),
        )


def segment_rows(document: MetaDocument, chosen_metric: str) -> None:
    errors = document.segment_errors(chosen_metric)
    total = document.report.metrics[chosen_metric].n_segment_errors
    st.markdown(f"**Segment pairs ordered against the humans: the {len(errors)} heaviest of {total}**")
    if not errors:
        return
    table = segment_pairs_table(document, chosen_metric)
    st.dataframe(table, hide_index=True, key=f"meta_segments:{chosen_metric}", column_config=number_columns(
        ["human A", "human B", "metric A", "metric B"]))  # fmt: skip
    st.caption(
        "Two outputs of one segment the metric orders against the humans (at its tie threshold), largest human "
        "difference first. Open one in the Segment view: both outputs, the metric's evidence and the human scores."
    )
    columns = st.columns(6)
    for k, e in enumerate(errors):
        columns[k % 6].button(
            escape_markdown(f"line {e.segment + 1}: {e.system_a} / {e.system_b}"),
            key=f"meta_open_segment:{chosen_metric}:{k}",
            help=f"Open line {e.segment + 1} in the Segment view: {escape_markdown(e.system_a)} and "
            f"{escape_markdown(e.system_b)} with the evidence of {escape_markdown(labels[chosen_metric])}",
            on_click=compute.open_segment,
            args=(chosen_metric, e.segment, (e.system_a, e.system_b)),
        )


tab_systems, tab_segments = st.tabs(["System pairs", "Segment pairs"])
with tab_systems:
    pair_rows(doc, metric_id)
with tab_segments:
    segment_rows(doc, metric_id)

left, middle, right = st.columns(3)
name = "scorelens-meta"
left.download_button("Download CSV", tables_zip(meta_tables(doc)), f"{name}.zip", "application/zip", key="dl_meta_csv")
middle.download_button("Download JSON", to_json(doc), f"{name}.json", "application/json", key="dl_meta_json")
right.download_button("Download LaTeX", meta_latex(doc), f"{name}.tex", "text/x-tex", key="dl_meta_latex")
