"""Buckets after scoring: every bucketing of the Analysis page on 10 systems × 2000 segments, three metrics, 1000
bootstrap resamples per bucket.

``python -m benchmarks.bench_analysis`` scores the first 10 systems and 2000 segments of WMT22 en-zh (two
references, a source) with BLEU (tok:zh), chrF and TER (Asian support) once, then times building and scoring the
reference-length, length-difference, sentence-chrF and source-length bucketings from those statistics — lengths
included (references tokenized once; outputs' lengths read from BLEU's rows) — best of three. The target is 3 s.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "wmt22" / "en-zh"
BUCKETS = ("ref-length:bleu", "length-diff:bleu", "score:chrf", "src-length")


def main(n_systems: int = 10, n_segments: int = 2000, repeat: int = 3) -> None:
    from benchmarks.common import load_set, read_lines
    from metrics.analysis.plan import build, parse_spec
    from metrics.analysis.scoring import BucketSettings, bucket_scores
    from metrics.analysis.units import lengths, unit_for
    from metrics.core.registry import create
    from metrics.evaluate import evaluate

    if not SHARED.exists():
        print(f"{SHARED} absent: nothing to time")
        return
    refs, systems = load_set(SHARED, ["ref.A.txt", "ref.B.txt"])
    refs = [r[:n_segments] for r in refs]
    chosen = {name: systems[name][:n_segments] for name in list(systems)[:n_systems]}
    source = read_lines(SHARED / "src.txt")[:n_segments]
    metrics = {"bleu": create("bleu", {"tokenize": "zh"}), "chrf": create("chrf"), "ter": create("ter", {"asian_support": True})}  # fmt: skip
    start = time.perf_counter()
    evaluation = evaluate(chosen, refs, metrics)
    print(
        f"scoring {n_systems} systems x {n_segments} segments, {', '.join(metrics)}: {time.perf_counter() - start:.1f} s"
    )
    stats = {r.name: dict(r.stats) for r in evaluation.systems}
    settings = BucketSettings(n_bootstrap=1000)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        lengths_of = functools.cache(
            lambda m: lengths(unit_for(metrics[m], refs), refs, chosen, {n: s[m] for n, s in stats.items()})
        )
        counts = []
        for text in BUCKETS:
            bucketing = build(parse_spec(text, list(metrics)), evaluation, lengths_of, source)
            results, _ = bucket_scores(bucketing, metrics, stats, settings=settings)
            counts.append(f"{text}: {len(results)}")
        best = min(best, time.perf_counter() - start)
    print(f"every bucket ({'; '.join(counts)} buckets), 3 metrics, 1000 resamples: {best:.2f} s (best of {repeat})")


if __name__ == "__main__":
    main()
