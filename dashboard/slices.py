"""Slices in the session: the named sets of segments the Analysis page scores, saved with the workspace, and the
Explorer's "save these segments as a slice" form (a slice is made of the explorer's current filters)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st

from dashboard import keys
from metrics.analysis.slices import MAX_NAME, Slice
from rendering.text import escape_markdown


def saved() -> tuple[Slice, ...]:
    return tuple(st.session_state.get(keys.SLICES, ()))


def replace_all(slices: Sequence[Slice]) -> None:
    st.session_state[keys.SLICES] = tuple(slices)


def add(piece: Slice, *, replace: bool = False) -> None:
    """Save ``piece``; a slice of the same name is replaced (in its place) only when ``replace`` says so, else
    ``ValueError``: a name typed again must never silently drop the segments saved under it."""
    current = list(saved())
    at = next((k for k, s in enumerate(current) if s.name == piece.name), None)
    if at is None:
        current.append(piece)
    elif replace:
        current[at] = piece
    else:
        raise ValueError(f"a slice named {piece.name!r} exists; choose another name")
    replace_all(current)


def find(name: str) -> Slice | None:
    return next((s for s in saved() if s.name == name), None)


def free_name() -> str:
    """The first of "slice 1", "slice 2" … that no saved slice has: what the save forms start from."""
    taken = {s.name for s in saved()}
    return next(name for k in range(1, len(taken) + 2) if (name := f"slice {k}") not in taken)


def remove(name: str) -> None:
    replace_all([s for s in saved() if s.name != name])


def describe_filters(values: Mapping[str, Any], metadata_columns: Sequence[str] = ()) -> str:
    """The explorer's active filters in words, from its widgets' values (the session's ``keys.EX_*``); a metadata
    filter counts only for a column of the loaded metadata (``metadata_columns``)."""
    parts = []
    text = str(values.get(keys.EX_TEXT.name) or "").strip()
    if text:
        parts.append(f"text contains {text!r}")
    length = values.get(keys.EX_LENGTH.name)
    if length:
        parts.append(f"reference length {length[0]}–{length[1]} words")
    for column in metadata_columns:
        chosen = values.get(keys.EX_META.at(column).name)
        if chosen:
            parts.append(f"{column} is {' or '.join(repr(v) for v in chosen)}")
    score_system = values.get(keys.EX_SCORE_SYSTEM.name)
    diff_system = values.get(keys.EX_DIFF_A.name)
    for key, value in values.items():
        if not isinstance(key, str) or not value:
            continue
        prefix, _, column = key.partition(":")
        # a range widget of a filter switched off may linger in the session until the run ends
        live = (
            prefix == keys.EX_SCORE_RANGE.name
            and isinstance(score_system, str)
            and column.startswith(f"{score_system} · ")
        )
        live |= (
            prefix == keys.EX_DIFF_RANGE.name
            and isinstance(diff_system, str)
            and column.startswith(f"{diff_system} − ")
        )
        if live:
            parts.append(f"{column} in {value[0]:.4g}–{value[1]:.4g}")
    return "; ".join(parts) or "all segments"


NAME_BOX = "ex_slice_name"


def _save_named(chosen: tuple[int, ...], description: str, replace: bool) -> None:
    """Button callback: save the segments the form showed under the name typed at the click; an existing name is
    refused unless the click was on "Replace". The box then starts from a free name again."""
    name = str(st.session_state.get(NAME_BOX) or "").strip()
    if not name or not chosen:
        return
    try:
        add(Slice(name, description, chosen), replace=replace)
    except ValueError as err:
        keys.SLICE_NAME_TAKEN.set(str(err))
        return
    keys.SLICE_SAVED.set(f"{'Replaced' if replace else 'Saved'} slice {name} ({len(chosen)} segments).")
    st.session_state[NAME_BOX] = free_name()


def save_form(mask: np.ndarray, metadata_columns: Sequence[str] = ()) -> None:
    """The explorer's form: name the segments its filters keep (``mask``) and save them as a slice. Its label does
    not change with the filters and its open state is kept, so that it stays open while the filters are tuned."""
    chosen = tuple(int(i) for i in np.flatnonzero(mask))
    opened = keys.EX_SLICE_OPEN
    with st.expander(
        "Save the filtered segments as a slice for the Analysis page", key=opened.widget(), on_change="rerun"
    ) as form:
        opened.keep(bool(form.open))
        description = describe_filters(st.session_state.to_dict(), metadata_columns)
        st.caption(f"{len(chosen)} segments. Filters: {escape_markdown(description)}")
        if NAME_BOX not in st.session_state:
            st.session_state[NAME_BOX] = free_name()
        left, right = st.columns([3, 1])
        name = left.text_input("Slice name", max_chars=MAX_NAME, key=NAME_BOX).strip()
        existing = find(name) if name else None
        right.button(
            "Save slice",
            key="ex_slice_save",
            disabled=not chosen or not name or existing is not None,
            on_click=_save_named,
            args=(chosen, description, False),
        )
        if existing is not None:
            st.warning(
                f"A slice named {escape_markdown(name)} exists ({len(existing.segments)} segments; "
                f"{escape_markdown(existing.description)}): type another name, or replace it."
            )
            st.button(
                f"Replace {escape_markdown(name)}",
                key="ex_slice_replace",
                disabled=not chosen,
                on_click=_save_named,
                args=(chosen, description, True),
            )
        if keys.SLICE_NAME_TAKEN.exists():
            st.error(escape_markdown(keys.SLICE_NAME_TAKEN.get("")))
            keys.SLICE_NAME_TAKEN.pop()
        if keys.SLICE_SAVED.exists():
            st.success(escape_markdown(keys.SLICE_SAVED.get("")))
            keys.SLICE_SAVED.pop()
