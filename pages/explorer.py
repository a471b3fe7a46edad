"""Sentence explorer for error analysis: two chosen systems' outputs, their scores and the A − B difference first,
the differences between the outputs highlighted, then every segment score of every system and metric; sort,
filter by score, by the difference, by length, by text and by any column of the segment metadata (domain,
document…), and save what the filters keep as a slice; choosing a row opens the segment view.

The list (filters, sort, table, side by side) is a fragment: a filter reruns it alone, not the frame and the
evaluation lookup. Every choice outlives a visit to a segment (``dashboard.keys``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dashboard import human_errors, keys, navigation, segment_metadata, slices, state
from dashboard.dataset import Dataset
from dashboard.keys import Choice, all_among, within
from dashboard.navigation import Task
from dashboard.sidebar import scored_page
from dashboard.widgets import chosen_row, select, select_many
from metrics.analysis.slices import ScoreCondition
from metrics.core.evaluation import Evaluation
from metrics.core.language import LengthUnit, detect_language, length_unit, text_length
from metrics.core.spans import Severity
from metrics.io.metadata import Metadata
from rendering.comparison import ComparedRow, comparison_html
from rendering.tables import column_name, metric_labels, sentence_scores
from rendering.text import escape_markdown

PAGE_ROWS = 20  # rows of the side-by-side comparison per page
NO_SCORE_FILTER = "(no score filter)"


@dataclass(frozen=True)
class Focus:
    """What every row shows: the metrics and systems, and the two systems under study with their difference."""

    metric_ids: list[str]
    systems: list[str]
    a: str
    b: str
    metric: str
    labels: dict[str, str]

    @property
    def compared(self) -> bool:
        return self.a != self.b

    @property
    def diff_column(self) -> str:
        return f"{self.a} − {self.b} · {self.labels[self.metric]}"

    @property
    def texts(self) -> set[str]:
        return {"reference", "source", f"{self.a} output", f"{self.b} output"}


def choose_focus(evaluation: Evaluation) -> Focus:
    labels = metric_labels(evaluation)
    all_metrics, all_systems = list(evaluation.metrics), [r.name for r in evaluation.systems]
    left, right = st.columns(2)
    with left:
        metric_ids = select_many(
            "Metrics", all_metrics, keys.EX_METRICS, default=all_metrics, format_func=labels.__getitem__
        )
    with right:
        systems = select_many("Systems", all_systems, keys.EX_SYSTEMS, default=all_systems)
    # The two systems under study lead every row: their difference, their scores and their outputs.
    d1, d2, d3 = st.columns(3)
    with d1:
        a = select("Compare system A", systems, keys.EX_DIFF_A)
    with d2:
        b = select("with system B", [s for s in systems if s != a] or [a], keys.EX_DIFF_B)
    with d3:
        metric = select("under", metric_ids, keys.EX_DIFF_METRIC, format_func=labels.__getitem__)
    return Focus(metric_ids, systems, a, b, metric, labels)


def score_table(data: Dataset, evaluation: Evaluation, focus: Focus) -> pd.DataFrame:
    """One row per segment: A − B, A's and B's scores and outputs, every other score, the reference's length, the
    reference and the source."""
    label = focus.labels[focus.metric]
    scores = sentence_scores(evaluation, focus.systems, focus.metric_ids)
    lead = [column_name(focus.a, label), *([column_name(focus.b, label)] if focus.compared else [])]
    frame = scores[lead].copy()
    if focus.compared:
        frame.insert(0, focus.diff_column, difference(evaluation, focus))
    frame[f"{focus.a} output"] = list(data.systems[focus.a])
    if focus.compared:
        frame[f"{focus.b} output"] = list(data.systems[focus.b])
    frame = frame.join(scores.drop(columns=lead))
    basis = length_basis(data)
    if basis is not None:
        frame[basis.column] = np.array([text_length(t, basis.unit) for t in basis.texts])
    if data.refs:
        frame["reference"] = list(data.refs[0])
    if data.source is not None:
        frame["source"] = list(data.source)
    meta = segment_metadata.loaded(len(data))
    if meta is not None:
        for column in meta.columns:
            frame[metadata_column(column)] = list(meta.values[column])
    return frame


@dataclass(frozen=True)
class LengthBasis:
    """The texts whose length the table shows and the filter narrows: the first reference, else the source."""

    name: str  # "reference" or "source"
    texts: Sequence[str]
    unit: LengthUnit

    @property
    def column(self) -> str:
        return f"{'ref' if self.name == 'reference' else 'src'} {self.unit}"


def length_basis(data: Dataset) -> LengthBasis | None:
    """The first reference's lengths, in the references' unit; without references the source's, in its own (a
    Hebrew source is counted in words, a Chinese one in characters); ``None`` with neither."""
    if data.refs:
        return LengthBasis("reference", data.refs[0], length_unit(data.language))  # CJK: no spaces between words
    if data.source is not None:
        return LengthBasis("source", data.source, length_unit(detect_language([data.source]).language))
    return None


def metadata_column(column: str) -> str:
    """The table's column of a metadata column (named apart from the scores, texts and lengths)."""
    return f"{column} (metadata)"


def difference(evaluation: Evaluation, focus: Focus) -> np.ndarray:
    return np.asarray(
        evaluation.system(focus.a).segment_scores[focus.metric]
        - evaluation.system(focus.b).segment_scores[focus.metric]
    )


def filters(
    data: Dataset, frame: pd.DataFrame, focus: Focus
) -> tuple[np.ndarray, list[str], tuple[ScoreCondition, ...]]:
    """The filters' widgets; the mask of the rows they keep, the filters that narrow it in words (a slice saved from
    them is described so), and the score filters that removed some (a slice made of them is chosen by those scores)."""
    mask = np.ones(len(frame), dtype=bool)
    said: list[str] = []
    conditions: list[ScoreCondition] = []
    with st.expander("Filters", expanded=True):
        text = st.text_input(
            "Text contains (source, references or the chosen outputs; case-insensitive)", key=keys.EX_TEXT.widget()
        )
        if keys.EX_TEXT.keep(text).strip():
            needle = text.strip().casefold()
            streams = [*data.refs, *(data.systems[s] for s in focus.systems), *([data.source] if data.source else [])]
            mask &= np.array([any(needle in stream[i].casefold() for stream in streams) for i in range(len(data))])
            said.append(f"text contains {text.strip()!r}")

        basis = length_basis(data)
        lengths = frame[basis.column].to_numpy() if basis is not None else np.zeros(0)
        low, high = (int(lengths.min()), int(lengths.max())) if len(lengths) else (0, 0)
        if basis is not None and low < high:
            length = st.slider(
                f"{basis.name.capitalize()} length ({basis.unit})",
                low,
                high,
                (low, high),
                key=keys.EX_LENGTH.widget(within(low, high)),
            )
            length = keys.EX_LENGTH.keep(length)
            mask &= (lengths >= length[0]) & (lengths <= length[1])
            if tuple(length) != (low, high):
                said.append(f"{basis.name} length {length[0]}–{length[1]} {basis.unit}")

        meta = segment_metadata.loaded(len(data))
        if meta is not None:
            by_metadata, chosen = metadata_filters(meta)
            mask &= by_metadata
            said += chosen

        if data.annotations:
            by_errors, chosen_errors, condition = error_filter(data, focus)
            mask &= by_errors
            said += chosen_errors
            conditions += condition

        # Two score filters, so that a slice can combine them ("MQM below −5 but chrF above 60").
        for slot, (system_choice, metric_choice, label) in enumerate(SCORE_SLOTS):
            c1, c2, c3 = st.columns(3)
            with c1:
                score_system = select(label, [NO_SCORE_FILTER, *focus.systems], system_choice)
            if score_system not in focus.systems:
                continue
            with c2:
                score_metric = select(
                    "under metric", focus.metric_ids, metric_choice, format_func=focus.labels.__getitem__
                )
            column = column_name(score_system, focus.labels[score_metric])
            with c3:
                in_range, narrowed = _within_range(
                    "range", column, frame[column], keys.EX_SCORE_RANGE.at(f"{slot}:{column}" if slot else column)
                )
            mask &= in_range
            if narrowed:
                said.append(narrowed)
                conditions.append(ScoreCondition(score_metric, (score_system,)))
        if focus.compared:
            label, column = f"{escape_markdown(focus.diff_column)} range", focus.diff_column
            in_range, narrowed = _within_range(label, column, frame[column], keys.EX_DIFF_RANGE.at(column))
            mask &= in_range
            if narrowed:
                said.append(narrowed)
                conditions.append(ScoreCondition(focus.metric, (focus.a, focus.b)))
    return mask, said, tuple(conditions)


SCORE_SLOTS = (
    (keys.EX_SCORE_SYSTEM, keys.EX_SCORE_METRIC, "Score of system"),
    (keys.EX_SCORE2_SYSTEM, keys.EX_SCORE2_METRIC, "and score of system"),
)
NO_ERROR_FILTER = "(no error filter)"
ANY_ERROR = "any error"
ANY_RATER = "any rater"


def error_filter(data: Dataset, focus: Focus) -> tuple[np.ndarray, list[str], list[ScoreCondition]]:
    """Boxes for "system X's output has a (major) Accuracy/Mistranslation error (marked by rater R)": the mask of the
    segments that have one, the filter in words, and the condition a slice made of it is chosen by (its MQM or ESA
    score on that system: the Analysis page then withholds the tests it would make circular)."""
    mask = np.ones(len(data), dtype=bool)
    names = list(data.annotations)
    c0, c1, c2, c3, c4 = st.columns([1, 1, 2, 1, 1])
    with c0:
        name = select("Error annotations", names, keys.EX_ERR_SET)
    marked = data.annotations[name]
    rated = [s for s in focus.systems if s in marked.ratings] or [NO_ERROR_FILTER]
    with c1:
        system = select("Output of", rated, keys.EX_ERR_SYSTEM)
    with c2:
        category = select(
            "has an error of", [NO_ERROR_FILTER, ANY_ERROR, *human_errors.kinds(data, name)], keys.EX_ERR_CATEGORY
        )
    if category == NO_ERROR_FILTER or system not in marked.ratings:
        return mask, [], []
    severities = [s.value for s in Severity]
    with c3:
        chosen = keys.EX_ERR_SEVERITY.keep(
            st.multiselect(
                "severity", severities, key=keys.EX_ERR_SEVERITY.widget(all_among(severities)), placeholder="any"
            )
        )
    with c4:
        rater = select("marked by", [ANY_RATER, *marked.raters], keys.EX_ERR_RATER)
    mask = human_errors.has_error(
        data,
        name,
        system,
        None if category == ANY_ERROR else category,
        [Severity(s) for s in chosen],
        None if rater == ANY_RATER else rater,
    )
    kind = " ".join([" or ".join(chosen), "" if category == ANY_ERROR else category, "error"]).split()
    by = "" if rater == ANY_RATER else f", marked by {rater}"
    words = f"{system} has at least one {' '.join(kind)} ({name}{by})"
    return mask, [words], [ScoreCondition(name, (system,))]


def metadata_filters(meta: Metadata) -> tuple[np.ndarray, list[str]]:
    """A box per metadata column: the values a segment must have in it (none chosen: any); the mask they keep, and
    the columns chosen in words."""
    mask, said = np.ones(len(meta), dtype=bool), []
    boxes = st.columns(min(len(meta.columns), 3))
    for k, column in enumerate(meta.columns):
        values = meta.values[column]
        offered = list(dict.fromkeys(values))
        choice = keys.EX_META.at(column)
        with boxes[k % len(boxes)]:
            chosen = choice.keep(
                st.multiselect(
                    f"{escape_markdown(column)} (metadata) is one of",
                    offered,
                    key=choice.widget(all_among(offered)),
                    placeholder="any",
                    format_func=lambda v: v or "(empty)",
                )
            )
        if chosen:
            wanted = set(chosen)
            mask &= np.array([v in wanted for v in values])
            said.append(f"{column} is {' or '.join(repr(v) for v in chosen)}")
    return mask, said


def _within_range(
    label: str, column: str, scores: pd.Series, choice: Choice[tuple[float, float]]
) -> tuple[np.ndarray, str | None]:
    """A range slider over the ``column`` of ``scores``; the mask of the values in the chosen range, and the range
    in words when it is narrower than the values'."""
    values = scores.to_numpy()
    lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
    if not lo < hi:
        return np.ones(len(values), dtype=bool), None
    chosen = choice.keep(st.slider(label, lo, hi, (lo, hi), key=choice.widget(within(lo, hi))))
    words = None if tuple(chosen) == (lo, hi) else f"{column} in {chosen[0]:.4g}–{chosen[1]:.4g}"
    return np.asarray((values >= chosen[0]) & (values <= chosen[1])), words


def sorted_view(view: pd.DataFrame, focus: Focus) -> pd.DataFrame:
    s1, s2 = st.columns([3, 1])
    with s1:
        sort_by = select("Sort by", ["segment", *[c for c in view.columns if c not in focus.texts]], keys.EX_SORT)
    descending = keys.EX_DESCENDING.keep(s2.toggle("Descending", key=keys.EX_DESCENDING.widget()))
    if sort_by == "segment":
        return view.sort_index(ascending=not descending)
    return view.sort_values(sort_by, ascending=not descending, kind="stable")


def open_segment(index: int) -> None:
    state.set_segment(index)
    navigation.switch_to(Task.SEGMENT)


def request_segment(index: int | None = None) -> None:
    """Button callback: open segment ``index`` (0-based), or the one the "open segment number" box holds."""
    state.set_segment(int(st.session_state["ex_goto"]) - 1 if index is None else index)
    navigation.request(Task.SEGMENT)


def table(view: pd.DataFrame, focus: Focus) -> None:
    """The table; choosing a row opens its segment."""
    event = st.dataframe(
        view,
        on_select="rerun",
        selection_mode="single-row",
        key="explorer_table",
        column_config={
            **{c: st.column_config.NumberColumn(format="%.4f") for c in view.columns if "·" in c},
            **{c: st.column_config.TextColumn(width="large") for c in view.columns if c in focus.texts},
        },
    )
    row = chosen_row(event, len(view))
    chosen = None if row is None else int(view.index[row]) - 1
    if chosen is None:
        keys.EX_OPENED.pop()
    elif keys.EX_OPENED.get(None) != chosen:
        keys.EX_OPENED.set(chosen)
        open_segment(chosen)


def side_by_side(data: Dataset, evaluation: Evaluation, view: pd.DataFrame, focus: Focus) -> None:
    label, unit = focus.labels[focus.metric], length_unit(data.language)
    st.subheader(f"{escape_markdown(focus.a)} and {escape_markdown(focus.b)} side by side", anchor=False)
    st.caption(
        f"In the order above. Highlighted: what one output has and the other lacks ({unit}); "
        f"A − B is the difference of their {escape_markdown(label)}."
    )
    scores_a = evaluation.system(focus.a).segment_scores[focus.metric]
    scores_b = evaluation.system(focus.b).segment_scores[focus.metric]
    pages = (len(view) - 1) // PAGE_ROWS + 1
    page = 1
    if pages > 1:
        page = keys.EX_PAGE.keep(
            st.number_input(f"Page (1–{pages})", 1, pages, 1, key=keys.EX_PAGE.widget(lambda n: 1 <= n <= pages))
        )
    for segment in view.index[(page - 1) * PAGE_ROWS : page * PAGE_ROWS]:
        i = int(segment) - 1
        against, against_label = (
            (data.refs[0][i], "Ref") if data.refs else (data.source[i], "Src") if data.source else (None, "")
        )
        row = ComparedRow(
            int(segment),
            data.systems[focus.a][i],
            data.systems[focus.b][i],
            scores_a[i],
            scores_b[i],
            against,
            against_label,
        )
        opened, body = st.columns([1, 11])
        opened.button(
            f"#{segment}", key=f"ex_row:{segment}", help="Open in the segment view", on_click=request_segment, args=(i,)
        )
        body.html(comparison_html(row, label, unit))


@st.fragment
def segment_list(data: Dataset, evaluation: Evaluation, frame: pd.DataFrame, focus: Focus) -> None:
    navigation.follow_request()  # a row's button asked for the segment view
    mask, said, selected_by = filters(data, frame, focus)
    slices.save_form(mask, "; ".join(said) or "all segments", selected_by)  # the Analysis page scores saved slices
    view = sorted_view(frame[mask], focus)
    st.caption(f"{len(view)} of {len(frame)} segments. Choose a row to open it in the segment view.")
    with st.expander("Signatures of the segment scores"):
        for metric_id in focus.metric_ids:
            st.code(f"{focus.labels[metric_id]}: {evaluation.segment_signatures[metric_id]}", language=None)
    table(view, focus)
    g1, g2 = st.columns([1, 3])
    g1.number_input("Or open segment number", 1, len(data), state.segment() + 1, key="ex_goto")
    g2.button("Open in the segment view", key="ex_open", on_click=request_segment)
    if focus.compared and len(view):
        side_by_side(data, evaluation, view, focus)


def main() -> None:
    data, evaluation = scored_page("explorer", "Sentence explorer")
    focus = choose_focus(evaluation)
    segment_list(data, evaluation, score_table(data, evaluation, focus), focus)


main()
