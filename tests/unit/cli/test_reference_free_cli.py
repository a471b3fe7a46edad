"""``scorelens score`` and ``analyze`` without references: metrics that read none run (external scores, perplexity
on a corpus file), ``--source`` is read as the other files are, and a metric that needs what was not given is
refused with a message that says which option gives it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.cli.main import main
from metrics.io.inputs import read_segments
from tests.support.paths import DATA

DEEN = DATA / "wmt22-de-en"
SYSTEMS = [str(DEEN / "sys" / "LT22.txt"), str(DEEN / "sys" / "PROMT.txt")]
SOURCE = str(DEEN / "src.txt")
REF = str(DEEN / "ref.A.txt")
PERPLEXITY = ["-m", "perplexity", "--set", f"perplexity.corpus={REF}"]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_perplexity_on_a_corpus_file_scores_outputs_without_references(capsys):
    code, out, err = _run(capsys, ["score", "-i", *SYSTEMS, "-s", SOURCE, *PERPLEXITY, "--format", "json"])
    assert code == 0, err
    alone = json.loads(out)
    code, out, _ = _run(capsys, ["score", REF, "-i", *SYSTEMS, *PERPLEXITY, "--format", "json"])
    with_refs = json.loads(out)
    # the model trains on the corpus file: the references change nothing, and no nrefs field leads its signature
    assert [s["scores"] for s in alone["systems"]] == [s["scores"] for s in with_refs["systems"]]
    assert alone["signatures"]["perplexity"] == with_refs["signatures"]["perplexity"]
    assert not alone["signatures"]["perplexity"].startswith("nrefs")


def test_external_scores_alone_need_no_references(capsys, tmp_path: Path):
    segments = len(read_segments(SYSTEMS[0]).texts)
    table = tmp_path / "judge.tsv"
    table.write_text("LT22\tPROMT\n" + "".join(f"{i % 4}\t{i % 3}\n" for i in range(segments)), encoding="utf-8")
    code, out, err = _run(capsys, ["score", "-i", *SYSTEMS, "--external", f"judge={table}", "--format", "json"])
    assert code == 0, err
    scores = {s["name"]: s["scores"]["judge"] for s in json.loads(out)["systems"]}
    assert scores == pytest.approx(
        {
            "LT22": sum(i % 4 for i in range(segments)) / segments,
            "PROMT": sum(i % 3 for i in range(segments)) / segments,
        }
    )
    assert "metrics chosen from the data: none (no references: read as translation outputs" in err


def test_a_metric_that_needs_references_is_refused_naming_how_to_give_them(capsys):
    code, out, err = _run(capsys, ["score", "-i", *SYSTEMS, "-s", SOURCE, "-m", "bleu,chrf,perplexity"])
    assert code == 2 and out == ""
    # the default perplexity trains on the references: it needs them too
    assert "BLEU, chrF2, Perplexity need the references: give the reference files, as REFS" in err
    assert "Traceback" not in err
    code, _, err = _run(capsys, ["score", "-i", *SYSTEMS])
    assert code == 2 and "no references, and no metric chosen reads none" in err


def test_the_source_file_is_read_as_the_others_and_named_in_errors(capsys, tmp_path: Path):
    short = tmp_path / "src.txt"
    short.write_text("one line\n", encoding="utf-8")
    code, _, err = _run(capsys, ["score", "-i", *SYSTEMS, "--source", str(short), *PERPLEXITY])
    assert code == 2 and f"{short}: 1 lines" in err
    code, _, err = _run(capsys, ["score", "-i", *SYSTEMS, "--source", str(tmp_path / "absent.txt"), *PERPLEXITY])
    assert code == 2 and "absent.txt" in err
    code, _, err = _run(capsys, ["score", "-i", *SYSTEMS, "--source-column", "_src", *PERPLEXITY])
    assert code == 2 and "--source-column names a column of --table" in err


def test_analyze_without_references_buckets_by_the_source(capsys):
    code, out, err = _run(capsys, ["analyze", "-i", *SYSTEMS, "-s", SOURCE, *PERPLEXITY, "--format", "json"])
    assert code == 0, err
    buckets = json.loads(out)["buckets"]
    assert {b["by"] for b in buckets} == {"src-length"} and [b["label"] for b in buckets][:2] == ["<10", "[10,20)"]
    assert buckets[0]["segments"][:3] == [12, 19, 22]  # the source's lengths, not an output's
    code, _, err = _run(capsys, ["analyze", "-i", *SYSTEMS, *PERPLEXITY, "--buckets", "length-diff"])
    assert code == 2 and "measure the references, and none are loaded" in err
    code, _, err = _run(capsys, ["analyze", "-i", *SYSTEMS, *PERPLEXITY, "--ngrams", "LT22,PROMT"])
    assert code == 2 and "compare the outputs with the references" in err


@pytest.mark.dask
def test_the_dask_engine_reads_the_source_file_and_gives_the_local_numbers(capsys):
    local = _run(capsys, ["score", "-i", *SYSTEMS, "-s", SOURCE, *PERPLEXITY, "--format", "json"])
    dist = _run(capsys, ["score", "-i", *SYSTEMS, "-s", SOURCE, *PERPLEXITY, "--format", "json", "--engine", "dask",
                         "--workers", "2", "--partition-size", "64"])  # fmt: skip
    assert local[0] == dist[0] == 0, dist[2]
    assert local[1] == dist[1]
