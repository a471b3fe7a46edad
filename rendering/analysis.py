"""Tables and figures of the Analysis page, from the records of :mod:`metrics.analysis` (nothing is recomputed).

Every user string that reaches a figure (system names, bucket labels from a metadata file) goes through
:func:`rendering.text.escape_plotly`, as plotly interprets a subset of HTML in labels (and would show an HTML
escape's ``&quot;`` as typed). Tables are DataFrames, which the app shows as text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from metrics.analysis.agreement import Agreement, ceiling
from metrics.analysis.disagreement import Disagreement
from metrics.analysis.documents import DocumentScores, RankingFlip
from metrics.analysis.ngrams import NgramContrast
from metrics.analysis.scoring import DEFAULT_SETTINGS, BucketResult, BucketScore, significant
from metrics.analysis.slices import ScoreCondition, Slice
from metrics.analysis.words import WordAccuracy
from metrics.core.family import Fit
from metrics.reports.analysis import BucketSection
from metrics.stats.significance import Interval
from rendering.text import escape_markdown, escape_plotly

PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363",
)  # fmt: skip
ROW_HEIGHT = 35  # pixels per dataframe row, for tables shown whole


def table_height(rows: int, limit: int = 20) -> int:
    """A dataframe height that shows ``rows`` rows (at most ``limit`` before it scrolls) and its header."""
    return ROW_HEIGHT * (min(rows, limit) + 1) + 3


def _p_text(entry: BucketScore, baseline: str | None, shared: bool, min_segments: int, caveat: str | None) -> str:
    """The p-value against the baseline, or why there is none."""
    if entry.p_value is not None:
        return f"{entry.p_value:.4f}"
    if entry.system == baseline:
        return "baseline"
    if caveat is not None:
        return f"— {caveat}"
    if not shared:
        return "— (own segments)"
    if entry.n_segments < min_segments:
        return f"— (< {min_segments} segments)"
    return "—"


def bucket_frame(
    sections: Sequence[BucketSection],
    labels: Mapping[str, str],
    alpha: float,
    baseline: str | None = None,
    min_segments: int = DEFAULT_SETTINGS.min_test_segments,
    caveats: Mapping[tuple[str, str, str], str] | None = None,
) -> pd.DataFrame:
    """One row per bucket × system × metric: segments, score, interval, the difference from the baseline with its
    paired interval (shared buckets), p against the baseline (or why there is none: ``caveats[(bucket label,
    system, metric id)]`` where a caller withheld it), significance."""
    rows = []
    for section in sections:
        shared = section.bucketing.shared
        for result in section.results:
            for entry in result.scores:
                iv = entry.interval
                row: dict[str, object] = {
                    "bucket": result.label,
                    "system": entry.system,
                    "metric": labels[entry.metric],
                    "segments": entry.n_segments,
                    "score": iv.score,
                    "95% CI low": iv.lo,
                    "95% CI high": iv.hi,
                }
                if shared and baseline is not None:
                    d = entry.difference
                    # the baseline against itself: exactly 0, on every resample
                    row |= {
                        "Δ vs baseline": 0.0 if d is None else d.score,
                        "Δ 95% CI low": 0.0 if d is None else d.lo,
                        "Δ 95% CI high": 0.0 if d is None else d.hi,
                    }
                row |= {
                    "p vs baseline": _p_text(
                        entry,
                        baseline,
                        shared,
                        min_segments,
                        (caveats or {}).get((result.label, entry.system, entry.metric)),
                    ),
                    f"p < {alpha:g}": significant(entry, alpha),
                }
                rows.append(row)
    return pd.DataFrame(rows)


def _label_order(results: Sequence[BucketResult]) -> list[str]:
    return [label for _, label in sorted({(r.position, r.label) for r in results})]


def _categories(section: BucketSection, min_segments: int) -> tuple[dict[str, str], list[str]]:
    """Each bucket's label as shown (with its segment count under it in a shared bucketing, marked when it holds
    fewer than ``min_segments``), and the labels in the buckets' order."""
    order = _label_order(section.results)
    shown = {label: escape_plotly(label) for label in order}
    if section.bucketing.shared:
        for r in section.results:
            few = " (few)" if len(r.segments) < min_segments else ""
            shown[r.label] = f"{escape_plotly(r.label)}<br>n = {len(r.segments)}{few}"
    return shown, [shown[label] for label in order]


def _axis_range(lows: Sequence[float], highs: Sequence[float]) -> list[float] | None:
    """A value axis from 0 over the intervals given (those of buckets big enough to read), with a margin."""
    finite = [x for x in (*lows, *highs) if math.isfinite(x)]
    if not finite:
        return None
    lo, hi = min(0.0, *finite), max(0.0, *finite)
    pad = 0.08 * (hi - lo) or 1.0
    return [lo - pad if lo < 0 else 0.0, hi + pad if hi > 0 else 0.0]


def _bucket_bars(
    section: BucketSection,
    labels: Mapping[str, str],
    systems: Sequence[str],
    alpha: float,
    min_segments: int,
    difference: bool,
    panel_titles: Sequence[str],
    title: str,
) -> go.Figure:
    """Grouped bars per bucket, one panel per metric, one colour per system, whiskers for the 95 % intervals of
    each score (or of each difference from the baseline); outlined: significantly different from the baseline;
    pale: a bucket of fewer than ``min_segments`` segments, whose whiskers do not set the axis."""
    metric_ids = list(labels)
    shown, order = _categories(section, min_segments)
    fig = make_subplots(
        rows=len(metric_ids),
        cols=1,
        shared_xaxes=True,
        subplot_titles=list(panel_titles),
        vertical_spacing=110 / (160 + 260 * len(metric_ids)),  # room for the tick labels and the next title
    )
    lows: dict[int, list[float]] = {row: [] for row in range(1, len(metric_ids) + 1)}
    highs: dict[int, list[float]] = {row: [] for row in range(1, len(metric_ids) + 1)}
    what = "Δ" if difference else "score"
    for k, system in enumerate(systems):
        colour = PALETTE[k % len(PALETTE)]
        for row, metric_id in enumerate(metric_ids, start=1):
            entries: list[tuple[str, BucketScore, Interval]] = []
            for r in section.results:
                for e in r.scores:
                    iv = e.difference if difference else e.interval
                    if e.system == system and e.metric == metric_id and iv is not None:
                        entries.append((r.label, e, iv))
            if not entries:
                continue
            marks = [significant(e, alpha) for _, e, _ in entries]
            big = [e.n_segments >= min_segments for _, e, _ in entries]
            lows[row] += [iv.lo for (_, _, iv), ok in zip(entries, big, strict=True) if ok]
            highs[row] += [iv.hi for (_, _, iv), ok in zip(entries, big, strict=True) if ok]
            fig.add_trace(
                go.Bar(
                    x=[shown[label] for label, _, _ in entries],
                    y=[iv.score for _, _, iv in entries],
                    error_y={
                        "type": "data",
                        "array": [iv.hi - iv.score for _, _, iv in entries],
                        "arrayminus": [iv.score - iv.lo for _, _, iv in entries],
                        "thickness": 1,
                        "width": 2,
                    },
                    marker={
                        "color": colour,
                        "opacity": [1.0 if ok else 0.3 for ok in big],
                        "line": {
                            "color": ["#000000" if m else colour for m in marks],
                            "width": [2 if m else 0 for m in marks],
                        },
                    },
                    name=escape_plotly(system),
                    legendgroup=escape_plotly(system),
                    showlegend=row == 1,
                    customdata=[
                        [e.n_segments, iv.lo, iv.hi, "—" if e.p_value is None else f"{e.p_value:.4f}"]
                        for _, e, iv in entries
                    ],
                    hovertemplate=f"%{{fullData.name}} · %{{x}}: {what} %{{y:.4f}} "
                    "[%{customdata[1]:.4f}, %{customdata[2]:.4f}]"
                    "<br>%{customdata[0]} segments, p = %{customdata[3]}<extra></extra>",
                ),
                row=row,
                col=1,
            )
    for row in lows:
        span = _axis_range(lows[row], highs[row])
        if span is not None:
            fig.update_yaxes(range=span, row=row, col=1)
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=order, showticklabels=True)
    fig.update_layout(
        barmode="group",
        title={"text": title, "font": {"size": 13}},
        height=160 + 260 * len(metric_ids),
        margin={"l": 10, "r": 10, "t": 70, "b": 30},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02 + 0.04 * len(metric_ids), "x": 0},
        bargap=0.2,
    )
    return fig


def bucket_figure(
    section: BucketSection,
    labels: Mapping[str, str],
    systems: Sequence[str],
    alpha: float,
    baseline: str | None = None,
    title: str | None = None,
    min_segments: int = DEFAULT_SETTINGS.min_test_segments,
) -> go.Figure:
    """Every system's score per bucket (grouped bars, one panel per metric, 95 % whiskers); a bar with a black
    outline differs significantly from the baseline in that bucket; a pale bar holds fewer than ``min_segments``
    segments and does not set the axis."""
    text = escape_plotly(section.bucketing.title if title is None else title)
    if baseline is not None and section.bucketing.shared:
        text += f" · outlined: differs from {escape_plotly(baseline)} (paired bootstrap p < {alpha:g})"
    text += f" · pale: fewer than {min_segments} segments"
    panels = [escape_plotly(labels[m]) for m in labels]
    return _bucket_bars(section, labels, systems, alpha, min_segments, False, panels, text)


def bucket_delta_figure(
    section: BucketSection,
    labels: Mapping[str, str],
    higher_is_better: Mapping[str, bool],
    systems: Sequence[str],
    alpha: float,
    baseline: str,
    title: str | None = None,
    min_segments: int = DEFAULT_SETTINGS.min_test_segments,
) -> go.Figure:
    """Each system's difference from the baseline per bucket (system − baseline on the bucket's segments) with its
    paired-bootstrap 95 % interval: gaps of a few points that bars from 0 hide on a 0–100 scale. Shared
    bucketings only (in a per-system one the systems have different segments)."""
    if not section.bucketing.shared:
        raise ValueError(f"{section.bucketing.key} is per system: its buckets hold different segments per system")
    base = escape_plotly(baseline)
    text = escape_plotly(section.bucketing.title if title is None else title)
    text += f" · difference from {base} · outlined: p < {alpha:g} · pale: fewer than {min_segments} segments"
    panels = [
        f"{escape_plotly(labels[m])}: {'above' if higher_is_better[m] else 'below'} 0 = better than {base}"
        + ("" if higher_is_better[m] else " (lower is better)")
        for m in labels
    ]
    # the baseline has no difference, so no bars; it keeps its place so that every system keeps its colour
    return _bucket_bars(section, labels, systems, alpha, min_segments, True, panels, text)


def selection_text(condition: ScoreCondition, labels: Mapping[str, str]) -> str:
    """A score filter in words: "BLEU of A − B" or "BLEU of A"."""
    return f"{labels.get(condition.metric, condition.metric)} of {' − '.join(condition.systems)}"


def circular_caveats(
    pieces: Sequence[Slice], systems: Sequence[str], labels: Mapping[str, str], baseline: str
) -> dict[tuple[str, str, str], str]:
    """Why a slice's test against the baseline is withheld, per (slice name, system, metric id)."""
    found = {}
    for piece in pieces:
        for system in systems:
            for metric in labels:
                condition = piece.circular(metric, (system, baseline))
                if condition is not None and system != baseline:
                    found[(piece.name, system, metric)] = (
                        f"circular: the slice was selected by {selection_text(condition, labels)}"
                    )
    return found


def counts_figure(section: BucketSection, systems: Sequence[str]) -> go.Figure:
    """How many segments of each system fall in each bucket (a per-system bucketing's histogram)."""
    order = _label_order(section.results)
    fig = go.Figure()
    for k, system in enumerate(systems):
        counts = {r.label: len(r.segments) for r in section.results if r.system == system}
        fig.add_trace(
            go.Bar(
                x=[escape_plotly(label) for label in order],
                y=[counts.get(label, 0) for label in order],
                name=escape_plotly(system),
                marker={"color": PALETTE[k % len(PALETTE)]},
                hovertemplate="%{fullData.name} · %{x}: %{y} segments<extra></extra>",
            )
        )
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=[escape_plotly(x) for x in order])
    fig.update_layout(
        barmode="group",
        height=320,
        title={"text": "segments per bucket", "font": {"size": 13}},
        margin={"l": 10, "r": 10, "t": 40, "b": 30},
    )
    return fig


def word_frame(results: Sequence[WordAccuracy]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "frequency": w.label,
                "system": w.system,
                "matches": w.matches,
                "reference words": w.ref_words,
                "output words": w.out_words,
                "precision": w.precision,
                "recall": w.recall,
                "F-measure": w.fmeasure,
                "F 95% CI low": w.interval.lo,
                "F 95% CI high": w.interval.hi,
            }
            for w in results
        ]
    )


def word_figure(results: Sequence[WordAccuracy], systems: Sequence[str], counted: str = "occurrences") -> go.Figure:
    """Word F-measure per frequency bucket, one colour per system, with 95 % whiskers; ``counted`` says where the
    frequency was counted (the x axis's unit)."""
    order = [label for _, label in sorted({(w.position, w.label) for w in results})]
    fig = go.Figure()
    for k, system in enumerate(systems):
        mine = sorted((w for w in results if w.system == system), key=lambda w: w.position)
        fig.add_trace(
            go.Bar(
                x=[escape_plotly(w.label) for w in mine],
                y=[w.fmeasure for w in mine],
                error_y={
                    "type": "data",
                    "array": [w.interval.hi - w.fmeasure for w in mine],
                    "arrayminus": [w.fmeasure - w.interval.lo for w in mine],
                    "thickness": 1,
                    "width": 2,
                },
                name=escape_plotly(system),
                marker={"color": PALETTE[k % len(PALETTE)]},
                customdata=[[w.matches, w.ref_words] for w in mine],
                hovertemplate="%{fullData.name} · frequency %{x}: F = %{y:.4f}"
                "<br>%{customdata[0]} matches of %{customdata[1]} reference words<extra></extra>",
            )
        )
    fig.update_xaxes(title=f"word frequency ({escape_plotly(counted)})", type="category", categoryorder="array",
                     categoryarray=[escape_plotly(x) for x in order])  # fmt: skip
    fig.update_yaxes(title="word F-measure", range=[0, 1])
    fig.update_layout(barmode="group", height=420, margin={"l": 10, "r": 10, "t": 30, "b": 40})
    return fig


def ngram_frame(contrasts: Sequence[NgramContrast]) -> pd.DataFrame:
    """One row per n-gram; ``A``/``B``: the corpus matches of the two systems (named in the section's title)."""
    columns = ["n-gram", "n", "A", "B", "ratio", "segments"]
    rows = [[c.text, c.n, c.matches_a, c.matches_b, c.ratio, len(c.segments)] for c in contrasts]
    return pd.DataFrame(rows, columns=columns)


def segments_frame(
    segments: Sequence[int], columns: Mapping[str, Sequence[str]], extra: Mapping[str, Sequence[object]] | None = None
) -> pd.DataFrame:
    """The texts of ``segments`` (0-based; shown numbered from 1), one column per stream in ``columns``."""
    frame = pd.DataFrame({name: [texts[i] for i in segments] for name, texts in columns.items()})
    for name, values in (extra or {}).items():
        frame.insert(0, name, list(values))
    frame.index = pd.Index([i + 1 for i in segments], name="segment")
    return frame


def document_frame(documents: Sequence[DocumentScores], metric_id: str, systems: Sequence[str]) -> pd.DataFrame:
    rows = [
        {"document": d.document, "segments": len(d.segments), **{s: d.scores[s][metric_id] for s in systems}}
        for d in documents
    ]
    return pd.DataFrame(rows)


def flips_frame(flips: Sequence[RankingFlip], labels: Mapping[str, str], significant: bool = True) -> pd.DataFrame:
    """One row per document and metric: how many pairs flip and, with ``significant``, the significantly different
    pairs it reverses (largest reversal first, with how much better the corpus-worse system scores here)."""
    rows = []
    for f in flips:
        row: dict[str, object] = {"document": f.document, "metric": labels[f.metric], "segments": f.n_segments}
        if significant:
            reversed_here = zip(f.significant, f.reversals, strict=True)
            row |= {
                "significant pairs reversed": len(f.significant),
                "largest reversal": f.reversal,
                "reversed here (better here > better on the corpus, by)": "; ".join(
                    f"{x} > {y} (by {margin:.2f})" for (x, y), margin in reversed_here
                ),
            }
        rows.append(row | {"pairs flipped in all": len(f.pairs), "share of pairs": f.share})
    return pd.DataFrame(rows)


def agreement_frame(found: Sequence[Agreement], labels: Mapping[str, str]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "metric": labels[g.metric],
                "A": g.a,
                "B": g.b,
                "Δ = A − B": g.delta,
                "p (paired bootstrap)": g.p_value,
                "human agreement (est.)": g.human_agreement,
            }
            for g in found
        ]
    )


def fit_reasons(reasons: Mapping[str, str]) -> str:
    """Why each metric that says so has no estimate (metric label → reason), as Markdown sentences; labels and
    reasons are escaped."""
    return "".join(f" {escape_markdown(label)}: {escape_markdown(reason)}." for label, reason in reasons.items())


def agreement_caption(fits: Mapping[str, Fit], uncovered: Sequence[str] = ()) -> str:
    """What the ``agr.`` column says, as Markdown, with each shown metric's fit and ceiling (``fits``: metric label →
    fit) and the metrics without an estimate (``uncovered``: labels); labels are escaped."""
    shown = "; ".join(
        f"{fit.describe(escape_markdown(label))}, at most {100 * ceiling(fit.name):.0f} %"
        for label, fit in fits.items()
    )
    names = ", ".join(escape_markdown(label) for label in uncovered)
    none = f" No estimate for {names}: mt-thresholds has no fit for it as configured." if uncovered else ""
    return (
        "agr.: how often human raters agreed with the metric's order on WMT system pairs whose difference was this "
        "large (Kocmi et al. 2024, mt-thresholds 1.0.4) — the accuracy of the difference's sign at that size, not a "
        "probability that the system is better, and another question than p. The fit reads below 50 % for small "
        f"differences, shown as ≈ chance, and saturates at its ceiling ({shown}).{none}"
    )


def agreement_text(value: float | None) -> str:
    """An estimate as a rounded percentage (it is a fit, not a measurement); under 50 % as ``≈ chance``: the fit
    puts small differences below a coin flip, and a reading under chance would suggest the metric points the wrong
    way."""
    if value is None:
        return ""
    return "≈ chance" if value < 0.5 else f"≈{100 * value:.0f}%"


def with_agreement(
    frame: pd.DataFrame, found: Mapping[tuple[str, str], float], labels: Mapping[str, str]
) -> pd.DataFrame:
    """The overview table with a ``human agr.`` column after each covered metric's p column (the estimate of each
    system's difference to the baseline; ``found[(system, metric_id)]``)."""
    covered = {metric_id for _, metric_id in found}
    result = frame.copy()
    for metric_id, label in labels.items():
        if metric_id not in covered:
            continue
        after = f"{label} p" if f"{label} p" in result.columns else label
        values = [agreement_text(found.get((system, metric_id))) for system in result.index]
        result.insert(list(result.columns).index(after) + 1, f"{label} human agr.", values)
    return result


def disagreement_frame(
    found: Sequence[Disagreement], labels: Mapping[str, str], higher_is_better: Mapping[str, bool]
) -> pd.DataFrame:
    """One row per segment: the metric that prefers A and by how much, the one that prefers B and by how much.

    A margin is how much better the preferred system scores under that metric, in its units and always positive
    (TER's −50 for A − B is A better by 50, as lower is better): the raw sign of A − B would read as a preference
    for B for every error rate. Lower-is-better metrics carry a ↓ beside their name."""
    a = found[0].a if found else "A"
    b = found[0].b if found else "B"

    def named(metric: str) -> str:
        return labels[metric] + ("" if higher_is_better[metric] else " ↓ (lower is better)")

    frame = pd.DataFrame(
        [
            {
                "segment": d.segment + 1,
                f"prefers A = {a}": named(d.for_a),
                "A better by": abs(d.delta_for_a),
                f"prefers B = {b}": named(d.for_b),
                "B better by": abs(d.delta_for_b),
                "size (SD)": d.size,
            }
            for d in found
        ]
    )
    return frame.set_index("segment") if len(frame) else frame
