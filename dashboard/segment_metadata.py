"""The segment metadata in the session: per-segment columns (domain, document id…) uploaded on the Analysis page,
saved with the workspace. A module of its own so that the state (which saves it) and the analysis (which reads it)
both reach it without importing each other."""

from __future__ import annotations

import streamlit as st

from dashboard.keys import METADATA
from metrics.io.metadata import Metadata


def loaded(n_segments: int) -> Metadata | None:
    """The loaded metadata if it fits data of ``n_segments`` segments (metadata of other data is not used)."""
    found = st.session_state.get(METADATA)
    if found is None or len(found) != n_segments:
        return None
    return found


def replace(value: Metadata | None) -> None:
    st.session_state[METADATA] = value
