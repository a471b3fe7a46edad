"""Every reader of the library × every class of bad input a user really has: the file is read (a note says what was
converted) or refused with an :class:`InputError` that names the file and, where one line is at fault, that line.
Nothing else may escape — no RecursionError, UnicodeDecodeError or ValueError with a traceback.

The surfaces, classes and payloads here are shared with the app's table (tests/app/test_bad_uploads.py) and with
docs/reference/bad-input.md, which lists the outcome of each pair.
"""

from __future__ import annotations

import pytest

from metrics.io.inputs import InputError
from tests.support.bad_inputs import CLASSES, SURFACES, Outcome, expected, limit_file_size, payload, read


def _cases() -> list[tuple[str, str]]:
    return [(s, c) for s in SURFACES for c in CLASSES if expected(s, c) is not None]


@pytest.mark.parametrize(("surface", "kind"), _cases())
def test_every_reader_reads_or_names_file_and_line(surface, kind, tmp_path, monkeypatch):
    outcome = expected(surface, kind)
    assert outcome is not None
    name, data = payload(surface, kind)
    if kind == "oversize":
        limit_file_size(monkeypatch)
    if outcome.ok:
        notes = read(surface, name, data, tmp_path)
        if outcome.pattern:
            assert any(outcome.pattern in note for note in notes), notes
        return
    with pytest.raises(InputError) as raised:
        read(surface, name, data, tmp_path)
    error = raised.value
    assert name in str(error), str(error)
    assert outcome.pattern in str(error), str(error)
    assert error.line == outcome.line, str(error)


def test_the_table_covers_every_surface_and_class():
    """A pair without an outcome is one nobody checked: every pair is read, refused or not applicable (None)."""
    counts = {"read": 0, "refused": 0, "n/a": 0}
    for surface in SURFACES:
        for kind in CLASSES:
            outcome: Outcome | None = expected(surface, kind)
            counts["n/a" if outcome is None else "read" if outcome.ok else "refused"] += 1
    assert sum(counts.values()) == len(SURFACES) * len(CLASSES)
    assert counts["refused"] > counts["read"] > counts["n/a"] > 0, counts
