"""The statistics flags of ``scorelens score``: confidence intervals, paired tests, all pairs, human correlation.

    scorelens score … --confidence                     # sacrebleu --confidence, for every system
    scorelens score … --paired-bs [--baseline NAME]    # sacrebleu --paired-bs (baseline: the first system)
    scorelens score … --paired-ar                      # sacrebleu --paired-ar (10 000 trials)
    scorelens score … --paired-bs --all-pairs          # every pair, Holm-adjusted, plus tied groups
    scorelens score … --all-pairs --n-bootstrap auto   # (the default with --all-pairs) enough resamples to reject
    scorelens score … --human scores.jsonl [--human-ids ids.txt]
    scorelens score … --rouge-bootstrap [LEVEL]         # rouge-score's BootstrapAggregator, low/mid/high of P, R, F

Same seed (``--seed``, else ``$SACREBLEU_SEED``, else 12345) and counts as sacrebleu give sacrebleu's numbers.
The counts default to sacrebleu's (1000 resamples, 10 000 trials), except with ``--all-pairs``: there ``auto``
takes :func:`metrics.stats.significance.resamples_for` the number of pairs, so that the smallest reachable
Holm-corrected p-value is at most α/10 (21 000 resamples for 15 systems), and says so on standard error.
:func:`compute` returns them as :class:`metrics.reports.results.Statistics`, which the results schema writes: intervals
per system (``--confidence`` or ``--paired-bs``), ``pairs`` (and ``groups`` with ``--all-pairs``), ``human`` and
the settings, with sacrebleu's ``bs:…|seed:…`` or ``ar:…|seed:…`` fields in every signature. ``--rouge-bootstrap``
gives rouge-score's own intervals of its ROUGE metrics (:mod:`metrics.stats.rouge_bootstrap`), ``--n-bootstrap``
samples drawn with ``--seed`` for each system: ``np.random.seed(SEED)`` before rouge-score's ``aggregate()`` of
the same ROUGE types, in the order of ``--metrics``, gives the same numbers.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from metrics.reports.results import Statistics, StatisticsSettings
from metrics.stats.defaults import ARITHMETICS, DEFAULT_ALPHA, DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, DEFAULT_SEED

# The statistics are imported where they run: a run that asks for none does not pay for importing them.
if TYPE_CHECKING:
    from metrics.core.evaluation import Evaluation
    from metrics.stats.correlation import Correlation
    from metrics.stats.rouge_bootstrap import AggregateScore, RougeBootstrapSettings
    from metrics.stats.significance import Interval, Method, PairResult


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
        "--n-bootstrap",
        "--confidence-n",
        "--paired-bs-n",
        type=_count,
        default=None,
        metavar="N|auto",
        help=f"bootstrap resamples (default {DEFAULT_SAMPLES['bs']}, as sacrebleu; with --all-pairs: auto, enough "
        "for the Holm-corrected tests to reject)",
    )
    group.add_argument(
        "--n-permutations",
        "--paired-ar-n",
        type=_count,
        default=None,
        metavar="N|auto",
        help=f"randomization trials (default {DEFAULT_SAMPLES['ar']}, as sacrebleu; with --all-pairs: auto)",
    )
    group.add_argument(
        "--stats-arithmetic",
        choices=ARITHMETICS,
        default="sacrebleu",
        help="sacrebleu: replay its float32 resample arithmetic (BLEU/chrF/TER, exact numbers); float64: plain",
    )
    group.add_argument("--human", metavar="FILE", help="human judgments (JSONL: SYS, seg_id, human_score)")
    group.add_argument("--human-ids", metavar="FILE", help="segment id of each system line (else seg_id = line no.)")
    group.add_argument(
        "--rouge-bootstrap",
        nargs="?",
        const=DEFAULT_CONFIDENCE,
        type=float,
        metavar="LEVEL",
        help="rouge-score's BootstrapAggregator for the rouge-score metrics: low/mid/high of P, R and F at this "
        "confidence (0.95), --n-bootstrap samples, --seed",
    )


AUTO = "auto"


def _count(text: str) -> int | str:
    """A sample count or ``auto``."""
    if text.strip().lower() == AUTO:
        return AUTO
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a whole number nor auto") from None


def resolve_count(
    name: str, given: int | str | None, method: str, systems: int, all_pairs: bool, alpha: float
) -> tuple[int, str | None]:
    """The resamples (``bs``) or trials (``ar``) to run, and a note when ``auto`` chose them: sacrebleu's default
    unless all pairs are compared (then, and for an explicit ``auto``, enough for the ``n_pairs(systems)``
    Holm-corrected tests at ``alpha``; a test against a baseline is not corrected, so one comparison)."""
    from metrics.stats.resampling import check_count
    from metrics.stats.significance import n_pairs, resamples_for

    if isinstance(given, int):
        return check_count(name, given), None
    if given is None and not all_pairs:
        return DEFAULT_SAMPLES[method], None
    pairs = max(1, n_pairs(systems)) if all_pairs else 1
    count = resamples_for(pairs, alpha, minimum=DEFAULT_SAMPLES[method])
    kind = "bootstrap resamples" if method == "bs" else "randomization trials"
    return count, (
        f"{count} {kind} for {pairs} Holm-corrected comparison(s) at α = {alpha:g}: the smallest reachable "
        f"corrected p-value is {pairs / (count + 1):.2g}; {name} N chooses another count"
    )


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


def requested(args: argparse.Namespace) -> bool:
    return bool(
        args.confidence
        or args.paired_bs
        or args.paired_ar
        or args.all_pairs
        or args.human
        or args.rouge_bootstrap is not None
    )


def rouge_bootstrap(evaluation: Evaluation, settings: RougeBootstrapSettings) -> dict[str, dict[str, AggregateScore]]:
    """rouge-score's bootstrap aggregate of every rouge-score metric of ``evaluation``, per system (each system's
    stream starts from the seed, as a fresh ``np.random.seed`` would), metric by metric in evaluation order."""
    from metrics.stats.rouge_bootstrap import aggregates
    from metrics.stats.rouge_bootstrap import bootstrap_aggregate as rouge_aggregate

    chosen = [m for m, metric in evaluation.metrics.items() if aggregates(metric)]
    if not chosen:
        raise ValueError("--rouge-bootstrap needs a rouge-score metric (rouge1, rouge2, rougeL or rougeLsum)")
    found: dict[str, dict[str, AggregateScore]] = {m: {} for m in chosen}
    for system in evaluation.systems:
        for m, aggregate in rouge_aggregate({m: system.stats[m] for m in chosen}, settings).items():
            found[m][system.name] = aggregate
    return found


def compute(
    args: argparse.Namespace, evaluation: Evaluation, note: Callable[[str], None] | None = None
) -> Statistics | None:
    """Run what the flags ask for on the cached statistics of ``evaluation`` (``None`` if nothing was asked);
    ``note`` receives what a reader should know about the counts chosen."""
    if args.human_ids and not args.human:
        raise ValueError("--human-ids needs --human")
    if (args.baseline is not None) and not (args.paired_bs or args.paired_ar):
        raise ValueError("--baseline needs --paired-bs or --paired-ar")
    if not requested(args):
        return None
    from metrics.stats.correlation import correlate
    from metrics.stats.human import read_human_scores
    from metrics.stats.rouge_bootstrap import RougeBootstrapSettings
    from metrics.stats.significance import all_pairs, confidence_intervals
    from metrics.stats.significance import paired_test as run_paired_test

    seed = resolve_seed(args.seed)
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha must lie strictly between 0 and 1, not {args.alpha}")
    arithmetic = args.stats_arithmetic
    names = [s.name for s in evaluation.systems]
    method: Method = "ar" if args.paired_ar else "bs"
    # only the test that runs gets the automatic count (with AR the bootstrap serves diff_ci alone)
    all_bs, all_ar = args.all_pairs and method == "bs", args.all_pairs and method == "ar"
    n_boot, boot_note = resolve_count("--n-bootstrap", args.n_bootstrap, "bs", len(names), all_bs, args.alpha)
    n_perm, perm_note = resolve_count("--n-permutations", args.n_permutations, "ar", len(names), all_ar, args.alpha)
    for message in (boot_note, perm_note):
        if message is not None and note is not None:
            note(message)
    count = n_perm if method == "ar" else n_boot
    paired = args.paired_bs or args.paired_ar or args.all_pairs
    if paired and len(names) < 2:
        raise ValueError("paired tests need at least two systems (--systems A B …)")
    if args.baseline is not None and args.baseline not in names:
        raise ValueError(f"--baseline {args.baseline!r} is not one of the systems: {', '.join(names)}")
    intervals: dict[str, Mapping[str, Interval]] = {}
    pairs: dict[str, tuple[PairResult, ...]] = {}
    groups: dict[str, tuple[tuple[str, ...], ...]] = {}
    show_intervals = args.confidence or (paired and method == "bs")
    for metric_id, metric in evaluation.metrics.items():
        stats = {s.name: s.stats[metric_id] for s in evaluation.systems}
        if args.all_pairs:
            report = all_pairs(metric, stats, method, count, seed, arithmetic, n_boot, args.alpha, label=metric_id)
            groups[metric_id] = report.groups or ()
        elif paired:
            report = run_paired_test(metric, stats, args.baseline, method, count, seed, arithmetic, n_boot,
                                     label=metric_id)  # fmt: skip
        if paired:
            pairs[metric_id] = report.pairs
            if method == "bs":  # as sacrebleu --paired-ar, AR shows intervals only with --confidence
                intervals[metric_id] = {k: v for k, v in report.intervals.items() if v is not None}
        if show_intervals and metric_id not in intervals:
            intervals[metric_id] = confidence_intervals(metric, stats, n_boot, seed, arithmetic)
    correlations: dict[str, tuple[Correlation, ...]] = {}
    if args.human:
        n_segments = len(evaluation.systems[0].stats[next(iter(evaluation.metrics))])
        human = read_human_scores(args.human, n_segments, args.human_ids)
        for metric_id, metric in evaluation.metrics.items():
            stats = {s.name: s.stats[metric_id] for s in evaluation.systems}
            correlations[metric_id] = correlate(metric, stats, human, n_boot, seed, label=metric_id)
    rouge: dict[str, dict[str, AggregateScore]] = {}
    if args.rouge_bootstrap is not None:
        rouge = rouge_bootstrap(evaluation, RougeBootstrapSettings(args.rouge_bootstrap, n_boot, seed))
    settings = StatisticsSettings(
        seed=seed,
        n_bootstrap=n_boot,
        arithmetic=arithmetic,
        method=method if paired else None,
        baseline=(args.baseline or names[0]) if paired and not args.all_pairs else None,
        n_permutations=n_perm if paired and method == "ar" else None,
        all_pairs=args.all_pairs,
        alpha=args.alpha if args.all_pairs else None,
        human=args.human,
        rouge_confidence=args.rouge_bootstrap,
    )
    return Statistics(settings, intervals, pairs, groups, correlations, rouge)
