"""Error analysis across the corpus: where and on what system A beats system B, and how far a difference can be
trusted — buckets, word accuracy by frequency, characteristic n-grams, slices, documents, human agreement of
differences, and segments where metrics disagree. Only the chosen section is computed; each is cached by content.

Each section is a fragment: its widgets rerun the section alone, not the frame, the sidebar and the evaluation
lookup. Every choice outlives a visit to a segment (``dashboard.keys``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from dashboard import analysis as compute
from dashboard import human_errors, keys, navigation, slices, state, uploads
from dashboard.dataset import Dataset
from dashboard.keys import Choice, Key, among, within
from dashboard.navigation import Task
from dashboard.sidebar import scored_page
from dashboard.widgets import chosen_row, select, select_many
from metrics.analysis.buckets import LENGTH_DIFF_EDGES, LENGTH_EDGES, edge_labels, parse_edges
from metrics.analysis.plan import BucketSpec, parse_spec
from metrics.analysis.slices import Slice, parse_ranges
from metrics.analysis.units import token_unit
from metrics.annotations.categories import ALL, Cell, Rate
from metrics.annotations.flags import flaggable
from metrics.core.evaluation import Evaluation
from metrics.io.inputs import InputError, parse_segments
from metrics.reports.analysis import Analysis, AnalysisSettings, BucketSection, analysis_header, to_json
from metrics.reports.archive import analysis_zip
from metrics.reports.latex import analysis_latex
from rendering.analysis import (
    agreement_frame,
    bucket_delta_figure,
    bucket_figure,
    bucket_frame,
    circular_caveats,
    counts_figure,
    disagreement_frame,
    document_frame,
    flips_frame,
    ngram_frame,
    segments_frame,
    selection_text,
    table_height,
    word_figure,
    word_frame,
)
from rendering.human_errors import RATE_WORDS, category_frame, comparison_frame, span_agreement_frame
from rendering.tables import metric_labels
from rendering.text import escape_markdown

# lengths' default edges follow the data (metrics.analysis.buckets.length_edges)
LENGTHS_HINT = ":".join(f"{e:g}" for e in LENGTH_EDGES) + ", wider for long segments"
CHART_SYSTEMS = 8  # more bars per bucket than this stop being readable; the tables keep every system
FOUR_DECIMALS = (
    "score",
    "95% CI low",
    "95% CI high",
    "precision",
    "recall",
    "F-measure",
    "F 95% CI low",
    "F 95% CI high",
    "ratio",
    "Δ = A − B",
    "A better by",
    "B better by",
    "size (SD)",
    "share of pairs",
    "Δ vs baseline",
    "Δ 95% CI low",
    "Δ 95% CI high",
    "p (paired bootstrap)",
)
AGREEMENT_HELP = (
    "estimated share of human pairwise judgements agreeing with the metric on a difference this large "
    "(Kocmi et al. 2024, WMT system pairs)"
)


@dataclass(frozen=True)
class Scope:
    """What every section works on: the data, its evaluation and the baseline every system is tested against."""

    data: Dataset
    evaluation: Evaluation
    baseline: str

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.evaluation.systems]

    @property
    def labels(self) -> dict[str, str]:
        return metric_labels(self.evaluation)

    def settings(self, tokens: str | None = None) -> AnalysisSettings:
        return AnalysisSettings(compute.SETTINGS, self.baseline, tokens=tokens)

    def document(self, settings: AnalysisSettings, **sections: Any) -> Analysis:
        return Analysis(analysis_header(self.evaluation, settings, self.data.title), settings, **sections)

    def ranked(self) -> list[str]:
        """The systems, best first under the first metric."""
        first = next(iter(self.evaluation.metrics))
        higher = self.evaluation.metrics[first].higher_is_better
        return sorted(self.names, key=lambda n: self.evaluation.system(n).scores[first], reverse=higher)


# ---------------------------------------------------------------------------------------------- shared widgets


def downloads(analysis: Analysis, key: str) -> None:
    """CSV (zip of tables), JSON (the analysis document) and LaTeX of one section, with the signatures."""
    left, middle, right = st.columns(3)
    name = f"scorelens-{key}"
    left.download_button("Download CSV", analysis_zip(analysis), f"{name}.zip", "application/zip", key=f"dl_{key}_csv")
    middle.download_button("Download JSON", to_json(analysis), f"{name}.json", "application/json", key=f"dl_{key}_json")
    right.download_button(
        "Download LaTeX", analysis_latex(analysis), f"{name}.tex", "text/x-tex", key=f"dl_{key}_latex"
    )


def chart_systems(scope: Scope, choice: Choice[list[str]]) -> list[str]:
    """The systems drawn in a chart: all when few, else the baseline and the best under the first metric."""
    names = scope.names
    best = [scope.baseline, *[n for n in scope.ranked() if n != scope.baseline]]
    default = names if len(names) <= CHART_SYSTEMS else best[:CHART_SYSTEMS]
    return select_many("Systems in the chart (the table has all)", names, choice, default=default)


def open_segment(event: Any, segments: Sequence[int], opened: Key[int | None]) -> None:
    """Open the segment view on the row a user chose in a table listing ``segments`` (0-based)."""
    row = chosen_row(event, len(segments))
    if row is None:
        opened.pop()
    elif opened.get(None) != segments[row]:
        opened.set(segments[row])
        state.set_segment(int(segments[row]))
        navigation.switch_to(Task.SEGMENT)


def pair(scope: Scope, a_choice: Choice[str], b_choice: Choice[str]) -> tuple[str, str] | None:
    """Two systems A and B (B defaults to the best other system); ``None`` with a message when they are equal."""
    names = scope.names
    others = [n for n in scope.ranked() if n != scope.baseline]
    left, right = st.columns(2)
    with left:
        a = select("System A", names, a_choice, index=names.index(scope.baseline))
    with right:
        b = select("System B", names, b_choice, index=names.index(others[0]) if others else 0)
    if a == b:
        st.warning("A system compared with itself has no differences: choose two different systems.")
        return None
    return a, b


def number_columns(columns: Iterable[str]) -> dict[str, Any]:
    found: dict[str, Any] = {c: st.column_config.NumberColumn(format="%.4f") for c in columns if c in FOUR_DECIMALS}
    if "human agreement (est.)" in columns:
        found["human agreement (est.)"] = st.column_config.ProgressColumn(
            format="percent", min_value=0.0, max_value=1.0, help=AGREEMENT_HELP
        )
    return found


def word_metric(scope: Scope, choice: Choice[str]) -> str | None:
    word_level = [m for m, metric in scope.evaluation.metrics.items() if token_unit(metric).words]
    if not word_level:
        st.caption("No chosen metric counts words; whitespace words are used.")
        return None
    return select("Words as the tokens of", word_level, choice, format_func=scope.labels.__getitem__)


def show_table(frame: Any, key: str, rows: int | None = None, **columns: Any) -> None:
    height = table_height(len(frame)) if rows is None else table_height(len(frame), rows)
    config = columns or number_columns(frame.columns)
    st.dataframe(frame, hide_index=True, key=key, height=height, column_config=config)


# ---------------------------------------------------------------------------------------------------- sections


def bucket_controls(scope: Scope) -> BucketSpec | None:
    meta, metrics, labels = compute.metadata(), list(scope.evaluation.metrics), scope.labels
    source = {"src-length": "Source length"} if scope.data.source is not None else {}
    references = {
        "ref-length": "Reference length",
        "length-diff": "Output − reference length (each system's own)",
    }
    score = {"score": "Sentence score (each system's own)"}
    # Without references there are no reference lengths; the source's come first then, as on the command line.
    choices = {**references, **score, **source} if scope.data.refs else {**source, **score}
    for column in meta.columns if meta is not None else ():
        choices[f"meta:{column}"] = f"Metadata: {column}"
    c1, c2, c3 = st.columns([3, 2, 3])
    with c1:
        kind = select("Bucket by", list(choices), keys.AN_BUCKET_BY, format_func=choices.__getitem__)
    metric_id = None
    if kind in ("ref-length", "length-diff", "score"):
        what = "Score of" if kind == "score" else "Length in the tokens of"
        with c2:
            metric_id = select(what, metrics, keys.AN_BUCKET_METRIC, format_func=labels.__getitem__)
    hints = {
        "ref-length": LENGTHS_HINT,
        "src-length": LENGTHS_HINT,
        "length-diff": ":".join(f"{e:g}" for e in LENGTH_DIFF_EDGES),
    }
    hint = hints.get(kind, "tenths of the scale")
    edges = keys.AN_BUCKET_EDGES.at(kind)
    edges_text = edges.keep(
        c3.text_input(
            "Bucket edges", "", placeholder=f"default: {hint}", key=edges.widget(), disabled=kind.startswith("meta:")
        )
    )
    try:
        spec = parse_spec(f"{kind}:{metric_id}" if metric_id else kind, metrics)
        if edges_text.strip():
            parsed = parse_edges(edges_text, "bucket edges")
            spec = BucketSpec(spec.kind, spec.metric, spec.column, parsed)
            st.caption(f"Buckets: {escape_markdown(', '.join(edge_labels(parsed)))}")
    except ValueError as err:
        st.error(escape_markdown(str(err)))
        return None
    return spec


BUCKET_VIEWS = ("Difference from the baseline", "Scores")


def bucket_table(
    sections: Sequence[BucketSection], scope: Scope, caveats: dict[tuple[str, str, str], str] | None = None
) -> Any:
    settings = compute.SETTINGS
    return bucket_frame(sections, scope.labels, settings.alpha, scope.baseline, settings.min_test_segments, caveats)


def show_bucket_chart(
    scope: Scope, found: BucketSection, systems: list[str], key: str, title: str | None = None
) -> None:
    """The buckets' chart: each system's difference from the baseline with its paired interval (shared buckets,
    the default: a 2-point gap at 45 BLEU is invisible on bars from 0), or the scores themselves."""
    settings, labels = compute.SETTINGS, scope.labels
    view = BUCKET_VIEWS[1]
    if found.bucketing.shared and len(scope.names) > 1:
        choice = keys.AN_BUCKET_VIEW
        picked = st.segmented_control(
            "Chart", BUCKET_VIEWS, default=BUCKET_VIEWS[0], key=choice.widget(among(list(BUCKET_VIEWS)))
        )
        view = choice.keep(picked or BUCKET_VIEWS[0])
    few = settings.min_test_segments
    if view == BUCKET_VIEWS[0]:
        higher = {m: bool(metric.higher_is_better) for m, metric in scope.evaluation.metrics.items()}
        figure = bucket_delta_figure(found, labels, higher, systems, settings.alpha, scope.baseline, title, few)
    else:
        figure = bucket_figure(found, labels, systems, settings.alpha, scope.baseline, title, few)
    st.plotly_chart(figure, key=f"{key}_chart")
    st.caption(
        f"Pale bars: buckets of fewer than {few} segments — their intervals are too wide to read and do not set "
        "the axis (their whiskers may run off it); n under each label counts the bucket's segments."
    )


@st.fragment
def show_buckets(scope: Scope) -> None:
    spec = bucket_controls(scope)
    if spec is None:
        return
    try:
        found, notes = compute.bucket_section(scope.evaluation, spec, scope.baseline)
    except (ValueError, InputError) as err:
        st.error(escape_markdown(str(err)))
        return
    for note in notes:
        st.info(escape_markdown(note))
    if not found.results:
        st.warning("No segment falls in any bucket; change the edges.")
        return
    systems = chart_systems(scope, keys.AN_BUCKET_SYSTEMS)
    show_bucket_chart(scope, found, systems, "an_bucket")
    if not found.bucketing.shared:
        st.caption(
            "Each system's own segments fall in these buckets (as compare-mt buckets them), so systems are not "
            "compared on the same segments and there is no paired test."
        )
        st.plotly_chart(counts_figure(found, systems), key="an_bucket_counts")
    show_table(bucket_table([found], scope), "an_bucket_table")
    st.caption(
        f"Δ vs baseline and p vs baseline: paired bootstrap against {escape_markdown(scope.baseline)} on the "
        "bucket's segments (the same resamples for both systems), p uncorrected for the number of buckets and "
        f"systems: a pointer to where to look; no p below {compute.SETTINGS.min_test_segments} segments."
    )
    downloads(scope.document(scope.settings(), buckets=(found,)), "buckets")


def words_caption(unit: str, corpus_name: str | None, n_refs: int) -> str:
    """How the words were bucketed and counted, in the terms of the chart."""
    found = f"compare-mt's word accuracy: words ({escape_markdown(unit)}) bucketed by "
    if corpus_name:
        found += f"their frequency in {escape_markdown(corpus_name)}"
    else:
        found += "how often they occur in the reference they are matched against"
    found += "; a word matches as often as it occurs in both output and reference."
    if n_refs > 1:
        found += (
            f" With {n_refs} references each output is scored against each of them as compare-mt scores one "
            "reference, and the counts add up"
        )
        found += (
            "."
            if corpus_name
            else ": frequency 1 means once in that reference, however many references there are (counted over "
            "all references pooled, odd counts would mark the words the translators disagree on)."
        )
    return found


@st.fragment
def needs_references(scope: Scope, what: str) -> bool:
    """Whether a section that compares outputs with the references cannot run (none are loaded); it then says so."""
    if scope.data.refs:
        return False
    st.info(f"{what} compares the outputs with the references, and none are loaded: load references on the Data page.")
    return True


def show_words(scope: Scope) -> None:
    if needs_references(scope, "Word accuracy by frequency"):
        return
    c1, c2 = st.columns(2)
    with c1:
        metric_id = word_metric(scope, keys.AN_WORDS_METRIC)
    with c2:
        corpora = uploads.uploader(
            "Count frequencies in a training corpus (one segment per line; else the references)",
            "an_words_corpus",
            type=["txt"],
        )
    training = corpora[0] if corpora else None
    corpus, corpus_name = None, None
    if training is not None:
        try:
            corpus, corpus_name = parse_segments(training.getvalue(), training.name).texts, training.name
        except InputError as err:
            st.error(escape_markdown(str(err)))
            return
    found, unit = compute.words_by_frequency(scope.evaluation, metric_id, corpus, corpus_name)
    axis = f"occurrences in {corpus_name}" if corpus_name else "occurrences in the word's reference"
    chart = word_figure(found, chart_systems(scope, keys.AN_WORDS_SYSTEMS), axis)
    st.plotly_chart(chart, key="an_words_chart")
    show_table(word_frame(found), "an_words_table")
    st.caption(words_caption(unit, corpus_name, len(scope.data.refs)))
    settings = AnalysisSettings(compute.SETTINGS, scope.baseline, tokens=unit, frequencies=corpus_name or "references")
    downloads(scope.document(settings, word_accuracy=found), "words")


@st.fragment
def show_ngrams(scope: Scope) -> None:
    if needs_references(scope, "The n-gram analysis"):
        return
    chosen = pair(scope, keys.AN_NGRAM_A, keys.AN_NGRAM_B)
    if chosen is None:
        return
    a, b = chosen
    c1, c2, c3 = st.columns(3)
    with c1:
        metric_id = word_metric(scope, keys.AN_NGRAM_METRIC)
    orders_choice, top_choice = keys.AN_NGRAM_ORDERS, keys.AN_NGRAM_TOP
    orders = orders_choice.keep(c2.slider("n-gram orders", 1, 4, (1, 4), key=orders_choice.widget(within(1, 4))))
    top_n = top_choice.keep(
        int(c3.number_input("n-grams per side", 5, 200, 50, step=5, key=top_choice.widget(lambda n: 5 <= n <= 200)))
    )
    report = compute.ngram_report(scope.evaluation, a, b, metric_id, orders, top_n)
    st.caption(
        "compare-mt's n-gram analysis: matches of each n-gram in the references summed over the corpus, ranked by "
        "the smoothed ratio (m_A + 1) / (m_A + m_B + 2). Choose an n-gram to list its segments."
    )
    left, right = st.columns(2)
    picked = None
    for column, contrasts, title, key in (
        (left, report.a_better, f"A = {a} matches more than B = {b}", "an_ng_table_a"),
        (right, report.b_better, f"B = {b} matches more than A = {a}", "an_ng_table_b"),
    ):
        column.markdown(f"**{escape_markdown(title)}**")
        frame = ngram_frame(contrasts)
        height = table_height(len(frame), 15)
        event = column.dataframe(
            frame,
            hide_index=True,
            on_select="rerun",
            selection_mode="single-row",
            key=key,
            height=height,
            column_config=number_columns(frame.columns),
        )
        row = chosen_row(event, len(contrasts))
        if row is not None:
            picked = contrasts[row]
    if picked is not None:
        data = scope.data
        names = f"{escape_markdown(a)} or {escape_markdown(b)}"
        st.markdown(f"**Segments where {names} matched “{escape_markdown(picked.text)}”** (choose a row to open it)")
        frame = segments_frame(picked.segments, {"reference": data.refs[0], a: data.systems[a], b: data.systems[b]})
        event = st.dataframe(
            frame,
            on_select="rerun",
            selection_mode="single-row",
            key="an_ng_segments",
            height=table_height(len(frame), 12),
        )
        open_segment(event, picked.segments, keys.AN_NGRAM_OPENED)
    tokens = compute.token_unit(scope.evaluation, metric_id)[0].label
    settings = AnalysisSettings(compute.SETTINGS, scope.baseline, tokens=tokens, ngram_orders=orders)
    downloads(scope.document(settings, ngrams=(report,)), "ngrams")


def _save_slice(size: int) -> None:
    """Button callback: save the slice named and numbered in the form at the click."""
    name, ranges = (str(st.session_state.get(k) or "").strip() for k in ("an_slice_name", "an_slice_ranges"))
    try:
        slices.add(Slice(name, f"segments {ranges}", parse_ranges(ranges, size)))
    except ValueError as err:
        keys.AN_SLICE_ERROR.set(str(err))


def _remove_slice() -> None:
    doomed = st.session_state.get("an_slice_remove")
    if doomed is not None:
        slices.remove(doomed)


def slice_form(scope: Scope, expanded: bool) -> None:
    label = "Define a slice by segment numbers (or use the Explorer's filters and save them there)"
    with st.expander(label, expanded=expanded):
        c1, c2, c3 = st.columns([2, 3, 1])
        name = c1.text_input("Name", key="an_slice_name")
        ranges = c2.text_input("Segments", placeholder="e.g. 1-50, 70, 90-99", key="an_slice_ranges")
        c3.button(
            "Save",
            key="an_slice_save",
            disabled=not name.strip() or not ranges.strip(),
            on_click=_save_slice,
            args=(len(scope.data),),
        )
        if keys.AN_SLICE_ERROR.exists():
            st.error(escape_markdown(keys.AN_SLICE_ERROR.get("")))
            keys.AN_SLICE_ERROR.pop()


@st.fragment
def show_slices(scope: Scope) -> None:
    saved = slices.saved()
    usable: list[Slice] = []
    for piece in saved:
        try:
            piece.check(len(scope.data))
            usable.append(piece)
        except ValueError as err:
            st.warning(f"{escape_markdown(str(err))}; it is not scored.")
    slice_form(scope, expanded=not saved)
    if not usable:
        st.info("No slice yet: filter segments in the Explorer and save them as a slice, or define one above.")
        return
    for piece in usable:
        size = f"{len(piece.segments)} segments"
        line = f"- **{escape_markdown(piece.name)}** — {size}; {escape_markdown(piece.description)}"
        if piece.selected_by:
            chosen = "; ".join(selection_text(c, scope.labels) for c in piece.selected_by)
            line += (
                f" — *selected by scores ({escape_markdown(chosen)}): a test of those systems under that metric "
                "would restate the filter, so it is not shown (circular); other metrics correlated with it are "
                "biased too*"
            )
        st.markdown(line)
    c1, c2 = st.columns([3, 1])
    doomed = c1.selectbox("Remove a slice", [p.name for p in usable], key="an_slice_remove")
    c2.button("Remove", key="an_slice_remove_button", disabled=doomed is None, on_click=_remove_slice)
    found = compute.slice_sections(scope.evaluation, tuple(usable), scope.baseline)
    combined = BucketSection(found[0].bucketing, tuple(r for s in found for r in s.results))
    systems = chart_systems(scope, keys.AN_SLICE_SYSTEMS)
    show_bucket_chart(scope, combined, systems, "an_slice", "saved slices")
    caveats = circular_caveats(usable, scope.names, scope.labels, scope.baseline)
    show_table(bucket_table(found, scope, caveats).rename(columns={"bucket": "slice"}), "an_slice_table")
    st.caption("Slices are saved with the workspace (Data page).")
    downloads(scope.document(scope.settings(), buckets=tuple(found)), "slices")


@st.fragment
def show_documents(scope: Scope) -> None:
    meta = compute.metadata()
    if meta is None:
        st.info("Load a metadata file with a document-id column (above) to score documents.")
        return
    ids = {"doc", "docid", "doc_id", "document", "document_id"}
    guess = next((c for c in meta.columns if c.lower() in ids), None)
    c1, c2 = st.columns(2)
    with c1:
        index = meta.columns.index(guess) if guess else 0
        column = select("Document id column", meta.columns, keys.AN_DOC_COLUMN, index=index)
    metrics = list(scope.evaluation.metrics)
    with c2:
        metric_id = select("Scores under", metrics, keys.AN_DOC_METRIC, format_func=scope.labels.__getitem__)
    try:
        found, flips = compute.documents(scope.evaluation, column)
    except ValueError as err:
        st.error(escape_markdown(str(err)))
        return
    names = scope.names
    st.markdown(f"**{len(found)} documents**, scores under {escape_markdown(scope.labels[metric_id])}")
    two_decimals = {n: st.column_config.NumberColumn(format="%.2f") for n in names}
    show_table(document_frame(found, metric_id, names), "an_doc_table", 15, **two_decimals)
    mine = [f for f in flips if f.metric == metric_id]
    strong = [f for f in mine if f.significant]
    st.markdown(
        f"**Documents that reverse a significant difference**: {len(strong)} of {len(found)} (largest reversal first)"
    )
    decimals = {c: st.column_config.NumberColumn(format="%.2f") for c in ("largest reversal", "share of pairs")}
    if strong:
        show_table(flips_frame(strong, scope.labels), "an_flip_table", 15, **decimals)
    st.caption(
        f"A pair counts when its corpus-level {escape_markdown(scope.labels[metric_id])} difference is significant "
        f"(paired bootstrap over all pairs, Holm-corrected, p < {compute.SETTINGS.alpha:g}, as the Overview marks "
        "it); the reversal is how much better the system that is worse on the corpus scores on the document, in "
        f"the metric's units. {len(mine) - len(strong)} more documents flip only pairs that are not significantly "
        "different on the corpus: close systems trade places on a few segments by chance."
    )
    weak = [f for f in mine if not f.significant]
    if weak:
        with st.expander(f"Documents that flip only close pairs ({len(weak)}; most flipped first)"):
            show_table(flips_frame(weak, scope.labels, significant=False), "an_flip_weak_table", 15, **decimals)
    downloads(scope.document(scope.settings(), documents=found, flips=flips), "documents")


@st.fragment
def show_trust(scope: Scope) -> None:
    found = compute.agreement(scope.evaluation, scope.data.language)
    task = state.current_task()
    if not state.translation_fits_apply() and task is not None:
        st.info(
            f"No estimate: mt-thresholds' fits come from WMT translation system pairs, and this data is read as "
            f"{task.name.lower()} (the task on the Data page)."
        )
        return
    if not found:
        st.info(
            "No chosen metric has an estimate: mt-thresholds covers sacrebleu's BLEU and chrF2 at their default "
            "options (BLEU with the target language's tokenizer on Chinese, Japanese or Korean references: zh, "
            "ja-mecab, ko-mecab) and external scores of COMET, xCOMET, CometKiwi, BLEURT, MetricX-23 or BERTScore "
            "named so or declared with their fit on the Data page."
        )
        return
    baseline, toggle = scope.baseline, keys.AN_TRUST_BASELINE
    label = f"Only pairs with the baseline ({escape_markdown(baseline)})"
    only_baseline = toggle.keep(st.toggle(label, value=len(scope.names) > 5, key=toggle.widget()))
    # with the baseline as B, every Δ reads "this system − the baseline"
    turned = [replace(g, a=g.b, b=g.a, delta=-g.delta) if g.a == baseline else g for g in found]
    shown = [g for g in turned if g.b == baseline] if only_baseline else list(found)
    show_table(agreement_frame(shown, scope.labels), "an_trust_table")
    st.caption(
        "Human agreement (est.): the share of human pairwise judgements that agree with the metric on which system "
        "is better, for a difference this large — an estimate from WMT system pairs (Kocmi et al. 2024, "
        "“Navigating the Metrics Maze”, mt-thresholds 1.0.4). The p-value answers another question: whether the "
        "difference would hold on other test sentences (paired bootstrap, Holm-corrected in the overview's groups). "
        "A difference can be significant and still agree with humans barely more than a coin flip."
    )
    downloads(scope.document(scope.settings(), agreement=tuple(shown)), "agreement")


@st.fragment
def show_disagreement(scope: Scope) -> None:
    if len(scope.evaluation.metrics) < 2:
        st.info("Choose at least two metrics in the sidebar to see where they disagree.")
        return
    chosen = pair(scope, keys.AN_DIS_A, keys.AN_DIS_B)
    if chosen is None:
        return
    a, b = chosen
    found = compute.metric_disagreements(scope.evaluation, a, b)
    st.caption(
        f"Segments where one metric prefers A = {escape_markdown(a)} and another prefers B = "
        f"{escape_markdown(b)}, ranked by the size of the disagreement (the smaller of the two differences, in "
        "standard deviations of each metric's segment differences). “Better by” is how much better the preferred "
        "system scores under that metric, in its own units — for a metric marked ↓ (TER) lower is better, so "
        f"“A better by 50” means A's score is 50 lower. {len(found)} segments; choose a row to open it."
    )
    shown = found[:200]
    higher = {m: bool(metric.higher_is_better) for m, metric in scope.evaluation.metrics.items()}
    frame = disagreement_frame(shown, scope.labels, higher)
    data = scope.data
    if len(frame):
        streams = {**data.context(), a: data.systems[a], b: data.systems[b]}
        frame = frame.join(segments_frame([d.segment for d in shown], streams))
    columns = number_columns(frame.columns)
    texts = ("reference", "source", a, b)
    columns.update({c: st.column_config.TextColumn(width="medium") for c in texts if c in frame.columns})
    event = st.dataframe(
        frame,
        on_select="rerun",
        selection_mode="single-row",
        key="an_dis_table",
        height=table_height(len(frame)),
        column_config=columns,
    )
    open_segment(event, [d.segment for d in shown], keys.AN_DIS_OPENED)
    downloads(scope.document(scope.settings(), disagreements=found), "disagreements")


ANY = "(all segments)"
EVERY = "every error"


BUCKET_VALUES = 30  # a metadata column with more values than this (a document id) is no bucketing to choose from


def segment_groups() -> dict[str, tuple[int, ...]]:
    """The segment sets a human-error table can be restricted to: every saved slice, and every value's bucket of
    each segment-metadata column with at most :data:`BUCKET_VALUES` values (domain, annotator's batch…)."""
    groups = {f"slice: {s.name}": tuple(s.segments) for s in slices.saved()}
    meta = compute.metadata()
    if meta is None:
        return groups
    for column in meta.columns:
        values = meta.values[column]
        if len(set(values)) <= BUCKET_VALUES:
            for value in dict.fromkeys(values):
                groups[f"{column} = {value}"] = tuple(i for i, v in enumerate(values) if v == value)
    return groups


@st.fragment
def show_human_errors(scope: Scope) -> None:
    data = scope.data
    if not data.annotations:
        st.info(
            "No error annotations are loaded: attach an MQM, ESA or span file on the Data page (tab “Error "
            "annotations”), or load the bundled example “WMT21 TED English→German with MQM error annotations”."
        )
        return
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        name = select("Annotations", list(data.annotations), keys.AN_HE_SET)
    with c2:
        rate = Rate(select("Rate", [r.value for r in Rate], keys.AN_HE_RATE, format_func=lambda r: RATE_WORDS[Rate(r)]))
    with c3:
        depth = select("Categories down to", [1, 2, 3], keys.AN_HE_DEPTH, index=1, format_func=lambda d: f"level {d}")
    with c4:
        groups = segment_groups()
        on = select("On the segments of", [ANY, *groups], keys.AN_HE_ON)
    toggle = keys.AN_HE_SEVERITY
    by_severity = toggle.keep(st.toggle("Split by severity", value=True, key=toggle.widget()))
    segments = None if on == ANY else list(groups[on])
    tables = human_errors.tables(data, name, segments)
    if not tables:
        st.info("No segment of these is rated.")
        return
    st.caption(
        f"{RATE_WORDS[rate].capitalize()} by category and severity, with 95% bootstrap intervals over the rated "
        f"segments ({human_errors.N_SAMPLES} resamples, seed {human_errors.SEED}); several raters of a segment count "
        "as the mean of their counts. A category holds its subcategories (Accuracy counts every Accuracy/… error)."
    )
    frame = category_frame(tables, rate, depth, by_severity)
    st.dataframe(frame, key="an_he_table", height=table_height(len(frame)))

    st.markdown("**Which categories differ between two systems**")
    rated = list(tables)
    if len(rated) < 2:
        st.caption("Only one system is rated here.")
    else:
        left, right = st.columns(2)
        with left:
            a = select(
                "Baseline", rated, keys.AN_HE_A, index=rated.index(scope.baseline) if scope.baseline in rated else 0
            )
        with right:
            b = select("System", [s for s in rated if s != a], keys.AN_HE_B)
        found = human_errors.compare(data, name, a, b, rate, segments)
        st.caption(
            f"{escape_markdown(b)} − {escape_markdown(a)} in each category's rate on the segments both were rated on "
            "(negative: fewer errors); paired bootstrap, p-values Holm-corrected across the categories tested."
        )
        shown = comparison_frame(found)
        numbers = [c for c in shown.columns if c != "category · severity" and not c.startswith("significant")]
        st.dataframe(
            shown,
            hide_index=True,
            key="an_he_compare",
            height=table_height(len(shown)),
            column_config={c: st.column_config.NumberColumn(format="%.4f") for c in numbers},
        )

    st.markdown("**Do the metrics see what the raters saw?**")
    top = human_errors.top_categories(data, name)
    flagging = [m for m, metric in scope.evaluation.metrics.items() if m not in data.annotations and flaggable(metric)]
    left, right = st.columns(2)
    with left:
        cell_name = select("Human spans of", [EVERY, *top], keys.AN_HE_CELL)
    cell = Cell(ALL) if cell_name == EVERY else Cell(cell_name)
    reasons = []
    if flagging:
        # one metric at a time: its flags read an explanation of every rated segment of every system
        with right:
            metric_id = select("Metric", flagging, keys.AN_HE_METRIC, format_func=scope.labels.__getitem__)
        agreement = human_errors.span_agreement(data, scope.evaluation, name, metric_id)
        if agreement.tables:
            show_table(span_agreement_frame({metric_id: agreement.tables}, scope.labels, cell), "an_he_agreement")
        else:
            reasons.append(f"{scope.labels[metric_id]}: {agreement.reason}")
    else:
        reasons.append("the chosen metrics: none has token-level evidence")
    st.caption(
        "Character-level agreement of each metric's token evidence (BLEU/chrF unmatched n-grams, TER edits, METEOR "
        "unaligned words, BERTScore low-similarity tokens, xCOMET spans) with the raters' spans on the output: "
        "precision = share of flagged characters inside human spans, recall = share of human-marked characters "
        "flagged (micro, pooled over rated segments; macro F1 = mean of segment F1s), 95% bootstrap intervals. "
        "Chance precision: what flags at random characters would reach."
        + ("" if not reasons else " No agreement for " + escape_markdown("; ".join(reasons)) + ".")
    )
    # The downloads analyse every system against the baseline with every metric's span agreement: a minute or
    # more on a full WMT set, so they are made when asked for.
    wanted = keys.AN_HE_DOWNLOADS
    baseline = scope.baseline if scope.baseline in data.annotations[name].systems else data.annotations[name].systems[0]
    label = f"Prepare the downloads (CSV, JSON, LaTeX: every system against {escape_markdown(baseline)})"
    if wanted.keep(st.toggle(label, key=wanted.widget())):
        analysed = human_errors.analysis(data, scope.evaluation, name, baseline, rate)
        downloads(scope.document(scope.settings(), annotations=(analysed,)), "human-errors")
        st.caption("As `scorelens analyze --annotations` writes them, on all segments.")


SECTIONS: dict[str, Callable[[Scope], None]] = {
    "Buckets": show_buckets,
    "Words by frequency": show_words,
    "N-grams A vs B": show_ngrams,
    "Slices": show_slices,
    "Documents": show_documents,
    "Trust in differences": show_trust,
    "Metric disagreement": show_disagreement,
    "Human errors": show_human_errors,
}


# ------------------------------------------------------------------------------------------------------- page


def choose_baseline(where: Any, names: list[str]) -> str:
    """The baseline, shared with the overview's: its box starts from the overview's choice."""
    box = keys.AN_BASELINE_BOX
    if box.get("") not in names:
        current = st.session_state.get(keys.BASELINE)
        box.set(current if current in names else names[0])
    baseline = where.selectbox("Baseline", names, key=box.name, help="Every system is tested against it.")
    st.session_state[keys.BASELINE] = baseline
    return str(baseline)


def metadata_status(where: Any) -> None:
    """What segment metadata is loaded (it is uploaded on the Data page, with everything else), and the way there."""
    loaded = compute.metadata()
    if loaded is None:
        where.caption("No segment metadata (document id, domain…) to bucket by, score documents or filter by.")
    else:
        columns = ", ".join(loaded.columns)
        where.caption(f"Segment metadata: {escape_markdown(loaded.source)} ({escape_markdown(columns)})")
    label = "Load it on the Data page" if loaded is None else "Change it on the Data page"
    where.button(label, key="an_meta_data_page", on_click=navigation.request, args=(Task.DATA,))


def main() -> None:
    data, evaluation = scored_page("analysis", "Error analysis")
    navigation.follow_request()  # the metadata button asked for the Data page
    st.caption(
        "Between the score table and single sentences: on which kinds of segments, words and n-grams systems "
        "differ, and how far a difference can be trusted. Scores of a bucket or slice are corpus scores of its "
        "segments' pooled statistics (BLEU of a bucket is sacrebleu's BLEU on exactly those lines), with 95% "
        f"bootstrap intervals ({compute.SETTINGS.n_bootstrap} resamples, seed {compute.SETTINGS.seed})."
    )
    names = [r.name for r in evaluation.systems]
    top = st.columns([2, 3])
    baseline = choose_baseline(top[0], names)
    metadata_status(top[1])
    sections = list(SECTIONS)
    choice = keys.AN_SECTION
    section = choice.keep(
        st.segmented_control("Section", sections, default=sections[0], key=choice.widget(among(sections)))
        or sections[0]
    )
    SECTIONS[section](Scope(data, evaluation, baseline))


main()
