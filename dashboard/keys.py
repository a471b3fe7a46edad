"""The app's keys in Streamlit's session state, in one place: what the app state keeps for the session (the loaded
data, the chosen metrics and options, the segment shown, compute's stops and confirmations, slices, metadata), what
a page keeps between its runs (:class:`Key`, typed) and the choices a user makes on a page that must outlive a visit
to another page (:class:`Choice`). Widgets whose value nothing reads back (buttons, download links) keep a plain key
on the widget.

Streamlit forgets the state of a widget that a run does not draw, so opening a segment from the Explorer or the
Analysis page used to reset their systems, filters, sort and section. A :class:`Choice` also keeps its widget's value
under a key no widget owns and puts it back before the widget is drawn again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import streamlit as st

T = TypeVar("T")
KEPT = "kept:"  # the prefix of the keys under which choices outlive their widgets

# What the app state keeps for the session (dashboard/state.py, compute.py, slices.py, segment_metadata.py).
DATASET = "dataset"
METRICS = "metric_ids"
OPTIONS = "metric_options"
MQM_WEIGHTS = "mqm_weights"  # the MQM weights typed on the Data page ("": WMT's), as MqmWeights.parse reads them
SEGMENT = "segment"  # 0-based index of the segment the segment view shows
SEGMENT_MOVES = "segment_moves"  # how often code (not the segment box) chose the segment: the box's key follows it
PAGE_REQUEST = "page_request"  # the page a button's callback asked for (a callback cannot switch pages itself)
BASELINE = "baseline"
RESAMPLES = "n_resamples"  # the user's count of bootstrap resamples for significance; absent: automatic
METRIC_CHOICE = "metric_choice"  # the MetricChoice that set the metrics from the data (None: a sample's or a file's)
DETECTED = "detected_choice"  # the MetricChoice read from the loaded data, whatever the user chose since
TASK_BOX = "task_box"  # the Data page's task choice
SCRIPT = "script"  # the ScriptCounts of the loaded references
LANGUAGE = "language"  # the LanguageSettings applied for them, and …
AUTO_OPTIONS = "auto_options"  # … the option values that set ({family: {option: value}}), to tell the user's apart
WIDGET_GENERATION = "widget_generation"
STOPPED = "compute_stopped"  # session state: keys of results the user stopped
CONFIRMED = "compute_confirmed"  # session state: keys of long results the user asked for
ESTIMATES = "compute_estimates"  # session state: expected seconds by key, so a rerun does not estimate again
SLICES = "slices"  # the saved slices, by name
METADATA = "analysis_metadata"  # the uploaded segment metadata
METRICS_BOX = "metrics_box"  # the sidebar's metric chooser


@dataclass(frozen=True)
class Key(Generic[T]):
    """A value a page keeps in the session under ``name``."""

    name: str

    def get(self, default: T) -> T:
        return cast(T, st.session_state.get(self.name, default))

    def set(self, value: T) -> None:
        st.session_state[self.name] = value

    def pop(self) -> None:
        st.session_state.pop(self.name, None)

    def exists(self) -> bool:
        return self.name in st.session_state

    def at(self, part: object) -> Key[T]:
        """The key of one of a family of values (one text box per reference)."""
        return Key(f"{self.name}_{part}")


@dataclass(frozen=True)
class Choice(Generic[T]):
    """The key of a widget whose value outlives the page: draw the widget with ``key=choice.widget()`` and pass
    its value to :meth:`keep`."""

    name: str

    def at(self, part: str) -> Choice[T]:
        """The choice of one of a family of widgets (one range slider per score column)."""
        return Choice(f"{self.name}:{part}")

    def widget(self, valid: Callable[[T], bool] | None = None) -> str:
        """The widget's key, with the value kept from an earlier visit put back if the widget lost it and the value
        is still ``valid`` (the data may have changed since: a system renamed, a column gone)."""
        kept = st.session_state.get(KEPT + self.name)
        if self.name not in st.session_state and kept is not None and (valid is None or valid(kept)):
            st.session_state[self.name] = kept
        return self.name

    def keep(self, value: T) -> T:
        st.session_state[KEPT + self.name] = value
        return value


def forget_choices() -> None:
    """Drop every kept choice: they belong to the data they were made on (new references start afresh)."""
    for name in [k for k in st.session_state if isinstance(k, str) and k.startswith(KEPT)]:
        del st.session_state[name]


def among(options: list[Any]) -> Callable[[Any], bool]:
    """A kept value is valid for a choice of one of ``options``."""
    return lambda value: value in options


def all_among(options: list[Any]) -> Callable[[Any], bool]:
    """A kept value is valid for a choice of several of ``options``."""
    return lambda values: all(v in options for v in values)


def within(low: float, high: float) -> Callable[[Any], bool]:
    """A kept range is valid for a slider from ``low`` to ``high``."""
    return lambda bounds: low <= bounds[0] <= bounds[1] <= high


# -------------------------------------------------------------------------------------------------------- Sidebar
METRICS_EMPTY: Key[bool] = Key("metrics_empty")  # the metric choice was applied empty (and kept), said once

# ----------------------------------------------------------------------------------------------------------- Data
DATA_NOTES: Key[list[str]] = Key("intake_notes")  # what the last load said, shown until the next one
RENAME_ERROR: Key[str] = Key("rename_error")  # why a rename was refused, shown once
# A file option's "use the default instead" click, per option widget (set in the button's callback).
FILE_OPTION_DEFAULT: Key[bool] = Key("file_option_default")
PARSE_MEMO: Key[dict[Any, Any]] = Key("parse_memo")  # parsed uploads by content and column
# The ids of the files the Upload tab loaded (its uploaders keep their keys, and still show them).
LOADED_UPLOADS: Key[frozenset[str]] = Key("loaded_uploads")
PASTE_ERROR: Key[str] = Key("paste_error")  # why pasted text was refused, shown once
WORKSPACE_ERROR: Key[str] = Key("workspace_error")  # why a workspace file was refused, shown once
SLICE_SAVED: Key[str] = Key("slice_saved")  # the Explorer's "saved" message, shown once
SLICE_NAME_TAKEN: Key[str] = Key("slice_name_taken")  # the Explorer's "a slice has that name" refusal, shown once
SLICE_PREFILLED: Key[str | None] = Key("slice_prefilled")  # the name the app put in the Explorer's slice name box
AN_SLICE_ERROR: Key[str] = Key("an_slice_error")  # why the Analysis page's slice was refused, shown once
HUMAN_ROUND: Key[int] = Key("human_round")
EXTERNAL_ROUND: Key[int] = Key("external_round")
MQM_WEIGHTS_BOX = "mqm_weights_box"  # the Data page's box of MQM weights (a loaded workspace renews it)
WEIGHTS_ERROR: Key[str] = Key("mqm_weights_error")  # why typed MQM weights were refused, shown once
ANNOTATION_ROUND: Key[int] = Key("annotation_round")  # renews the annotation uploaders once their file is loaded
METADATA_ROUND: Key[int] = Key("metadata_round")  # a new round empties the segment metadata uploader
# Uploads (dashboard/uploads.py): the files admitted, those released once loaded, the refusals shown beside each
# uploader, and each uploader's generation (a new one empties it after a refusal).
UPLOADS_SEEN: Key[frozenset[str]] = Key("uploads_seen")
UPLOADS_RELEASED: Key[frozenset[str]] = Key("uploads_released")
UPLOAD_REFUSALS: Key[dict[str, list[str]]] = Key("upload_refusals")
UPLOADER_GENERATIONS: Key[dict[str, int]] = Key("uploader_generations")

# ---------------------------------------------------------------------------------------------------------- Teach
TEACH_METRIC: Key[str] = Key("teach_metric")
TEACH_CLASSIC: Key[str] = Key("teach_classic")  # the classic example chosen, or "your own"
TEACH_LOADED: Key[str | None] = Key("teach_loaded")  # the classic whose texts were put in the boxes last
TEACH_HYP: Key[str] = Key("teach_hyp")
TEACH_NREFS: Key[int] = Key("teach_nrefs")
TEACH_REF: Key[str] = Key("teach_ref")  # .at(k)
TEACH_SRC: Key[str] = Key("teach_src")  # the source, for a metric that reads one (COMET)
TEACH_DS_SYSTEM: Key[str] = Key("teach_ds_system")
TEACH_DS_INDEX: Key[int] = Key("teach_ds_index")
TEACH_OPTION: Key[Any] = Key("teach")  # .at(f"{metric}_{option}"): the what-if widgets
TEACH_LAST: Key[Any] = Key("teach_last")  # (metric, texts), options and lesson of the last run …
TEACH_PREV: Key[Any] = Key("teach_prev")  # … and of the run before, when only the options changed
# Exercises and class sets (dashboard/teach_class.py).
TEACH_DRILL: Key[bool] = Key("teach_drill")  # the "predict, then reveal" toggle
TEACH_ANSWERS: Key[Any] = Key("teach_answers")  # (the lesson they answer, {exercise key: Answer})
TEACH_GUESS: Key[str] = Key("teach_guess")  # .at(exercise key): the text box of a prediction
TEACH_SET: Key[Any] = Key("teach_set")  # the TeachSet a class opened (file or link), or None
TEACH_SET_ITEM: Key[int | None] = Key("teach_set_item")  # the index of the set's item in the text boxes, if any
TEACH_SET_PICK: Key[int] = Key("teach_set_pick")  # the item chosen in the set's picker
TEACH_SET_LINK: Key[str] = Key("teach_set_link")  # the link value opened last (a rerun does not reopen it)
TEACH_SET_ERRORS: Key[tuple[str, ...]] = Key("teach_set_errors")  # why the last file or link was refused
TEACH_SET_FILE: Key[bytes] = Key("teach_set_file_read")  # a set file read, opened by the next run's start
TEACH_DRAFT: Key[Any] = Key("teach_draft")  # the TeachSet a teacher is putting together
TEACH_DRAFT_TITLE: Key[str] = Key("teach_draft_title")
TEACH_DRAFT_PICK: Key[list[str]] = Key("teach_draft_pick")  # the exercises of this pair to add to the draft
TEACH_DRAFT_NOTE: Key[str] = Key("teach_draft_note")

# ------------------------------------------------------------------------------------------------------- Overview
OV_DETAILS_CHOSEN: Key[list[str]] = Key("overview_details_chosen")  # the columns the user picked, once they did
OV_ORDER: Choice[str] = Choice("overview_order")  # rows by score or as uploaded

# ------------------------------------------------------------------------------------------------ Meta-evaluation
META_CLUSTERS: Key[str | None] = Key("meta_clusters")  # the scope whose significance clusters were asked for

# ------------------------------------------------------------------------------------------------------- Explorer
EX_METRICS: Choice[list[str]] = Choice("ex_metrics")
EX_SYSTEMS: Choice[list[str]] = Choice("ex_systems")
EX_DIFF_A: Choice[str] = Choice("ex_diff_a")
EX_DIFF_B: Choice[str] = Choice("ex_diff_b")
EX_DIFF_METRIC: Choice[str] = Choice("ex_diff_metric")
EX_TEXT: Choice[str] = Choice("ex_text")
EX_LENGTH: Choice[tuple[int, int]] = Choice("ex_len")
EX_SCORE_SYSTEM: Choice[str] = Choice("ex_score_sys")
EX_SCORE_METRIC: Choice[str] = Choice("ex_score_metric")
EX_SCORE2_SYSTEM: Choice[str] = Choice("ex_score2_sys")  # the second score filter
EX_SCORE2_METRIC: Choice[str] = Choice("ex_score2_metric")
EX_SCORE_RANGE: Choice[tuple[float, float]] = Choice("ex_score_range")  # .at(column)
EX_DIFF_RANGE: Choice[tuple[float, float]] = Choice("ex_diff_range")  # .at(column)
EX_SORT: Choice[str] = Choice("ex_sort")
EX_DESCENDING: Choice[bool] = Choice("ex_desc")
EX_PAGE: Choice[int] = Choice("ex_page")
EX_META: Choice[list[str]] = Choice("ex_meta")  # .at(column): the metadata values a segment must have
EX_SLICE_OPEN: Choice[bool] = Choice("ex_slice_open")  # the "save as a slice" expander, open across filter changes
EX_ERR_SET: Choice[str] = Choice("ex_err_set")  # the error filter: which annotations, system, category…
EX_ERR_SYSTEM: Choice[str] = Choice("ex_err_system")
EX_ERR_CATEGORY: Choice[str] = Choice("ex_err_category")
EX_ERR_SEVERITY: Choice[list[str]] = Choice("ex_err_severity")
EX_ERR_RATER: Choice[str] = Choice("ex_err_rater")
EX_OPENED: Key[int | None] = Key("ex_handled")  # the table row already opened, so that a rerun does not reopen it

# ------------------------------------------------------------------------------------------------------- Analysis
AN_BASELINE_BOX: Key[str] = Key("an_baseline")  # starts from the shared baseline, which outlives the page
AN_SECTION: Choice[str] = Choice("an_section")
AN_BUCKET_BY: Choice[str] = Choice("an_by")
AN_BUCKET_METRIC: Choice[str] = Choice("an_by_metric")
AN_BUCKET_EDGES: Choice[str] = Choice("an_edges")  # .at(what buckets are made by)
AN_BUCKET_SYSTEMS: Choice[list[str]] = Choice("an_chart_systems")
AN_BUCKET_VIEW: Choice[str] = Choice("an_bucket_view")  # difference from the baseline, or scores
AN_WORDS_METRIC: Choice[str] = Choice("an_words_metric")
AN_WORDS_SYSTEMS: Choice[list[str]] = Choice("an_words_systems")
AN_NGRAM_A: Choice[str] = Choice("an_ng_a")
AN_NGRAM_B: Choice[str] = Choice("an_ng_b")
AN_NGRAM_METRIC: Choice[str] = Choice("an_ng_metric")
AN_NGRAM_ORDERS: Choice[tuple[int, int]] = Choice("an_ng_orders")
AN_NGRAM_TOP: Choice[int] = Choice("an_ng_top")
AN_SLICE_SYSTEMS: Choice[list[str]] = Choice("an_slice_systems")
AN_DOC_COLUMN: Choice[str] = Choice("an_doc_column")
AN_DOC_METRIC: Choice[str] = Choice("an_doc_metric")
AN_TRUST_BASELINE: Choice[bool] = Choice("an_trust_baseline")
AN_DIS_A: Choice[str] = Choice("an_dis_a")
AN_DIS_B: Choice[str] = Choice("an_dis_b")
AN_NGRAM_OPENED: Key[int | None] = Key("an_ng_open")  # the row already opened, so that a rerun does not reopen it
AN_DIS_OPENED: Key[int | None] = Key("an_dis_open")
AN_HE_SET: Choice[str] = Choice("an_he_set")  # human errors: which loaded annotations
AN_HE_RATE: Choice[str] = Choice("an_he_rate")
AN_HE_DEPTH: Choice[int] = Choice("an_he_depth")
AN_HE_SEVERITY: Choice[bool] = Choice("an_he_severity")
AN_HE_ON: Choice[str] = Choice("an_he_on")  # all segments or a saved slice
AN_HE_A: Choice[str] = Choice("an_he_a")
AN_HE_B: Choice[str] = Choice("an_he_b")
AN_HE_DOWNLOADS: Choice[bool] = Choice("an_he_downloads")  # the section's downloads are computed when asked for
AN_HE_METRIC: Choice[str] = Choice("an_he_metric")  # span agreement: which metric's flags
AN_HE_CELL: Choice[str] = Choice("an_he_cell")  # span agreement: every error or one top-level category

# -------------------------------------------------------------------------------------------------------- Segment
SEG_METRIC: Choice[str] = Choice("seg_metric")
SEG_SYSTEMS: Choice[list[str]] = Choice("seg_systems")
SEG_REFERENCE: Choice[int] = Choice("seg_ref")
SEG_COLUMNS: Choice[int] = Choice("seg_cols")
