"""Meta-evaluation: the Meta-evaluation page's computation against mt-metrics-eval, on 15 systems × 2,000 segments ×
10 metrics.

``python -m benchmarks.run meta`` times the page's computation — :func:`metrics.meta.meta_evaluate` (both levels
with their bootstrap intervals and chance levels, the evidence of each metric's errors) and the document's exports
— against WMT24's two tasks run by google-research/mt-metrics-eval (``benchmarks/mtme_meta.py``, in its own
environment: ``/work/mtmeenv`` or ``$MTME_PYTHON``; absent, its columns stay empty), first without the permutation
tests between metrics (the page computes those when asked), then with them (k = 1000) on a smaller input; both sides
must give the same SPA and acc_eq per metric, and with the tests the same significance ranks.

The data are real WMT23 he-en MQM scores and metric scores (``shared/data/wmt23/he-en``: 13 MQM-rated systems,
820 segments rated for all of them, 10 of the official metrics), resampled to size with a fixed seed: 2,000 of the
rated segments drawn with replacement, and two more systems whose score on each segment is that of a real system
drawn at random (human and metric scores of the same output, so they stay coupled). Only the timing and the
parity matter here.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import Case, Timed

METRICS = (
    "BLEU-refB",
    "chrF-refB",
    "BERTscore-refB",
    "BLEURT-20-refB",
    "COMET-refB",
    "CometKiwi-src",
    "GEMBA-MQM-src",
    "MetricX-23-refB",
    "XCOMET-XL-refB",
    "YiSi-1-refB",
)
N_SYSTEMS, N_SEGMENTS, SEED = 15, 2000, 29
# The permutation tests recompute SPA's 1000-permutation p-values per resample of every metric pair (both sides
# alike): timed on a smaller input, the first segments and metrics of the same data.
CLUSTER_SEGMENTS, CLUSTER_METRICS = 200, 4
MTME_PYTHON = Path(os.environ.get("MTME_PYTHON", "/work/mtmeenv/bin/python"))
ROOT = Path(__file__).resolve().parent.parent


def _table(path: Path) -> dict[str, dict[int, float]]:
    found: dict[str, dict[int, float]] = {}
    for line in path.read_text(encoding="utf-8").rstrip("\n").split("\n")[1:]:
        system, segment, score = line.split("\t")
        found.setdefault(system, {})[int(segment)] = np.nan if score == "null" else float(score)
    return found


def synthetic(shared: Path) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """(human, metrics): 15 × 2000 matrices resampled from WMT23 he-en (module docstring)."""
    folder = shared / "wmt23" / "he-en"
    human_rows = _table(folder / "human" / "mqm.seg.tsv")
    systems = sorted(s for s, row in human_rows.items() if not all(np.isnan(v) for v in row.values()))
    n = len(human_rows[systems[0]])
    human = np.array([[human_rows[s][i] for i in range(n)] for s in systems])
    metric_rows = {m: _table(folder / "metric-scores" / f"{m}.seg.tsv") for m in METRICS}
    metrics = {m: np.array([[rows[s][i] for i in range(n)] for s in systems]) for m, rows in metric_rows.items()}
    rated = np.flatnonzero(~np.isnan(human).any(axis=0))
    rng = np.random.default_rng(SEED)
    columns = rng.choice(rated, N_SEGMENTS, replace=True)
    extra = N_SYSTEMS - len(systems)
    donors = rng.integers(0, len(systems), size=(extra, N_SEGMENTS))

    def grow(matrix: np.ndarray) -> np.ndarray:
        picked = matrix[:, columns]
        added = picked[donors, np.arange(N_SEGMENTS)]
        return np.vstack([picked, added])

    return grow(human), {m: grow(v) for m, v in metrics.items()}


def _reference(human: np.ndarray, metrics: dict[str, np.ndarray], k: int) -> Timed:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.npz"
        arrays: dict[str, Any] = {"human": human, **{f"metric:{m}": v for m, v in metrics.items()}}
        np.savez(path, **arrays)
        done = subprocess.run(
            [str(MTME_PYTHON), str(ROOT / "benchmarks" / "mtme_meta.py"), str(path), str(k)],
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"mt-metrics-eval failed:\n{done.stderr[-2000:]}")
    found = json.loads(done.stdout)
    return Timed(found["scores"], found["seconds"], found["cpu"])


def _ours(human: np.ndarray, metrics: dict[str, np.ndarray], compared: bool) -> list[float]:
    """The page's computation: every metric's statistics and evidence, the document and its downloads; with
    ``compared``, the permutation tests on SPA and acc_eq (the page's "significance clusters")."""
    from metrics.meta import MetaInput, MetaSettings, Statistic, meta_evaluate
    from metrics.reports.meta import MetaDocument, all_segments, meta_latex, meta_tables, to_json
    from metrics.reports.results import MetricInfo

    statistics = (Statistic.SOFT_PAIRWISE_ACCURACY, Statistic.SEGMENT_ACC_EQ) if compared else ()
    systems = tuple(f"sys{k}" for k in range(len(human)))
    report = meta_evaluate(MetaInput(systems, human, metrics), MetaSettings(), statistics)
    infos = tuple(MetricInfo(m, m, "", True, "") for m in metrics)
    doc = MetaDocument(report, all_segments(human.shape[1]), infos)
    to_json(doc), meta_latex(doc), [t.to_csv() for t in meta_tables(doc)]  # the page's downloads
    scores = [report.metrics[m].system.spa.value for m in metrics] + [
        report.metrics[m].segment.acc_eq.value for m in metrics
    ]
    for statistic in statistics:
        ranks = dict(zip(report.comparisons[statistic].metrics, report.comparisons[statistic].ranks, strict=True))
        scores += [float(ranks[m]) for m in metrics]
    return scores


def cases(shared: Path) -> list[Case]:
    human, metrics = synthetic(shared)
    small_human = human[:, :CLUSTER_SEGMENTS]
    small = {m: metrics[m][:, :CLUSTER_SEGMENTS] for m in list(metrics)[:CLUSTER_METRICS]}
    here = MTME_PYTHON.exists()
    return [
        Case(
            f"meta-evaluation {N_SYSTEMS} sys × {N_SEGMENTS} seg × {len(metrics)} metrics, no clusters",
            lambda: _ours(human, metrics, compared=False),
            (lambda: _reference(human, metrics, 0)) if here else None,
        ),
        Case(
            f"  clusters: {N_SYSTEMS} sys × {CLUSTER_SEGMENTS} seg × {CLUSTER_METRICS} metrics, k = 1000",
            lambda: _ours(small_human, small, compared=True),
            (lambda: _reference(small_human, small, 1000)) if here else None,
        ),
    ]
