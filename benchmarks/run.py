"""Time every metric against its reference implementation and its fastest peer, alternating, and print ratios.

    python -m benchmarks.run [FAMILY ...] [--repeat N] [--shared PATH] [--no-process] [--match TEXT]

Each ``benchmarks/bench_<family>.py`` lists cases; every side must produce the same scores (1e-9 relative) or the
case is reported as a mismatch. A case with a peer (``bench_peers``) prints the peer's time and ratio too, and a
case with whole-process command lines runs again as fresh processes (start-up and imports count), on a second line.
Repeats alternate the sides so that machine load hits them alike; each side's best wall time is kept, and the
ratios of best CPU times (this process and its children) are printed too, as they move less when other work
shares the machine. A side that runs in an environment of its own (unbabel-comet) reports the time of its work
(:class:`~benchmarks.common.Timed`); a reference that is not installed leaves its columns empty. Timing never goes
into a pass/fail test; this script is for people.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import pkgutil
import resource
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import benchmarks
from benchmarks.common import TOLERANCE, Process, Scores, Timed

ROOT = Path(__file__).resolve().parent.parent


def _as_list(scores: Scores) -> list[float]:
    return [float(scores)] if isinstance(scores, (int, float)) else [float(s) for s in scores]


def _agree(a: Scores, b: Scores) -> float:
    """Largest relative difference between two score lists (inf when their lengths differ)."""
    xs, ys = _as_list(a), _as_list(b)
    if len(xs) != len(ys):
        return math.inf
    return max((abs(x - y) / max(1.0, abs(x), abs(y)) for x, y in zip(xs, ys, strict=True)), default=0.0)


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (whole-process sides, forked workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _time(fn: Callable[[], Scores | Timed]) -> tuple[float, float, Scores]:
    """(wall seconds, CPU seconds, scores) of one call; what a :class:`Timed` side measured itself."""
    start, cpu = time.perf_counter(), _cpu()
    result = fn()
    if isinstance(result, Timed):
        return result.seconds, result.cpu, result.scores
    return time.perf_counter() - start, _cpu() - cpu, result


def _command(argv: Sequence[str], read: Callable[[str], list[float]] | None = None) -> Callable[[], Scores]:
    def run() -> Scores:
        done = subprocess.run(list(argv), capture_output=True, text=True, check=False, cwd=ROOT)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[:4])} … failed:\n{done.stderr[-2000:]}")
        return read(done.stdout) if read else json.loads(done.stdout)

    return run


def measure(
    sides: Sequence[Callable[[], Scores | Timed] | None], repeat: int
) -> tuple[list[float], list[float], list[float]]:
    """Best wall time and best CPU time of each side over ``repeat`` alternating rounds, and each side's largest
    difference from the first."""
    best = [math.inf] * len(sides)
    best_cpu = [math.inf] * len(sides)
    delta = [0.0] * len(sides)
    for _ in range(repeat):
        first: Scores | None = None
        for k, side in enumerate(sides):
            if side is None:
                continue
            t, cpu, scores = _time(side)
            best[k] = min(best[k], t)
            best_cpu[k] = min(best_cpu[k], cpu)
            if first is None:
                first = scores
            else:
                delta[k] = max(delta[k], _agree(first, scores))
    return best, best_cpu, delta


def _row(
    label: str, times: list[float], cpu: list[float], deltas: list[float], tolerance: float = TOLERANCE
) -> tuple[str, int]:
    ours, ref, peer = times
    cells = f"{label:56} {ours:8.3f}"
    cells += f" {ref:8.3f} {ref / ours:7.1f}x" if math.isfinite(ref) else f" {'':8} {'':8}"
    cells += f" {peer:8.3f} {peer / ours:7.2f}x" if math.isfinite(peer) else f" {'':8} {'':8}"
    cells += f" {cpu[1] / max(cpu[0], 1e-9):7.1f}x" if math.isfinite(ref) else f" {'':8}"
    cells += f" {cpu[2] / max(cpu[0], 1e-9):7.2f}x" if math.isfinite(peer) else f" {'':8}"
    worst = max(deltas[1:])
    cells += f" {deltas[1]:9.1e}" if math.isfinite(ref) else f" {'':9}"
    cells += f" {deltas[2]:9.1e}" if math.isfinite(peer) else f" {'':9}"
    return cells + ("  MISMATCH" if worst > tolerance else ""), int(worst > tolerance)


def families() -> list[str]:
    return sorted(
        m.name[len("bench_") :] for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )


def _process_sides(process: Process) -> list[Callable[[], Scores] | None]:
    return [
        _command(process.ours, process.read_ours),
        _command(process.reference),
        _command(process.peer) if process.peer else None,
    ]


def _byte_compile() -> None:
    """Byte-compile ScoreLens as a regular ``pip install`` does (an editable one does not), so that its whole
    processes do not compile its sources at every start where bytecode is never written back
    (``PYTHONDONTWRITEBYTECODE``, a read-only tree), as the references' and peers' installed modules do not."""
    import compileall

    compileall.compile_dir(ROOT / "metrics", quiet=1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("families", nargs="*", help=f"subset of: {', '.join(families())}")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--no-process", action="store_true", help="skip the whole-process timings")
    parser.add_argument("--match", default="", metavar="TEXT", help="only the cases whose name contains TEXT")
    args = parser.parse_args(argv)
    if not args.shared.exists():
        parser.error(f"{args.shared} does not exist: benchmarks run on the full real sets in shared/data")
    print(
        f"{'case (peer)':56} {'ours s':>8} {'ref s':>8} {'vs ref':>8} {'peer s':>8} {'vs peer':>8}"
        f" {'cpu ref':>8} {'cpu peer':>8} {'Δ ref':>9} {'Δ peer':>9}"
    )
    if not args.no_process:
        _byte_compile()
    mismatches = 0
    for family in args.families or families():
        module = importlib.import_module(f"benchmarks.bench_{family}")
        for case in module.cases(args.shared):
            if args.match not in case.name:
                continue
            label = f"{case.name} ({case.peer_name})" if case.peer_name else case.name
            times, cpu, deltas = measure([case.ours, case.reference, case.peer], args.repeat)
            line, bad = _row(label, times, cpu, deltas, case.tolerance)
            print(line, flush=True)
            mismatches += bad
            if case.process is not None and not args.no_process:
                times, cpu, deltas = measure(_process_sides(case.process), args.repeat)
                line, bad = _row("  whole process", times, cpu, deltas)
                print(line, flush=True)
                mismatches += bad
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
