"""Statistics: paired bootstrap against sacrebleu 2.6.0, and the resampling budget of a WMT-sized evaluation.

``python -m benchmarks.run stats`` times ``sacrebleu --paired-bs`` (``PairedTest(test_type="bs")``, BLEU and chrF,
every system of the full WMT22 de-en set against the first) against ours, both from raw text (statistics
extraction included), and checks that every mean, half-width and p-value agrees.

``python -m benchmarks.bench_stats`` prints the breakdown and the resampling budget: 1000 bootstrap resamples,
intervals and all-pairs paired bootstrap (with Holm and groups) for 10 systems × 10 metrics × 2000 segments; and
the cost of enough resamples for 15 systems (105 Holm-corrected pairs: 21,000, see
:func:`metrics.stats.significance.resamples_for`) against sacrebleu's 1000, for BLEU, chrF and TER × 2000 segments.
Those rows are real rows of the bundled WMT22 de-en slice (tests/data, 400 segments, 5 systems) of BLEU, chrF,
chrF++, TER, ROUGE-1/2/L, METEOR, CIDEr-D and CharacTER, tiled to 2000 segments and 10 systems with seeded
shuffles: synthetic data of realistic shape and value range; only the timing matters there.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.common import Case, load_set

ROOT = Path(__file__).resolve().parent.parent
BUDGET_METRICS = ("bleu", "chrf", "chrf++", "ter", "rouge1", "rouge2", "rougeL", "meteor", "cider", "characTER")
SPARE_METRICS = ("eed", "rougeLsum", "bleu-google", "bleu-nltk")  # stand in for any metric that fails to load


def _wmt(shared: Path) -> tuple[dict[str, list[str]], list[list[str]]]:
    refs, systems = load_set(shared / "wmt22" / "de-en", ["ref.A.txt", "ref.B.txt"])
    return systems, refs


def _flatten(results: list[tuple[float, float | None, float | None, float | None]]) -> list[float]:
    return [v for row in results for v in row if v is not None]


def cases(shared: Path) -> list[Case]:
    systems, refs = _wmt(shared)

    def ours() -> list[float]:
        from metrics.families.bleu.metric import BLEU
        from metrics.families.chrf.metric import CHRF
        from metrics.stats.significance import paired_test

        out = []
        for metric in (BLEU(), CHRF()):
            stats = {name: metric.stats(hyps, refs) for name, hyps in systems.items()}
            report = paired_test(metric, stats, method="bs")
            p_values = [None, *(p.p_value for p in report.pairs)]
            for name, p in zip(stats, p_values, strict=True):
                iv = report.intervals[name]
                out.append((iv.score, iv.mean, iv.half_width, p))
        return _flatten(out)

    def reference() -> list[float]:
        from sacrebleu.metrics import BLEU, CHRF
        from sacrebleu.significance import PairedTest

        _, scores = PairedTest(list(systems.items()), {"BLEU": BLEU(), "chrF2": CHRF()}, refs, test_type="bs")()
        return _flatten(
            [(r.score, float(r.mean), float(r.ci), r.p_value) for m in ("BLEU", "chrF2") for r in scores[m]]
        )

    n = len(refs[0])
    return [Case(f"stats: paired-bs BLEU+chrF, {len(systems)} sys x {n} segs, from text", ours, reference)]


def budget_stats(
    n_systems: int = 10, n_segments: int = 2000, seed: int = 0, metric_ids: tuple[str, ...] = BUDGET_METRICS
) -> tuple[dict, dict]:
    """Metrics and tiled real statistics (see the module docstring): ``stats[metric][system]``."""
    sys.path.insert(0, str(ROOT))
    from metrics.core.base import SegmentStats
    from metrics.core.registry import create
    from tests.support.corpora import slice_corpus

    corpus = slice_corpus("wmt22-de-en")
    rng = np.random.default_rng(seed)
    metrics, stats = {}, {}
    for metric_id in (*metric_ids, *(SPARE_METRICS if metric_ids == BUDGET_METRICS else ())):
        if len(metrics) == len(metric_ids):
            break
        try:
            metric = create(metric_id)
            base = [metric.stats(h, corpus.refs) for h in corpus.systems.values()]
        except Exception as err:  # another family's module may be mid-edit: time the others
            print(f"({metric_id} unavailable: {type(err).__name__}: {err})")
            continue
        stats[metric_id] = {}
        for s in range(n_systems):
            source = base[s % len(base)].rows
            rows = source[rng.integers(0, len(source), n_segments)]
            stats[metric_id][f"sys{s}"] = SegmentStats(metric_id, base[0].columns, rows, base[0].aggregate)
        metrics[metric_id] = metric
    return metrics, stats


def time_budget(metrics: dict, stats: dict, repeat: int = 3, n_samples: int = 1000) -> float:
    """Best wall time of all pairs (intervals, tests, Holm, groups) for every metric, fresh draws each time."""
    from metrics.stats.resampling import bootstrap_resamples
    from metrics.stats.significance import all_pairs

    best = float("inf")
    for _ in range(repeat):
        bootstrap_resamples.cache_clear()
        start = time.perf_counter()
        for metric_id, metric in metrics.items():
            all_pairs(metric, stats[metric_id], "bs", n_samples)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    import resource

    from metrics.stats.significance import n_pairs, resamples_for

    metrics, stats = budget_stats()
    elapsed = time_budget(metrics, stats)
    print(
        f"all-pairs paired bootstrap + intervals, 1000 resamples, 10 systems x {len(metrics)} metrics "
        f"({', '.join(metrics)}) x 2000 segments (tiled real rows): {elapsed:.3f} s (best of 3)"
    )
    metrics, stats = budget_stats(15, 2000, metric_ids=("bleu", "chrf", "ter"))
    for count in (1000, resamples_for(n_pairs(15))):
        elapsed = time_budget(metrics, stats, n_samples=count)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"all pairs, 15 systems x 3 metrics ({', '.join(metrics)}) x 2000 segments, {count} resamples: "
            f"{elapsed:.3f} s (best of 3; peak memory so far {peak:.0f} MB)"
        )
    shared = ROOT.parent / "shared" / "data"
    if not (shared / "wmt22").exists():
        print(f"{shared} absent: skipping the comparison with sacrebleu")
        return
    from metrics.families.bleu.metric import BLEU
    from metrics.families.chrf.metric import CHRF
    from metrics.stats.significance import paired_test

    systems, refs = _wmt(shared)
    start = time.perf_counter()
    cached = {}
    for metric in (BLEU(), CHRF()):
        cached[metric.name] = (metric, {name: metric.stats(hyps, refs) for name, hyps in systems.items()})
    extract = time.perf_counter() - start
    start = time.perf_counter()
    for metric, by_system in cached.values():
        paired_test(metric, by_system, method="bs")
    resample = time.perf_counter() - start
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.metrics import CHRF as SacreCHRF

    start = time.perf_counter()
    for metric in (SacreBLEU(), SacreCHRF()):
        for hyps in systems.values():
            metric.corpus_score(hyps, refs)  # the statistics extraction PairedTest repeats
    reference_extract = time.perf_counter() - start
    case = cases(shared)[0]
    start = time.perf_counter()
    case.reference()
    reference = time.perf_counter() - start
    reference_resample = reference - reference_extract
    print(
        f"wmt22 de-en, {len(systems)} systems x {len(refs[0])} segments, BLEU+chrF --paired-bs (1000 resamples):\n"
        f"  sacrebleu PairedTest {reference:.2f} s (≈ statistics {reference_extract:.2f} s + resampling "
        f"{reference_resample:.2f} s)\n"
        f"  ours {extract + resample:.2f} s (statistics {extract:.2f} s + resampling {resample:.3f} s): "
        f"{reference / (extract + resample):.1f}x overall, {reference_resample / resample:.0f}x on the resampling"
    )


if __name__ == "__main__":
    main()
