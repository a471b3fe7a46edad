"""How far a difference in a metric can be trusted: the estimated share of human pairwise judgements that agree
with the metric on which of two systems is better, given the size of the difference.

The estimate is Kocmi et al. 2024, "Navigating the Metrics Maze: Reconciling Score Magnitudes and Accuracies"
(ACL), as its package ``mt-thresholds`` 1.0.4 gives it: ``mt_thresholds.accuracy(delta, metric)`` is a logistic
fit, ``a / (1 + e^(−b·Δ))`` in percent, of how often humans agreed with the metric's order over the system pairs of
WMT evaluations. It answers a different question than a p-value: a paired test says whether the difference would
survive other test sentences; this says how often a difference this large between two real systems matched what
human raters preferred. Both are shown side by side. The fit takes the size of the difference, so the estimate
uses ``|Δ|``; ``delta`` keeps its sign (``score(a) − score(b)``). A difference of exactly 0 (identical outputs,
or a tie) prefers neither system, so there is no preference for humans to agree with: its estimate is ``None``
(the fit's value at 0, about 44 %, would read as a verdict).

What the estimate is, and is not: the share of WMT system pairs, among those whose metric difference was about
this large, on which human raters preferred the system the metric preferred — the accuracy of the difference's sign
at that size. It is not a probability that A is better than B. Its shape follows the fit: ``a / (1 + e^(−b·Δ))``
is ``a/2`` at Δ → 0, so a small difference reads *below* 50 % (BLEU: 44.2 % near 0, under 50 % up to Δ 0.27 — no
better than a coin), and it saturates at ``a`` (:func:`ceiling`: BLEU 88.3 %, chrF 93.0 %), however large the
difference.

Only metrics the package covers get an estimate (:func:`fit_for`):

* a computed metric when its family declares a fit for its id (``Family.agreement_fits``), on the scale it was
  fitted on (points, 0–100), and only with the configuration it was fitted with — the metric's defaults, except the
  options the fit names as free. WMT scored each target language with its own settings, so on Chinese, Japanese or
  Korean references (``language``, from :func:`metrics.core.language.detect_language`) a free option that the
  family's language options set for that language must have that value: a word tokenizer's score there counts runs
  of characters as words and sits on another scale. A metric that arrives later declares its fit in its family.
* a metric whose fit belongs to the instance (:class:`~metrics.core.base.DeclaresFit`): external scores, whose
  declaration names a fit or whose name is one of the package's (``comet22``, ``COMET-22``, ``xcomet-xl``,
  ``metricx-23``; :mod:`metrics.families.external.fits`), read on the fit's scale (:attr:`Fit.scale`); a COMET
  metric, whose fit is that of the released model it loaded and none for any other checkpoint
  (:mod:`metrics.families.comet.released`; :func:`no_fit_reason` says why not).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import mt_thresholds

from metrics.core.base import DeclaresFit, Metric
from metrics.core.config import build_config
from metrics.core.family import AgreementFit, Family, Fit, FitSource, Language
from metrics.core.registry import families, spec_for

SOURCE = "Kocmi et al. 2024, mt-thresholds 1.0.4"


@dataclass(frozen=True)
class Agreement:
    """One pair of systems under one metric: ``delta = score(a) − score(b)``, the estimated human agreement (0–1)
    for a difference that large (``None`` for no difference), and the paired test's p-value on the same pair when
    one was run."""

    metric: str
    a: str
    b: str
    delta: float
    human_agreement: float | None
    p_value: float | None = None
    fit: str | None = None


def _fits() -> dict[str, tuple[Family, AgreementFit]]:
    """Metric id → its family and fit, for every id a family declares a fit for."""
    return {metric_id: (family, fit) for family in families() for metric_id, fit in family.agreement_fits.items()}


def _fitted_configuration(
    metric_id: str, metric: Metric, family: Family, fit: AgreementFit, language: Language | None
) -> bool:
    """``metric`` is configured as the estimate was fitted (module docstring)."""
    spec = spec_for(metric_id)
    if type(metric) is not spec.cls:
        return False
    config = metric.config
    pinned = family.language_values(metric_id, language)
    if any(name in pinned and getattr(config, name) != pinned[name] for name in fit.free):
        return False
    free = {name: getattr(config, name) for name in fit.free}
    return bool(config == dataclasses.replace(build_config(spec.cls.Config, spec.preset), **free))


def fit_for(metric_id: str, metric: Metric, language: Language | None = None) -> Fit | None:
    """The fit ``metric`` gets (module docstring), or ``None`` when there is none for it as configured on
    references in ``language`` (``None``: not CJK)."""
    if isinstance(metric, DeclaresFit):
        return metric.agreement_fit()
    found = _fits().get(metric_id)
    if found is None:
        return None
    family, fit = found
    if fit.name not in mt_thresholds.METRICS or not _fitted_configuration(metric_id, metric, family, fit, language):
        return None
    return Fit(fit.name, 1.0, FitSource.FAMILY)


def no_fit_reason(metric: Metric) -> str:
    """Why ``metric`` gets no fit, where it says more than that none is declared (:meth:`DeclaresFit.fit_reason`);
    ``""`` otherwise."""
    return metric.fit_reason() if isinstance(metric, DeclaresFit) and metric.agreement_fit() is None else ""


def threshold_name(metric_id: str, metric: Metric, language: Language | None = None) -> str | None:
    """The package's name for ``metric``'s fit, or ``None`` (:func:`fit_for`)."""
    fit = fit_for(metric_id, metric, language)
    return None if fit is None else fit.name


def human_agreement(name: str, delta: float) -> float:
    """Estimated share (0–1) of human judgements agreeing with a metric difference of size ``|delta|`` (in the
    fit's units)."""
    return float(mt_thresholds.accuracy(abs(float(delta)), name)) / 100.0


def ceiling(name: str) -> float:
    """The most the fit ever estimates (0–1), its limit for a large difference: ``a`` of ``a/(1 + e^(−b·Δ))``."""
    return float(mt_thresholds.accuracy(math.inf, name)) / 100.0


def agreements(
    metrics: Mapping[str, Metric],
    scores: Mapping[str, Mapping[str, float]],
    pairs: Sequence[tuple[str, str]],
    p_values: Mapping[tuple[str, str, str], float] | None = None,
    language: Language | None = None,
) -> tuple[Agreement, ...]:
    """The estimate for every ``(a, b)`` pair under every covered metric (``scores[system][metric_id]``);
    ``p_values[(metric_id, a, b)]`` (either order) goes beside it. Uncovered metrics are left out."""
    found = []
    for metric_id, metric in metrics.items():
        fit = fit_for(metric_id, metric, language)
        if fit is None:
            continue
        for a, b in pairs:
            if a == b:
                raise ValueError(f"a system compared with itself ({a!r}) has no difference to judge")
            delta = scores[a][metric_id] - scores[b][metric_id]
            p = None if p_values is None else p_values.get((metric_id, a, b), p_values.get((metric_id, b, a)))
            estimate = None if delta == 0 else human_agreement(fit.name, delta * fit.scale)
            found.append(Agreement(metric_id, a, b, delta, estimate, p, fit.name))
    return tuple(found)


def baseline_agreement(
    metrics: Mapping[str, Metric],
    scores: Mapping[str, Mapping[str, float]],
    baseline: str,
    language: Language | None = None,
) -> dict[tuple[str, str], float]:
    """``(system, metric_id)`` → the estimate for each system's difference to ``baseline`` (covered metrics; none
    where there is no difference)."""
    pairs = [(name, baseline) for name in scores if name != baseline]
    found = agreements(metrics, scores, pairs, language=language)
    return {(g.a, g.metric): g.human_agreement for g in found if g.human_agreement is not None}


def all_pairs(systems: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair in input order, the earlier system first (as the all-pairs test orders them)."""
    return [(a, b) for i, a in enumerate(systems) for b in systems[i + 1 :]]
