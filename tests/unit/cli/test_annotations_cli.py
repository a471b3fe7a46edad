"""``--annotations`` on ``scorelens score`` and ``analyze``: MQM/ESA as metrics in JSON and CSV, the weights in the
signature, notes that count what was kept, and errors that name the file and line."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from metrics.annotations.mqm import segment_mqm
from metrics.annotations.spans_jsonl import read_spans_jsonl
from metrics.annotations.wmt import read_mqm_tsv
from metrics.cli.main import main
from tests.unit.annotations.support import DATA, loaded

FOLDER = DATA / "en-de"
SYSTEMS = [str(FOLDER / "sys" / f"{n}.txt") for n in ("Facebook-AI", "Nemo", "metricsystem1")]
BASE = [
    str(FOLDER / "ref.A.txt"), "-i", *SYSTEMS, "-s", str(FOLDER / "src.txt"), "-m", "chrf",
    "--annotations", str(FOLDER / "mqm.tsv"), "--annotation-systems", str(FOLDER / "systems.tsv"),
    "--annotation-ids", f"{FOLDER / 'meta.tsv'}:seg_id",
]  # fmt: skip


def expected_mqm() -> dict[str, float]:
    annotations = read_mqm_tsv(FOLDER / "mqm.tsv", loaded(FOLDER))
    return {s: float(np.mean([segment_mqm(r) for r in annotations.ratings[s]])) for s in annotations.systems}


def test_score_json_has_mqm_with_intervals_and_groups(capsys):
    assert main(["score", *BASE, "--format", "json", "--confidence", "--all-pairs", "--n-bootstrap", "200"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    expected = expected_mqm()
    for system in document["systems"]:
        assert system["scores"]["mqm"] == pytest.approx(expected[system["name"]], abs=1e-12)
        assert system["intervals"]["mqm"]["ci"][0] <= system["scores"]["mqm"] <= system["intervals"]["mqm"]["ci"][1]
    assert "human:mqm:major=5,minor=1,critical=10" in document["signatures"]["mqm"]
    assert any(p["metric"] == "mqm" for p in document["pairs"])
    kept = next(n["message"] for n in document["notes"] if n["message"].startswith("mqm.tsv:"))
    assert kept.startswith("mqm.tsv: 116 ratings by 4 raters of 116 segments of 4 systems; ")
    assert "1 of them not located" in kept and "mqm.tsv: 116 ratings" in err


def test_weights_option_and_csv(capsys):
    assert main(["score", *BASE, "--mqm-weights", "major=10", "--format", "csv"]) == 0
    out, _ = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert any("major=10" in value for row in rows for value in row.values() if value)
    assert any("mqm" in value for row in rows for value in row.values() if value)


def test_analyze_takes_annotations(capsys):
    assert main(["analyze", *BASE, "--format", "json", "--n-bootstrap", "100"]) == 0
    out, _ = capsys.readouterr()
    assert "mqm" in json.loads(out)["metrics"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--mqm-weights", "grave=2"], "MQM weight 'grave=2': expected NAME=NUMBER"),
        # ESA's line_id is a 0-based line; given the meta.tsv ids, it is looked up among them, and 0 is none
        (["--annotations", str(DATA / "esa.jsonl")], "esa.jsonl, line 1: line_id '0' is not among the 29 segment ids"),
    ],
)
def test_bad_flags(capsys, extra: list[str], message: str):
    assert main(["score", *BASE, *extra]) != 0
    assert message in capsys.readouterr().err


def test_unknown_system_names_file_and_line(capsys):
    args = [str(FOLDER / "ref.A.txt"), "-i", SYSTEMS[0], "-m", "chrf", "--annotations", str(FOLDER / "mqm.tsv"),
            "--annotation-systems", str(FOLDER / "systems.tsv"), "--annotation-ids", f"{FOLDER / 'meta.tsv'}:seg_id"]  # fmt: skip
    assert main(["score", *args]) != 0
    err = capsys.readouterr().err
    assert f"{FOLDER / 'mqm.tsv'}, line 3: unknown system 'Nemo'" in err
    assert main(["score", *args, "--annotation-skip-unloaded", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["systems"][0]["scores"]["mqm"] == pytest.approx(expected_mqm()["Facebook-AI"])
    assert "skipped" in err


def test_annotation_flags_need_a_file(capsys):
    assert main(["score", str(FOLDER / "ref.A.txt"), "-i", SYSTEMS[0], "--mqm-weights", "major=5"]) != 0
    assert "--mqm-weights needs --annotations FILE" in capsys.readouterr().err


def test_spans_out_writes_what_was_read(capsys, tmp_path):
    out = tmp_path / "spans.jsonl"
    assert main(["score", *BASE, "--spans-out", str(out)]) == 0
    capsys.readouterr()
    texts = loaded(FOLDER)
    again = read_spans_jsonl(out, type(texts)(texts.systems, texts.source))
    original = read_mqm_tsv(FOLDER / "mqm.tsv", texts)
    assert again.kept == original.kept == 116 and again.n_errors == original.n_errors
    assert all(again.spans(s, i) == original.spans(s, i) for s in texts.systems for i in range(texts.n_segments))


def test_annotations_stay_on_the_local_engine(capsys):
    assert main(["score", *BASE, "--engine", "dask"]) != 0
    assert "--annotations are read on this machine" in capsys.readouterr().err


def test_metrics_option_may_name_mqm(capsys):
    args = [a if a != "chrf" else "chrf,mqm" for a in BASE]
    assert main(["score", *args, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document["signatures"]) == {"chrf", "mqm"}
    assert main(["score", *[a if a != "chrf" else "chrf,esa2" for a in BASE]]) != 0
    assert "unknown metric(s) esa2" in capsys.readouterr().err


def test_meta_takes_the_annotations_mqm_as_the_humans_side(capsys):
    """``scorelens meta`` without --human: MQM of --annotations is the humans' side, not a metric under test."""
    from dataclasses import replace

    from sacrebleu.metrics import CHRF

    from metrics.meta import MetaInput, MetaSettings, meta_evaluate

    args = ["meta", *BASE, "--seed", "3", "--n-resamples", "50", "--format", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert [row["metric"] for row in out["system_level"]] == ["chrf"]
    annotations = read_mqm_tsv(FOLDER / "mqm.tsv", loaded(FOLDER))
    systems = out["systems"]
    human = np.array([[segment_mqm(r) for r in annotations.ratings[s]] for s in systems])
    texts = {s: (FOLDER / "sys" / f"{s}.txt").read_text(encoding="utf-8").split("\n")[:-1] for s in systems}
    ref = (FOLDER / "ref.A.txt").read_text(encoding="utf-8").split("\n")[:-1]
    chrf = CHRF()
    segment = np.array(
        [[chrf.sentence_score(h, [r]).score for h, r in zip(texts[s], ref, strict=True)] for s in systems]
    )
    corpus = np.array([chrf.corpus_score(texts[s], [ref]).score for s in systems])
    settings = replace(MetaSettings(), seed=3, bootstrap_seed=3, k=50, n_bootstrap=50, spa_permutations=50)
    report = meta_evaluate(MetaInput(tuple(systems), human, {"chrf": segment}, {"chrf": corpus}), settings)
    assert out["system_level"][0]["spa"]["value"] == pytest.approx(report.metrics["chrf"].system.spa.value, abs=1e-12)
    assert out["segment_level"][0]["acc_eq"]["value"] == pytest.approx(
        report.metrics["chrf"].segment.acc_eq.value, abs=1e-12
    )
