"""mt-metrics-eval's side of ``benchmarks/bench_meta.py``, run in an environment of its own (``/work/mtmeenv`` or
``$MTME_PYTHON``: google-research/mt-metrics-eval installed, Apache-2; this file only calls it).

    python benchmarks/mtme_meta.py INPUT.npz K

``INPUT.npz`` holds ``human`` (systems × segments, NaN where not rated) and ``metric:<NAME>`` matrices of the same
shape. Runs WMT24's two tasks on them as ``tasks.Task.Run`` does — system level: soft pairwise accuracy
(``CompareMetricsWithPairwiseConfidenceError``), segment level: acc_eq by item with the tie threshold optimised on
every pair (``CompareMetrics(KendallWithTiesOpt, average_by="item", perm_test="pairs", sample_rate=1.0)``), each with
its permutation tests (``K`` resamples, mt-metrics-eval's early stopping; the legacy generator seeded 0 before each
task; ``K`` = 0: no tests, the values alone) — and prints ``{"scores": [SPA of each metric…, acc_eq of each metric…,
then with tests each metric's SPA rank and acc_eq rank], "seconds", "cpu"}``, the time of the work alone (no
start-up, no reading).
"""

from __future__ import annotations

import json
import sys
import time
import types

import numpy as np

# data.py imports Apache Beam for its optional parallel significance matrix, which this run does not use: a stand-in
# module lets it import without installing Beam.
sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
from mt_metrics_eval import data, stats  # noqa: E402


def _correlations(human: np.ndarray, metrics: dict[str, np.ndarray]) -> dict[str, stats.Correlation]:
    n_systems = human.shape[0]
    gold = [None if np.isnan(v) else float(v) for v in human.ravel()]
    return {name: stats.Correlation(n_systems, gold, [float(v) for v in m.ravel()]) for name, m in metrics.items()}


def main(path: str, k: int) -> None:
    inputs = np.load(path)
    human = inputs["human"]
    metrics = {k.removeprefix("metric:"): inputs[k] for k in inputs.files if k.startswith("metric:")}
    start, cpu = time.perf_counter(), time.process_time()
    corrs = _correlations(human, metrics)
    psd = stats.PermutationSigDiffParams(100, 0.02, 0.5)
    np.random.seed(0)
    spa, *_ = data.CompareMetricsWithPairwiseConfidenceError(corrs, k, psd, 0.05)
    np.random.seed(0)
    acc, *_ = data.CompareMetrics(
        corrs, stats.KendallWithTiesOpt, "item", k, psd, 0.05, perm_test="pairs", sample_rate=1.0
    )
    seconds, used = time.perf_counter() - start, time.process_time() - cpu
    scores = [float(spa[m][0]) for m in metrics] + [float(acc[m][0]) for m in metrics]
    if k:
        scores += [float(spa[m][1]) for m in metrics] + [float(acc[m][1]) for m in metrics]
    print(json.dumps({"scores": scores, "seconds": seconds, "cpu": used}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
