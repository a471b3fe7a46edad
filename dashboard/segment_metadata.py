"""The segment metadata in the session: per-segment columns (domain, document id…) uploaded on the Data page with
everything else, saved with the workspace, read by the Analysis page (buckets, documents) and the Explorer (filters
that can be saved as a slice). A module of its own so that the state (which saves it) and the pages (which read it)
all reach it without importing each other."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from dashboard import intake, keys, uploads
from dashboard.dataset import Dataset
from dashboard.keys import METADATA
from metrics.io.inputs import InputError
from metrics.io.metadata import SUFFIXES, Metadata, parse_metadata
from rendering.text import escape_markdown

SHOWN_VALUES = 4  # distinct values of a column named in its summary; the rest are counted


def loaded(n_segments: int) -> Metadata | None:
    """The loaded metadata if it fits data of ``n_segments`` segments (metadata of other data is not used)."""
    found = st.session_state.get(METADATA)
    if found is None or len(found) != n_segments:
        return None
    return found


def replace(value: Metadata | None) -> None:
    st.session_state[METADATA] = value


def summary(meta: Metadata) -> str:
    """Each column with its number of distinct values and the first few of them (plain text; escape for Markdown)."""
    parts = []
    for column in meta.columns:
        values = list(dict.fromkeys(meta.values[column]))
        named = ", ".join(v or "(empty)" for v in values[:SHOWN_VALUES])
        more = f", … {len(values) - SHOWN_VALUES} more" if len(values) > SHOWN_VALUES else ""
        parts.append(f"{column} ({len(values)} values: {named}{more})")
    return "; ".join(parts)


def _attach(meta: Metadata, files: Sequence[UploadedFile]) -> None:
    """Button callback: make ``meta`` the loaded metadata, release the file's bytes and empty the uploader."""
    keys.METADATA_ROUND.set(keys.METADATA_ROUND.get(0) + 1)
    uploads.release(files)
    replace(meta)
    keys.DATA_NOTES.set([f"segment metadata {meta.source} attached", *meta.notes])


def _remove() -> None:
    replace(None)
    keys.DATA_NOTES.set(["segment metadata removed"])


def upload_form(data: Dataset) -> None:
    """The Data page's tab: what is loaded, and a file to read, checked against the loaded data before it is used."""
    st.caption(
        "Per-segment columns — document id, domain, genre, annotator… — in a .tsv or .csv file with a header row, "
        "or a .jsonl file of one object per line; one row per segment, in the order of the loaded files. The "
        "Analysis page buckets segments by any column and scores documents; the Explorer filters by any column and "
        "saves the filtered segments as a slice. Saved with the workspace; new references drop it."
    )
    current = loaded(len(data))
    if current is not None:
        st.markdown(
            f"Loaded: **{escape_markdown(current.source)}** for {len(current)} segments — "
            f"{escape_markdown(summary(current))}"
        )
        st.button("Remove segment metadata", key="drop_metadata", on_click=_remove)
    generation = keys.METADATA_ROUND.get(0)
    found = uploads.uploader(
        "Segment metadata",
        f"up_metadata:{generation}" if generation else "up_metadata",
        type=[s.lstrip(".") for s in SUFFIXES],
    )
    if not found:
        return
    upload = found[0]
    name = intake.upload_name(upload)
    try:
        meta = parse_metadata(upload.getvalue(), name, len(data))
    except InputError as err:
        st.error(escape_markdown(str(err)), icon="🚫")
        return
    st.markdown(f"✓ {escape_markdown(name)}: {len(meta)} rows — {escape_markdown(summary(meta))}")
    for note in meta.notes:
        st.info(escape_markdown(note), icon="ℹ️")
    replacing = " (replaces the loaded one)" if current is not None else ""
    st.button(
        f"Attach this metadata{replacing}",
        key="load_metadata",
        type="primary",
        on_click=_attach,
        args=(meta, found),
    )
