"""From an evaluation and human scores to a meta-evaluation document (:mod:`metrics.reports.meta`): what
``scorelens meta`` and the app's Meta-evaluation page both run.

The systems meta-evaluated are those with a human score on at least one segment of the scope. Each metric's
segment scores are its own (computed or external); its system score is its corpus score over the scope's segments
(BLEU's pooled n-gram counts, an external metric's mean), rated or not, as WMT's metric files score the whole test
set or domain while the humans' system score is the mean over the rated segments. A corpus score that is not a mean
of segment scores cannot be resampled from them: :mod:`metrics.meta` keeps it fixed across resamples, so the
document gives no interval for that metric's system deltas (the humans' side still has one). The statistics take higher as
better: an error rate (TER) enters negated, and the document gives its numbers back in its own units.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.core.evaluation import Evaluation
from metrics.meta import Comparison, MetaInput, MetaSettings, Statistic, compare_metrics, meta_evaluate
from metrics.meta.evaluate import WMT_STATISTICS
from metrics.reports.meta import MetaDocument, Scope
from metrics.reports.results import MetricInfo
from metrics.stats.human import HumanScores


def metric_infos(evaluation: Evaluation) -> tuple[MetricInfo, ...]:
    return tuple(
        MetricInfo(
            m, metric.name, evaluation.signatures[m], bool(metric.higher_is_better), evaluation.segment_signatures[m]
        )  # fmt: skip
        for m, metric in evaluation.metrics.items()
    )


def scoped_input(evaluation: Evaluation, human: HumanScores, scope: Scope) -> tuple[MetaInput, list[str]]:
    """The scores of the scope's segments, oriented higher-is-better, and notes on the systems left out."""
    index = np.asarray(scope.segments, dtype=np.intp)
    loaded = [r.name for r in evaluation.systems]
    if index[-1] >= len(evaluation.systems[0].segment_scores[next(iter(evaluation.metrics))]):
        raise ValueError(f"{scope.label}: segment {index[-1] + 1} is beyond the loaded segments")
    judged = [s for s in loaded if s in human.scores and not np.isnan(human.scores[s][index]).all()]
    notes = []
    unjudged = [s for s in loaded if s not in judged]
    if unjudged:
        notes.append(f"no human score on {scope.label} for {', '.join(unjudged)}: left out")
    if len(judged) < 2:
        raise ValueError(
            f"a meta-evaluation needs human scores of at least two loaded systems on {scope.label}; "
            f"{len(judged)} ha{'s' if len(judged) == 1 else 've'} them ({', '.join(judged) or 'none'})"
        )
    signs = {m: 1.0 if metric.higher_is_better else -1.0 for m, metric in evaluation.metrics.items()}
    segment_scores = {
        m: np.array([evaluation.system(s).segment_scores[m][index] for s in judged]) * signs[m]
        for m in evaluation.metrics
    }
    corpus = {
        m: np.array([_corpus_score(evaluation, s, m, index) for s in judged]) * signs[m] for m in evaluation.metrics
    }
    # Only a corpus score that is not the mean of the segment scores (BLEU's pooled counts) is passed as the
    # metric's own: the statistics resample means themselves, so a mean metric keeps its bootstrap intervals.
    own = {m: v for m, v in corpus.items() if not np.allclose(v, segment_scores[m].mean(axis=1), rtol=1e-12, atol=0)}
    data = MetaInput(tuple(judged), np.array([human.scores[s][index] for s in judged]), segment_scores, own)
    return data, notes


def _corpus_score(evaluation: Evaluation, system: str, metric_id: str, index: np.ndarray) -> float:
    """The metric's corpus score of ``system`` over the segments ``index`` (its pooled statistics of those rows)."""
    metric = evaluation.metrics[metric_id]
    stats = evaluation.system(system).stats[metric_id]
    return float(metric.score_pooled(stats.pooled(index)))


def meta_document(
    evaluation: Evaluation,
    human: HumanScores,
    scope: Scope,
    settings: MetaSettings,
    *,
    title: str = "",
    notes: Sequence[str] = (),
    statistics: Sequence[Statistic] = WMT_STATISTICS,
) -> MetaDocument:
    """Meta-evaluate every metric of ``evaluation`` against ``human`` on ``scope``, comparing the metrics by
    permutation tests on each of ``statistics`` (WMT's by default; none: no clusters, the slow part)."""
    data, found = scoped_input(evaluation, human, scope)
    report = meta_evaluate(data, settings, statistics)
    fixed = frozenset(data.system_scores)
    return MetaDocument(report, scope, metric_infos(evaluation), title, human.source, (*notes, *found), fixed)


def comparisons(
    evaluation: Evaluation,
    human: HumanScores,
    scope: Scope,
    settings: MetaSettings,
    statistics: Sequence[Statistic] = WMT_STATISTICS,
) -> dict[Statistic, Comparison]:
    """The metrics compared on each of ``statistics`` (:func:`metrics.meta.compare_metrics`) on the input of
    :func:`meta_document`: what it adds to a document computed without them."""
    data, _ = scoped_input(evaluation, human, scope)
    return {s: compare_metrics(data, s, settings) for s in dict.fromkeys(statistics)}
