"""Every upload of the app × every class of bad input (tests/support/bad_inputs.py): the page stays up, the data
loaded before is still loaded, and a refused file is named in a non-empty message. The whole table runs in the
slow lane; the default lane runs the cases the issue reported and one of each kind of outcome."""

from __future__ import annotations

import pytest
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.testing.v1 import AppTest

from dashboard import intake, keys, uploads
from dashboard.dataset import Dataset
from tests.support.bad_inputs import CLASSES, SYSTEMS, N, expected, limit_file_size, payload
from tests.support.ui import ROOT, app, shown

_TEXT = ("the cat sat .", "a dog ran .", "hello world")
LOADED = Dataset(
    title="loaded before",
    systems={name: _TEXT for name in SYSTEMS},
    refs=(_TEXT,),
    ref_names=("ref",),
    source=("die Katze", "ein Hund", "hallo Welt"),
)


# app surface → (page, uploader key, the library surfaces whose payloads it takes)
SURFACES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "references": ("pages/data.py", "up_refs", ("segments .txt", "segments .jsonl", "segments .tsv")),
    "system outputs": ("pages/data.py", "up_systems", ("segments .txt", "segments .jsonl", "segments .tsv")),
    "source": ("pages/data.py", "up_source", ("segments .txt",)),
    "external scores": ("pages/data.py", "up_external", ("external .jsonl", "external .tsv")),
    "human scores": ("pages/data.py", "up_human", ("human .jsonl",)),
    "segment ids": ("pages/data.py", "up_human_ids", ("segments .txt",)),
    "workspace": ("pages/data.py", "up_workspace", ("workspace .json",)),
    "metadata": ("pages/data.py", "up_metadata", ("metadata .tsv", "metadata .jsonl")),
}
# The human scores the segment-ids cases are read with: they name segments by the ids of the good ids file.
_HUMAN_BY_ID = "".join(f'{{"SYS": "a", "seg_id": "{text}", "human_score": 1}}\n' for text in _TEXT).encode()

# The reports (deep JSON on three uploads, metadata errors, UTF-16, lone CR, oversize) and one of each
# outcome: these run in the default lane.
DEFAULT_LANE = {
    ("system outputs", "segments .jsonl", "deep JSON"),
    ("external scores", "external .jsonl", "deep JSON"),
    ("metadata", "metadata .jsonl", "deep JSON"),
    ("metadata", "metadata .tsv", "mismatched counts"),
    ("metadata", "metadata .tsv", "whitespace-only"),
    ("references", "segments .txt", "UTF-16 LE + BOM"),
    ("references", "segments .txt", "lone CR"),
    ("system outputs", "segments .txt", "oversize"),
    ("human scores", "human .jsonl", "NaN/inf/text scores"),
    ("workspace", "workspace .json", "deep JSON"),
    ("segment ids", "segments .txt", "mismatched counts"),
}


def _cases() -> list:
    cases = []
    for surface, (_, _, formats) in SURFACES.items():
        for fmt in formats:
            for kind in CLASSES:
                if expected(fmt, kind) is None:
                    continue
                marks = () if (surface, fmt, kind) in DEFAULT_LANE else (pytest.mark.slow,)
                cases.append(pytest.param(surface, fmt, kind, marks=marks, id=f"{surface}-{fmt}-{kind}"))
    return cases


def _upload(surface: str, fmt: str, kind: str, monkeypatch: pytest.MonkeyPatch) -> tuple[AppTest, str]:
    page, key, _ = SURFACES[surface]
    name, data = payload(fmt, kind)
    if kind == "oversize":  # the app's limit per file, small enough for a test
        limit_file_size(monkeypatch)
        monkeypatch.setattr(uploads, "MAX_UPLOAD_BYTES", 1000)
        monkeypatch.setattr(intake, "MAX_UPLOAD_BYTES", 1000)
    at = app(page, LOADED, ["bleu"]).run()
    assert not at.exception, at.exception
    if surface == "segment ids":
        at.file_uploader(key="up_human").set_value(("h.jsonl", _HUMAN_BY_ID, "application/json"))
    if surface in ("references", "source"):  # segment counts are checked against the systems that go with them
        at.file_uploader(key="up_systems").set_value([("s.txt", b"one\ntwo\nthree\n", "text/plain")])
    file = (name, data, "text/plain")
    at.file_uploader(key=key).set_value([file] if key in ("up_refs", "up_systems") else file)
    at.run()
    if surface == "workspace" and any(b.key == "load_workspace" for b in at.button):
        at.button(key="load_workspace").click().run()
    return at, name


@pytest.mark.parametrize(("surface", "fmt", "kind"), _cases())
def test_a_bad_upload_is_named_and_loses_nothing(surface, fmt, kind, monkeypatch):
    outcome = expected(fmt, kind)
    assert outcome is not None
    at, name = _upload(surface, fmt, kind, monkeypatch)
    assert not at.exception, at.exception
    errors = [shown(e.value) for e in at.error]
    naming = [e for e in errors if name in e]
    assert all(e.strip() for e in errors), errors
    if surface == "workspace" and outcome.ok:
        assert at.session_state["dataset"].title == "ws"  # it was read, and replaced the data as asked
        return
    assert at.session_state["dataset"] is LOADED
    if outcome.ok and surface in ("references", "system outputs", "source", "segment ids"):
        assert not naming, errors
    if not outcome.ok:
        assert naming, errors
        # The app's own words where it checks more than the reader: a count against the loaded data (naming the
        # first line without a partner), the ids against the data, a table's text column (the app picks one).
        own_words = (
            kind in ("mismatched counts", "100k tiny lines", "oversize")
            or surface == "segment ids"
            or (fmt == "segments .tsv" and kind == "whitespace-only")
        )
        assert own_words or any(outcome.pattern in e for e in naming), (outcome.pattern, naming)


def test_oversize_uploads_are_released_and_the_uploader_emptied(monkeypatch):
    """A refused file's bytes leave the server's store at once, with its siblings; the uploader is emptied and says
    why, and the session holds nothing for it."""
    removed: list[str] = []
    original = MemoryUploadedFileManager.remove_file

    def remove(self, session_id, file_id):
        removed.append(file_id)
        original(self, session_id, file_id)

    monkeypatch.setattr(MemoryUploadedFileManager, "remove_file", remove)
    monkeypatch.setattr(uploads, "MAX_SESSION_UPLOAD_BYTES", 100)
    at = app("pages/data.py", LOADED, ["bleu"]).run()
    at.file_uploader(key="up_systems").set_value(
        [("a.txt", b"x\n" * 30, "text/plain"), ("b.txt", b"y\n" * 30, "text/plain")]
    )
    at.run()
    assert not at.exception, at.exception
    errors = [shown(e.value) for e in at.error]
    assert any(
        e.startswith("b.txt: the file has 0.0 MB, and this session already holds 0.0 MB of uploads not yet loaded")
        for e in errors
    ), errors
    assert any("System outputs: emptied, with a.txt" in e for e in errors), errors
    assert len(removed) == 2 and at.session_state[keys.UPLOADS_SEEN.name] == frozenset()
    assert any(u.key == "up_systems#1" for u in at.file_uploader)  # a fresh, empty uploader
    assert at.session_state["dataset"] is LOADED


def test_loaded_files_are_released_from_the_server():
    at = app("pages/data.py", LOADED, ["bleu"]).run()
    ref, system = "".join(f"{t}\n" for t in _TEXT).encode(), b"a\nb\nc\n"
    at.file_uploader(key="up_refs").set_value([("r.txt", ref, "text/plain")])
    at.file_uploader(key="up_systems").set_value([("s.txt", system, "text/plain")])
    at.run()
    assert len(at.session_state[keys.UPLOADS_SEEN.name]) == 2
    at.button(key="load_files").click().run()
    assert not at.exception, at.exception
    assert at.session_state["dataset"].systems == {"s": ("a", "b", "c")}
    assert at.session_state[keys.UPLOADS_SEEN.name] == frozenset()


def test_two_system_files_of_one_name_are_numbered_apart():
    at = app("pages/data.py", LOADED, ["bleu"]).run()
    at.file_uploader(key="up_systems").set_value(
        [("x.txt", b"a\nb\nc\n", "text/plain"), ("x.txt", b"d\ne\nf\n", "text/plain")]
    )
    at.run()
    at.button(key="load_files").click().run()
    assert not at.exception, at.exception
    assert list(at.session_state["dataset"].systems)[-2:] == ["x", "x (2)"]


TEACH_MAX_CHARS = 5_000  # pages/teach.py's MAX_CHARS (a page is a script, not a module to import)
TEACH_TEXT = {
    "empty": "",
    "whitespace-only": " \n\t\n",
    "CRLF": "the cat\r\nsat",
    "lone CR": "the cat\rsat",
    "NUL": "the \x00 cat",
    "1 MB line": "x" * 1_000_001,
    "100k tiny lines": "a\n" * 100_000,
    "deep JSON": "[" * 2000 + "]" * 2000,
}


def _lane(kinds: dict[str, str], default: set[str]) -> list:
    return [pytest.param(k, marks=() if k in default else (pytest.mark.slow,)) for k in kinds]


@pytest.mark.parametrize("kind", _lane(TEACH_TEXT, {"1 MB line", "NUL"}))
def test_teach_takes_any_text_up_to_its_limit(kind):
    """The lesson boxes take any text a user can type or paste, up to TEACH_MAX_CHARS: Streamlit cuts a longer value on
    the server too (the browser's box shows the count), so no lesson derives a megabyte."""
    at = AppTest.from_file(str(ROOT / "pages" / "teach.py"), default_timeout=60).run()
    assert not at.exception, at.exception
    at.text_area(key=keys.TEACH_HYP.name).set_value(TEACH_TEXT[kind])
    at.run()
    assert not at.exception, at.exception
    assert at.text_area(key=keys.TEACH_HYP.name).value == TEACH_TEXT[kind][:TEACH_MAX_CHARS]
    assert all(e.value.strip() for e in at.error)


PASTED = {
    "mismatched counts": "one\ntwo\n",
    "empty": "",
    "whitespace-only": " \n \n \n",
    "CRLF": "a\r\nb\r\nc\r\n",
    "lone CR": "a\rb\rc\r",
    "NUL": "a\n\x00\nc\n",
    "1 MB line": "a\n" + "x" * 1_000_001 + "\nc\n",
    "100k tiny lines": "a\n" * 100_000,
}


@pytest.mark.parametrize("kind", _lane(PASTED, {"lone CR", "NUL", "1 MB line"}))
def test_pasted_text_is_read_or_refused_naming_the_box_and_line(kind):
    at = app("pages/data.py", LOADED, ["bleu"]).run()
    at.text_area(key="paste_sys").set_value(PASTED[kind])
    at.button(key="load_paste").click().run()
    assert not at.exception, at.exception
    errors = [shown(e.value) for e in at.error]
    assert all(e.strip() for e in errors)
    if kind in ("CRLF", "lone CR"):
        assert not errors and at.session_state["dataset"].systems["pasted"] == ("a", "b", "c")
        return
    if kind == "whitespace-only":
        assert not errors and len(at.session_state["dataset"].systems["pasted"]) == N
        return
    assert at.session_state["dataset"] is LOADED
    assert any(e.startswith("pasted.txt") for e in errors), errors
