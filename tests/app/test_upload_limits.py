"""Every text a user reads about upload limits states the same limits, from the same constants: each upload box's own
"… per file" (Streamlit writes it from the box's ``max_upload_size``, whatever the server's configuration), the
Data page's one statement of the limits, and the refusals."""

from __future__ import annotations

from dashboard import intake, uploads
from dashboard.server_config import MAX_FILE_OPTION_BYTES
from metrics.io.inputs import MAX_FILE_BYTES
from tests.support.ui import app, setting_key, shown, small_dataset

MB = 2**20


def test_the_limits_are_these():
    """The numbers the texts below must state (a change here is a change to the docs and the server's config)."""
    assert (intake.MAX_UPLOAD_BYTES, uploads.MAX_SESSION_UPLOAD_BYTES) == (100 * MB, 200 * MB)
    assert (intake.limit_text(intake.MAX_UPLOAD_BYTES), intake.limit_text(uploads.MAX_SESSION_UPLOAD_BYTES)) == (
        "100 MB",
        "200 MB",
    )
    assert intake.limit_text(MAX_FILE_OPTION_BYTES) == "2 MB" and intake.limit_text(1000) == "0.0 MB"
    assert [intake.upload_megabytes(n) for n in (1, MB, MB + 1, 100 * MB)] == [1, 1, 2, 100]


def test_every_upload_box_and_the_data_pages_statement_say_the_apps_limits():
    at = app("app.py", small_dataset(), ["bleu"]).run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, at.exception
    boxes = {u.key: u.proto.max_upload_size_mb for u in at.file_uploader}
    expected = {"up_refs", "up_systems", "up_source", "up_human", "up_external", "up_metadata", "up_workspace"}
    assert expected <= set(boxes), boxes
    assert set(boxes.values()) == {intake.MAX_UPLOAD_BYTES // MB}, boxes  # each writes "100MB per file"
    statements = [shown(c.value) for c in at.caption if "per file" in c.value]
    assert statements == [
        "Up to 100 MB per file, and 200 MB in all for the files of this session not yet loaded (every upload box of "
        f"the app counts). The command line `scorelens score` reads files up to {intake.limit_text(MAX_FILE_BYTES)}."
    ]
    assert not [c for c in at.caption if "MB" in c.value and "per file" not in c.value]  # said once
    at.switch_page("pages/analysis.py").run()
    assert not at.exception, at.exception
    assert {u.proto.max_upload_size_mb for u in at.file_uploader} <= {100}  # the training corpus's box, when shown


def test_a_file_options_box_says_its_own_smaller_limit():
    """An n-gram model's training corpus may have 2 MB (it is built in the server's memory): its box says 2MB."""
    at = app("app.py", small_dataset(), ["perplexity"]).run()
    assert not at.exception, at.exception
    box = at.file_uploader(key=setting_key(at, "opt:perplexity:corpus"))
    assert box.proto.max_upload_size_mb == MAX_FILE_OPTION_BYTES // MB == 2


def test_refusals_state_the_same_limits():
    refused = str(intake.too_large("big.txt", intake.MAX_UPLOAD_BYTES + 1))
    assert "more than the dashboard's upload limit of 100 MB;" in refused
    beyond = str(intake.too_large("huge.txt", MAX_FILE_BYTES + 1))
    assert beyond.endswith(
        f"the command line reads files up to {intake.limit_text(MAX_FILE_BYTES)}; split it into parts"
    )
