"""Layers point one way: pages → dashboard → rendering → metrics, and inside metrics from the rooms of
``scripts/import_graph.py`` down, with no cycle. The metrics core imports no UI or dataframe library."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.import_graph import (
    ROOMS,
    Edge,
    Kind,
    arrows_back_up,
    build,
    intended,
    module_cycles,
    room_cycles,
    without_intended,
)
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


GRAPH = build()


def test_no_module_imports_a_module_that_imports_it_back():
    assert module_cycles(GRAPH) == []


def test_no_arrow_goes_back_up_but_family_discovery():
    assert [e for e in arrows_back_up(GRAPH) if not intended(e)] == []
    assert room_cycles(without_intended(GRAPH)) == []


def test_family_discovery_is_an_arrow_the_graph_sees():
    """The one intended arrow is still there: the registry's import of :mod:`metrics.families`."""
    assert [(e.source, e.target) for e in arrows_back_up(GRAPH)] == [("metrics.core.registry", "metrics.families")]


def test_every_module_is_in_a_room():
    assert {GRAPH.room(m).name for m in GRAPH.modules} == {r.name for r in ROOMS}


def test_a_cycle_and_an_arrow_back_up_would_be_caught(tmp_path):
    for name, text in {
        "metrics/__init__.py": "",
        "metrics/core/__init__.py": "",
        "metrics/core/a.py": "from metrics.stats import b\n",
        "metrics/stats/__init__.py": "",
        "metrics/stats/b.py": "def f():\n    from metrics.core.a import x\n",
        "metrics/io/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from metrics.io import c\n",
        "metrics/io/c.py": "from . import d\n",
        "metrics/io/d.py": "from metrics.io import c\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = build(tmp_path)
    assert arrows_back_up(graph) == (Edge("metrics.core.a", "metrics.stats.b", 1, Kind.MODULE),)
    assert module_cycles(graph) == [["metrics.core.a", "metrics.stats.b"], ["metrics.io.c", "metrics.io.d"]]
    assert Edge("metrics.stats.b", "metrics.core.a", 2, Kind.FUNCTION) in graph.edges
    assert Edge("metrics.io", "metrics.io.c", 3, Kind.TYPING) in graph.edges


LISTING = """
import json, os, sys
before = dict(os.environ)
from metrics.core.registry import SPECS
ids = list(SPECS)
loaded = sorted(m for m in sys.modules if m == "metrics" or m.startswith("metrics."))
print(json.dumps({"ids": ids, "loaded": loaded, "environment_changed": dict(os.environ) != before}))
"""


def test_listing_metric_ids_imports_families_only_and_sets_nothing_in_the_environment():
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    done = subprocess.run([sys.executable, "-c", LISTING], capture_output=True, text=True, env=environment, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    assert {"bleu", "chrf", "ter", "rouge1"} <= set(listing["ids"])
    families = [r.name for r in ROOMS].index("families")
    above = [m for m in listing["loaded"] if [r.name for r in ROOMS].index(GRAPH.room(m).name) > families]
    assert above == [] and not listing["environment_changed"]
    assert any(m.startswith("metrics.families.") for m in listing["loaded"])


def test_the_install_holds_the_metrics_package_only():
    """``pip install scorelens`` puts ``metrics`` into site-packages and nothing under another generic name: the app's
    packages (``dashboard``, ``rendering``) run from the repository."""
    tomllib = pytest.importorskip("tomllib")
    from setuptools import find_packages

    find = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"][
        "find"
    ]
    packages = find_packages(str(ROOT), include=find["include"])
    assert "metrics.reports" in packages and {p.split(".")[0] for p in packages} == {"metrics"}
