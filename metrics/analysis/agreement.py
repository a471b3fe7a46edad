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

Only metrics the package covers get an estimate: ScoreLens ids map to its names in :data:`THRESHOLD_NAMES`, on the
scale it was fitted on (BLEU and chrF points, 0–100), and only with the configuration it was fitted with —
sacrebleu's BLEU with its options at their defaults, and chrF2 at its defaults. WMT scored BLEU with sacrebleu's
tokenizer for the target language, so on Chinese, Japanese or Korean references (``language``, from
:func:`metrics.core.language.detect_language`) BLEU is covered only with ``zh``, ``ja-mecab`` or ``ko-mecab``: a
``13a`` BLEU there counts runs of characters as words and sits on another scale. A metric that arrives later (COMET, BLEURT, BERTScore as external scores) adds its id here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import mt_thresholds

from metrics.core.base import Metric
from metrics.core.language import SACREBLEU_TOKENIZER, Language
from metrics.families.bleu.metric import BLEU, BLEUConfig
from metrics.families.chrf.metric import CHRF, CHRFConfig

THRESHOLD_NAMES: Mapping[str, str] = {"bleu": "bleu", "chrf": "chrf"}
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


def _fitted_configuration(metric: Metric, language: Language | None) -> bool:
    """The metric is configured as the estimate was fitted: sacrebleu defaults, BLEU with the target language's
    tokenizer on CJK references (any tokenizer elsewhere: WMT's other targets used 13a or its equivalents)."""
    config = metric.config
    if type(metric) is BLEU:
        if language is not None and config.tokenize != SACREBLEU_TOKENIZER[language]:
            return False
        return config == dataclasses.replace(BLEUConfig(), tokenize=config.tokenize)
    if type(metric) is CHRF:
        return config == CHRFConfig()
    return False


def threshold_name(metric_id: str, metric: Metric, language: Language | None = None) -> str | None:
    """The package's name for ``metric``, or ``None`` when it has no estimate for it as configured on references
    in ``language`` (``None``: not CJK)."""
    name = THRESHOLD_NAMES.get(metric_id)
    if name is None or name not in mt_thresholds.METRICS or not _fitted_configuration(metric, language):
        return None
    return name


def human_agreement(name: str, delta: float) -> float:
    """Estimated share (0–1) of human judgements agreeing with a metric difference of size ``|delta|``."""
    return float(mt_thresholds.accuracy(abs(float(delta)), name)) / 100.0


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
        name = threshold_name(metric_id, metric, language)
        if name is None:
            continue
        for a, b in pairs:
            if a == b:
                raise ValueError(f"a system compared with itself ({a!r}) has no difference to judge")
            delta = scores[a][metric_id] - scores[b][metric_id]
            p = None if p_values is None else p_values.get((metric_id, a, b), p_values.get((metric_id, b, a)))
            estimate = None if delta == 0 else human_agreement(name, delta)
            found.append(Agreement(metric_id, a, b, delta, estimate, p))
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
