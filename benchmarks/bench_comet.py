"""COMET (the regression estimator, COMET-22's shape) against unbabel-comet 2.2.7, on WMT22 de-en with its sources
and the A references: :data:`SYSTEMS` systems × the first :data:`SEGMENTS` segments, on a seeded checkpoint built
from the packaged MiniLM (``tests/support/comet_checkpoints.py``; no released checkpoint can be fetched here), on the
CPU in float32.

unbabel-comet pins numpy < 2 and transformers < 5, so it runs in a virtual environment of its own: point
``SCORELENS_COMET_PYTHON`` at that environment's interpreter (``/path/to/venv/bin/python``, with unbabel-comet
installed), and ``scripts/unbabel_comet_predict.py`` scores the systems there as ``comet-score`` does (one
``predict`` per system) and reports the time of loading and predicting, without its start-up and imports. Without
the variable the reference columns stay empty and only ScoreLens's time is printed.

Both sides load the checkpoint and score every system from nothing in each run: ScoreLens's sentence cache is
emptied before each run, so the speed-up measured is that of one run of a user, where sources and references are
encoded once for all systems (unbabel-comet encodes them again for each). Scores agree to float32 rounding: both
sides pad sentences into batches, ScoreLens unique sentences sorted by length, unbabel-comet samples sorted by source
length, and a sentence's encoding depends in its last bits on its batch; that moved scores by up to 1.8e-6 on the
first seeded regressor (ScoreLens's own rows moved as much between batch sizes; 1.2e-7 on today's smaller one), so
the case fails above :data:`TOLERANCE`. On this 2-core machine MiniLM takes tens of milliseconds a sentence, so the case takes the first
500 segments rather than all 1,984 (``SCORELENS_COMET_SEGMENTS=N`` for another number).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks.common import Case, Timed, load_set, read_lines

ENVIRONMENT = "SCORELENS_COMET_PYTHON"  # an interpreter whose environment has unbabel-comet
SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "unbabel_comet_predict.py"
SYSTEMS = ("JDExploreAcademy", "Online-B", "PROMT", "LT22")
SEGMENTS = int(os.environ.get("SCORELENS_COMET_SEGMENTS", "500"))  # the first N of 1,984
TOLERANCE = 5e-6  # float32 scores in other batches than unbabel-comet's (module docstring)


def _ours(model: Path, sources: list[str], refs: list[str], systems: dict[str, list[str]]) -> Callable[[], list[float]]:
    def run() -> list[float]:
        from metrics.core.base import system_stats
        from metrics.core.registry import create
        from metrics.families.comet import model as loaded

        loaded._models.clear()  # a fresh start each run: no model or sentence kept from the previous one
        metric = create("comet", {"model": str(model)})
        scores: list[float] = []
        for name, hyps in systems.items():
            stats = system_stats(metric, name, hyps, [refs], source=sources)
            scores.append(metric.corpus_score(stats))
            scores.extend(metric.segment_scores(stats).tolist())
        return scores

    return run


def _unbabel(python: str, model: Path, folder: Path, paths: Sequence[Path]) -> Callable[[], Timed]:
    def run() -> Timed:
        argv = [python, str(SCRIPT), "--model", str(model), "--source", str(folder / "src.txt")]
        argv += ["--reference", str(folder / "ref.A.txt"), "--limit", str(SEGMENTS), *map(str, paths)]
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"unbabel-comet failed:\n{done.stderr[-2000:]}")
        found = json.loads(done.stdout)
        return Timed(found["scores"], found["seconds"], found["cpu"])

    return run


def cases(shared: Path) -> list[Case]:
    from tests.support import comet_checkpoints

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    folder = shared / "wmt22" / "de-en"
    (refs,), systems = load_set(folder, ["ref.A.txt"], SYSTEMS)
    head = {name: hyps[:SEGMENTS] for name, hyps in systems.items()}
    sources = read_lines(folder / "src.txt")[:SEGMENTS]
    workdir = Path(tempfile.mkdtemp(prefix="comet_bench_"))
    atexit.register(shutil.rmtree, workdir, True)
    model = comet_checkpoints.build(comet_checkpoints.BY_NAME["regression"], workdir / "seeded-regression")
    python = os.environ.get(ENVIRONMENT)
    if not python:
        print(f"unbabel-comet column skipped: set {ENVIRONMENT} to the python of a venv with unbabel-comet")
    paths = [folder / "sys" / f"{name}.txt" for name in SYSTEMS]
    return [
        Case(
            f"comet (MiniLM seeded) vs unbabel-comet wmt22 de-en {SEGMENTS}×{len(SYSTEMS)}",
            _ours(model, sources, refs[:SEGMENTS], head),
            _unbabel(python, model, folder, paths) if python else None,
            tolerance=TOLERANCE,
        )
    ]
