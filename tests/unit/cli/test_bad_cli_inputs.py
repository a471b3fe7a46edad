"""The command line × the bad-input table (tests/support/bad_inputs.py): a file the library reads is scored (exit
0); one it refuses ends the run with exit status 2 and one line, ``scorelens: error:`` naming the file (and line),
never a traceback."""

from __future__ import annotations

import pytest

from metrics.cli.main import main
from tests.support.bad_inputs import CLASSES, expected, limit_file_size, payload

_REF = "the cat sat .\na dog ran .\nhello world\n"
_SURFACES = {"segments .txt": "--systems", "segments .jsonl": "--systems", "external .jsonl": "--external"}
_DEFAULT_LANE = ("deep JSON", "UTF-16 LE + BOM", "lone CR", "NUL")


def _cases() -> list:
    return [
        pytest.param(surface, kind, marks=() if kind in _DEFAULT_LANE else (pytest.mark.slow,))
        for surface in _SURFACES
        for kind in CLASSES
        if expected(surface, kind) is not None
    ]


@pytest.mark.parametrize(("surface", "kind"), _cases())
def test_the_command_line_scores_or_names_the_bad_file(surface, kind, tmp_path, monkeypatch, capsys):
    outcome = expected(surface, kind)
    assert outcome is not None
    name, data = payload(surface, kind)
    (tmp_path / name).write_bytes(data)
    for system in ("a", "b"):
        (tmp_path / f"{system}.txt").write_text(_REF)
    (tmp_path / "ref.txt").write_text(_REF)
    monkeypatch.chdir(tmp_path)
    if kind == "oversize":
        limit_file_size(monkeypatch)
    args = ["score", "--refs", "ref.txt", "--metrics", "bleu"]
    if _SURFACES[surface] == "--systems":
        args += ["--systems", name]
    else:
        args += ["--systems", "a.txt", "b.txt", "--external", f"ext={name}"]
    code = main(args)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if outcome.ok:
        assert code == 0, err
    else:
        assert code == 2 and err.startswith("scorelens: error: ") and name in err, err
        assert outcome.pattern in err, err
