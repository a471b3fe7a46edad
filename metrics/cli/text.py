"""``scorelens score --format table``: the results schema as text for a terminal."""

from __future__ import annotations

from metrics.reports.results import Results


def _scores(results: Results, decimals: int) -> list[str]:
    labels = results.labels()
    ids = [m.id for m in results.metrics]
    width = max([len("system"), *(len(s.name) for s in results.systems)])
    texts = {s.name: [f"{s.scores[m]:.{decimals}f}" for m in ids] for s in results.systems}
    cols = [max(9, len(labels[m]), *(len(t[k]) for t in texts.values())) for k, m in enumerate(ids)]
    lines = ["  ".join(["system".ljust(width), *(labels[m].rjust(c) for m, c in zip(ids, cols, strict=True))])]
    for system in results.systems:
        cells = [text.rjust(c) for text, c in zip(texts[system.name], cols, strict=True)]
        lines.append("  ".join([system.name.ljust(width), *cells]))
    return [*lines, "", *(f"{m.id}: {m.signature}" for m in results.metrics)]


def _statistics(results: Results) -> list[str]:
    s = results.statistics
    if s is None:
        return []
    lines: list[str] = []
    if any(system.intervals for system in results.systems):
        lines += ["", f"95% bootstrap intervals ({s.n_bootstrap} resamples, seed {s.seed}): μ ± half-width"]
        for m in results.metrics:
            for system in results.systems:
                iv = system.intervals.get(m.id)
                if iv is not None:
                    lines.append(
                        f"  {m.id:10} {system.name:24} {iv.score:10.4f}  μ = {iv.mean:.4f} ± {iv.half_width:.4f}"
                        f"  [{iv.lo:.4f}, {iv.hi:.4f}]"
                    )
    if results.comparisons:
        test = "paired bootstrap" if s.method == "bs" else "approximate randomization"
        count = s.n_permutations if s.method == "ar" else s.n_bootstrap
        against = "all pairs, Holm-adjusted" if s.all_pairs else f"against baseline {s.baseline}"
        lines += ["", f"{test} ({count} samples, seed {s.seed}), {against}; diff = system − baseline"]
        for p in results.comparisons:
            held = f"  p_holm = {p.p_corrected:.4f}" if p.p_corrected is not None else ""
            held += "  (identical outputs: tied)" if p.identical else ""
            lines.append(
                f"  {p.metric:10} {p.baseline:20} → {p.system:20} diff {p.diff:+9.4f} "
                f"[{p.diff_ci[0]:+.4f}, {p.diff_ci[1]:+.4f}]  p = {p.p_value:.4f}{held}"
            )
    if results.groups:
        rule = f"a system joins unless significantly worse than the group's top, α = {s.alpha}"
        lines += ["", f"groups (best first; {rule})"]
        for metric_id, groups in results.groups.items():
            lines.append(f"  {metric_id:10} " + "  >  ".join("{" + ", ".join(g) + "}" for g in groups))
    if any(system.rouge_bootstrap for system in results.systems):
        level = f"{s.rouge_confidence:.0%}" if s.rouge_confidence is not None else ""
        lines += [
            "",
            f"rouge-score bootstrap aggregate ({level}, {s.n_bootstrap} samples, seed {s.seed}): low mid high",
        ]
        for m in results.metrics:
            for system in results.systems:
                aggregate = system.rouge_bootstrap.get(m.id)
                if aggregate is not None:
                    for measure, short in (("precision", "P"), ("recall", "R"), ("fmeasure", "F")):
                        values = [getattr(getattr(aggregate, part), measure) for part in ("low", "mid", "high")]
                        lines.append(f"  {m.id:10} {system.name:24} {short}  " + "  ".join(f"{v:.4f}" for v in values))
    if results.correlations:
        lines += ["", f"correlation with human scores ({s.human}; bootstrap over segments, τ = Kendall τ-b)"]
        for c in results.correlations:
            lines.append(
                f"  {c.metric:10} {c.level:8} {c.method:9} {c.value:+.4f}  [{c.lo:+.4f}, {c.hi:+.4f}]  n = {c.n}"
            )
    return lines


def format_scores(results: Results, decimals: int = 4) -> str:
    """``-b/--score-only``: one line per system, its scores in metric order with ``decimals`` decimals (``-w``),
    tab-separated (as sacrebleu -b)."""
    ids = [m.id for m in results.metrics]
    return "".join("\t".join(f"{system.scores[m]:.{decimals}f}" for m in ids) + "\n" for system in results.systems)


def format_table(results: Results, decimals: int = 4) -> str:
    """Scores (systems × metrics) with ``decimals`` decimals (``-w``), signatures, then whatever statistics were
    computed."""
    return "\n".join([*_scores(results, decimals), *_statistics(results)]) + "\n"
