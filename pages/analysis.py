"""Error analysis across the corpus: where and on what system A beats system B, and how far a difference can be
trusted — buckets, word accuracy by frequency, characteristic n-grams, slices, documents, human agreement of
differences, and segments where metrics disagree. Only the chosen section is computed; each is cached by content."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import streamlit as st

from dashboard import analysis as compute
from dashboard import navigation, segment_metadata, slices, state
from dashboard.navigation import Task
from dashboard.sidebar import scored_page
from metrics.analysis.buckets import LENGTH_DIFF_EDGES, LENGTH_EDGES, edge_labels, parse_edges
from metrics.analysis.plan import BucketSpec, parse_spec
from metrics.analysis.slices import Slice, parse_ranges
from metrics.analysis.units import token_unit
from metrics.io.analysis import Analysis, AnalysisSettings, BucketSection, analysis_header, to_json
from metrics.io.inputs import InputError, parse_segments
from metrics.io.metadata import SUFFIXES, parse_metadata
from rendering.analysis import (
    agreement_frame,
    bucket_figure,
    bucket_frame,
    counts_figure,
    disagreement_frame,
    document_frame,
    flips_frame,
    ngram_frame,
    segments_frame,
    table_height,
    word_figure,
    word_frame,
)
from rendering.analysis_export import analysis_latex, analysis_zip
from rendering.tables import metric_labels
from rendering.text import escape_markdown

SECTIONS = (
    "Buckets",
    "Words by frequency",
    "N-grams A vs B",
    "Slices",
    "Documents",
    "Trust in differences",
    "Metric disagreement",
)
CHART_SYSTEMS = 8  # more bars per bucket than this stop being readable; the tables keep every system

data, evaluation = scored_page("analysis", "Error analysis")
labels = metric_labels(evaluation)
names = [r.name for r in evaluation.systems]
alpha = compute.SETTINGS.alpha
st.caption(
    "Between the score table and single sentences: on which kinds of segments, words and n-grams systems differ, "
    "and how far a difference can be trusted. Scores of a bucket or slice are corpus scores of its segments' pooled "
    f"statistics (BLEU of a bucket is sacrebleu's BLEU on exactly those lines), with 95% bootstrap intervals "
    f"({compute.SETTINGS.n_bootstrap} resamples, seed {compute.SETTINGS.seed})."
)

if st.session_state.get("an_baseline") not in names:
    current = st.session_state.get(state.BASELINE)
    st.session_state["an_baseline"] = current if current in names else names[0]
top = st.columns([2, 3])
baseline = top[0].selectbox("Baseline", names, key="an_baseline", help="Every system is tested against it.")
st.session_state[state.BASELINE] = baseline

with top[1].expander("Segment metadata (domain, document id, genre…)", expanded=False):
    upload = st.file_uploader(
        "A TSV, CSV or JSON-lines file with a header (or keys) and one row per segment",
        type=[s.lstrip(".") for s in SUFFIXES],
        key="an_meta_file",
    )
    if upload is not None and st.session_state.get("an_meta_id") != upload.file_id:
        try:
            segment_metadata.replace(parse_metadata(upload.getvalue(), upload.name, len(data)))
            st.session_state["an_meta_id"] = upload.file_id
        except InputError as err:
            st.error(escape_markdown(str(err)))
    loaded = compute.metadata()
    if loaded is not None:
        st.caption(f"{escape_markdown(loaded.source)}: columns {escape_markdown(', '.join(loaded.columns))}")

section = st.segmented_control("Section", SECTIONS, default=SECTIONS[0], key="an_section") or SECTIONS[0]


def downloads(analysis: Analysis, key: str) -> None:
    """CSV (zip of tables), JSON (the analysis document) and LaTeX of one section, with the signatures."""
    left, middle, right = st.columns(3)
    left.download_button("Download CSV", analysis_zip(analysis), f"scorelens-{key}.zip", "application/zip",
                         key=f"dl_{key}_csv")  # fmt: skip
    middle.download_button("Download JSON", to_json(analysis), f"scorelens-{key}.json", "application/json",
                           key=f"dl_{key}_json")  # fmt: skip
    right.download_button("Download LaTeX", analysis_latex(analysis), f"scorelens-{key}.tex", "text/x-tex",
                          key=f"dl_{key}_latex")  # fmt: skip


def header(tokens: str | None = None) -> AnalysisSettings:
    return AnalysisSettings(compute.SETTINGS, baseline, tokens=tokens)


def document(analysis_settings: AnalysisSettings, **sections: object) -> Analysis:
    return Analysis(analysis_header(evaluation, analysis_settings, data.title), analysis_settings, **sections)  # type: ignore[arg-type]


def chart_systems(key: str) -> list[str]:
    """The systems drawn in a chart: all when few, else the baseline and the best under the first metric."""
    first = next(iter(evaluation.metrics))
    higher = evaluation.metrics[first].higher_is_better
    ranked = sorted(names, key=lambda n: evaluation.system(n).scores[first], reverse=higher)
    default = (
        names if len(names) <= CHART_SYSTEMS else [baseline, *[n for n in ranked if n != baseline]][:CHART_SYSTEMS]
    )
    chosen = st.multiselect("Systems in the chart (the table has all)", names, default=default, key=key)
    return chosen or default


def open_segment(event: object, segments: Sequence[int], key: str) -> None:
    """Open the segment view on the row a user chose in a table listing ``segments`` (0-based)."""
    rows = list(event.selection.rows) if event is not None else []  # type: ignore[attr-defined]
    chosen = segments[rows[0]] if rows and rows[0] < len(segments) else None
    if chosen is None:
        st.session_state.pop(key, None)
    elif st.session_state.get(key) != chosen:
        st.session_state[key] = chosen
        state.set_segment(int(chosen))
        navigation.switch_to(Task.SEGMENT)


def pair(key: str) -> tuple[str, str] | None:
    """Two systems A and B (B defaults to the best other system); ``None`` with a message when they are equal."""
    first = next(iter(evaluation.metrics))
    higher = evaluation.metrics[first].higher_is_better
    others = sorted(
        (n for n in names if n != baseline), key=lambda n: evaluation.system(n).scores[first], reverse=higher
    )
    left, right = st.columns(2)
    a = left.selectbox("System A", names, index=names.index(baseline), key=f"{key}_a")
    b = right.selectbox("System B", names, index=names.index(others[0]) if others else 0, key=f"{key}_b")
    if a == b:
        st.warning("A system compared with itself has no differences: choose two different systems.")
        return None
    return a, b


def bucket_controls() -> BucketSpec | None:
    meta = compute.metadata()
    choices = {
        "ref-length": "Reference length",
        "length-diff": "Output − reference length (each system's own)",
        "score": "Sentence score (each system's own)",
    }
    if data.source is not None:
        choices["src-length"] = "Source length"
    for column in meta.columns if meta is not None else ():
        choices[f"meta:{column}"] = f"Metadata: {column}"
    c1, c2, c3 = st.columns([3, 2, 3])
    kind = c1.selectbox("Bucket by", list(choices), format_func=choices.get, key="an_by")
    metric_id = None
    if kind in ("ref-length", "length-diff", "score"):
        what = "Score of" if kind == "score" else "Length in the tokens of"
        metric_id = c2.selectbox(what, list(evaluation.metrics), format_func=labels.get, key="an_by_metric")
    defaults = {"ref-length": LENGTH_EDGES, "src-length": LENGTH_EDGES, "length-diff": LENGTH_DIFF_EDGES}
    hint = ":".join(f"{e:g}" for e in defaults.get(kind, ())) or "tenths of the scale"
    edges_text = c3.text_input("Bucket edges", "", placeholder=f"default: {hint}", key=f"an_edges:{kind}",
                               disabled=kind.startswith("meta:"))  # fmt: skip
    try:
        spec = parse_spec(f"{kind}:{metric_id}" if metric_id else kind, list(evaluation.metrics))
        if edges_text.strip():
            edges = parse_edges(edges_text, "bucket edges")
            spec = BucketSpec(spec.kind, spec.metric, spec.column, edges)
            st.caption(f"Buckets: {escape_markdown(', '.join(edge_labels(edges)))}")
    except ValueError as err:
        st.error(escape_markdown(str(err)))
        return None
    return spec


def show_buckets() -> None:
    spec = bucket_controls()
    if spec is None:
        return
    try:
        found, notes = compute.bucket_section(evaluation, spec, baseline)
    except (ValueError, InputError) as err:
        st.error(escape_markdown(str(err)))
        return
    for note in notes:
        st.info(escape_markdown(note))
    if not found.results:
        st.warning("No segment falls in any bucket; change the edges.")
        return
    systems = chart_systems("an_chart_systems")
    st.plotly_chart(bucket_figure(found, labels, systems, alpha, baseline), key="an_bucket_chart")
    if not found.bucketing.shared:
        st.caption(
            "Each system's own segments fall in these buckets (as compare-mt buckets them), so systems are not "
            "compared on the same segments and there is no paired test."
        )
        st.plotly_chart(counts_figure(found, systems), key="an_bucket_counts")
    frame = bucket_frame([found], labels, alpha)
    st.dataframe(frame, hide_index=True, key="an_bucket_table", height=table_height(len(frame)),
                 column_config=_number_columns(frame.columns))  # fmt: skip
    st.caption(
        f"p vs baseline: paired bootstrap against {escape_markdown(baseline)} on the bucket's segments, uncorrected "
        "for the number of buckets and systems: a pointer to where to look."
    )
    downloads(document(header(), buckets=(found,)), "buckets")


def _number_columns(columns: Sequence[str]) -> dict[str, object]:
    formats = {"score", "95% CI low", "95% CI high", "precision", "recall", "F-measure", "F 95% CI low",
               "F 95% CI high", "ratio", "Δ = A − B", "Δ A − B (A's metric)", "Δ A − B (B's metric)", "size (SD)",
               "share of pairs"}  # fmt: skip
    found: dict[str, object] = {c: st.column_config.NumberColumn(format="%.4f") for c in columns if c in formats}
    if "p vs baseline" in columns:
        found["p vs baseline"] = st.column_config.NumberColumn(format="%.4f")
    if "p (paired bootstrap)" in columns:
        found["p (paired bootstrap)"] = st.column_config.NumberColumn(format="%.4f")
    if "human agreement (est.)" in columns:
        found["human agreement (est.)"] = st.column_config.ProgressColumn(
            format="percent", min_value=0.0, max_value=1.0, help="estimated share of human pairwise judgements "
            "agreeing with the metric on a difference this large (Kocmi et al. 2024, WMT system pairs)"
        )  # fmt: skip
    return found


def word_metric(key: str) -> str | None:
    word_level = [m for m, metric in evaluation.metrics.items() if token_unit(metric).words]
    if not word_level:
        st.caption("No chosen metric counts words; whitespace words are used.")
        return None
    return st.selectbox("Words as the tokens of", word_level, format_func=labels.get, key=key)


def show_words() -> None:
    c1, c2 = st.columns(2)
    with c1:
        metric_id = word_metric("an_words_metric")
    with c2:
        training = st.file_uploader("Count frequencies in a training corpus (one segment per line; else the references)",
                                    type=["txt"], key="an_words_corpus")  # fmt: skip
    corpus, corpus_name = None, None
    if training is not None:
        try:
            corpus, corpus_name = parse_segments(training.getvalue(), training.name).texts, training.name
        except InputError as err:
            st.error(escape_markdown(str(err)))
            return
    found, unit = compute.words_by_frequency(evaluation, metric_id, corpus, corpus_name)
    st.plotly_chart(word_figure(found, chart_systems("an_words_systems")), key="an_words_chart")
    frame = word_frame(found)
    st.dataframe(frame, hide_index=True, key="an_words_table", height=table_height(len(frame)),
                 column_config=_number_columns(frame.columns))  # fmt: skip
    where = escape_markdown(corpus_name) if corpus_name else "the references"
    st.caption(
        f"compare-mt's word accuracy: words ({escape_markdown(unit)}) bucketed by their frequency in {where}; "
        "a word matches as often as it occurs in both output and reference."
    )
    sections = AnalysisSettings(compute.SETTINGS, baseline, tokens=unit, frequencies=corpus_name or "references")
    downloads(document(sections, word_accuracy=found), "words")


def show_ngrams() -> None:
    chosen = pair("an_ng")
    if chosen is None:
        return
    a, b = chosen
    c1, c2, c3 = st.columns(3)
    with c1:
        metric_id = word_metric("an_ng_metric")
    orders = c2.slider("n-gram orders", 1, 4, (1, 4), key="an_ng_orders")
    top_n = c3.number_input("n-grams per side", 5, 200, 50, step=5, key="an_ng_top")
    report = compute.ngram_report(evaluation, a, b, metric_id, orders, int(top_n))
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
        event = column.dataframe(frame, hide_index=True, on_select="rerun", selection_mode="single-row", key=key,
                                 height=table_height(len(frame), 15), column_config=_number_columns(frame.columns))  # fmt: skip
        rows = list(event.selection.rows) if event is not None else []
        if rows and rows[0] < len(contrasts):
            picked = contrasts[rows[0]]
    if picked is not None:
        st.markdown(f"**Segments where {escape_markdown(a)} or {escape_markdown(b)} matched “{escape_markdown(picked.text)}”** "
                    "(choose a row to open it)")  # fmt: skip
        streams = {"reference": data.refs[0], a: data.systems[a], b: data.systems[b]}
        frame = segments_frame(picked.segments, streams)
        event = st.dataframe(frame, on_select="rerun", selection_mode="single-row", key="an_ng_segments",
                             height=table_height(len(frame), 12))  # fmt: skip
        open_segment(event, picked.segments, "an_ng_open")
    sections = AnalysisSettings(compute.SETTINGS, baseline, tokens=compute.token_unit(evaluation, metric_id)[0].label,
                                ngram_orders=orders)  # fmt: skip
    downloads(document(sections, ngrams=(report,)), "ngrams")


def show_slices() -> None:
    saved = slices.saved()
    usable: list[Slice] = []
    for piece in saved:
        try:
            piece.check(len(data))
            usable.append(piece)
        except ValueError as err:
            st.warning(f"{escape_markdown(str(err))}; it is not scored.")
    with st.expander("Define a slice by segment numbers (or use the Explorer's filters and save them there)",
                     expanded=not saved):  # fmt: skip
        c1, c2, c3 = st.columns([2, 3, 1])
        name = c1.text_input("Name", key="an_slice_name")
        ranges = c2.text_input("Segments", placeholder="e.g. 1-50, 70, 90-99", key="an_slice_ranges")
        if c3.button("Save", key="an_slice_save", disabled=not name.strip() or not ranges.strip()):
            try:
                segments = parse_ranges(ranges, len(data))
                slices.add(Slice(name.strip(), f"segments {ranges.strip()}", segments))
                st.rerun()
            except ValueError as err:
                st.error(escape_markdown(str(err)))
    if not usable:
        st.info("No slice yet: filter segments in the Explorer and save them as a slice, or define one above.")
        return
    for piece in usable:
        st.markdown(f"- **{escape_markdown(piece.name)}** — {len(piece.segments)} segments; "
                    f"{escape_markdown(piece.description)}")  # fmt: skip
    c1, c2 = st.columns([3, 1])
    doomed = c1.selectbox("Remove a slice", [p.name for p in usable], key="an_slice_remove")
    if c2.button("Remove", key="an_slice_remove_button"):
        slices.remove(doomed)
        st.rerun()
    found = compute.slice_sections(evaluation, tuple(usable), baseline)
    combined = BucketSection(found[0].bucketing, tuple(r for s in found for r in s.results))
    figure = bucket_figure(combined, labels, chart_systems("an_slice_systems"), alpha, baseline, "saved slices")
    st.plotly_chart(figure, key="an_slice_chart")
    frame = bucket_frame(found, labels, alpha).rename(columns={"bucket": "slice"})
    st.dataframe(frame, hide_index=True, key="an_slice_table", height=table_height(len(frame)),
                 column_config=_number_columns(frame.columns))  # fmt: skip
    st.caption("Slices are saved with the workspace (Data page).")
    downloads(document(header(), buckets=tuple(found)), "slices")


def show_documents() -> None:
    meta = compute.metadata()
    if meta is None:
        st.info("Load a metadata file with a document-id column (above) to score documents.")
        return
    guess = next((c for c in meta.columns if c.lower() in {"doc", "docid", "doc_id", "document", "document_id"}), None)
    c1, c2 = st.columns(2)
    column = c1.selectbox("Document id column", meta.columns, index=meta.columns.index(guess) if guess else 0,
                          key="an_doc_column")  # fmt: skip
    metric_id = c2.selectbox("Scores under", list(evaluation.metrics), format_func=labels.get, key="an_doc_metric")
    try:
        found, flips = compute.documents(evaluation, column)
    except ValueError as err:
        st.error(escape_markdown(str(err)))
        return
    frame = document_frame(found, metric_id, names)
    st.markdown(f"**{len(found)} documents**, scores under {escape_markdown(labels[metric_id])}")
    st.dataframe(frame, hide_index=True, key="an_doc_table", height=table_height(len(frame), 15),
                 column_config={n: st.column_config.NumberColumn(format="%.2f") for n in names})  # fmt: skip
    mine = [f for f in flips if f.metric == metric_id]
    st.markdown(f"**Documents where the ranking flips** ({len(mine)}; most flipped first)")
    frame = flips_frame(mine, labels)
    st.dataframe(frame, hide_index=True, key="an_flip_table", height=table_height(len(frame), 15),
                 column_config=_number_columns(frame.columns))  # fmt: skip
    downloads(document(header(), documents=found, flips=flips), "documents")


def show_trust() -> None:
    found = compute.agreement(evaluation, data.language)
    if not found:
        st.info(
            "No chosen metric has an estimate: mt-thresholds covers sacrebleu's BLEU and chrF2 at their default "
            "options (BLEU with the target language's tokenizer on Chinese, Japanese or Korean references: zh, "
            "ja-mecab, ko-mecab; COMET, BLEURT and BERTScore once external scores arrive)."
        )
        return
    only_baseline = st.toggle(f"Only pairs with the baseline ({escape_markdown(baseline)})", value=len(names) > 5,
                              key="an_trust_baseline")  # fmt: skip
    # with the baseline as B, every Δ reads "this system − the baseline"
    turned = [replace(g, a=g.b, b=g.a, delta=-g.delta) if g.a == baseline else g for g in found]
    shown = [g for g in turned if g.b == baseline] if only_baseline else list(found)
    frame = agreement_frame(shown, labels)
    st.dataframe(frame, hide_index=True, key="an_trust_table", height=table_height(len(frame)),
                 column_config=_number_columns(frame.columns))  # fmt: skip
    st.caption(
        "Human agreement (est.): the share of human pairwise judgements that agree with the metric on which system "
        "is better, for a difference this large — an estimate from WMT system pairs (Kocmi et al. 2024, "
        "“Navigating the Metrics Maze”, mt-thresholds 1.0.4). The p-value answers another question: whether the "
        "difference would hold on other test sentences (paired bootstrap, Holm-corrected in the overview's groups). "
        "A difference can be significant and still agree with humans barely more than a coin flip."
    )
    downloads(document(header(), agreement=tuple(shown)), "agreement")


def show_disagreement() -> None:
    if len(evaluation.metrics) < 2:
        st.info("Choose at least two metrics in the sidebar to see where they disagree.")
        return
    chosen = pair("an_dis")
    if chosen is None:
        return
    a, b = chosen
    found = compute.metric_disagreements(evaluation, a, b)
    st.caption(
        f"Segments where one metric prefers {escape_markdown(a)} and another prefers {escape_markdown(b)}, ranked by "
        "the size of the disagreement (the smaller of the two differences, in standard deviations of each metric's "
        f"segment differences). {len(found)} segments; choose a row to open it."
    )
    shown = found[:200]
    frame = disagreement_frame(shown, labels)
    if len(frame):
        texts = segments_frame([d.segment for d in shown], {"reference": data.refs[0], a: data.systems[a],
                                                            b: data.systems[b]})  # fmt: skip
        frame = frame.join(texts)
    columns = _number_columns(frame.columns)
    columns.update({c: st.column_config.TextColumn(width="medium") for c in ("reference", a, b) if c in frame.columns})
    event = st.dataframe(frame, on_select="rerun", selection_mode="single-row", key="an_dis_table",
                         height=table_height(len(frame)), column_config=columns)  # fmt: skip
    open_segment(event, [d.segment for d in shown], "an_dis_open")
    downloads(document(header(), disagreements=found), "disagreements")


{
    "Buckets": show_buckets,
    "Words by frequency": show_words,
    "N-grams A vs B": show_ngrams,
    "Slices": show_slices,
    "Documents": show_documents,
    "Trust in differences": show_trust,
    "Metric disagreement": show_disagreement,
}[section]()
