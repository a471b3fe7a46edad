"""ScoreLens overview: systems × metrics with confidence intervals, significance against a baseline, tied groups,
charts and downloads. The default page: a fresh session opens here on the bundled WMT22 sample."""

from __future__ import annotations

from collections.abc import Hashable

import streamlit as st

from dashboard import keys, state, widgets
from dashboard.sidebar import describe_inputs, no_metric_warning, page_setup
from metrics.analysis.agreement import agreements, fit_for, no_fit_reason
from metrics.reports.archive import csv_zip
from metrics.reports.latex import to_latex
from metrics.reports.overview import overview_results
from metrics.reports.results import to_json
from rendering.analysis import agreement_caption, fit_reasons, with_agreement
from rendering.annotations import rated_text
from rendering.correlation import METHOD_LABELS, correlation_table
from rendering.figures import rankings_figure, scores_figure
from rendering.tables import (
    groups_text,
    metric_labels,
    metric_notes,
    overview_table,
    ranked_systems,
    style_overview,
    systems_text,
)
from rendering.text import escape_markdown

CI, P, AGR = "95% CI", "p against the baseline", "human agreement"
DETAILED_METRICS = 3
BY_SCORE, AS_UPLOADED = "by score", "as uploaded"


def remember_details() -> None:
    """The user's choice of columns outlives changes of the metrics (the offered default depends on their count)."""
    keys.OV_DETAILS_CHOSEN.set(list(st.session_state["overview_details"]))


data = page_setup("overview")
st.title("ScoreLens — overview")

evaluation = state.evaluation()
st.markdown(
    f"{escape_markdown(data.title)}: {len(data.systems)} systems, {len(data)} segments, {describe_inputs(data)}."
)
choices = [n for n in (state.metric_choice_note(state.metric_ids()), state.language_note(state.metric_ids())) if n]
if choices:
    st.info("  \n".join(escape_markdown(n) for n in choices), icon="ℹ️")
if not evaluation.metrics:
    no_metric_warning(data)
    st.stop()

names = [r.name for r in evaluation.systems]
if st.session_state.get(keys.BASELINE) not in names:
    st.session_state[keys.BASELINE] = names[0]
baseline_box = state.widget_key("baseline_box")
if st.session_state.get(baseline_box) not in names:
    st.session_state[baseline_box] = st.session_state[keys.BASELINE]
left, right = st.columns(2)
baseline = left.selectbox("Baseline for significance", names, key=baseline_box) or names[0]
auto = state.auto_resamples(len(names))
chosen_count = right.selectbox(
    "Bootstrap resamples",
    [None, *state.RESAMPLE_CHOICES],
    index=[None, *state.RESAMPLE_CHOICES].index(st.session_state.get(keys.RESAMPLES)),
    format_func=lambda n: f"auto ({auto:,} for {len(names)} systems)" if n is None else f"{n:,}",
    key=state.widget_key("resamples_box"),
    help="Tests of all pairs are Holm-corrected: with m pairs the smallest p-value a test of n resamples can reach "
    "is m/(n+1). auto takes enough resamples for it to be at most α/10.",
)
state.set_resamples(chosen_count)
n_resamples = state.resamples(len(names))
st.session_state[keys.BASELINE] = baseline

reports = state.statistics(evaluation)
labels = metric_labels(evaluation)
intervals, pvalues, groups = {}, {}, {}
if reports is not None:
    for metric_id, report in reports.items():
        for name, interval in report["intervals"].items():
            if interval is not None:
                intervals[(name, metric_id)] = (interval.lo, interval.hi)
        for name in names:
            pair = report["pairs"].get(frozenset((baseline, name)))
            if pair is not None:
                pvalues[(name, metric_id)] = pair.evidence  # 1 for an output identical to the baseline's
        groups[metric_id] = report["groups"]

widgets.language_caveats(state.language_caveats(list(evaluation.metrics)))
for group in metric_notes(evaluation):
    where = f"{', '.join(group.metrics)} on {systems_text(group.systems, len(names))}"
    st.warning(f"**{escape_markdown(where)}**: {escape_markdown(group.message)}")
    if group.details:
        with st.expander(f"What it found, system by system ({len(group.details)})"):
            st.markdown(
                "\n".join(f"- {escape_markdown(s)}: {escape_markdown('; '.join(d))}" for s, d in group.details.items())
            )

# Every system and every metric's score stay in view: the table is as tall as its rows, and the columns beside
# each score are offered by default only while they fit beside every metric's score on a 1400 px window; once the
# user picks columns, the pick stays whatever the metrics.
details = st.pills(
    "Beside each score",
    [CI, P, AGR],
    selection_mode="multi",
    default=keys.OV_DETAILS_CHOSEN.get([CI, P, AGR] if len(evaluation.metrics) <= DETAILED_METRICS else []),
    key="overview_details",
    on_change=remember_details,
)
primary = next(iter(evaluation.metrics))
direction = "higher" if evaluation.metrics[primary].higher_is_better else "lower"
ordering = keys.OV_ORDER.keep(
    st.radio(
        "Order",
        [BY_SCORE, AS_UPLOADED],
        format_func=lambda o: (
            f"by {escape_markdown(labels[primary])}, best first ({direction} is better)" if o == BY_SCORE else o
        ),
        horizontal=True,
        key=keys.OV_ORDER.widget(keys.among([BY_SCORE, AS_UPLOADED])),
        label_visibility="collapsed",
    )
    or BY_SCORE
)
order = ranked_systems(evaluation, primary) if ordering == BY_SCORE else names
table = overview_table(
    evaluation, (intervals or None) if CI in details else None, (pvalues or None) if P in details else None
).loc[order]
scores = {name: dict(evaluation.system(name).scores) for name in order}
# mt-thresholds' fits are of WMT translation pairs: no estimate for data read as summaries or captions
task = state.current_task()
covered = evaluation.metrics if state.translation_fits_apply() else {}
fits = {m: fit for m, metric in covered.items() if (fit := fit_for(m, metric, data.language)) is not None}
compared = [(name, baseline) for name in names if name != baseline]
against = {}  # the p-value of each compared pair, beside its estimate in the downloads
for metric_id, report in (reports or {}).items():
    for name, _ in compared:
        pair = report["pairs"].get(frozenset((baseline, name)))
        if pair is not None:
            against[(metric_id, name, baseline)] = pair.p_value
estimates = agreements(covered, scores, compared, against, data.language)
trust = {(g.a, g.metric): g.human_agreement for g in estimates if g.human_agreement is not None}
if AGR in details:
    table = with_agreement(table, trust, labels)
# A short header beside its score; the full name is the header's tooltip.
short = {f"{label} 95% CI": ("95% CI", "95% bootstrap interval") for label in labels.values()}
short |= {f"{label} p": ("p", f"paired bootstrap against {escape_markdown(baseline)}") for label in labels.values()}
short |= {
    f"{labels[m]} human agr.": ("agr.", escape_markdown(f"{fit.describe(labels[m])}: human agreement, see the caption"))
    for m, fit in fits.items()
}
st.dataframe(
    style_overview(table, evaluation),
    height="content",
    column_config={
        column: st.column_config.TextColumn(short[column][0], help=f"{escape_markdown(column)}: {short[column][1]}")
        for column in table.columns
        if column in short
    },
    key="scores_table",
)
ordered = (
    f"Sorted by {escape_markdown(labels[primary])}, best first ({direction} is better)."
    if ordering == BY_SCORE
    else "In upload order."
)
shown_parts = [f"{ordered} Best per metric highlighted."]
if reports is None:
    shown_parts.append("Confidence intervals and significance need metrics.stats.significance.")
else:
    if CI in details:
        shown_parts.append(f"95% CI: bootstrap interval ({n_resamples:,} resamples, seed {state.SEED}).")
    if P in details:
        shown_parts.append(
            f"p: paired bootstrap against {escape_markdown(baseline)} (— on its own row; bold below 0.05; 1 for an "
            "output identical to the baseline's, where sacrebleu reports its floor 1/(n+1), as the downloads do)."
        )
if AGR in details:
    uncovered = [labels[m] for m in evaluation.metrics if m not in fits]
    reasons = {labels[m]: why for m, metric in covered.items() if m not in fits and (why := no_fit_reason(metric))}
    shown_parts.append(
        agreement_caption({labels[m]: fit for m, fit in fits.items()}, uncovered) + fit_reasons(reasons)
        if fits
        else "agr.: no chosen metric has a human-agreement estimate (mt-thresholds has no fit for them)."
        + fit_reasons(reasons)
        if covered or task is None
        else f"agr.: no estimate — mt-thresholds' fits come from WMT translation system pairs, and this data is "
        f"read as {task.name.lower()} (the task on the Data page)."
    )
st.caption(" ".join(shown_parts))
if reports is not None:
    pairs = len(names) * (len(names) - 1) // 2
    floor = pairs / (n_resamples + 1)
    st.markdown(
        "**Groups of tied systems** (best first; Holm-corrected paired bootstrap, α = 0.05; identical systems "
        "are always tied)"
    )
    if len(names) > 1 and floor >= 0.05:
        st.warning(
            f"With {n_resamples:,} resamples and {pairs} pairs the smallest reachable corrected p-value is "
            f"{floor:.3f}, so no difference can be significant and every system is tied: choose auto "
            f"({auto:,}) resamples."
        )
    for metric_id, metric_groups in groups.items():
        st.markdown(f"- {escape_markdown(labels[metric_id])}: {escape_markdown(groups_text(metric_groups))}")

for metric_id in evaluation.metrics:
    if metric_id in data.annotations:  # a human score: how many segments it rests on
        st.caption(escape_markdown(rated_text(metric_id, data.annotations[metric_id], names, len(data))))

tab_scores, tab_ranks = st.tabs(["Scores", "Rankings"])
with tab_scores:
    st.plotly_chart(scores_figure(scores, labels, intervals or None), key="scores_chart")
with tab_ranks:
    higher = {m: metric.higher_is_better for m, metric in evaluation.metrics.items()}
    st.plotly_chart(rankings_figure(scores, labels, higher), key="ranks_chart")

correlations, problems = state.correlations(evaluation)
results = overview_results(
    evaluation,
    reports,
    correlations,
    seed=state.SEED,
    n_resamples=n_resamples,
    title=data.title,
    human=None if data.human is None else data.human.source or "uploaded",
    notes=[*data.notes, *problems],
    agreement=estimates,
)
left, middle, right = st.columns(3)
left.download_button(
    "Download CSV",
    csv_zip(results),
    "scorelens-csv.zip",
    "application/zip",
    key="dl_csv",
    help="One CSV table per file: scores (with intervals), comparisons, groups, human correlations, the "
    "human-agreement estimate of each system's difference to the baseline, notes.",
)
middle.download_button("Download JSON", to_json(results), "scorelens.json", "application/json", key="dl_json")
right.download_button("Download LaTeX", to_latex(results), "scorelens.tex", "text/x-tex", key="dl_latex")

if data.human is not None:
    st.subheader("Correlation with human judgments")
    for problem in problems:
        st.warning(escape_markdown(problem))
    if correlations:
        found = [c for metric_id in correlations for c in correlations[metric_id]]
        correlation_frame = correlation_table(found, labels)
        coefficients: list[Hashable] = [c for c in METHOD_LABELS.values() if c in correlation_frame]
        st.dataframe(
            correlation_frame.style.format("{:.4f}", subset=coefficients, na_rep="undefined"),
            hide_index=True,
            key="correlation_table",
        )
        judged = [name for name in names if name in data.human.scores]
        st.caption(
            f"Human scores: {escape_markdown(data.human.source or 'uploaded')} "
            f"({escape_markdown(', '.join(judged))}). Segment level: every judged (system, segment) pair; system "
            "level: corpus score against mean human score per system. 95% bootstrap intervals over segments "
            f"({state.N_RESAMPLES} resamples, seed {state.SEED})."
        )

st.subheader("Signatures")
segment_signatures = evaluation.segment_signatures
for metric_id, signature in evaluation.signatures.items():
    st.code(f"{labels[metric_id]}: {signature}", language=None)
    if segment_signatures[metric_id] != signature:  # BLEU scores segments as sacrebleu.sentence_bleu: eff:yes
        st.code(f"{labels[metric_id]} (segment scores): {segment_signatures[metric_id]}", language=None)
