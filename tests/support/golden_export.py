"""A golden export of the bundled samples: every metric id of the base install with default options, every system, corpus and segment
scores, statistics rows and bootstrap intervals, written as canonical JSON.

It pins the numbers across refactorings: ``tests/parity/test_golden_export.py`` recomputes it and compares it with the
file in ``tests/golden``, byte for byte. Regenerate only when a number is meant to change:
``python -m tests.support.golden_export``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from dashboard.samples import SAMPLES, load_sample
from metrics import create
from metrics.core.registry import SPECS
from metrics.stats.significance import confidence_intervals
from tests.support.paths import ROOT

GOLDEN = ROOT / "tests" / "golden"
N_SAMPLES = 200
SEED = 12345
# The samples with references: one without (mt-qe) holds the texts of another, and its metrics read no references.
PINNED = [key for key, sample in SAMPLES.items() if sample.refs]


def _digest(values: np.ndarray) -> str:
    """SHA-256 of the float64 bytes: any change in any bit of any value shows."""
    return hashlib.sha256(np.ascontiguousarray(values, dtype=np.float64).tobytes()).hexdigest()


def export(sample: str) -> dict[str, Any]:
    data = load_sample(sample)
    refs = [list(stream) for stream in data.refs]
    result: dict[str, Any] = {"sample": sample, "metrics": {}}
    for metric_id, spec in SPECS.items():
        if spec.requires:  # an optional install (the neural extra) is not pinned here; its own tests pin it
            continue
        metric = create(metric_id)
        stats = {name: metric.stats(list(hyps), refs) for name, hyps in data.systems.items()}
        intervals = confidence_intervals(metric, stats, N_SAMPLES, SEED)
        systems = {}
        for name, s in stats.items():
            iv = intervals[name]
            systems[name] = {
                "score": repr(metric.corpus_score(s)),
                "columns": list(s.columns),
                "rows_sha256": _digest(s.rows),
                "segments_sha256": _digest(metric.segment_scores(s)),
                "interval": [repr(float(v)) for v in (iv.mean, iv.lo, iv.hi, iv.half_width)],
            }
        result["metrics"][metric_id] = {"signature": metric.signature(), "systems": systems}
    return result


def canonical(sample: str) -> bytes:
    return (json.dumps(export(sample), indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


def path(sample: str) -> Path:
    return GOLDEN / f"{sample}.json.gz"


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for sample in PINNED:
        path(sample).write_bytes(gzip.compress(canonical(sample), mtime=0))
        print(f"wrote {path(sample)}")


if __name__ == "__main__":
    main()
