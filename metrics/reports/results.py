"""The results schema: one evaluation's scores, intervals, pairwise comparisons, tied groups, human correlations
and notes — what ``scorelens score`` prints and what the app's overview downloads — with its JSON and CSV writers.

:func:`build_results` makes a :class:`Results` from a :class:`~metrics.core.evaluation.Evaluation` and what
:mod:`metrics.stats` computed on it (:class:`Statistics`); :func:`to_json` and :func:`to_csv` write it. The README's
"Results schema" section documents the keys and tables; :data:`SCHEMA_VERSION` changes only when a key is renamed
or removed or changes type, never when one is added.

Numbers: every value is a plain Python float (NumPy float32 from sacrebleu-style arithmetic included). A value that is
not a finite number — NaN for an undefined coefficient or an empty corpus, ±inf — is ``null`` in JSON and an empty
cell in CSV, so that every reader parses the output.

To add a section: a field on :class:`Results`, its JSON in :func:`json_document` and its :class:`Table` in
:func:`tables`; other documents (e.g. an analysis) reuse :class:`Table`, :func:`json_text` and :func:`header`.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

import numpy as np

from metrics.core.evaluation import Evaluation

if TYPE_CHECKING:  # annotations only: a run that asks for no statistics does not import them
    from metrics.analysis.agreement import Agreement
    from metrics.stats.correlation import Correlation
    from metrics.stats.resampling import Arithmetic
    from metrics.stats.rouge_bootstrap import AggregateScore
    from metrics.stats.significance import Interval, Method, PairResult

SCHEMA_VERSION = 1

Cell = str | int | float | bool | None


@dataclass(frozen=True)
class MetricInfo:
    """One metric as the results name it: ``id`` (the CLI id, the key everywhere), display ``name``, the full
    ``signature`` of the corpus score (references and resampling included), the direction of better, and the full
    ``segment_signature`` of the segment scores (BLEU's differs: ``eff:yes``, as ``sacrebleu.sentence_bleu``)."""

    id: str
    name: str
    signature: str
    higher_is_better: bool
    segment_signature: str


@dataclass(frozen=True)
class SystemScores:
    """One system: corpus score per metric id; its 95 % bootstrap interval where one was computed; segment scores
    (in segment order) when they were asked for; rouge-score's bootstrap aggregate (low/mid/high of P, R, F) of its
    rouge-score metrics when asked for."""

    name: str
    scores: Mapping[str, float]
    intervals: Mapping[str, Interval] = field(default_factory=dict)
    segments: Mapping[str, tuple[float, ...]] | None = None
    rouge_bootstrap: Mapping[str, AggregateScore] = field(default_factory=dict)


@dataclass(frozen=True)
class Note:
    """Something a reader of the numbers should know: a metric's warning on some systems (``metric`` and
    ``systems`` set; ``details`` what it found on each system, where it says more than ``message``), or a note on
    the input (neither set; ``warning`` when it calls for attention, as a language caveat above its threshold)."""

    message: str
    metric: str | None = None
    systems: tuple[str, ...] = ()
    details: Mapping[str, str] = field(default_factory=dict)
    warning: bool = False


@dataclass(frozen=True)
class NoteGroup:
    """One warning as a reader should see it: once, with every metric and system it concerns (the three ROUGE
    metrics on thirteen systems are one warning, not 39), and what it found on each system."""

    message: str
    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    details: Mapping[str, tuple[str, ...]]


def note_groups(notes: Sequence[Note]) -> tuple[NoteGroup, ...]:
    """The metrics' warnings among ``notes`` grouped by message, in order of first appearance; metrics and systems
    in order of appearance, each system's distinct details in order."""
    grouped: dict[str, tuple[list[str], list[str], dict[str, list[str]]]] = {}
    for note in notes:
        if note.metric is None:
            continue
        metrics, systems, details = grouped.setdefault(note.message, ([], [], {}))
        if note.metric not in metrics:
            metrics.append(note.metric)
        for system in note.systems:
            if system not in systems:
                systems.append(system)
            detail = note.details.get(system)
            if detail and detail not in details.setdefault(system, []):
                details[system].append(detail)
    return tuple(
        NoteGroup(message, tuple(metrics), tuple(systems), {s: tuple(d) for s, d in details.items() if d})
        for message, (metrics, systems, details) in grouped.items()
    )


@dataclass(frozen=True)
class StatisticsSettings:
    """How the statistics were computed: enough to reproduce every interval, p-value and coefficient.

    ``method``: the paired test (``None`` when none ran); ``baseline``: the system every other one was compared
    with (``None`` for all pairs); ``alpha``: the level of the tied groups; ``human``: where human scores came from;
    ``rouge_confidence``: the confidence level of rouge-score's bootstrap aggregate (``None`` when it did not run;
    it draws ``n_bootstrap`` samples with ``seed``, see :mod:`metrics.stats.rouge_bootstrap`).
    """

    seed: int
    n_bootstrap: int
    arithmetic: Arithmetic = "sacrebleu"
    method: Method | None = None
    baseline: str | None = None
    n_permutations: int | None = None
    all_pairs: bool = False
    alpha: float | None = None
    human: str | None = None
    rouge_confidence: float | None = None

    def __post_init__(self) -> None:
        if self.method == "ar" and self.n_permutations is None:
            raise ValueError("approximate randomization needs n_permutations")
        if self.all_pairs and (self.method is None or self.alpha is None):
            raise ValueError("all pairs need a test method and the alpha of the tied groups")

    @property
    def correction(self) -> str | None:
        """The multiple-comparison correction of ``p_corrected``: Holm–Bonferroni over all pairs of a metric."""
        return "holm" if self.all_pairs else None

    def signature_fields(self, intervals: bool) -> str:
        """sacrebleu's resampling fields (``bs:1000|seed:12345``) for signatures: the paired test's, else the
        intervals' (when there are any), else none."""
        if self.method == "ar":
            return f"ar:{self.n_permutations}|seed:{self.seed}"
        if self.method == "bs" or intervals:
            return f"bs:{self.n_bootstrap}|seed:{self.seed}"
        return ""


@dataclass(frozen=True)
class Statistics:
    """What :mod:`metrics.stats` computed on an evaluation, keyed by metric id: intervals per system, paired
    results, tied groups (best first), correlations with human scores and rouge-score's bootstrap aggregates per
    system, with the settings behind them. The ``metric`` labels inside the records are replaced by the metric id."""

    settings: StatisticsSettings
    intervals: Mapping[str, Mapping[str, Interval]] = field(default_factory=dict)
    pairs: Mapping[str, Sequence[PairResult]] = field(default_factory=dict)
    groups: Mapping[str, Sequence[Sequence[str]]] = field(default_factory=dict)
    correlations: Mapping[str, Sequence[Correlation]] = field(default_factory=dict)
    rouge_bootstrap: Mapping[str, Mapping[str, AggregateScore]] = field(default_factory=dict)


@dataclass(frozen=True)
class Results:
    """The results schema. Sections that were not computed are empty (``statistics`` is ``None`` when no
    statistics were asked for)."""

    metrics: tuple[MetricInfo, ...]
    systems: tuple[SystemScores, ...]
    comparisons: tuple[PairResult, ...] = ()
    groups: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    correlations: tuple[Correlation, ...] = ()
    notes: tuple[Note, ...] = ()
    statistics: StatisticsSettings | None = None
    title: str | None = None
    agreement: tuple[Agreement, ...] = ()

    @property
    def signatures(self) -> dict[str, str]:
        return {m.id: m.signature for m in self.metrics}

    def metric(self, metric_id: str) -> MetricInfo:
        for info in self.metrics:
            if info.id == metric_id:
                return info
        raise KeyError(f"no metric {metric_id!r}; metrics: {', '.join(m.id for m in self.metrics)}")

    def labels(self) -> dict[str, str]:
        return display_names({m.id: m.name for m in self.metrics})

    def best(self, metric_id: str) -> tuple[str, ...]:
        """The best system(s) under a metric (see :func:`best_systems`)."""
        values = {s.name: s.scores[metric_id] for s in self.systems}
        return tuple(best_systems(values, self.metric(metric_id).higher_is_better))


def display_names(names: Mapping[str, str]) -> dict[str, str]:
    """Display name per metric id (id → name); the id is appended where two metrics share a name (two option sets)."""
    counts = Counter(names.values())
    return {m: f"{name} [{m}]" if counts[name] > 1 else name for m, name in names.items()}


def best_systems(scores: Mapping[str, float], higher_is_better: bool) -> list[str]:
    """The system(s) with the best score (lowest for error rates), in input order; all of them on an exact tie.
    An undefined (NaN) score never wins."""
    defined = {name: value for name, value in scores.items() if not math.isnan(value)}
    if not defined:
        return []
    top = max(defined.values()) if higher_is_better else min(defined.values())
    return [name for name, value in defined.items() if value == top]


# ------------------------------------------------------------------------------------------------------- building


def metric_notes(evaluation: Evaluation) -> tuple[Note, ...]:
    """Every warning a metric attached to its statistics, once per (metric, kind), listing the systems it concerns
    and what it found on each."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    for metric_id in evaluation.metrics:
        for result in evaluation.systems:
            for note in result.stats[metric_id].notes:
                found.setdefault((metric_id, note.kind), {})[result.name] = note.detail
    return tuple(
        Note(kind, metric_id, tuple(details), {s: d for s, d in details.items() if d})
        for (metric_id, kind), details in found.items()
    )


def _with_fields(signature: str, extra: str) -> str:
    """sacrebleu puts the resampling fields right after ``nrefs``."""
    if not extra:
        return signature
    head, sep, tail = signature.partition("|")
    return f"{head}|{extra}|{tail}" if head.startswith("nrefs:") and sep else f"{extra}|{signature}"


def _check_keys(what: str, found: Sequence[str], known: Sequence[str]) -> None:
    unknown = [k for k in found if k not in known]
    if unknown:
        raise ValueError(f"{what} {', '.join(map(repr, unknown))} not in the evaluation ({', '.join(known)})")


def _checked(statistics: Statistics, evaluation: Evaluation) -> None:
    metric_ids = list(evaluation.metrics)
    names = [s.name for s in evaluation.systems]
    for part in (
        statistics.intervals,
        statistics.pairs,
        statistics.groups,
        statistics.correlations,
        statistics.rouge_bootstrap,
    ):
        _check_keys("metric", list(part), metric_ids)
    for by_system in (*statistics.intervals.values(), *statistics.rouge_bootstrap.values()):
        _check_keys("system", list(by_system), names)
    _check_keys("system", [n for ps in statistics.pairs.values() for p in ps for n in (p.baseline, p.system)], names)
    _check_keys("system", [n for gs in statistics.groups.values() for g in gs for n in g], names)
    if statistics.settings.baseline is not None:
        _check_keys("baseline", [statistics.settings.baseline], names)


def build_results(
    evaluation: Evaluation,
    statistics: Statistics | None = None,
    *,
    segments: bool = False,
    notes: Sequence[Note] = (),
    title: str | None = None,
    agreement: Sequence[Agreement] = (),
) -> Results:
    """The results of ``evaluation`` with ``statistics`` on it. ``notes`` (on the input) come before the metrics'
    own warnings; ``segments`` keeps every segment score; ``agreement``: human-agreement estimates of pairs.
    Statistics naming a metric or system the evaluation does not have are refused (they would describe other
    data)."""
    metric_ids = list(evaluation.metrics)
    intervals: Mapping[str, Mapping[str, Interval]] = {}
    rouge: Mapping[str, Mapping[str, AggregateScore]] = {}
    pairs: Mapping[str, Sequence[PairResult]] = {}
    groups: Mapping[str, Sequence[Sequence[str]]] = {}
    correlations: Mapping[str, Sequence[Correlation]] = {}
    extra = ""
    if statistics is not None:
        _checked(statistics, evaluation)
        intervals, pairs, groups = statistics.intervals, statistics.pairs, statistics.groups
        correlations, rouge = statistics.correlations, statistics.rouge_bootstrap
        extra = statistics.settings.signature_fields(any(intervals.values()))
    segment_signatures = evaluation.segment_signatures
    metrics = tuple(
        MetricInfo(
            m,
            metric.name,
            _with_fields(evaluation.signatures[m], extra),
            bool(metric.higher_is_better),
            segment_signatures[m],
        )
        for m, metric in evaluation.metrics.items()
    )
    systems = tuple(
        SystemScores(
            result.name,
            {m: float(result.scores[m]) for m in metric_ids},
            {m: intervals[m][result.name] for m in metric_ids if result.name in intervals.get(m, {})},
            {m: tuple(float(x) for x in result.segment_scores[m]) for m in metric_ids} if segments else None,
            {m: rouge[m][result.name] for m in metric_ids if result.name in rouge.get(m, {})},
        )
        for result in evaluation.systems
    )
    return Results(
        metrics=metrics,
        systems=systems,
        comparisons=tuple(replace(p, metric=m) for m in metric_ids for p in pairs.get(m, ())),
        groups={m: tuple(tuple(g) for g in groups[m]) for m in metric_ids if m in groups},
        correlations=tuple(replace(c, metric=m) for m in metric_ids for c in correlations.get(m, ())),
        notes=(*notes, *metric_notes(evaluation)),
        statistics=None if statistics is None else statistics.settings,
        title=title,
        agreement=tuple(agreement),
    )


# ----------------------------------------------------------------------------------------------------------- JSON


_INDENT = " "
_MANY_FLOATS = 64  # lists of floats this long are written together (below, NumPy's fixed costs outweigh it)


def json_text(document: Mapping[str, Any]) -> str:
    """``document`` as indented JSON (one space a level, non-ASCII as it is), with only JSON types: NumPy scalars
    are written as Python numbers, non-finite floats as ``null``, tuples as lists, keys as ``str(key)``.

    The text is byte for byte ``json.dumps(…, indent=1, ensure_ascii=False, allow_nan=False)`` of the document
    with those types, written here: with an indent, json's encoder is pure Python, a call per value, and the
    segment scores that are most of a document are long lists of floats. Those are written last, all at once,
    each distinct value's repr made once (69,000 ROUGE segment scores on CNN/DM hold 7,400 values)."""
    out: list[str] = []
    runs: list[_FloatRun] = []
    _write(document, 0, out, runs)
    if runs:
        texts = _float_texts(np.concatenate([np.array(run.values, dtype=np.float64) for run in runs]))
        start = 0
        for run in runs:
            out[run.at] = run.separator.join(texts[start : start + len(run.values)])
            start += len(run.values)
    out.append("\n")
    return "".join(out)


@dataclass(frozen=True)
class _FloatRun:
    """A long list of floats whose items go at ``out[at]``, joined by ``separator``."""

    at: int
    values: Sequence[float]
    separator: str


def _write(value: Any, level: int, out: list[str], runs: list[_FloatRun]) -> None:
    """Append the JSON of ``value`` at nesting ``level`` to ``out`` (see :func:`json_text`), except the items of
    long lists of floats: their place in ``out`` is kept for them and the list added to ``runs``."""
    if type(value) is float:  # first: segment scores are most of a document, and isinstance(Mapping) is slow
        out.append(float.__repr__(value) if math.isfinite(value) else "null")
    elif isinstance(value, Mapping):
        items = {str(k): v for k, v in value.items()}  # two keys with one str(): the last value, in the first's place
        if not items:
            out.append("{}")
            return
        newline = "\n" + _INDENT * (level + 1)
        for k, (key, item) in enumerate(items.items()):
            out.append(f"{',' if k else '{'}{newline}{encode_basestring(key)}: ")
            _write(item, level + 1, out, runs)
        out.append("\n" + _INDENT * level + "}")
    elif isinstance(value, list | tuple):
        if not value:
            out.append("[]")
            return
        newline = "\n" + _INDENT * (level + 1)
        out.append("[" + newline)
        if len(value) >= _MANY_FLOATS and set(map(type, value)) == {float}:
            runs.append(_FloatRun(len(out), value, "," + newline))
            out.append("")
        else:
            for k, item in enumerate(value):
                if k:
                    out.append("," + newline)
                _write(item, level + 1, out, runs)
        out.append("\n" + _INDENT * level + "]")
    elif value is None:
        out.append("null")
    elif isinstance(value, str):
        out.append(encode_basestring(value))
    elif isinstance(value, bool | np.bool_):
        out.append("true" if value else "false")
    elif isinstance(value, int | np.integer):
        out.append(int.__repr__(int(value)))
    elif isinstance(value, float | np.floating):
        number = float(value)
        out.append(float.__repr__(number) if math.isfinite(number) else "null")
    else:
        raise TypeError(f"{type(value).__name__} has no JSON form")


def _float_texts(values: np.ndarray) -> list[str]:
    """The JSON of each of ``values`` (float64), each distinct bit pattern's repr made once (bits, not values:
    -0.0 and 0.0 are written differently)."""
    distinct, where = np.unique(values.view(np.int64), return_inverse=True)
    texts = [float.__repr__(x) if math.isfinite(x) else "null" for x in distinct.view(np.float64).tolist()]
    return list(np.array(texts, dtype=object)[where.ravel()])


def header(results: Results) -> dict[str, Any]:
    """The keys every ScoreLens results document starts with."""
    return {
        "schema_version": SCHEMA_VERSION,
        "dataset": results.title,
        "signatures": results.signatures,
        "metrics": {
            m.id: {
                "name": m.name,
                "signature": m.signature,
                "segment_signature": m.segment_signature,
                "higher_is_better": m.higher_is_better,
            }
            for m in results.metrics
        },
    }


def _interval_json(iv: Interval) -> dict[str, Any]:
    return {"score": iv.score, "mean": iv.mean, "ci": [iv.lo, iv.hi], "half_width": iv.half_width}


def _aggregate_json(aggregate: AggregateScore) -> dict[str, Any]:
    from metrics.stats.rouge_bootstrap import MEASURES  # here: only rouge-score's bootstrap needs it

    return {part: {m: getattr(getattr(aggregate, part), m) for m in MEASURES} for part in ("low", "mid", "high")}


def _system_json(system: SystemScores, intervals: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": system.name, "scores": dict(system.scores)}
    if intervals:
        entry["intervals"] = {m: _interval_json(iv) for m, iv in system.intervals.items()}
    if system.segments is not None:
        entry["segments"] = {m: list(values) for m, values in system.segments.items()}
    if system.rouge_bootstrap:
        entry["rouge_bootstrap"] = {m: _aggregate_json(a) for m, a in system.rouge_bootstrap.items()}
    return entry


def json_document(results: Results) -> dict[str, Any]:
    """The JSON form: keys of sections that were not computed are left out."""
    intervals = any(s.intervals for s in results.systems)
    document = header(results)
    document["systems"] = [_system_json(s, intervals) for s in results.systems]
    if results.comparisons:
        document["pairs"] = [
            {
                "metric": p.metric,
                "baseline": p.baseline,
                "system": p.system,
                "method": p.method,
                "p_value": p.p_value,
                "p_corrected": p.p_corrected,
                "diff": p.diff,
                "diff_ci": list(p.diff_ci),
                "identical": p.identical,
            }
            for p in results.comparisons
        ]
    if results.groups:
        document["groups"] = {m: [list(g) for g in groups] for m, groups in results.groups.items()}
    if results.correlations:
        document["human"] = [
            {"metric": c.metric, "level": c.level, "method": c.method, "value": c.value, "ci": [c.lo, c.hi], "n": c.n}
            for c in results.correlations
        ]
    if results.agreement:
        document["agreement"] = [agreement_json(g) for g in results.agreement]
    document["notes"] = [
        {"metric": n.metric, "systems": list(n.systems), "message": n.message, "details": dict(n.details)}
        for n in results.notes
    ]
    settings = results.statistics
    if settings is not None:
        document["statistics"] = {
            "seed": settings.seed,
            "n_bootstrap": settings.n_bootstrap,
            "n_permutations": settings.n_permutations,
            "arithmetic": settings.arithmetic,
            "method": settings.method,
            "baseline": settings.baseline,
            "all_pairs": settings.all_pairs,
            "alpha": settings.alpha,
            "correction": settings.correction,
            "human": settings.human,
            "rouge_confidence": settings.rouge_confidence,
        }
    return document


def agreement_json(g: Agreement) -> dict[str, Any]:
    """One pair's human-agreement estimate (:mod:`metrics.analysis.agreement`): the share (0–1) of WMT system pairs
    with a difference this large on which humans agreed with the metric's order — not a probability that ``a`` is
    better; ``fit``: the mt-thresholds fit it came from."""
    return {
        "metric": g.metric,
        "a": g.a,
        "b": g.b,
        "delta": g.delta,
        "human_agreement": g.human_agreement,
        "p_value": g.p_value,
        "fit": g.fit,
    }


def to_json(results: Results) -> str:
    return json_text(json_document(results))


# ------------------------------------------------------------------------------------------------------------ CSV


def csv_cell(value: Cell) -> str:
    """One CSV cell: numbers as their shortest exact repr, booleans as in JSON, non-finite numbers and ``None``
    empty."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        return str(int(value))
    number = float(value)
    return repr(number) if math.isfinite(number) else ""


@dataclass(frozen=True)
class Table:
    """One long (tidy) table: a row per observation, named columns."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.name}: a row of {len(row)} cells for {len(self.columns)} columns")

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows([csv_cell(v) for v in row] for row in self.rows)
        return out.getvalue()


def _score_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    for m in results.metrics:
        for s in results.systems:
            iv = s.intervals.get(m.id)
            bounds = (None,) * 4 if iv is None else (iv.mean, iv.lo, iv.hi, iv.half_width)
            yield (m.id, m.name, m.higher_is_better, s.name, s.scores[m.id], *bounds, m.signature)


def _segment_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    for m in results.metrics:
        for s in results.systems:
            if s.segments is not None:
                rows = enumerate(s.segments[m.id])
                yield from ((m.id, s.name, i, i + 1, value, m.segment_signature) for i, value in rows)


def _comparison_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    sig = results.signatures
    for p in results.comparisons:
        yield (
            p.metric, p.baseline, p.system, p.method, p.p_value, p.p_corrected, p.diff, *p.diff_ci, p.identical,
            sig[p.metric],
        )  # fmt: skip


def _group_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    for m, groups in results.groups.items():
        for rank, members in enumerate(groups, start=1):
            yield from ((m, rank, system, results.signatures[m]) for system in members)


def _human_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    sig = results.signatures
    for c in results.correlations:
        yield (c.metric, c.level, c.method, c.value, c.lo, c.hi, c.n, sig[c.metric])


def _rouge_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    from metrics.stats.rouge_bootstrap import MEASURES  # here: only rouge-score's bootstrap needs it

    s = results.statistics
    for m in results.metrics:
        for system in results.systems:
            aggregate = system.rouge_bootstrap.get(m.id)
            if aggregate is None or s is None:
                continue
            for measure in MEASURES:
                bounds = tuple(getattr(getattr(aggregate, part), measure) for part in ("low", "mid", "high"))
                yield (m.id, system.name, measure, *bounds, s.rouge_confidence, s.n_bootstrap, s.seed, m.signature)


def _agreement_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    sig = results.signatures
    for g in results.agreement:
        yield (g.metric, g.a, g.b, g.delta, g.p_value, g.human_agreement, g.fit, sig[g.metric])


AGREEMENT_COLUMNS = ("metric", "a", "b", "delta", "p_value", "human_agreement", "fit", "signature")


def _note_rows(results: Results) -> Iterator[tuple[Cell, ...]]:
    for n in results.notes:
        yield from ((n.metric, system, n.message, n.details.get(system or "", "")) for system in (n.systems or (None,)))


TABLES: tuple[tuple[str, tuple[str, ...], Callable[[Results], Iterator[tuple[Cell, ...]]]], ...] = (
    (
        "scores",
        (
            "metric",
            "metric_name",
            "higher_is_better",
            "system",
            "score",
            "mean",
            "ci_lo",
            "ci_hi",
            "half_width",
            "signature",
        ),
        _score_rows,
    ),
    ("segments", ("metric", "system", "segment", "line", "score", "signature"), _segment_rows),
    (
        "comparisons",
        (
            "metric",
            "baseline",
            "system",
            "method",
            "p_value",
            "p_corrected",
            "diff",
            "diff_ci_lo",
            "diff_ci_hi",
            "identical",
            "signature",
        ),
        _comparison_rows,
    ),
    ("groups", ("metric", "group", "system", "signature"), _group_rows),
    ("human", ("metric", "level", "method", "value", "ci_lo", "ci_hi", "n", "signature"), _human_rows),
    ("agreement", AGREEMENT_COLUMNS, _agreement_rows),
    (
        "rouge_bootstrap",
        ("metric", "system", "measure", "low", "mid", "high", "confidence", "n_samples", "seed", "signature"),
        _rouge_rows,
    ),
    ("notes", ("metric", "system", "message", "detail"), _note_rows),
)


def tables(results: Results) -> tuple[Table, ...]:
    """The CSV tables of :data:`TABLES`, each row of numbers carrying its metric's signature: ``scores`` always;
    ``segments`` (``segment``: 0-based index; ``line``: 1-based line number), ``comparisons``, ``groups`` (1 = best), ``human``, ``agreement`` (the
    human-agreement estimate of each compared pair), ``rouge_bootstrap`` and ``notes`` when they have rows."""
    found = (Table(name, columns, tuple(rows(results))) for name, columns, rows in TABLES)
    return tuple(t for t in found if t.name == "scores" or t.rows)


def to_csv(results: Results) -> str:
    """Every table, one after another, separated by an empty line (each starts with its header row)."""
    return "\n".join(t.to_csv() for t in tables(results))
