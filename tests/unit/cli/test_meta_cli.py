"""``scorelens meta``: its numbers are :func:`metrics.meta.meta_evaluate`'s on inputs built here by hand (chrF from
sacrebleu, WMT23's official COMET and GEMBA-MQM scores, MQM from the WMT file), on all segments, a metadata bucket
and a slice; an error rate comes back in its own units; JSON, CSV, LaTeX and text carry the same numbers; the bad
inputs are refused with a message."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
from sacrebleu.metrics import CHRF

from metrics.cli.main import main
from metrics.meta import MetaInput, MetaSettings, meta_evaluate
from tests.support.paths import DATA

TEXTS = DATA / "wmt23-he-en"
META = DATA / "wmt23-he-en-meta"
SYSTEMS = sorted(p.stem for p in (TEXTS / "sys").glob("*.txt"))
N = 40
SETTINGS = MetaSettings(k=200, n_bootstrap=200, spa_permutations=200, seed=3, bootstrap_seed=3, max_segment_pairs=5)
BASE = [
    "meta", "-r", str(TEXTS / "ref.B.txt"), "-i", *(str(TEXTS / "sys" / f"{s}.txt") for s in SYSTEMS), "-m", "chrf",
    "--external", f"COMET={TEXTS / 'COMET-refB.seg.tsv'}", "--external", f"GEMBA={META / 'GEMBA-MQM-src.seg.tsv'}",
    "--human", str(META / "mqm.seg.tsv"), "--seed", "3", "--n-resamples", "200", "--top", "5",
]  # fmt: skip
DOC = "auto-5285631.news"  # lines 16–40 of the slice; lines 1–15 are another document


def _table(path, n=N) -> dict[str, np.ndarray]:
    found: dict[str, np.ndarray] = {}
    with open(path, encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            values = found.setdefault(row["system"], np.full(n, np.nan))
            values[int(row["segment"])] = np.nan if row["score"] == "null" else float(row["score"])
    return found


def _lines(path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


def expected(segments: list[int]):
    """meta_evaluate on the segments, with every input made here: sacrebleu's chrF, the WMT files."""
    human = _table(META / "mqm.seg.tsv")
    ref = _lines(TEXTS / "ref.B.txt")
    chrf = CHRF()
    hyps = {s: _lines(TEXTS / "sys" / f"{s}.txt") for s in SYSTEMS}
    segment_chrf = {s: np.array([chrf.sentence_score(hyps[s][i], [ref[i]]).score for i in range(N)]) for s in SYSTEMS}
    corpus_chrf = [
        chrf.corpus_score([hyps[s][i] for i in segments], [[ref[i] for i in segments]]).score for s in SYSTEMS
    ]
    comet, gemba = _table(TEXTS / "COMET-refB.seg.tsv"), _table(META / "GEMBA-MQM-src.seg.tsv")
    columns = np.array(segments)
    metrics = {
        "chrf": np.array([segment_chrf[s][columns] for s in SYSTEMS]),
        "COMET": np.array([comet[s][columns] for s in SYSTEMS]),
        "GEMBA": np.array([gemba[s][columns] for s in SYSTEMS]),
    }
    own = {"chrf": np.array(corpus_chrf)}  # COMET's and GEMBA's are their means: resampled as such
    data = MetaInput(tuple(SYSTEMS), np.array([human[s][columns] for s in SYSTEMS]), metrics, own)
    return meta_evaluate(data, SETTINGS)


def _run(capsys, *extra: str) -> dict:
    assert main([*BASE, *extra, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def close(a: float | None, b: float) -> bool:
    return (a is None and math.isnan(b)) or (a is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12))


def check_same(out: dict, report, segments: list[int]) -> None:
    assert out["systems"] == list(report.systems) and out["scope"]["rated"] == report.n_rated
    for row in out["system_level"]:
        level = report.metrics[row["metric"]].system
        for name in ("pearson", "kendall", "accuracy", "spa"):
            e = getattr(level, name)
            assert close(row[name]["value"], e.value) and close(row[name]["chance"], e.chance), (row["metric"], name)
            assert row[name]["ci"] is None or (close(row[name]["ci"][0], e.lo) and close(row[name]["ci"][1], e.hi))
    for row in out["segment_level"]:
        level = report.metrics[row["metric"]].segment
        assert close(row["acc_eq"]["value"], level.acc_eq.value) and row["tie_threshold"] == pytest.approx(
            level.calibration.threshold, rel=1e-9, abs=1e-12
        )
        assert close(row["pearson"]["value"], level.pearson.value) and close(
            row["pearson_by_item"], level.pearson_by_item
        )
        assert [(k["variant"], k["grouping"]) for k in row["kendall"]] == [
            (k.variant.value, k.grouping.value) for k in level.kendall
        ]
        assert all(close(a["value"], b.value) for a, b in zip(row["kendall"], level.kendall, strict=True))
    for comparison in out["comparisons"]:
        found = next(c for c in report.comparisons.values() if c.statistic.value == comparison["statistic"])
        assert [(r["metric"], r["rank"]) for r in comparison["ranking"]] == list(
            zip(found.metrics, found.ranks, strict=True)
        )
    pairs = [(p["metric"], p["better"], p["worse"], p["human_delta"], p["metric_delta"]) for p in out["system_pairs"]]
    assert pairs == [
        (m, e.better, e.worse, pytest.approx(e.human_delta), pytest.approx(e.metric_delta))
        for m, meta in report.metrics.items()
        for e in meta.system_errors
    ]
    seg = [(p["metric"], p["segment"], p["line"], p["a"], p["b"], p["human_a"]) for p in out["segment_pairs"]]
    assert seg == [
        (m, segments[e.segment], segments[e.segment] + 1, e.system_a, e.system_b, e.human_a)
        for m, meta in report.metrics.items()
        for e in meta.segment_errors
    ]


def test_all_segments_equal_meta_evaluate_on_inputs_made_by_hand(capsys):
    out = _run(capsys)
    assert out["document"] == "meta-evaluation" and out["scope"] == {
        "kind": "all", "label": "all segments", "segments": N, "rated": 12 * 20
    }  # fmt: skip
    assert out["settings"]["seed"] == 3 and out["settings"]["k"] == 200
    check_same(out, expected(list(range(N))), list(range(N)))
    # chrF's corpus scores are not a mean of its segment scores: no resampled interval of its deltas
    assert {p["metric"] for p in out["system_pairs"] if p["metric_ci"] is None} <= {"chrf"}
    assert all(p["metric_ci"] is None for p in out["system_pairs"] if p["metric"] == "chrf")
    assert any(p["metric_ci"] is not None for p in out["system_pairs"])
    assert _run(capsys) == out  # the same seed, the same numbers


def test_a_bucket_and_the_same_slice_meta_evaluate_those_segments(capsys):
    segments = list(range(15, 40))
    by_bucket = _run(capsys, "--meta", str(META / "meta.tsv"), "--bucket", f"doc_id={DOC}")
    assert by_bucket["scope"] == {"kind": "bucket", "label": f"doc_id = {DOC}", "segments": 25, "rated": 12 * 10}
    check_same(by_bucket, expected(segments), segments)
    by_slice = _run(capsys, "--slice", "16-40")
    assert by_slice["scope"]["kind"] == "slice" and by_slice["system_level"] == by_bucket["system_level"]
    assert by_slice["segment_pairs"] == by_bucket["segment_pairs"]
    assert all(p["segment"] >= 15 for p in by_slice["segment_pairs"])


def test_an_error_rate_enters_negated_and_comes_back_in_its_own_units(capsys, tmp_path):
    comet = _table(TEXTS / "COMET-refB.seg.tsv")
    lower = tmp_path / "negated.tsv"
    rows = [f"{s}\t{i}\t{-float(v)!r}" for s in SYSTEMS for i, v in enumerate(comet[s])]
    lower.write_text("system\tsegment\tscore\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = _run(capsys, "--external", f"LOW={lower}", "--external-meta", "LOW:lower")
    level = {r["metric"]: r for r in out["system_level"]}
    assert level["LOW"]["spa"] == level["COMET"]["spa"] and level["LOW"]["pearson"] == level["COMET"]["pearson"]
    assert out["metrics"]["LOW"]["higher_is_better"] is False
    low = [p for p in out["system_pairs"] if p["metric"] == "LOW"]
    high = [p for p in out["system_pairs"] if p["metric"] == "COMET"]
    assert [(p["better"], p["worse"]) for p in low] == [(p["better"], p["worse"]) for p in high]
    for a, b in zip(low, high, strict=True):
        assert a["metric_delta"] == pytest.approx(-b["metric_delta"]) and a["metric_ci"] == pytest.approx(
            [-b["metric_ci"][1], -b["metric_ci"][0]]
        )
    segments = {(p["segment"], p["a"]): p for p in out["segment_pairs"] if p["metric"] == "COMET"}
    for p in out["segment_pairs"]:
        if p["metric"] == "LOW" and (p["segment"], p["a"]) in segments:
            assert p["metric_a"] == pytest.approx(-segments[(p["segment"], p["a"])]["metric_a"])


def test_csv_latex_and_text_carry_the_json_numbers(capsys, tmp_path):
    out = _run(capsys)
    assert main([*BASE, "--format", "csv", "--output-dir", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    names = ["system_level", "segment_level", "clusters", "comparisons", "system_pairs", "segment_pairs", "notes"]
    assert written == [str(tmp_path / f"{n}.csv") for n in names]
    with open(tmp_path / "system_level.csv", encoding="utf-8") as f:
        rows = {(r["metric"], r["statistic"]): r for r in csv.DictReader(f)}
    for row in out["system_level"]:
        assert float(rows[(row["metric"], "spa")]["value"]) == row["spa"]["value"]
    with open(tmp_path / "segment_pairs.csv", encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == len(out["segment_pairs"])
    assert main([*BASE, "--format", "latex"]) == 0
    latex = capsys.readouterr().out
    best = next(c for c in out["comparisons"] if c["statistic"] == "sys_spa")["ranking"][0]
    assert "\\begin{tabular}" in latex and f"{best['value']:.3f}$^{{(1)}}$" in latex
    assert main(BASE) == 0
    text = capsys.readouterr().out
    assert "System level (12 systems, 66 pairs" in text and f"{best['value']:.4f}" in text


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bucket", "domain=news"], "--bucket COLUMN=VALUE reads the segment metadata: give --meta FILE"),
        (["--meta", str(META / "meta.tsv"), "--bucket", "domain=talk"], "no segment has domain = 'talk'"),
        (["--meta", str(META / "meta.tsv"), "--bucket", "genre=news"], "no column 'genre'"),
        (["--slice", "1-5", "--meta", str(META / "meta.tsv"), "--bucket", "domain=news"], "not both"),
        (["--slice", "31-40"], "at least two loaded systems on slice 31-40; 0 have them"),
        (["--format", "csv"], "give --output-dir DIR"),
    ],
)
def test_bad_inputs_are_refused_with_a_message(capsys, extra, message):
    assert main([*BASE, *extra]) == 2
    assert message in capsys.readouterr().err
