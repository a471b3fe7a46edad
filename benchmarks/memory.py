"""Peak memory of ``scorelens score`` for each metric alone on CNN/DailyMail (3 systems × 11,490 summaries, one
reference), each in a fresh process with one job, and its wall time.

    python -m benchmarks.memory [METRIC ...] [--shared PATH]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("baseline", "pointer-gen", "pointer-gen-cov")


def peak(argv: Sequence[str]) -> tuple[float, float]:
    """(peak resident memory in MB, wall seconds) of one command."""
    start = time.perf_counter()
    process = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    errors = process.stderr.read() if process.stderr else ""  # read before waiting: a full pipe would block it
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {errors[-2000:]}")
    return usage.ru_maxrss / 1024, elapsed  # Linux reports kilobytes


def main(argv: Sequence[str] | None = None) -> int:
    from metrics.core.registry import available_metrics

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("metrics", nargs="*")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args(argv)
    folder = args.shared / "cnndm_see2017"
    files = ["--refs", str(folder / "reference.sents.jsonl"), "--systems"]
    files += [str(folder / "sys" / f"{name}.sents.jsonl") for name in SYSTEMS]
    print(f"{'metric':12} {'peak MB':>8} {'wall s':>8}")
    for metric_id in args.metrics or list(available_metrics()):
        mb, seconds = peak(["scorelens", "score", *files, "--metrics", metric_id, "--format", "json", "--jobs", "1"])
        print(f"{metric_id:12} {mb:8.0f} {seconds:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
