"""Time every metric against its reference implementation, in one process, alternating, and print ratios.

    python -m benchmarks.run [FAMILY ...] [--repeat N] [--shared PATH]

Each ``benchmarks/bench_<family>.py`` lists cases; both sides must produce the same scores (1e-9 relative) or the
case is reported as a mismatch. Timing never goes into a pass/fail test; this script is for people.
"""

from __future__ import annotations

import argparse
import importlib
import math
import pkgutil
import time
from collections.abc import Sequence
from pathlib import Path

import benchmarks
from benchmarks.common import Case, Scores

ROOT = Path(__file__).resolve().parent.parent


def _as_list(scores: Scores) -> list[float]:
    return [float(scores)] if isinstance(scores, (int, float)) else [float(s) for s in scores]


def _agree(a: Scores, b: Scores) -> float:
    """Largest relative difference between two score lists (inf when their lengths differ)."""
    xs, ys = _as_list(a), _as_list(b)
    if len(xs) != len(ys):
        return math.inf
    return max((abs(x - y) / max(1.0, abs(x), abs(y)) for x, y in zip(xs, ys, strict=True)), default=0.0)


def _time(fn) -> tuple[float, Scores]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def run_case(case: Case, repeat: int) -> tuple[float, float, float]:
    ours_t, ref_t = [], []
    delta = 0.0
    for _ in range(repeat):  # alternate so that machine load hits both sides alike
        t, ours = _time(case.ours)
        ours_t.append(t)
        t, ref = _time(case.reference)
        ref_t.append(t)
        delta = max(delta, _agree(ours, ref))
    return min(ours_t), min(ref_t), delta


def families() -> list[str]:
    return sorted(
        m.name[len("bench_") :] for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("families", nargs="*", help=f"subset of: {', '.join(families())}")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args(argv)
    if not args.shared.exists():
        parser.error(f"{args.shared} does not exist: benchmarks run on the full real sets in shared/data")
    print(f"{'case':52} {'ours s':>9} {'ref s':>9} {'speed-up':>9} {'max rel Δ':>10}")
    mismatches = 0
    for family in args.families or families():
        module = importlib.import_module(f"benchmarks.bench_{family}")
        for case in module.cases(args.shared):
            ours, ref, delta = run_case(case, args.repeat)
            mismatches += delta > 1e-9
            flag = "" if delta <= 1e-9 else "  MISMATCH"
            print(f"{case.name:52} {ours:9.3f} {ref:9.3f} {ref / ours:8.1f}x {delta:10.1e}{flag}", flush=True)
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
