"""The default suite (BLEU, chrF, TER, ROUGE-1/2/L, METEOR, CIDEr-D) on 10 systems × 1,984 segments (WMT22 de-en's
nine systems and its second human reference as a tenth, against reference A) as one cold ``scorelens score``
process, with one job and with one per processor, alternating; in one process metric by metric, (system, metric)
pair by pair, as the app's overview scores an upload, with each metric's share; and the app's first overview of
that upload in a fresh process (:mod:`benchmarks.overview`).

    python -m benchmarks.suite [--repeat N] [--shared PATH]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.common import read_lines

ROOT = Path(__file__).resolve().parent.parent
SUITE = ("bleu", "chrf", "ter", "rouge1", "rouge2", "rougeL", "meteor", "cider")


def _files(shared: Path) -> tuple[Path, list[Path]]:
    folder = shared / "wmt22" / "de-en"
    return folder / "ref.A.txt", [*sorted((folder / "sys").glob("*.txt")), folder / "ref.B.txt"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold(ref: Path, systems: Sequence[Path], jobs: int) -> tuple[float, float]:
    """(wall, CPU seconds) of one ``scorelens score`` process computing the suite."""
    argv = ["scorelens", "score", "--refs", str(ref), "--systems", *map(str, systems)]
    argv += ["--metrics", ",".join(SUITE), "--format", "json", "--jobs", str(jobs)]
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start, _children_cpu() - cpu


def in_process(ref: Path, systems: Sequence[Path]) -> dict[str, float]:
    """Seconds per metric when every (system, metric) pair is scored on its own, as the app's overview does."""
    from metrics.core.registry import create
    from metrics.evaluate import evaluate

    refs = [read_lines(ref)]
    texts = {path.stem: read_lines(path) for path in systems}
    seconds = {}
    for metric_id in SUITE:
        metric = create(metric_id)
        start = time.perf_counter()
        for name, hyps in texts.items():
            evaluate({name: hyps}, refs, {metric_id: metric})
        seconds[metric_id] = time.perf_counter() - start
    return seconds


def overview(ref: Path, systems: Sequence[Path]) -> dict[str, float]:
    """The Overview page's wall and CPU seconds, and its process's wall seconds, on its first run (fresh process)."""
    argv = [sys.executable, "-m", "benchmarks.overview", str(ref), "--systems", *map(str, systems)]
    done = subprocess.run([*argv, "--metrics", ",".join(SUITE)], check=True, capture_output=True, text=True, cwd=ROOT)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args(argv)
    ref, systems = _files(args.shared)
    from metrics.kernels import processors

    jobs = processors()
    best: dict[int, tuple[float, float]] = {}
    for _ in range(args.repeat):
        for n in sorted({1, jobs}):
            wall, cpu = cold(ref, systems, n)
            if n not in best or wall < best[n][0]:
                best[n] = (wall, cpu)
    print(f"default suite, 10 systems x {len(read_lines(ref))} segments, one cold `scorelens score` process:")
    for n, (wall, cpu) in best.items():
        print(f"  --jobs {n}: {wall:6.2f} s wall, {cpu:6.2f} s CPU")
    seconds = in_process(ref, systems)
    print(f"in one process, pair by pair (the app's overview scoring): {sum(seconds.values()):6.2f} s")
    for metric_id, s in seconds.items():
        print(f"  {metric_id:10} {s:6.2f} s")
    first = min((overview(ref, systems) for _ in range(args.repeat)), key=lambda run: run["page"])
    print(
        f"the app's first overview (fresh process, nothing cached): {first['page']:6.2f} s wall,"
        f" {first['page_cpu']:6.2f} s CPU; {first['process']:6.2f} s from the process's start"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
