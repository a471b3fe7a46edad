"""Slices in the session: the named sets of segments the Analysis page scores, saved with the workspace, and the
Explorer's "save the filtered segments as a slice" form (a slice is made of the explorer's current filters)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from dashboard import keys
from metrics.analysis.slices import MAX_NAME, ScoreCondition, Slice
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


NAME_BOX = "ex_slice_name"


def _save_named(
    chosen: tuple[int, ...], description: str, selected_by: tuple[ScoreCondition, ...], replace: bool
) -> None:
    """Button callback: save the segments the form showed under the name typed at the click; an existing name is
    refused unless the click was on "Replace". The box then starts from a free name again."""
    name = str(st.session_state.get(NAME_BOX) or "").strip()
    if not name or not chosen:
        return
    try:
        add(Slice(name, description, chosen, selected_by), replace=replace)
    except ValueError as err:
        keys.SLICE_NAME_TAKEN.set(str(err))
        return
    keys.SLICE_SAVED.set(f"{'Replaced' if replace else 'Saved'} slice {name} ({len(chosen)} segments).")
    _prefill()


def _prefill() -> None:
    """Start the name box from a free name, and remember it as the app's (not the user's) choice."""
    st.session_state[NAME_BOX] = free_name()
    keys.SLICE_PREFILLED.set(st.session_state[NAME_BOX])


def save_form(mask: np.ndarray, description: str, selected_by: tuple[ScoreCondition, ...] = ()) -> None:
    """The explorer's form: name the segments its filters keep (``mask``; ``description``: the filters in words)
    and save them as a slice, with the score filters that chose them (``selected_by``: the Analysis page withholds
    the tests they make circular). Its label does not change with the filters and its open state is kept, so that
    it stays open while the filters are tuned."""
    chosen = tuple(int(i) for i in np.flatnonzero(mask))
    opened = keys.EX_SLICE_OPEN
    with st.expander(
        "Save the filtered segments as a slice for the Analysis page", key=opened.widget(), on_change="rerun"
    ) as form:
        opened.keep(bool(form.open))
        st.caption(f"{len(chosen)} segments. Filters: {escape_markdown(description)}")
        typed = st.session_state.get(NAME_BOX)
        # a name the app chose that a slice has taken since (a workspace loaded, the Analysis page's form) is renewed
        if typed is None or (typed == keys.SLICE_PREFILLED.get(None) and find(typed) is not None):
            _prefill()
        left, right = st.columns([3, 1])
        name = left.text_input("Slice name", max_chars=MAX_NAME, key=NAME_BOX).strip()
        existing = find(name) if name else None
        right.button(
            "Save slice",
            key="ex_slice_save",
            disabled=not chosen or not name or existing is not None,
            on_click=_save_named,
            args=(chosen, description, selected_by, False),
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
                args=(chosen, description, selected_by, True),
            )
        if keys.SLICE_NAME_TAKEN.exists():
            st.error(escape_markdown(keys.SLICE_NAME_TAKEN.get("")))
            keys.SLICE_NAME_TAKEN.pop()
        if keys.SLICE_SAVED.exists():
            st.success(escape_markdown(keys.SLICE_SAVED.get("")))
            keys.SLICE_SAVED.pop()
