"""Golden values of the meta-evaluation: what google-research/mt-metrics-eval computes on WMT23 he-en.

Run it in mt-metrics-eval's own environment, never in ScoreLens's, from the repository root::

    python3 -m venv /work/mtmeenv && /work/mtmeenv/bin/pip install numpy scipy absl-py dacite
    git -C /work/.mirror/google-research+mt-metrics-eval/repo archive HEAD | (mkdir -p /tmp/mtme && tar -x -C /tmp/mtme)
    /work/mtmeenv/bin/pip install --no-deps /tmp/mtme
    /work/mtmeenv/bin/python scripts/build_meta_golden.py [../shared/data/wmt23/he-en]

mt-metrics-eval's ``data`` module imports apache_beam at the top but needs it only for ``parallel_file``: a stand-in
module is put in ``sys.modules`` so the venv needs no Beam. Its 2 GB data package is not needed either: the scores
are read from the shared copy of its WMT23 he-en files and fed to its functions as arrays, exactly as its
``EvalSet.Correlation`` builds them (gold ``None`` for an unrated segment), with the systems in sorted order.

It writes ``tests/data/meta/wmt23-he-en.npz`` (the input slice: the 13 MQM-rated systems, the 820 rated segments and
the first 40 unrated ones, 9 metrics' segment, system and per-domain scores) and ``tests/data/meta/golden.json``
(every statistic, on the whole slice and on the ``user_review`` domain; the metric comparisons with their p-values,
ranks and draws used, each run after ``np.random.seed(SEED)``; and the seconds each part took).
"""

from __future__ import annotations

import json
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))

from mt_metrics_eval import data, pce, stats  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "meta"
METRICS = (
    "GEMBA-MQM-src",
    "CometKiwi-src",
    "XCOMET-XL-refB",
    "MetricX-23-refB",
    "COMET-refB",
    "BLEURT-20-refB",
    "BERTscore-refB",
    "chrF-refB",
    "BLEU-refB",
)
# mtme's permutation tests take minutes per metric pair for SPA and acc_eq (every draw recomputes the p-values or
# 820 per-item matrices): four metrics of different quality, and fewer draws where a draw is expensive
COMPARED = ("GEMBA-MQM-src", "XCOMET-XL-refB", "COMET-refB", "BLEU-refB")
DOMAIN = "user_review"
SEED = 29
EXTRA_UNRATED = 40
K = {
    "sys_pearson": 1000,
    "sys_kendall": 1000,
    "sys_accuracy": 1000,
    "seg_pearson": 1000,
    "sys_spa": 200,
    "seg_acc_eq": 100,
}
PSD = stats.PermutationSigDiffParams(100, 0.02, 0.5)  # Task's block_size, early_min, early_max


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:] if line]


def _value(text: str) -> float:
    return float("nan") if text in ("null", "None", "") else float(text)


def load(folder: Path) -> dict[str, object]:
    human_rows = _rows(folder / "human" / "mqm.seg.tsv")
    systems = sorted({r[0] for r in human_rows})
    n_seg = 1 + max(int(r[1]) for r in human_rows)
    index = {s: i for i, s in enumerate(systems)}

    def seg_matrix(path: Path) -> np.ndarray:
        out = np.full((len(systems), n_seg), np.nan)
        for system, seg, score in _rows(path):
            if system in index:
                out[index[system], int(seg)] = _value(score)
        return out

    human = seg_matrix(folder / "human" / "mqm.seg.tsv")
    rated = np.flatnonzero(~np.isnan(human).any(axis=0))
    unrated = np.flatnonzero(np.isnan(human).all(axis=0))[:EXTRA_UNRATED]
    columns = np.sort(np.concatenate([rated, unrated]))
    domains_all = [r[2] for r in _rows(folder / "meta.tsv")]

    def sys_vector(path: Path, domain: str | None = None) -> np.ndarray:
        out = np.full(len(systems), np.nan)
        for row in _rows(path):
            if domain is None:
                system, score = row
            elif row[0] == domain:
                _, system, score = row
            else:
                continue
            if system in index:
                out[index[system]] = _value(score)
        return out

    scores = folder / "metric-scores"
    return {
        "systems": np.array(systems),
        "segments": columns,
        "domains": np.array([domains_all[c] for c in columns]),
        "human": human[:, columns],
        "human_sys": sys_vector(folder / "human" / "mqm.sys.tsv"),
        "human_domain": sys_vector(folder / "human" / "mqm.domain.tsv", DOMAIN),
        "metrics": np.array(METRICS),
        "seg": np.stack([seg_matrix(scores / f"{m}.seg.tsv")[:, columns] for m in METRICS]),
        "sys": np.stack([sys_vector(scores / f"{m}.sys.tsv") for m in METRICS]),
        "domain_sys": np.stack([sys_vector(scores / f"{m}.domain.tsv", DOMAIN) for m in METRICS]),
    }


def _gold(matrix: np.ndarray) -> list[float | None]:
    return [None if np.isnan(v) else float(v) for v in matrix.ravel()]


def _metric(matrix: np.ndarray) -> list[float]:
    return [float(v) for v in matrix.ravel()]


def _f(value: object) -> float | None:
    v = float(value)  # type: ignore[arg-type]
    return None if np.isnan(v) else v


def _matrix(m: np.ndarray) -> list[list[float | None]]:
    return [[_f(v) for v in row] for row in m]


def statistics(human: np.ndarray, seg: np.ndarray, human_sys: np.ndarray, metric_sys: np.ndarray) -> dict[str, object]:
    n_sys = human.shape[0]
    gold = _gold(human)
    sys_corr = stats.Correlation(n_sys, [float(v) for v in human_sys], [float(v) for v in metric_sys])
    seg_corr = stats.Correlation(n_sys, gold, _metric(seg))
    agree, pairs = stats.Agreement(sys_corr.gold_scores, sys_corr.metric_scores)
    keep = ~np.isnan(human).any(axis=0)
    # C order, as PairwiseConfidenceError builds the matrix (the float32 product's rounding depends on the layout)
    metric_p = pce.compute_pairwise_p_values(np.ascontiguousarray(seg[:, keep]))
    best, threshold, opt = stats.KendallWithTiesOpt(
        seg_corr.gold_scores, seg_corr.metric_scores, "acc23", n_sys, "item", sample_rate=1.0
    )
    best23, threshold23, _ = stats.KendallWithTiesOpt(
        seg_corr.gold_scores, seg_corr.metric_scores, "23", n_sys, "item", sample_rate=1.0
    )
    kendall = {
        variant: {avg: _f(seg_corr.KendallVariants(avg, variant)[0]) for avg in ("none", "item", "sys")}
        for variant in ("b", "c", "23", "acc23")
    }
    # with ε > 0 mtme builds (cells × cells) matrices: 10 000² for "none", too large to hold; item and sys only
    kendall_eps = {
        variant: {avg: _f(seg_corr.KendallVariants(avg, variant, epsilon=threshold)[0]) for avg in ("item", "sys")}
        for variant in ("b", "23", "acc23")
    }
    return {
        "sys_pearson": _f(sys_corr.Pearson()[0]),
        "sys_kendall": _f(sys_corr.Kendall()[0]),
        "sys_accuracy": agree / pairs,
        "spa": _f(stats.PairwiseConfidenceError(gold, _metric(seg), n_sys, filter_nones=True)[0]),
        "metric_p": _matrix(metric_p),
        "acc_eq": float(best),
        "acc_eq_threshold": float(threshold),
        "acc_eq_curve_len": len(opt.taus),
        "acc_eq_curve_head": [float(v) for v in opt.taus[:200]],
        "acc_eq_thresholds_head": [float(v) for v in opt.thresholds[:200]],
        "tau23": float(best23),
        "tau23_threshold": float(threshold23),
        "seg_pearson": {avg: _f(seg_corr.Pearson(avg)[0]) for avg in ("none", "item", "sys")},
        "seg_kendall_scipy_b": {avg: _f(seg_corr.Kendall(avg)[0]) for avg in ("none", "item", "sys")},
        "kendall": kendall,
        "kendall_at_acc_eq_threshold": kendall_eps,
    }


def _comparison(result: tuple[dict, np.ndarray, np.ndarray, np.ndarray], seconds: float) -> dict[str, object]:
    ranks, sig, draws_index, _ = result
    n = len(ranks)
    k_used = [[int(draws_index[j, i] - draws_index[i, j]) if j > i else 0 for j in range(n)] for i in range(n)]
    return {
        "order": list(ranks),
        "values": [float(v[0]) for v in ranks.values()],
        "ranks": [int(v[1]) for v in ranks.values()],
        "p_values": _matrix(sig),
        "k_used": k_used,
        "seconds": seconds,
    }


def compare(d: dict[str, np.ndarray], out: dict[str, object], save: Callable[[], None]) -> None:
    n_sys = d["human"].shape[0]
    chosen = [list(METRICS).index(m) for m in COMPARED]
    seg = {METRICS[i]: stats.Correlation(n_sys, _gold(d["human"]), _metric(d["seg"][i])) for i in chosen}
    sys_ = {
        METRICS[i]: stats.Correlation(n_sys, [float(v) for v in d["human_sys"]], [float(v) for v in d["sys"][i]])
        for i in chosen
    }

    def run(name: str, fn: object) -> None:
        np.random.seed(SEED)
        start = time.perf_counter()
        result = fn()  # type: ignore[operator]
        out[name] = _comparison(result, time.perf_counter() - start)
        print(name, out[name]["seconds"], flush=True)  # type: ignore[index]
        save()

    run("sys_pearson", lambda: data.CompareMetrics(sys_, scipy_stats.pearsonr, "none", K["sys_pearson"], PSD, 0.05))
    run("sys_kendall", lambda: data.CompareMetrics(sys_, scipy_stats.kendalltau, "none", K["sys_kendall"], PSD, 0.05))
    run("sys_accuracy", lambda: _global_accuracy(sys_, n_sys))
    run(
        "seg_acc_eq",
        lambda: data.CompareMetrics(
            seg, stats.KendallWithTiesOpt, "item", K["seg_acc_eq"], PSD, 0.05, perm_test="pairs", sample_rate=1.0
        ),
    )
    run("seg_pearson", lambda: data.CompareMetrics(seg, scipy_stats.pearsonr, "none", K["seg_pearson"], PSD, 0.05))
    run("sys_spa", lambda: data.CompareMetricsWithPairwiseConfidenceError(seg, K["sys_spa"], PSD, 0.05))


def _global_accuracy(
    corrs: dict[str, stats.Correlation], n_sys: int
) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray]:
    """data.CompareMetricsWithGlobalAccuracy for one language pair, without its EvalSet loading: its own
    ``_Accuracy`` (stats.Agreement over the pair's systems), sort, ComputeSigMatrix and AssignRanks."""

    def accuracy(vect1: list[float], vect2: list[float]) -> tuple[float, int]:
        agree, num_pairs = stats.Agreement(vect1[:n_sys], vect2[:n_sys])
        return agree / num_pairs, num_pairs

    values = {m: [accuracy(c.gold_scores, c.metric_scores)[0], 0] for m, c in corrs.items()}
    values = dict(sorted(values.items(), key=lambda x: (-x[1][0], x[0])))
    sig, draws_index, draws = data.ComputeSigMatrix(
        corrs, values, accuracy, "none", K["sys_accuracy"], PSD, False, "scores"
    )
    for m, r in zip(values, data.AssignRanks(sig, 0.05), strict=True):
        values[m][1] = r
    return values, sig, draws_index, draws


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "wmt23" / "he-en")
    d = load(folder)
    OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT / "wmt23-he-en.npz", **d)
    golden: dict[str, object] = {
        "source": "google-research/mt-metrics-eval 68a481a (stats, pce, tau_optimization, data), on "
        "../shared/data/wmt23/he-en (see tests/data/meta/README.md)",
        "seed": SEED,
        "k": K,
        "systems": [str(s) for s in d["systems"]],
        "compared": list(COMPARED),
    }
    start = time.perf_counter()
    keep = ~np.isnan(d["human"]).any(axis=0)
    golden["human_p"] = _matrix(pce.compute_pairwise_p_values(np.ascontiguousarray(d["human"][:, keep])))
    golden["metrics"] = {}
    for i, m in enumerate(METRICS):
        golden["metrics"][m] = statistics(d["human"], d["seg"][i], d["human_sys"], d["sys"][i])
        print(m, time.perf_counter() - start, flush=True)
    golden["seconds_statistics"] = time.perf_counter() - start
    mask = d["domains"] == DOMAIN
    golden["domain"] = {
        "name": DOMAIN,
        "metrics": {
            m: statistics(d["human"][:, mask], d["seg"][i][:, mask], d["human_domain"], d["domain_sys"][i])
            for i, m in enumerate(METRICS)
        },
    }
    golden["compare"] = {}

    def save() -> None:  # after every part: the comparisons take long
        (OUT / "golden.json").write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")

    save()
    compare(d, golden["compare"], save)  # type: ignore[arg-type]


import scipy.stats as scipy_stats  # noqa: E402

if __name__ == "__main__":
    main()
