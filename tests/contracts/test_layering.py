"""Layers point one way: pages → rendering → metrics. The metrics core imports no UI or dataframe library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

FORBIDDEN_IN_METRICS = {"streamlit", "plotly", "pandas"}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_metrics_imports_no_ui_or_pandas():
    offenders = {p.name: _imports(p) & FORBIDDEN_IN_METRICS for p in (ROOT / "metrics").rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_rendering_imports_neither_streamlit_nor_pages():
    offenders = {p.name: _imports(p) & {"streamlit", "pages", "dashboard"} for p in (ROOT / "rendering").rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_a_forbidden_import_would_be_caught(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import pandas as pd\nfrom plotly import graph_objects\n")
    assert _imports(probe) & FORBIDDEN_IN_METRICS == {"pandas", "plotly"}


def test_the_base_install_scores_without_the_optional_extras(tmp_path):
    """Dask, fsspec and pyarrow are extras: the local engine runs without them, the dask engine says what to install."""
    blocked = "import sys\nfor name in ('dask', 'distributed', 'fsspec', 'pyarrow'):\n    sys.modules[name] = None\n"
    data = ROOT / "tests" / "data" / "wmt22-de-en"
    args = ["score", "--refs", str(data / "ref.A.txt"), "--systems", str(data / "sys" / "LT22.txt")]
    run = f"{blocked}from metrics.cli.main import main\nraise SystemExit(main(sys.argv[1:]))\n"
    local = subprocess.run([sys.executable, "-c", run, *args], capture_output=True, text=True, cwd=ROOT)
    assert local.returncode == 0 and local.stdout.startswith("system"), local.stderr
    dask = subprocess.run([sys.executable, "-c", run, *args, "--engine", "dask"], capture_output=True, text=True)
    assert dask.returncode == 1 and "the dask engine needs Dask: pip install 'scorelens[dask]'" in dask.stderr
