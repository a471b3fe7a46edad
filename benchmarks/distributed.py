"""Score about a million segments with the local engine and with the dask engine, and compare.

    python -m benchmarks.distributed [--segments 1000000] [--metrics bleu,chrf] [--workers 2] [--workdir DIR]
                                     [--engines local,dask]

The corpus is real WMT22 de→en text (``shared/data/wmt22/de-en``): segment ``k`` takes reference line
``k mod 1984`` and the output of one of the nine systems for it, both perturbed by a seeded random edit (a word
dropped, doubled or swapped with its neighbour, a letter case flipped), so that few segments repeat and caches do
not stand in for work. The files are written once under ``--workdir`` and reused.

Each engine runs in a fresh process: it reads the two files (the local engine whole, the dask engine in
partitions on its workers), computes every row, corpus score and segment score, and reports wall time (cluster
start-up apart), throughput, CPU time and peak resident memory — of the process for the local engine, of every
worker and of the client for dask. On a shared machine wall time depends on what else runs; CPU time does not, so
segments per CPU-second compare the engines' efficiency. Each engine's report is kept as JSON in the work
directory, and the script checks that both engines' rows and segment scores are identical (SHA-256 of the arrays).
Timing never goes into a pass/fail test; this script is for people.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WMT = ROOT.parent / "shared" / "data" / "wmt22" / "de-en"
SEED = 20221207


def _perturb(rng: random.Random, text: str) -> str:
    words = text.split(" ")
    choice = rng.randrange(5)
    k = rng.randrange(len(words))
    if choice == 0 and len(words) > 1:
        del words[k]
    elif choice == 1:
        words.insert(k, words[k])
    elif choice == 2 and k + 1 < len(words):
        words[k], words[k + 1] = words[k + 1], words[k]
    elif choice == 3 and words[k]:
        words[k] = words[k].swapcase()
    return " ".join(words)  # choice 4: unchanged


def make_corpus(workdir: Path, segments: int) -> tuple[Path, Path]:
    """``ref.txt`` and ``hyp.txt`` of ``segments`` lines (made once per size, seeded)."""
    ref_path, hyp_path = workdir / f"ref.{segments}.txt", workdir / f"hyp.{segments}.txt"
    if ref_path.exists() and hyp_path.exists():
        return ref_path, hyp_path
    refs = (WMT / "ref.A.txt").read_text(encoding="utf-8").rstrip("\n").split("\n")
    systems = [p.read_text(encoding="utf-8").rstrip("\n").split("\n") for p in sorted((WMT / "sys").glob("*.txt"))]
    rng = random.Random(SEED)
    workdir.mkdir(parents=True, exist_ok=True)
    with ref_path.open("w", encoding="utf-8") as ref_out, hyp_path.open("w", encoding="utf-8") as hyp_out:
        for k in range(segments):
            i = k % len(refs)
            system = systems[(k // len(refs)) % len(systems)]
            ref_out.write(_perturb(rng, refs[i]) + "\n")
            hyp_out.write(_perturb(rng, system[i]) + "\n")
    return ref_path, hyp_path


def _usage() -> tuple[float, float]:
    """(peak resident memory in MB, CPU seconds) of this process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # ru_maxrss is in KiB on Linux


def _digest(evaluation: Any) -> dict[str, str]:
    digests = {}
    for metric_id in evaluation.metrics:
        h = hashlib.sha256()
        for system in evaluation.systems:
            h.update(system.stats[metric_id].rows.tobytes())
            h.update(system.segment_scores[metric_id].tobytes())
        digests[metric_id] = h.hexdigest()
    return digests


def run_engine(engine: str, ref: Path, hyp: Path, metric_ids: list[str], workers: int) -> dict[str, Any]:
    """One engine in this process (called in a child process by :func:`main`)."""
    from metrics.core.registry import create
    from metrics.evaluate import evaluate
    from metrics.io.inputs import read_segments

    metrics = {m: create(m) for m in metric_ids}
    report: dict[str, Any] = {"engine": engine, "load": [round(os.getloadavg()[0], 1)]}
    if engine == "local":
        start = time.perf_counter()
        refs, hyps = read_segments(ref), read_segments(hyp)
        evaluation = evaluate({hyps.name: list(hyps.texts)}, [list(refs.texts)], metrics)
        report["seconds"] = time.perf_counter() - start
        peak, cpu = _usage()
        report["peak_mb"], report["cpu_seconds"] = {"process": peak}, {"process": cpu}
    else:
        import logging

        from distributed import Client, LocalCluster

        from metrics.distributed.engine import run
        from metrics.distributed.sources import TextFiles

        start = time.perf_counter()
        with (
            LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            client.wait_for_workers(workers)
            report["startup_seconds"] = time.perf_counter() - start
            start = time.perf_counter()
            evaluation = run(client, TextFiles((str(ref),), (str(hyp),)), metrics).evaluation
            report["seconds"] = time.perf_counter() - start
            usages = [*client.run(_usage).values(), _usage()]
            where = [*(f"worker {k + 1}" for k in range(len(usages) - 1)), "client"]
            report["peak_mb"] = {w: u[0] for w, u in zip(where, usages, strict=True)}
            report["cpu_seconds"] = {w: u[1] for w, u in zip(where, usages, strict=True)}
    segments = len(evaluation.systems[0].segment_scores[metric_ids[0]])
    report["load"].append(round(os.getloadavg()[0], 1))  # the machine is shared: other work slows either engine
    report.update(
        segments=segments,
        segments_per_second=segments / report["seconds"],
        segments_per_cpu_second=segments / sum(report["cpu_seconds"].values()),
        scores={m: evaluation.systems[0].scores[m] for m in metric_ids},
        digests=_digest(evaluation),
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--metrics", default="bleu,chrf")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/scorelens-bench-distributed"))
    parser.add_argument("--engines", default="local,dask", help="run these; reuse the others' kept reports")
    parser.add_argument("--engine", choices=("local", "dask"), help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args(argv)
    metric_ids = [m.strip() for m in args.metrics.split(",") if m.strip()]
    ref, hyp = make_corpus(args.workdir, args.segments)
    if args.engine is not None:
        print(json.dumps(run_engine(args.engine, ref, hyp, metric_ids, args.workers)))
        return 0
    print(f"{args.segments:,} segments (WMT22 de-en, perturbed, seed {SEED}), metrics {', '.join(metric_ids)}")
    run = [e.strip() for e in args.engines.split(",")]
    reports = []
    for engine in ("local", "dask"):
        kept = args.workdir / f"report.{engine}.{args.segments}.{'-'.join(metric_ids)}.json"
        if engine in run:
            child = [sys.executable, "-m", "benchmarks.distributed", *(argv or sys.argv[1:]), "--engine", engine]
            out = subprocess.run(child, cwd=ROOT, check=True, capture_output=True, text=True).stdout
            kept.write_text(out.strip().splitlines()[-1])
        r = json.loads(kept.read_text())
        reports.append(r)
        label = r["engine"] if r["engine"] == "local" else f"dask, {len(r['peak_mb']) - 1} workers"
        startup = f" (+{r['startup_seconds']:.1f} s cluster start-up)" if "startup_seconds" in r else ""
        memory = ", ".join(f"{where} {mb:,.0f} MB" for where, mb in r["peak_mb"].items())
        cpu = ", ".join(f"{where} {s:,.0f} s" for where, s in r["cpu_seconds"].items())
        print(
            f"  {label:18} {r['seconds']:8.1f} s{startup}  {r['segments_per_second']:9,.0f} segments/s  "
            f"{r['segments_per_cpu_second']:7,.0f} segments/CPU-s",
            flush=True,
        )
        print(f"  {'':18} CPU: {cpu}; peak memory: {memory}; load average before/after: {r['load']}", flush=True)
    same = reports[0]["digests"] == reports[1]["digests"] and reports[0]["scores"] == reports[1]["scores"]
    print(f"  rows, corpus and segment scores identical: {'yes' if same else 'NO'}")
    print(f"  corpus scores: {reports[0]['scores']}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
