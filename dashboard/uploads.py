"""What a session may hold in uploads.

Streamlit keeps the bytes of every uploaded file in server memory (its ``MemoryUploadedFileManager``) until the user
removes the file in the widget or the session ends — not when the script stops showing the widget, nor when the
widget's key changes. Files a page refused stayed there: four rejected 150 MB files kept a server at 1.6 GB. So every
uploader of the app goes through :func:`uploader`, which admits a file only while it is within the dashboard's limit
per file (:data:`dashboard.intake.MAX_UPLOAD_BYTES`: the server's ``maxUploadSize`` too, and each box's own, so that
its "… per file" says it) and the session's total
(:data:`MAX_SESSION_UPLOAD_BYTES`); a refused file is released at once, its uploader emptied and the reason shown
beside it. Pages :func:`release` files once they are loaded (the data then lives in the session's dataset); a
released file is never returned again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.uploaded_file_manager import UploadedFile

from dashboard import keys
from dashboard.intake import MAX_UPLOAD_BYTES, limit_text, megabytes, too_large, upload_megabytes, upload_name
from metrics.io.inputs import InputError
from rendering.text import escape_markdown

# Two files at the limit: a 100 MB reference and a 100 MB system output, the measured case in dashboard.intake.
MAX_SESSION_UPLOAD_BYTES = 2 * MAX_UPLOAD_BYTES


def _manager() -> tuple[Any, str] | None:
    """The server's store of uploaded files and this session's id (None outside a script run)."""
    ctx = get_script_run_ctx()
    return None if ctx is None else (ctx.uploaded_file_mgr, ctx.session_id)


def held_bytes() -> int:
    """Bytes of the uploads this session holds on the server now (files the user removed are gone from it)."""
    seen = keys.UPLOADS_SEEN.get(frozenset())
    found = _manager()
    if found is None or not seen:
        return 0
    manager, session_id = found
    records = manager.get_files(session_id, list(seen))
    keys.UPLOADS_SEEN.set(frozenset(record.file_id for record in records))
    return sum(len(record.data) for record in records)


def release(files: Sequence[UploadedFile]) -> None:
    """Drop ``files``' bytes from the server's store (only its in-memory store can; any other keeps them until the
    session ends, as Streamlit does)."""
    found = _manager()
    if found is None:
        return
    manager, session_id = found
    remove = getattr(manager, "remove_file", None)  # Streamlit's chat input releases its files the same way
    for file in files:
        if remove is not None:
            remove(session_id, file.file_id)
    ids = {file.file_id for file in files}
    keys.UPLOADS_SEEN.set(keys.UPLOADS_SEEN.get(frozenset()) - ids)
    keys.UPLOADS_RELEASED.set(keys.UPLOADS_RELEASED.get(frozenset()) | ids)


def _refusals(files: Sequence[UploadedFile]) -> list[InputError]:
    """Why each new file of ``files`` may not be kept (none when all may), counting them in order."""
    seen = keys.UPLOADS_SEEN.get(frozenset())
    held = held_bytes()
    errors, admitted = [], set()
    for file in files:
        if file.file_id in seen:
            continue
        name, size = upload_name(file), file.size
        if size > MAX_UPLOAD_BYTES:
            errors.append(too_large(name, size))
        elif held + size > MAX_SESSION_UPLOAD_BYTES:
            errors.append(
                InputError(
                    name,
                    f"the file has {megabytes(size)}, and this session already holds {megabytes(held)} of uploads "
                    f"not yet loaded; a session may hold {limit_text(MAX_SESSION_UPLOAD_BYTES)}. Load or remove "
                    "the files uploaded so far, then upload this one again",
                )
            )
        else:
            held += size
            admitted.add(file.file_id)
    keys.UPLOADS_SEEN.set(seen | admitted)
    return errors


def uploader(label: str, key: str, *, multiple: bool = False, **options: Any) -> list[UploadedFile]:
    """``st.file_uploader`` whose files are admitted as the module docstring says: its files, or none when one was
    refused (then all of its files are released, the widget emptied and the reasons shown until its next upload)."""
    generations = keys.UPLOADER_GENERATIONS.get({})
    generation = generations.get(key, 0)
    value = st.file_uploader(
        label,
        key=f"{key}#{generation}" if generation else key,
        accept_multiple_files=multiple,
        max_upload_size=upload_megabytes(MAX_UPLOAD_BYTES),
        **options,
    )
    files: list[UploadedFile] = list(value) if isinstance(value, list) else [value] if value is not None else []
    # A released file is gone from the server's store, though the browser may still show it (an uploader keeps its
    # key once its files are loaded) and a store other than the in-memory one may still hand it back.
    released = keys.UPLOADS_RELEASED.get(frozenset())
    files = [file for file in files if file.file_id not in released]
    refused = {k: v for k, v in keys.UPLOAD_REFUSALS.get({}).items() if k != key or not files}
    errors = _refusals(files)
    if errors:
        release(files)
        refused[key] = [str(error) for error in errors]
        others = [upload_name(f) for f in files if not any(upload_name(f) == e.source for e in errors)]
        if others:
            refused[key].append(f"{label}: emptied, with {', '.join(others)}; upload again the files you need")
        keys.UPLOADER_GENERATIONS.set({**generations, key: generation + 1})
    keys.UPLOAD_REFUSALS.set(refused)
    if errors:
        st.rerun()
    for message in refused.get(key, []):
        st.error(escape_markdown(message), icon="🚫")
    return files


def empty(key: str) -> None:
    """Empty the uploader ``key`` (a new generation of its widget): for a box whose file was read and released, so
    that the next file can be chosen in it."""
    generations = keys.UPLOADER_GENERATIONS.get({})
    keys.UPLOADER_GENERATIONS.set({**generations, key: generations.get(key, 0) + 1})


def was_refused(key: str) -> bool:
    """Whether the uploader ``key`` shows files it refused (they are gone from it)."""
    return key in keys.UPLOAD_REFUSALS.get({})
