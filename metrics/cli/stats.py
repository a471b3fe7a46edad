"""The statistics flags of ``scorelens score``: confidence intervals, paired tests, all pairs, human correlation.

    scorelens score … --confidence                     # sacrebleu --confidence, for every system
    scorelens score … --paired-bs [--baseline NAME]    # sacrebleu --paired-bs (baseline: the first system)
    scorelens score … --paired-ar                      # sacrebleu --paired-ar (10 000 trials)
    scorelens score … --paired-bs --all-pairs          # every pair, Holm-adjusted, plus tied groups
    scorelens score … --human scores.jsonl [--human-ids ids.txt]

Same seed (``--seed``, else ``$SACREBLEU_SEED``, else 12345) and counts as sacrebleu give sacrebleu's numbers.
In JSON, ``scores[metric]`` becomes ``{"score", "mean", "ci": [lo, hi], "half_width"}`` when intervals are shown
(``--confidence`` or ``--paired-bs``), the top level gains ``"pairs"`` (and ``"groups"`` with ``--all-pairs``),
``"human"`` and ``"statistics"`` (the settings), and each signature gains sacrebleu's ``bs:…|seed:…`` or
``ar:…|seed:…`` fields.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from metrics.evaluate import Evaluation
from metrics.stats.correlation import Correlation, correlate
from metrics.stats.human import read_human_scores
from metrics.stats.resampling import ARITHMETICS, DEFAULT_SEED, check_count
from metrics.stats.significance import (
    DEFAULT_ALPHA,
    DEFAULT_SAMPLES,
    Interval,
    PairResult,
    all_pairs,
    confidence_intervals,
)
from metrics.stats.significance import paired_test as run_paired_test


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("statistics (sacrebleu 2.6.0-compatible resampling; metrics.stats.significance)")
    group.add_argument("--confidence", action="store_true", help="95%% bootstrap interval of every score")
    test = group.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", action="store_true", help="paired bootstrap test against the baseline")
    test.add_argument("--paired-ar", action="store_true", help="paired approximate randomization test")
    group.add_argument("--baseline", metavar="NAME", help="baseline system for paired tests (default: the first)")
    group.add_argument("--all-pairs", action="store_true", help="test every pair (Holm-adjusted) and group ties")
    group.add_argument("--alpha", type=float, default=DEFAULT_ALPHA, help="significance level for groups (0.05)")
    group.add_argument("--seed", type=int, help=f"random seed (default: $SACREBLEU_SEED, else {DEFAULT_SEED})")
    group.add_argument(
        "--n-bootstrap", "--confidence-n", "--paired-bs-n", type=int, default=DEFAULT_SAMPLES["bs"], metavar="N"
    )
    group.add_argument("--n-permutations", "--paired-ar-n", type=int, default=DEFAULT_SAMPLES["ar"], metavar="N")
    group.add_argument(
        "--stats-arithmetic",
        choices=ARITHMETICS,
        default="sacrebleu",
        help="sacrebleu: replay its float32 resample arithmetic (BLEU/chrF/TER, exact numbers); float64: plain",
    )
    group.add_argument("--human", metavar="FILE", help="human judgments (JSONL: SYS, seg_id, human_score)")
    group.add_argument("--human-ids", metavar="FILE", help="segment id of each system line (else seg_id = line no.)")


def resolve_seed(seed: int | None, environ: Mapping[str, str] = os.environ) -> int:
    """``--seed``, else ``$SACREBLEU_SEED`` (as sacrebleu reads it), else 12345. There is no unseeded mode."""
    if seed is not None:
        if seed < 0:
            raise ValueError(f"--seed must be ≥ 0, not {seed}")
        return seed
    text = environ.get("SACREBLEU_SEED")
    if text is None:
        return DEFAULT_SEED
    try:
        value = int(text)
    except ValueError:
        raise ValueError(
            f"SACREBLEU_SEED={text!r} is not an integer; scorelens has no unseeded mode (give --seed N)"
        ) from None
    if value < 0:
        raise ValueError(f"SACREBLEU_SEED must be ≥ 0, not {value}")
    return value


@dataclass(frozen=True)
class Statistics:
    """What the statistics flags produced for one evaluation."""

    seed: int
    settings: Mapping[str, Any]
    intervals: Mapping[str, Mapping[str, Interval]] = field(default_factory=dict)  # metric → system → interval
    pairs: tuple[PairResult, ...] = ()
    groups: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    correlations: tuple[Correlation, ...] = ()
    signature_fields: str = ""  # sacrebleu's "bs:1000|seed:12345" to insert after nrefs


def requested(args: argparse.Namespace) -> bool:
    return bool(args.confidence or args.paired_bs or args.paired_ar or args.all_pairs or args.human)


def compute(args: argparse.Namespace, evaluation: Evaluation) -> Statistics | None:
    """Run what the flags ask for on the cached statistics of ``evaluation`` (``None`` if nothing was asked)."""
    if args.human_ids and not args.human:
        raise ValueError("--human-ids needs --human")
    if (args.baseline is not None) and not (args.paired_bs or args.paired_ar):
        raise ValueError("--baseline needs --paired-bs or --paired-ar")
    if not requested(args):
        return None
    seed = resolve_seed(args.seed)
    n_boot = check_count("--n-bootstrap", args.n_bootstrap)
    n_perm = check_count("--n-permutations", args.n_permutations)
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha must lie strictly between 0 and 1, not {args.alpha}")
    arithmetic = args.stats_arithmetic
    names = [s.name for s in evaluation.systems]
    method = "ar" if args.paired_ar else "bs"
    paired = args.paired_bs or args.paired_ar or args.all_pairs
    if paired and len(names) < 2:
        raise ValueError("paired tests need at least two systems (--systems A B …)")
    if args.baseline is not None and args.baseline not in names:
        raise ValueError(f"--baseline {args.baseline!r} is not one of the systems: {', '.join(names)}")
    intervals: dict[str, dict[str, Interval]] = {}
    pairs: list[PairResult] = []
    groups: dict[str, tuple[tuple[str, ...], ...]] = {}
    show_intervals = args.confidence or (paired and method == "bs")
    for metric_id, metric in evaluation.metrics.items():
        stats = {s.name: s.stats[metric_id] for s in evaluation.systems}
        if args.all_pairs:
            report = all_pairs(metric, stats, method, n_perm if method == "ar" else n_boot, seed, arithmetic, n_boot,
                               args.alpha, label=metric_id)  # fmt: skip
            groups[metric_id] = report.groups or ()
        elif paired:
            report = run_paired_test(metric, stats, args.baseline, method, n_perm if method == "ar" else n_boot, seed,
                                     arithmetic, n_boot, label=metric_id)  # fmt: skip
        if paired:
            pairs += report.pairs
            if method == "bs":
                intervals[metric_id] = {k: v for k, v in report.intervals.items() if v is not None}
        if show_intervals and metric_id not in intervals:
            intervals[metric_id] = confidence_intervals(metric, stats, n_boot, seed, arithmetic)
    correlations: list[Correlation] = []
    if args.human:
        n_segments = len(evaluation.systems[0].stats[next(iter(evaluation.metrics))])
        human = read_human_scores(args.human, n_segments, args.human_ids)
        for metric_id, metric in evaluation.metrics.items():
            stats = {s.name: s.stats[metric_id] for s in evaluation.systems}
            correlations += correlate(metric, stats, human, n_boot, seed, label=metric_id)
    if paired:
        count = n_perm if method == "ar" else n_boot
        signature = f"{method}:{count}|seed:{seed}"
    else:
        signature = f"bs:{n_boot}|seed:{seed}" if args.confidence else ""
    settings: dict[str, Any] = {"seed": seed, "n_bootstrap": n_boot, "arithmetic": arithmetic}
    if paired:
        settings.update(method=method, baseline=None if args.all_pairs else (args.baseline or names[0]))
        if method == "ar":
            settings["n_permutations"] = n_perm
    if args.all_pairs:
        settings.update(all_pairs=True, alpha=args.alpha, correction="holm")
    if args.human:
        settings["human"] = args.human
    return Statistics(seed, settings, intervals, tuple(pairs), groups, tuple(correlations), signature)


def _interval_json(interval: Interval) -> dict[str, Any]:
    return {
        "score": interval.score,
        "mean": interval.mean,
        "ci": [interval.lo, interval.hi],
        "half_width": interval.half_width,
    }


def _pair_json(pair: PairResult) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "metric": pair.metric,
        "baseline": pair.baseline,
        "system": pair.system,
        "method": pair.method,
        "p_value": pair.p_value,
        "diff": pair.diff,
        "diff_ci": list(pair.diff_ci),
    }
    if pair.p_corrected is not None:
        entry["p_corrected"] = pair.p_corrected
    return entry


def _number(value: float) -> float | None:
    """JSON has no NaN: an undefined coefficient (a constant side) is written as null."""
    return value if math.isfinite(value) else None


def _signature(signature: str, extra: str) -> str:
    if not extra:
        return signature
    head, sep, tail = signature.partition("|")
    return f"{head}|{extra}|{tail}" if head.startswith("nrefs:") and sep else f"{extra}|{signature}"


def extend_json(doc: dict[str, Any], stats: Statistics | None) -> dict[str, Any]:
    """The statistics merged into the JSON document of ``evaluation_to_json`` (a new dict; plain floats only)."""
    if stats is None:
        return doc
    out = dict(doc)
    out["signatures"] = {m: _signature(sig, stats.signature_fields) for m, sig in doc["signatures"].items()}
    systems = []
    for entry in doc["systems"]:
        entry = dict(entry)
        scores = dict(entry["scores"])
        for metric_id, by_system in stats.intervals.items():
            if entry["name"] in by_system:
                scores[metric_id] = _interval_json(by_system[entry["name"]])
        entry["scores"] = scores
        systems.append(entry)
    out["systems"] = systems
    if stats.pairs:
        out["pairs"] = [_pair_json(p) for p in stats.pairs]
    if stats.groups:
        out["groups"] = {m: [list(g) for g in groups] for m, groups in stats.groups.items()}
    if stats.correlations:
        out["human"] = [
            {
                "metric": c.metric,
                "level": c.level,
                "method": c.method,
                "value": _number(c.value),
                "ci": [_number(c.lo), _number(c.hi)],
                "n": c.n,
            }
            for c in stats.correlations
        ]
    out["statistics"] = dict(stats.settings)
    return out


def table_sections(stats: Statistics | None) -> str:
    if stats is None:
        return ""
    s = stats.settings
    lines: list[str] = []
    if stats.intervals:
        lines += ["", f"95% bootstrap intervals ({s['n_bootstrap']} resamples, seed {stats.seed}): μ ± half-width"]
        for metric_id, by_system in stats.intervals.items():
            for name, iv in by_system.items():
                lines.append(
                    f"  {metric_id:10} {name:24} {iv.score:10.4f}  μ = {iv.mean:.4f} ± {iv.half_width:.4f}"
                    f"  [{iv.lo:.4f}, {iv.hi:.4f}]"
                )
    if stats.pairs:
        test = "paired bootstrap" if s["method"] == "bs" else "approximate randomization"
        count = s["n_bootstrap"] if s["method"] == "bs" else s["n_permutations"]
        against = "all pairs, Holm-adjusted" if s.get("all_pairs") else f"against baseline {s['baseline']}"
        lines += ["", f"{test} ({count} samples, seed {stats.seed}), {against}; diff = system − baseline"]
        for p in stats.pairs:
            held = f"  p_holm = {p.p_corrected:.4f}" if p.p_corrected is not None else ""
            lines.append(
                f"  {p.metric:10} {p.baseline:20} → {p.system:20} diff {p.diff:+9.4f} "
                f"[{p.diff_ci[0]:+.4f}, {p.diff_ci[1]:+.4f}]  p = {p.p_value:.4f}{held}"
            )
    if stats.groups:
        lines += ["", f"groups (best first; a system joins unless significantly worse than the group's top, α = {s['alpha']})"]  # fmt: skip
        for metric_id, groups in stats.groups.items():
            lines.append(f"  {metric_id:10} " + "  >  ".join("{" + ", ".join(g) + "}" for g in groups))
    if stats.correlations:
        lines += ["", f"correlation with human scores ({s['human']}; bootstrap over segments, τ = Kendall τ-b)"]
        for c in stats.correlations:
            lines.append(
                f"  {c.metric:10} {c.level:8} {c.method:9} {c.value:+.4f}  [{c.lo:+.4f}, {c.hi:+.4f}]  n = {c.n}"
            )
    return "\n".join(lines) + "\n" if lines else ""


def csv_sections(stats: Statistics | None) -> str:
    """Extra CSV tables, each after a blank line and with its own header row."""
    if stats is None:
        return ""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if stats.intervals:
        writer.writerow([])
        writer.writerow(["metric", "system", "score", "mean", "ci_lo", "ci_hi", "half_width"])
        for metric_id, by_system in stats.intervals.items():
            for name, iv in by_system.items():
                writer.writerow([metric_id, name, *(repr(v) for v in (iv.score, iv.mean, iv.lo, iv.hi, iv.half_width))])
    if stats.pairs:
        writer.writerow([])
        writer.writerow(
            ["metric", "baseline", "system", "method", "p_value", "p_corrected", "diff", "diff_ci_lo", "diff_ci_hi"]
        )
        for p in stats.pairs:
            corrected = "" if p.p_corrected is None else repr(p.p_corrected)
            writer.writerow(
                [
                    p.metric,
                    p.baseline,
                    p.system,
                    p.method,
                    repr(p.p_value),
                    corrected,
                    repr(p.diff),
                    repr(p.diff_ci[0]),
                    repr(p.diff_ci[1]),
                ]  # fmt: skip
            )
    if stats.groups:
        writer.writerow([])
        writer.writerow(["metric", "group", "system"])
        for metric_id, groups in stats.groups.items():
            for rank, members in enumerate(groups, start=1):
                for name in members:
                    writer.writerow([metric_id, rank, name])
    if stats.correlations:
        writer.writerow([])
        writer.writerow(["metric", "level", "method", "value", "ci_lo", "ci_hi", "n"])
        for c in stats.correlations:
            writer.writerow([c.metric, c.level, c.method, repr(c.value), repr(c.lo), repr(c.hi), c.n])
    return out.getvalue()
