"""One numbering: a segment a person reads about is its 1-based line number in the input files — in ``scorelens
analyze --format table`` as in the app — while JSON and CSV keep the 0-based ``segment`` index beside ``line``.
Checked on paragraph-level WMT23 he-en (tests/data/wmt23-he-en-para-meta) against the files' own lines."""

from __future__ import annotations

import csv
import io
import json
from contextlib import redirect_stdout

import pytest
from sacrebleu.metrics import CHRF, TER

from metrics.cli.main import main
from tests.support.paths import DATA

FOLDER = DATA / "wmt23-he-en-para-meta"
A, B = "GPT4-5shot", "NLLB_Greedy"
ARGS = [
    "analyze",
    "--refs",
    str(FOLDER / "ref.A.txt"),
    str(FOLDER / "ref.B.txt"),
    "--systems",
    str(FOLDER / "sys" / f"{A}.txt"),
    str(FOLDER / "sys" / f"{B}.txt"),
    "--metrics",
    "chrf,ter",
    "--buckets",
    "none",
    "--disagreements",
    f"{A},{B}",
    "--ngrams",
    f"{A},{B}",
    "--tokens",
    "chrf",
    "--ngram-orders",
    "1:1",
    "--top",
    "5",
    "--n-bootstrap",
    "100",
]


def _lines(name: str) -> list[str]:
    """The file's lines as an editor numbers them: ``_lines(f)[n - 1]`` is line n."""
    return (FOLDER / name).read_text(encoding="utf-8").splitlines()


def _section(text: str, title: str) -> list[list[str]]:
    """The rows (header first) of the text table under the title that starts with ``title``."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(title)) + 1
    end = lines.index("", start)
    return [line.split() for line in lines[start:end]]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, str]:
    found = {}
    for fmt in ("json", "table"):
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            assert main([*ARGS, "--format", fmt]) == 0
        found[fmt] = buffer.getvalue()
    folder = tmp_path_factory.mktemp("csv")
    assert main([*ARGS, "--format", "csv", "--output-dir", str(folder)]) == 0
    found["disagreements.csv"] = (folder / "disagreements.csv").read_text(encoding="utf-8")
    found["ngrams.csv"] = (folder / "ngrams.csv").read_text(encoding="utf-8")
    return found


def test_disagreements_name_the_line_the_scores_belong_to(outputs):
    found = json.loads(outputs["json"])["disagreements"]
    assert found and all(d["line"] == d["segment"] + 1 for d in found)
    refs, a, b = (_lines("ref.A.txt"), _lines("ref.B.txt")), _lines(f"sys/{A}.txt"), _lines(f"sys/{B}.txt")
    scorers = {"chrf": CHRF(), "ter": TER()}
    for d in found:
        n = d["line"]
        for metric, delta in ((d["for_a"], d["delta_for_a"]), (d["for_b"], d["delta_for_b"])):
            pair = [scorers[metric].sentence_score(side[n - 1], [r[n - 1] for r in refs]).score for side in (a, b)]
            assert pair[0] - pair[1] == pytest.approx(delta, abs=1e-9), (metric, n)

    rows = _section(outputs["table"], "Segments where metrics disagree")
    assert rows[0][0] == "line" and "segment" not in rows[0]  # the text output shows line numbers only
    assert [int(r[0]) for r in rows[1:]] == [d["line"] for d in found]

    table = list(csv.DictReader(outputs["disagreements.csv"].splitlines()))
    assert [(int(r["segment"]), int(r["line"])) for r in table] == [(d["segment"], d["line"]) for d in found]


def test_ngram_lines_hold_the_ngram(outputs):
    grams = json.loads(outputs["json"])["ngrams"]
    assert len(grams) == 10
    refs, outputs_ab = (_lines("ref.A.txt"), _lines("ref.B.txt")), (_lines(f"sys/{A}.txt"), _lines(f"sys/{B}.txt"))
    for gram in grams:
        assert gram["lines"] == [i + 1 for i in gram["segments"]]
        for n in gram["lines"]:  # matched there: in a reference and in one of the outputs of that line
            assert any(gram["ngram"] in r[n - 1] for r in refs) and any(gram["ngram"] in o[n - 1] for o in outputs_ab)
    rows = _section(outputs["table"], "Characteristic n-grams")
    assert rows[0][-1] == "lines" and "segments" not in rows[0]
    table = list(csv.DictReader(outputs["ngrams.csv"].splitlines()))
    assert [r["lines"] for r in table] == [" ".join(map(str, g["lines"])) for g in grams]
