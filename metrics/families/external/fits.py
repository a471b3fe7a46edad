"""Which human-agreement fit of mt-thresholds (Kocmi et al. 2024, :mod:`metrics.analysis.agreement`) external scores
take, and on which scale.

The declaration names it (``ExternalScores.fit``: a package name, or ``none``), or else the metric's name does:
the package's own names and the names people give these scores (:data:`ALIASES`), compared in lower case with
letters and digits only, whole or before the first ``.`` (a file ``comet22.scores.jsonl`` names its metric
``comet22.scores``). A name that could mean two fits (``xcomet``: XL or XXL; ``cometkiwi``) matches none, and
string metrics (BLEU, chrF, spBLEU) are never matched by name: scores made elsewhere under that name may have used
any tokenizer.

Scale: the package takes deltas on 0–100 for every metric but COMET-21-QE and the MetricX-23 models, whose
published thresholds (0.003–0.073; 0.01–0.22 on MetricX's 0–25 error scale) are on their own scale. Scores given
on 0–1 — every score within ±1.5, as the COMET tools write them — are read ×100 for the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import mt_thresholds

from metrics.core.family import Fit, FitSource

ALIASES = {
    "comet22da": "comet22",
    "wmt22cometda": "comet22",
    "wmt20cometda": "comet20",
    "wmt21cometqeda": "comet21qe",
    "wmt22cometkiwida": "cometkiwi22",
    "wmt23cometkiwidaxl": "cometkiwi23-xl-src",
    "wmt23cometkiwidaxxl": "cometkiwixxl",
    "cometkiwi23xl": "cometkiwi23-xl-src",
    "cometkiwi23xxl": "cometkiwixxl",
    "metricx23": "metricx-23-large",
    "metricx23qe": "metricx-23-qe-large",
    "bleurt": "bleurt-default",
}
NOT_BY_NAME = frozenset({"bleu", "chrf", "spbleu101", "spbleu200"})
OWN_SCALE = frozenset({"comet21qe", "metricx-23-large", "metricx-23-qe-large"})
FRACTION = 1.5  # scores all within ±1.5 are on 0–1, not points
NONE = "none"
FITS = tuple(sorted(mt_thresholds.METRICS))  # what a declaration may name


def normalized(name: str) -> str:
    """A metric name as it is matched: lower case, without an ``Unbabel/`` or ``google/`` prefix, letters and digits
    only (``COMET-22`` → ``comet22``, ``Unbabel/XCOMET-XL`` → ``xcometxl``)."""
    bare = name.strip().lower().removeprefix("unbabel/").removeprefix("google/")
    return re.sub(r"[^0-9a-z]", "", bare)


def fit_named(name: str) -> str | None:
    """The package's fit a metric called ``name`` matches, or ``None``."""
    known = {normalized(n): n for n in mt_thresholds.METRICS if n not in NOT_BY_NAME} | ALIASES
    for candidate in (name, name.split(".", 1)[0]):
        found = known.get(normalized(candidate))
        if found is not None:
            return found
    return None


def check_fit(fit: str) -> None:
    """A declared fit: ``""`` (match by name), ``"none"`` or one of the package's names (any case)."""
    if fit not in ("", NONE) and fit.lower() not in mt_thresholds.METRICS:
        raise ValueError(f"fit {fit!r}: use one of {', '.join(FITS)}, or {NONE}")


def external_fit(name: str, declared: str, scores: Iterable[float]) -> Fit | None:
    """The fit of external scores called ``name`` with the declared fit ``declared`` (module docstring)."""
    if declared == NONE:
        return None
    fit, source = (declared.lower(), FitSource.DECLARED) if declared else (fit_named(name), FitSource.NAME)
    if fit is None:
        return None
    fraction = fit not in OWN_SCALE and max((abs(v) for v in scores), default=0.0) <= FRACTION
    return Fit(fit, 100.0 if fraction else 1.0, source)
