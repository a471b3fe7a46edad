"""``scorelens analyze --annotations``: the category and span-agreement sections in JSON, CSV, LaTeX and text, equal
to the library's results on the same slice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.annotations.categories import EVERY_ERROR, all_category_rows, category_tables
from metrics.cli.main import main
from metrics.reports.annotation_analysis import TABLES
from tests.support.mqm_slice import DATA, lines, load

FOLDER = DATA / "en-de"
SYSTEMS = ["Facebook-AI", "Nemo", "Online-W"]


def _args(tmp_path: Path, *extra: str) -> list[str]:
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(r.split("\t")[4] for r in lines(FOLDER / "meta.tsv")[1:]) + "\n", encoding="utf-8")
    return [
        "analyze", "--refs", str(FOLDER / "ref.A.txt"), "--systems",
        *(str(FOLDER / "sys" / f"{s}.txt") for s in SYSTEMS),
        "--metrics", "bleu,ter", "--annotations", str(FOLDER / "mqm.tsv"), "--annotation-ids", str(ids),
        "--annotation-skip-unloaded", "--n-bootstrap", "200", "--buckets", "none", *extra,
    ]  # fmt: skip


def test_json_sections_equal_the_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*_args(tmp_path, "--baseline", "Nemo", "--seed", "3"), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"categories", "category_differences", "span_agreement", "annotation_analysis"} <= set(out)
    settings = out["annotation_analysis"][0]
    assert settings["baseline"] == "Nemo" and settings["seed"] == 3 and settings["unit"] == "whitespace words"
    annotations, outputs, _, _ = load("en-de")
    tables = category_tables(all_category_rows(annotations, outputs, SYSTEMS), n_samples=200, seed=3)
    for record in out["categories"]:
        estimate = next(e for e in tables[record["system"]].estimates if e.cell.category == record["category"]
                        and (e.cell.severity.value if e.cell.severity else "any") == record["severity"])  # fmt: skip
        assert record["errors"] == estimate.errors
        assert record["per_segment_ci"] == [estimate.per_segment.lo, estimate.per_segment.hi]
    every = {r["system"]: r for r in out["categories"] if r["category"] == "All" and r["severity"] == "any"}
    assert every["Nemo"]["errors"] == tables["Nemo"].estimate(EVERY_ERROR).errors > 0
    assert {r["baseline"] for r in out["category_differences"]} == {"Nemo"}
    assert {r["system"] for r in out["category_differences"]} == {"Facebook-AI", "Online-W"}
    metrics = {r["metric"] for r in out["span_agreement"]}
    assert metrics == {"bleu", "ter"}  # MQM itself has no token evidence
    pooled = [r for r in out["span_agreement"] if r["system"] == "(all systems)" and r["category"] == "All"]
    assert all(0 < r["recall"] <= 1 and r["f1_ci"][0] <= r["f1"] <= r["f1_ci"][1] for r in pooled)
    assert any("ref" in n["message"] for n in out["notes"])  # the rated reference is not an output here


def test_csv_latex_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "csv"
    assert main([*_args(tmp_path), "--format", "csv", "--output-dir", str(folder)]) == 0
    written = {Path(p).stem for p in capsys.readouterr().out.split()}
    assert {"categories", "category_differences", "span_agreement"} <= written
    header = (folder / "span_agreement.csv").read_text(encoding="utf-8").split("\n")[0].split(",")
    assert tuple(header) == dict((n, c) for n, c, _ in TABLES)["span_agreement"]
    assert main([*_args(tmp_path), "--format", "table"]) == 0
    text = capsys.readouterr().out
    assert "Do the metrics see what the raters saw?" in text and "Errors by category and severity" in text


def test_span_flag_options_need_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = ["analyze", "--refs", str(FOLDER / "ref.A.txt"), "--systems", str(FOLDER / "sys" / "Nemo.txt")]
    assert main([*plain, "--metrics", "bleu", "--span-flags", "bleu-order=2"]) != 0
    assert "--annotations" in capsys.readouterr().err
    assert main([*_args(tmp_path, "--span-flags", "bleu-order=0")]) != 0
    assert "order" in capsys.readouterr().err


def test_latex_has_the_annotation_tables(tmp_path: Path) -> None:
    from metrics.cli.analyze import analyse
    from metrics.cli.main import build_parser
    from metrics.reports.latex import analysis_latex

    analysis = analyse(build_parser().parse_args(_args(tmp_path)))
    latex = analysis_latex(analysis)
    for name in ("categories", "category\\_differences", "span\\_agreement"):
        assert f"% {name}\n\\begin{{longtable}}" in latex
    assert latex.index("span\\_agreement") < latex.index("% notes")
