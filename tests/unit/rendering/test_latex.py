"""LaTeX for a paper: the Overview's table and the Analysis page's tables — booktabs rules, numbers right-aligned,
the best per column (per group of rows) in bold, ↑/↓ for each metric's direction, significance as a dagger, no
true/false cells, long tables that break across pages, and user text escaped. Compiled too where pdflatex is
installed; the zips' members are ordinary readable files."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from metrics.cli.analyze import analyse
from metrics.cli.main import build_parser
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.reports.analysis import Analysis, analysis_tables, json_document
from metrics.reports.archive import analysis_zip, csv_zip
from metrics.reports.latex import analysis_latex, to_latex
from metrics.reports.results import build_results
from tests.support.parity import rel_close
from tests.support.paths import DATA

DEEN = DATA / "wmt22-de-en"
HOSTILE = "A_B&C%"


@pytest.fixture(scope="module")
def analysis(tmp_path_factory) -> Analysis:
    """WMT22 de-en (400 segments), three systems, one under a name full of LaTeX specials; BLEU, chrF, TER;
    buckets by reference length, word accuracy and agreement, against PROMT."""
    folder = tmp_path_factory.mktemp("sys")
    systems = []
    for name, stem in (("LT22", "LT22"), ("Online-B", HOSTILE), ("PROMT", "PROMT")):
        systems.append(folder / f"{stem}.txt")
        systems[-1].write_bytes((DEEN / "sys" / f"{name}.txt").read_bytes())
    argv = ["analyze", "--refs", str(DEEN / "ref.A.txt"), "--systems", *map(str, systems)]
    argv += ["--metrics", "bleu,chrf,ter", "--n-bootstrap", "100", "--buckets", "ref-length", "--word-accuracy"]
    argv += ["--baseline", "PROMT"]
    return analyse(build_parser().parse_args(argv))


def _tables(latex: str) -> dict[str, str]:
    """Each ``% name`` comment → the longtable under it."""
    found = re.findall(r"^% (\S+)\n(\\begin\{longtable\}.*?\\end\{longtable\})", latex, re.MULTILINE | re.DOTALL)
    return {name.replace("\\_", "_"): body for name, body in found}


def _rows(table: str) -> list[list[str]]:
    body = table.split("\\endlastfoot\n", 1)[1].split("\\end{longtable}", 1)[0]
    return [line.removesuffix(" \\\\").split(" & ") for line in body.strip().split("\n")]


def test_analysis_tables_are_booktabs_longtables_with_right_aligned_numbers(analysis):
    latex = analysis_latex(analysis)
    tables = _tables(latex)
    assert {"buckets", "word_accuracy", "agreement"} <= set(tables)
    assert "\\usepackage{booktabs}" in latex and "\\usepackage{longtable}" in latex
    for name, table in tables.items():
        for rule in ("\\toprule", "\\midrule", "\\endfirsthead", "\\endhead", "\\endfoot", "\\bottomrule"):
            assert rule in table, (name, rule)
    # bucket (the bucketing, ref-length, is said once below), system, metric | segments, score, CI, Δ, Δ CI, p
    assert tables["buckets"].startswith("\\begin{longtable}{lllrrrrrr}")
    header = "bucket & system & metric & segments & score & 95\\,\\% CI & $\\Delta$ & $\\Delta$ 95\\,\\% CI & $p$"
    assert f"\n{header} \\\\\n" in tables["buckets"]
    assert "by: ref-length." in latex
    assert tables["word_accuracy"].startswith("\\begin{longtable}{llrrrrrrr}")
    assert not re.search(r"(^| )(true|false)( |$)", latex, re.MULTILINE)  # booleans are marks


def test_the_best_of_each_group_is_bold_by_the_metrics_direction_and_significance_is_a_dagger(analysis):
    latex = analysis_latex(analysis)
    rows = _rows(_tables(latex)["buckets"])
    document = json_document(analysis)
    groups: dict[tuple[str, str], list[tuple[str, float, bool]]] = {}
    for bucket, system, metric, _segments, score, _ci, _delta, _delta_ci, _p in rows:
        value = float(re.sub(r"\\textbf\{|\}|\$\^\\dagger\$", "", score))
        groups.setdefault((bucket, metric), []).append((system, value, score.startswith("\\textbf")))
    assert {metric for _, metric in groups} == {"BLEU $\\uparrow$", "chrF2 $\\uparrow$", "TER $\\downarrow$"}
    checked = 0
    for (_, metric), members in groups.items():
        values = [v for _, v, _ in members]
        if min(values) == max(values):
            assert not any(bold for *_, bold in members)  # nothing to prefer
            continue
        best = min(values) if "downarrow" in metric else max(values)
        assert [bold for *_, bold in members] == [v == best for v in values], (metric, members)
        checked += 1
    assert checked >= 9  # every metric in several buckets
    significant = sum(
        entry["significant"] for bucket in document["buckets"] for by_system in bucket["scores"].values()
        for entry in by_system.values()
    )  # fmt: skip
    assert significant > 0 and sum(row[4].endswith("$^\\dagger$") for row in rows) == significant
    assert "$^\\dagger$ significantly different from the baseline" in latex


def test_user_text_is_escaped_in_every_export(analysis):
    latex = analysis_latex(analysis)
    assert "A\\_B\\&C\\%" in latex and HOSTILE not in latex
    refs = [(DEEN / "ref.A.txt").read_text(encoding="utf-8").splitlines()]
    hyps = (DEEN / "sys" / "LT22.txt").read_text(encoding="utf-8").splitlines()
    evaluation = evaluate({HOSTILE: hyps, "x^2~{y}": hyps[::-1]}, refs, {"bleu": create("bleu"), "ter": create("ter")})
    overview = to_latex(build_results(evaluation))
    assert "A\\_B\\&C\\% & " in overview and "x\\textasciicircum{}2\\textasciitilde{}\\{y\\} & " in overview


def test_the_overview_table_marks_each_metrics_direction():
    refs = [(DEEN / "ref.A.txt").read_text(encoding="utf-8").splitlines()]
    systems = {n: (DEEN / "sys" / f"{n}.txt").read_text(encoding="utf-8").splitlines() for n in ("LT22", "PROMT")}
    evaluation = evaluate(systems, refs, {"bleu": create("bleu"), "ter": create("ter")})
    latex = to_latex(build_results(evaluation))
    assert "\\begin{tabular}{lrr}" in latex and "\\toprule" in latex and "\\bottomrule" in latex
    assert "System & BLEU $\\uparrow$$^{1}$ & TER $\\downarrow$$^{2}$ \\\\" in latex
    bleu = {n: evaluation.system(n).scores["bleu"] for n in systems}
    ter = {n: evaluation.system(n).scores["ter"] for n in systems}
    best_bleu, best_ter = max(bleu, key=bleu.__getitem__), min(ter, key=ter.__getitem__)
    assert f"{best_bleu} & \\textbf{{{bleu[best_bleu]:.2f}}}" in latex
    assert f"\\textbf{{{ter[best_ter]:.2f}}} \\\\" in latex


def test_zip_members_are_ordinary_readable_files(analysis):
    for archive_bytes in (analysis_zip(analysis), csv_zip(analysis.results)):
        with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
            for entry in archive.infolist():
                assert entry.create_system == 3 and entry.external_attr >> 16 == 0o100644, entry.filename


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_the_tables_compile(analysis, tmp_path: Path):
    body = analysis_latex(analysis)
    refs = [(DEEN / "ref.A.txt").read_text(encoding="utf-8").splitlines()]
    hyps = (DEEN / "sys" / "LT22.txt").read_text(encoding="utf-8").splitlines()
    body += to_latex(build_results(evaluate({HOSTILE: hyps}, refs, {"ter": create("ter")})))
    document = "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs,longtable}\n"
    document += "\\begin{document}\n" + body + "\\end{document}\n"
    (tmp_path / "t.tex").write_text(document, encoding="utf-8")
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:]


def test_the_exports_carry_each_buckets_difference_from_the_baseline_with_its_interval(analysis):
    """JSON and CSV give what the page's difference view draws: score − the baseline's, paired interval."""
    document = json_document(analysis)
    results = [r for section in analysis.buckets for r in section.results]
    assert len(results) == len(document["buckets"])
    checked = 0
    for result, exported in zip(results, document["buckets"], strict=True):
        baseline = {e.metric: e.score for e in result.scores if e.system == "PROMT"}
        for e in result.scores:
            found = exported["scores"][e.system][e.metric]["difference"]
            if e.system == "PROMT":
                assert e.difference is None and found is None
                continue
            d = e.difference
            assert found == {"delta": d.score, "ci": [d.lo, d.hi]} and d.lo <= d.score <= d.hi
            assert rel_close(d.score, e.score - baseline[e.metric])
            checked += 1
    assert checked >= 18  # two systems × three metrics × several buckets
    entries = [e for r in results for e in r.scores]
    table = next(t for t in analysis_tables(analysis) if t.name == "buckets")
    rows = [dict(zip(table.columns, row, strict=True)) for row in table.rows]
    assert [(r["delta"], r["delta_lo"], r["delta_hi"]) for r in rows] == [
        (None, None, None) if e.difference is None else (e.difference.score, e.difference.lo, e.difference.hi)
        for e in entries
    ]
