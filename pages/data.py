"""Data: upload or paste system outputs and references, pick a bundled example, attach human judgments, external
metrics' segment scores and segment metadata, rename systems, save and restore the whole workspace. A file with a
problem is reported (file and line) and never replaces what is loaded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from dashboard import annotation_io, intake, keys, segment_metadata, state, uploads, widgets, workspace
from dashboard.dataset import Dataset
from dashboard.samples import SAMPLES, load_sample
from dashboard.sidebar import page_setup
from metrics.annotations.model import Scheme
from metrics.annotations.mqm import MqmWeights
from metrics.core.family import Task
from metrics.core.registry import SPECS
from metrics.families.external.fits import FITS, NONE
from metrics.families.external.metric import External
from metrics.families.external.scores import default_name, parse_external
from metrics.io.inputs import MAX_FILE_BYTES, InputError, Segments
from rendering.text import escape_markdown

data = page_setup("data")
st.title("Data")


def show_error(err: Exception | str) -> None:
    st.error(escape_markdown(str(err)), icon="🚫")


def adopt(new: Dataset, notes: tuple[str, ...] | list[str] = (), *, keep_metrics: bool = False) -> None:
    """Button callback: make ``new`` the loaded data (a callback runs before the script, so the page then draws the
    new data, and a click is never lost to a run interrupted before it reached its button)."""
    state.set_dataset(new, keep_metrics=keep_metrics)
    state.reset_widgets()
    keys.DATA_NOTES.set(list(notes))


# ----------------------------------------------------------------------------------------------- loaded now

st.subheader("Loaded now")
st.markdown(
    f"**{escape_markdown(data.title)}** — {len(data)} segments; references: "
    f"{escape_markdown(', '.join(data.ref_names)) or 'none (only metrics that read none can score this data)'}; "
    f"source: {'yes' if data.source is not None else 'no'}."
)
for note in keys.DATA_NOTES.get([]):
    st.info(escape_markdown(note), icon="ℹ️")


def choose_task(key: str) -> None:
    """Radio callback: the stated task's metrics become the chosen ones, before any page computes them."""
    state.set_task(st.session_state[key])


detected = state.detected_choice()
if detected is not None:
    # The task decides the default metrics: stated here, on the page a user lands on after loading, the metrics
    # are settled before the overview computes any.
    task_key = state.widget_key(keys.TASK_BOX)
    st.radio(
        "Task (sets the default metrics)",
        list(Task),
        index=list(Task).index(state.current_task() or detected.task),
        format_func=lambda task: task.name.lower(),
        horizontal=True,
        key=task_key,
        on_change=choose_task,
        args=(task_key,),
    )
    if st.session_state.get(keys.METRIC_CHOICE) != detected:  # else the metrics' note below says it
        st.caption(escape_markdown(f"Detected: {detected.task.name.lower()} — {detected.explain()}."))
for message in (state.metric_choice_note(state.metric_ids()), state.language_note(state.metric_ids())):
    if message:
        st.caption(escape_markdown(message))
widgets.language_caveats(state.language_caveats(state.metric_ids()))

st.caption("System names (edit to rename; content is unchanged, so nothing is rescored)")


def rename(system_id: str, key: str) -> None:
    """Widget callback: rename, or put the old name back and say why (the widget then shows a valid name)."""
    current = state.dataset()
    old = current.system_name(system_id)
    if old is None:
        return
    try:
        renamed = current.renamed(old, st.session_state[key])
    except InputError as err:
        st.session_state[key] = old
        keys.RENAME_ERROR.set(str(err))
        return
    state.set_dataset(renamed, keep_metrics=True)
    if st.session_state.get(keys.BASELINE) == old:
        st.session_state[keys.BASELINE] = st.session_state[key].strip()
        st.session_state.pop(state.widget_key("baseline_box"), None)


def remove(system_id: str) -> None:
    current = state.dataset()
    name = current.system_name(system_id)
    if name is not None:
        state.set_dataset(current.without(name), keep_metrics=True)


per_row = 3
names = list(data.systems)
for start in range(0, len(names), per_row):
    columns = st.columns(per_row)
    for column, name in zip(columns, names[start : start + per_row], strict=False):
        system_id = data.system_id(name)
        key = f"rename:{system_id}"
        if st.session_state.get(key) != name:
            st.session_state[key] = name
        with column:
            st.text_input(f"System {names.index(name) + 1}", key=key, on_change=rename, args=(system_id, key))
            if len(names) > 1:
                st.button("Remove", key=f"remove:{system_id}", on_click=remove, args=(system_id,))
if keys.RENAME_ERROR.exists():
    show_error(InputError("rename", keys.RENAME_ERROR.get("")))
    keys.RENAME_ERROR.pop()

# ------------------------------------------------------------------------------------------------- loading

tab_upload, tab_paste, tab_sample, tab_human, tab_annotations, tab_external, tab_metadata, tab_workspace = st.tabs(
    [
        "Upload files",
        "Paste text",
        "Bundled examples",
        "Human scores",
        "Error annotations",
        "External scores",
        "Segment metadata",
        "Workspace file",
    ]
)


def parsed_files(role: str, uploads: list, used: set[Any]) -> list[intake.Parsed]:
    """Parse each upload (tables get a column chooser); results are memoized per content and column, and the memo
    keys of these files added to ``used`` (the memo keeps only the files in the uploaders: a file released from an
    uploader must not stay in memory parsed)."""
    memo = keys.PARSE_MEMO.get({})
    keys.PARSE_MEMO.set(memo)
    results = []
    for upload in uploads:
        name, content = intake.upload_name(upload), upload.getvalue()
        column = None
        if intake.is_table(name):
            columns = intake.columns_of(name, content)
            if columns:
                names: list[str] = list(columns)
                column = st.selectbox(
                    f"Text column of {escape_markdown(name)}",
                    names,
                    index=names.index(intake.default_column(columns) or names[-1]),
                    key=f"column:{role}:{name}",
                )
        memo_key = (name, hash(content), column)
        if memo_key not in memo:
            memo[memo_key] = intake.parse_upload(name, content, column=column)
        used.add(memo_key)
        results.append(memo[memo_key])
    return results


def report(parsed: list[intake.Parsed]) -> None:
    for p in parsed:
        if p.ok:
            assert p.segments is not None
            notes = "; ".join(n.split(": ", 1)[-1] for n in p.segments.notes)
            st.markdown(
                f"✓ {escape_markdown(p.name)}: {len(p.segments)} segments"
                + (f" ({escape_markdown(notes)})" if notes else "")
            )
        else:
            show_error(p.error or InputError(p.name, "could not be read"))


def load_uploads(new: Dataset, notes: list[str], files: list[UploadedFile]) -> None:
    """Button callback (run before the script, so a click counts however busy the server is): adopt the files the
    button listed, release their bytes (the data now lives in the dataset) and remember their ids so they are never
    loaded twice."""
    keys.LOADED_UPLOADS.set(keys.LOADED_UPLOADS.get(frozenset()) | frozenset(f.file_id for f in files))
    uploads.release(files)
    adopt(new, notes, keep_metrics=True)


with tab_upload:
    st.caption(
        "One segment per line (.txt, any other suffix is read as text), a column of a .tsv/.csv, or .jsonl "
        '(a string, a list of sentences, or an object with a "text" field per line). UTF-8 (UTF-16 is read when the '
        "file starts with its byte-order mark). Without references, the systems are added to the loaded data, "
        "unless they start new data without references (a source and outputs: CometKiwi, perplexity and external "
        "scores read no references)."
    )
    # The uploaders keep their keys for the whole session: a new key would empty an uploader, dropping files a user
    # chose while the server was still answering an earlier choice. Files already loaded are released, and an
    # uploader never returns a released file, so what the boxes still show is never loaded twice.
    chosen = {
        role: uploads.uploader(label, key, multiple=role != "src")
        for role, label, key in (
            ("ref", "References", "up_refs"),
            ("sys", "System outputs", "up_systems"),
            ("src", "Source (optional)", "up_source"),
        )
    }
    # The limits, stated once, in the words of the boxes above ("… per file", from the same constant).
    per_file, in_all = intake.limit_text(intake.MAX_UPLOAD_BYTES), intake.limit_text(uploads.MAX_SESSION_UPLOAD_BYTES)
    st.caption(
        f"Up to {per_file} per file, and {in_all} in all for the files of this session not yet loaded (every upload "
        f"box of the app counts). The command line `scorelens score` reads files up to "
        f"{intake.limit_text(MAX_FILE_BYTES)}."
    )
    used: set[Any] = set()
    refs, systems, source = (parsed_files(role, chosen[role], used) for role in ("ref", "sys", "src"))
    keys.PARSE_MEMO.set({k: v for k, v in keys.PARSE_MEMO.get({}).items() if k in used})
    report([*refs, *systems, *source])
    good_refs = [p.segments for p in refs if p.segments is not None]
    good_systems = [p.segments for p in systems if p.segments is not None]
    good_source = source[0].segments if source and source[0].ok else None
    bad = [p for p in [*refs, *systems, *source] if not p.ok]
    fresh = not chosen["ref"] and st.checkbox(
        "Start new data without references",
        key="up_reference_free",
        help="The system outputs (and the source) replace the loaded data; metrics that read references are then "
        "shown as unavailable.",
    )
    base = None if fresh else data
    # Without every reference meant for them, the systems would be checked against other references (the loaded
    # data's) and fail on a segment count that says nothing about them.
    refs_missing = any(not p.ok for p in refs) or uploads.was_refused("up_refs")
    if chosen["ref"] or chosen["sys"]:
        problems = [] if refs_missing else intake.assemble_problems(good_refs, good_systems, good_source, base=base)
        for problem in problems:
            show_error(problem)
        if refs_missing:
            st.warning("A reference file could not be read: fix or remove it to load these files.")
        elif bad:
            st.warning("Files with errors are left out; fix them and upload again.")
        label = (
            "Replace the loaded data with these files" if good_refs or fresh else "Add these systems to the loaded data"
        )
        if problems or refs_missing:
            st.button(label, key="load_files", disabled=True, type="primary")
        else:
            st.button(
                label,
                key="load_files",
                type="primary",
                on_click=load_uploads,
                args=(
                    intake.assemble(good_refs, good_systems, good_source, title="Uploaded files", base=base),
                    [n for f in [*good_refs, *good_systems, *([good_source] if good_source else [])] for n in f.notes],
                    [u for files in chosen.values() for u in files],
                ),
            )
    elif keys.LOADED_UPLOADS.exists():
        st.caption("The files above are loaded; choose more to add or replace them.")


def _segments(parsed: intake.Parsed) -> Segments:
    if parsed.segments is None:
        raise parsed.error or InputError(parsed.name, "could not be read")
    return parsed.segments


def load_pasted() -> None:
    """Button callback: the pasted texts as they are at the click; a problem is kept for the tab to show."""
    ref_text = st.session_state.get("paste_ref", "")
    name, text = st.session_state.get("paste_name", "pasted"), st.session_state.get("paste_sys", "")
    try:
        refs = [_segments(intake.parse_pasted("reference", ref_text))] if ref_text.strip() else []
        system = _segments(intake.parse_pasted(name, text))
        new = intake.assemble(refs, [system], title="Pasted text", base=state.dataset())
    except InputError as err:
        keys.PASTE_ERROR.set(str(err))
    else:
        adopt(new, keep_metrics=True)


with tab_paste:
    st.caption("One segment per line. Without a reference, the pasted system is added to the loaded data.")
    st.text_area("Reference", key="paste_ref", height=150)
    st.text_input("System name", value="pasted", key="paste_name")
    st.text_area("System output", key="paste_sys", height=150)
    st.button("Use pasted text", key="load_paste", type="primary", on_click=load_pasted)
    if keys.PASTE_ERROR.exists():
        show_error(keys.PASTE_ERROR.get(""))
        keys.PASTE_ERROR.pop()


def load_example() -> None:
    adopt(load_sample(st.session_state.get("sample_choice") or next(iter(SAMPLES))))


with tab_sample:
    choice = st.selectbox(
        "Bundled example",
        list(SAMPLES),
        format_func=lambda k: f"{SAMPLES[k].task}: {SAMPLES[k].title} ({SAMPLES[k].size})",
        key="sample_choice",
    ) or next(iter(SAMPLES))
    defaults = ", ".join(SAMPLES[choice].metrics) or "chosen from the data (those that read no references)"
    st.caption(f"Default metrics: {defaults}. See assets/samples/*/PROVENANCE.md.")
    st.button("Load example", key="load_sample", type="primary", on_click=load_example)


def attach_human(with_human: Dataset, notes: list[str], files: list[UploadedFile]) -> None:
    keys.HUMAN_ROUND.set(keys.HUMAN_ROUND.get(0) + 1)  # empties the two human-score uploaders
    uploads.release(files)
    adopt(with_human, notes, keep_metrics=True)


with tab_human:
    st.caption(
        'Optional human judgments, JSON lines as THumB ships them: {"SYS": system name, "seg_id": segment id, '
        '"human_score": number}. With a segment ids file (one id per line, in the order of the system files), '
        "seg_id is looked up there; without, seg_id is the line number. Or a .tsv/.csv table with system, segment "
        "(0-based) and score columns, null where a segment was not rated (WMT's mqm.seg.tsv). The overview then "
        "shows how well each metric correlates with them, the Meta-evaluation page which metric to trust."
    )
    if data.human is not None:
        st.markdown(
            f"Loaded: **{escape_markdown(data.human.source or 'human scores')}** for "
            f"{escape_markdown(', '.join(data.human.systems))}."
        )
        st.button(
            "Remove human scores",
            key="drop_human",
            on_click=adopt,
            args=(data.with_human(None),),
            kwargs={"keep_metrics": True},
        )
    human_round = keys.HUMAN_ROUND.get(0)
    human_suffix = f":{human_round}" if human_round else ""
    human_uploads = uploads.uploader("Human scores (.jsonl, .tsv, .csv)", f"up_human{human_suffix}")
    ids_uploads = uploads.uploader("Segment ids (optional, one per line)", f"up_human_ids{human_suffix}")
    human_upload = human_uploads[0] if human_uploads else None
    ids_upload = ids_uploads[0] if ids_uploads else None
    if human_upload is not None:
        human_name = intake.upload_name(human_upload)
        try:
            ids = None
            if ids_upload is not None:
                ids_name = intake.upload_name(ids_upload)
                parsed_ids = intake.parse_upload(ids_name, ids_upload.getvalue())
                if parsed_ids.error is not None or parsed_ids.segments is None:
                    raise parsed_ids.error or InputError(ids_name, "could not be read")
                ids = parsed_ids.segments
            human, human_notes = intake.parse_human_upload(human_name, human_upload.getvalue(), data, ids)
            with_human = data.with_human(human)
        except InputError as err:
            show_error(err)
        else:
            judged = {name: int((~np.isnan(values)).sum()) for name, values in human.scores.items()}
            st.markdown(
                f"✓ {escape_markdown(human_name)}: "
                + escape_markdown(", ".join(f"{name} ({count} segments)" for name, count in judged.items()))
            )
            for note in human_notes:
                st.info(escape_markdown(note), icon="ℹ️")
            st.button(
                "Attach these human scores",
                key="load_human",
                type="primary",
                on_click=attach_human,
                args=(
                    with_human,
                    [f"human scores {human_name} attached", *human_notes],
                    [*human_uploads, *ids_uploads],
                ),
            )


def attach_annotations(new: Dataset, name: str, what: str, notes: list[str], files: list[UploadedFile]) -> None:
    """Button callback: adopt the data with the annotations ``name``, choose their score as a metric (before the
    sidebar's metric box is drawn), release the files and empty the uploaders."""
    keys.ANNOTATION_ROUND.set(keys.ANNOTATION_ROUND.get(0) + 1)
    uploads.release(files)
    adopt(new, [what, *notes], keep_metrics=True)
    state.set_metric_ids(list(dict.fromkeys([name, *state.metric_ids()])))
    st.session_state[state.widget_key(keys.METRICS_BOX)] = state.metric_ids()


def set_weights(key: str) -> None:
    """Text box callback: keep typed MQM weights that parse; else put the kept ones back and say why."""
    typed = str(st.session_state[key]).strip()
    try:
        MqmWeights.parse(typed)
    except ValueError as err:
        st.session_state[key] = st.session_state.get(keys.MQM_WEIGHTS, "")
        keys.WEIGHTS_ERROR.set(str(err))
        return
    st.session_state[keys.MQM_WEIGHTS] = typed


def weights_form() -> None:
    """The MQM weights every MQM score of the app uses (and its signature states)."""
    key = keys.MQM_WEIGHTS_BOX
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(keys.MQM_WEIGHTS, "")
    st.text_input(
        "MQM weights (empty: WMT's)",
        key=key,
        on_change=set_weights,
        args=(key,),
        placeholder="major=5, minor=1, minor-punctuation=0.1, non-translation=25, critical=10, neutral=0",
        help="Unnamed weights keep WMT's. The MQM metric's signature lists every weight used.",
    )
    st.caption(f"In use: {escape_markdown(state.mqm_weights().signature())}")
    if keys.WEIGHTS_ERROR.exists():
        show_error(InputError("MQM weights", keys.WEIGHTS_ERROR.get("")))
        keys.WEIGHTS_ERROR.pop()


def annotation_form(data: Dataset) -> None:
    """The annotations loaded now (each removable), the MQM weights, and the upload of another file."""
    for name, marked in data.annotations.items():
        left, right = st.columns([4, 1])
        left.markdown(
            f"Loaded **{escape_markdown(name)}** ({escape_markdown(marked.scheme.value)}, "
            f"{escape_markdown(marked.source)}): {escape_markdown(marked.summary())}."
        )
        right.button(
            "Remove",
            key=f"drop_annotations:{name}",
            on_click=adopt,
            args=(data.without_annotations(name),),
            kwargs={"keep_metrics": True},
        )
    if data.annotations:
        weights_form()
    round_ = keys.ANNOTATION_ROUND.get(0)
    suffix = f":{round_}" if round_ else ""
    files = uploads.uploader("Annotation file (.tsv, .jsonl)", f"up_annotations{suffix}")
    ids_files = uploads.uploader(
        "Segment ids (optional, one per line: the id the file's seg_id names for each loaded line)",
        f"up_annotation_ids{suffix}",
    )
    if not files:
        return
    upload = files[0]
    name = intake.upload_name(upload)
    offered = list(Scheme)
    guessed = annotation_io.guessed_scheme(name, upload.getvalue())
    scheme = (
        st.radio(
            "Format",
            offered,
            index=offered.index(guessed),
            format_func=lambda scheme: escape_markdown(annotation_io.FORMAT_WORDS[scheme]),
            horizontal=True,
            key=f"annotation_format{suffix}",
        )
        or guessed
    )
    label = st.text_input(
        "Name (the metric and the tables name them so)",
        value=annotation_io.default_name(scheme, list(data.annotations)),
        key=f"annotation_name{suffix}",
    ).strip()
    skip = st.checkbox(
        "Leave out the records of systems that are not loaded (they are counted)",
        key=f"annotation_skip{suffix}",
        help="A WMT file rates every submitted system; without this, a record of a system not loaded is an error.",
    )
    notes: list[str] = []
    try:
        ids = None
        if ids_files:
            parsed_ids = intake.parse_upload(intake.upload_name(ids_files[0]), ids_files[0].getvalue())
            ids = [s.strip() for s in _segments(parsed_ids).texts]
        if not label:
            raise InputError(name, "give the annotations a name")
        marked = annotation_io.parse_annotation_upload(
            name, upload.getvalue(), scheme, data, ids=ids, notes=notes, skip_unloaded=skip
        )
        with_annotations = data.with_annotations(label, marked)
    except InputError as err:
        show_error(err)
        return
    st.markdown(f"✓ {escape_markdown(name)}: {escape_markdown(marked.summary())}")
    for note in notes:
        st.info(escape_markdown(note), icon="ℹ️")
    replacing = " (replaces the loaded one)" if label in data.annotations else ""
    st.button(
        f"Attach annotations {escape_markdown(label)}{replacing}",
        key="load_annotations",
        type="primary",
        on_click=attach_annotations,
        args=(with_annotations, label, f"annotations {name} attached as {label}", notes, [*files, *ids_files]),
    )


with tab_annotations:
    st.caption(
        escape_markdown(
            "Human error annotations of the loaded outputs: WMT's MQM TSV (one row per error, marked <v>…</v> in the "
            "source or the output, with rater, category and severity; seg_id is the line number unless segment ids are "
            "given), ESA, or ScoreLens's JSON Lines spans (system, segment, rater, side, start, end, category, severity, "
            "optional score; also xCOMET's and LLM judges' spans). Every span must match the loaded text; a problem names "
            "the file and line and leaves the loaded data as it is. The Segment view draws the spans, MQM and ESA "
            "become metrics, and the Explorer and Analysis pages count errors by category and severity."
        )
    )
    annotation_form(data)


def change_external(
    new: Dataset, metric_ids: list[str], what: str, notes: tuple[str, ...] = (), read: Sequence[UploadedFile] = ()
) -> None:
    """Button callback: adopt the data with an external metric added (from the file ``read``) or removed, and choose
    the metrics — here, before the sidebar's metric box is drawn, so that the box shows the new choice."""
    if what.endswith("added"):
        keys.EXTERNAL_ROUND.set(keys.EXTERNAL_ROUND.get(0) + 1)
        uploads.release(read)
    state.set_dataset(new, keep_metrics=True)
    state.set_metric_ids(metric_ids)
    st.session_state[state.widget_key(keys.METRICS_BOX)] = state.metric_ids()
    keys.DATA_NOTES.set([f"external scores {what}", *notes])


with tab_external:
    st.caption(
        "Segment scores computed elsewhere — COMET, xCOMET, MetricX, BLEURT, an LLM judge, human raters — become a "
        "metric beside the others: corpus score = mean of the segment scores, with intervals, significance, "
        "correlation and the explorer's columns. Rows of system, segment, score (.jsonl, .tsv or .csv), or a .tsv/.csv "
        "with one column per system and one row per segment. Every loaded system needs a score for every segment."
    )
    for name, scores in data.external.items():
        direction = "higher" if scores.higher_is_better else "lower"
        st.markdown(
            f"Loaded: **{escape_markdown(name)}** from {escape_markdown(scores.source)} ({direction} is better"
            + (f"; {escape_markdown(scores.provenance)}" if scores.provenance else "")
            + ")"
        )
        st.button(
            f"Remove {escape_markdown(name)}",
            key=f"drop_external:{name}",
            on_click=change_external,
            args=(data.without_external(name), [m for m in state.metric_ids() if m != name], f"{name} removed"),
        )
    external_round = keys.EXTERNAL_ROUND.get(0)
    external_suffix = f":{external_round}" if external_round else ""
    external_uploads = uploads.uploader(
        "External scores", f"up_external{external_suffix}", type=["jsonl", "ndjson", "tsv", "csv"]
    )
    external_upload = external_uploads[0] if external_uploads else None
    if external_upload is not None:
        c1, c2, c3 = st.columns([2, 2, 2])
        metric_name = c1.text_input("Metric name", default_name(external_upload.name), key="external_name")
        lower = c2.radio("Better scores are", ["higher", "lower"], horizontal=True, key="external_direction")
        one_based = c3.checkbox("Segments count from 1", key="external_one_based")
        provenance = st.text_input(
            "Provenance (leads the signature)",
            key="external_provenance",
            placeholder="e.g. COMET-22 Unbabel/wmt22-comet-da, unbabel-comet 2.2.2",
        )
        fit = st.selectbox(
            "Human-agreement fit (Kocmi et al. 2024, for the Overview's agr. column)",
            ["", NONE, *FITS],
            format_func=lambda f: "found from the metric name" if f == "" else f,
            key="external_fit",
        )
        try:
            if metric_name.strip() in SPECS:
                raise InputError(
                    external_upload.name, f"{metric_name.strip()!r} is a ScoreLens metric id; choose another"
                )
            external = parse_external(
                external_upload.getvalue(),
                external_upload.name,
                metric_name.strip(),
                list(data.systems),
                len(data),
                one_based=one_based,
                higher_is_better=lower == "higher",
                provenance=provenance.strip(),
                fit=fit or "",
            )
        except InputError as err:
            show_error(err)
        else:
            values = np.array([v for values in external.scores.values() for v in values])
            st.markdown(
                f"✓ {escape_markdown(external_upload.name)}: {len(external.systems)} systems × {len(external)} "
                f"segments, scores {values.min():.4g} … {values.max():.4g}"
            )
            found = External(external).agreement_fit()
            st.caption(
                escape_markdown(found.describe("Human agreement"))
                if found is not None
                else "No human-agreement estimate: no mt-thresholds fit is declared or matches the name."
            )
            for note in external.notes:
                st.info(escape_markdown(note), icon="ℹ️")
            replacing = " (replaces the loaded one)" if external.name in data.external else ""
            st.button(
                f"Add metric {escape_markdown(external.name)}{replacing}",
                key="load_external",
                type="primary",
                on_click=change_external,
                args=(
                    data.with_external(external),
                    list(dict.fromkeys([*state.metric_ids(), external.name])),
                    f"{external.name} added",
                    external.notes,
                    external_uploads,
                ),
            )


with tab_metadata:
    segment_metadata.upload_form(data)


def load_workspace(saved_uploads: list[UploadedFile]) -> None:
    """Button callback: load the workspace file the uploader held when the button was drawn, then release its
    bytes (the data now lives in the session's dataset)."""
    saved = saved_uploads[0]
    saved_name = intake.upload_name(saved)
    try:
        new, loaded = workspace.loads(saved.getvalue(), saved_name)
    except InputError as err:
        keys.WORKSPACE_ERROR.set(str(err))
    else:
        state.set_dataset(new)
        uploads.release(saved_uploads)
        notes = state.apply_settings(loaded)
        keys.DATA_NOTES.set([f"workspace {saved_name} loaded", *notes])


with tab_workspace:
    st.caption(
        "Everything loaded and chosen here — data, metrics, options, segment metadata, slices, baseline, segment — "
        "as one JSON file."
    )
    st.download_button(
        "Download workspace",
        workspace.dumps(data, state.settings()),
        "scorelens-workspace.json",
        "application/json",
        key="download_workspace",
    )
    saved_uploads = uploads.uploader("Load a workspace file", "up_workspace", type=["json"])
    if saved_uploads:
        st.button(
            "Load workspace", key="load_workspace", type="primary", on_click=load_workspace, args=(saved_uploads,)
        )
    if keys.WORKSPACE_ERROR.exists():
        show_error(keys.WORKSPACE_ERROR.get(""))
        keys.WORKSPACE_ERROR.pop()
