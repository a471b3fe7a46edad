"""Slices in the session: the named sets of segments the Analysis page scores, saved with the workspace, and the
Explorer's "save these segments as a slice" form (a slice is made of the explorer's current filters)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st

from dashboard import keys
from metrics.analysis.slices import MAX_NAME, ScoreCondition, Slice
from rendering.text import escape_markdown


def saved() -> tuple[Slice, ...]:
    return tuple(st.session_state.get(keys.SLICES, ()))


def replace_all(slices: Sequence[Slice]) -> None:
    st.session_state[keys.SLICES] = tuple(slices)


def add(piece: Slice) -> None:
    """Save ``piece``, replacing a slice of the same name."""
    replace_all([*(s for s in saved() if s.name != piece.name), piece])


def remove(name: str) -> None:
    replace_all([s for s in saved() if s.name != name])


def describe_filters(values: Mapping[str, Any]) -> str:
    """The explorer's active filters in words, from its widgets' values (the session's ``keys.EX_*``)."""
    parts = []
    text = str(values.get(keys.EX_TEXT.name) or "").strip()
    if text:
        parts.append(f"text contains {text!r}")
    length = values.get(keys.EX_LENGTH.name)
    if length:
        parts.append(f"reference length {length[0]}–{length[1]} words")
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


def _save_named(chosen: tuple[int, ...], description: str, selected_by: tuple[ScoreCondition, ...]) -> None:
    """Button callback: save the segments the form showed under the name typed at the click."""
    name = str(st.session_state.get("ex_slice_name") or "").strip()
    if name and chosen:
        add(Slice(name, description, chosen, selected_by))
        keys.SLICE_SAVED.set(f"Saved slice {name} ({len(chosen)} segments).")


def save_form(mask: np.ndarray, selected_by: tuple[ScoreCondition, ...] = ()) -> None:
    """The explorer's form: name the segments its filters keep (``mask``) and save them as a slice, with the score
    filters that chose them (``selected_by``: the Analysis page withholds the tests they make circular)."""
    chosen = tuple(int(i) for i in np.flatnonzero(mask))
    with st.expander(f"Save these {len(chosen)} segments as a slice for the Analysis page"):
        description = describe_filters(st.session_state.to_dict())
        st.caption(f"Filters: {escape_markdown(description)}")
        left, right = st.columns([3, 1])
        name = left.text_input("Slice name", max_chars=MAX_NAME, key="ex_slice_name")
        right.button(
            "Save slice",
            key="ex_slice_save",
            disabled=not chosen or not name.strip(),
            on_click=_save_named,
            args=(chosen, description, selected_by),
        )
        if keys.SLICE_SAVED.exists():
            st.success(escape_markdown(keys.SLICE_SAVED.get("")))
            keys.SLICE_SAVED.pop()
