"""Human-agreement fits for every metric mt-thresholds covers: the estimate equals ``mt_thresholds.accuracy`` and
the paper's published threshold table; external scores find their fit by name or by declaration, on the fit's
scale; the reading says "≈ chance" where the fit is below a coin flip."""

from __future__ import annotations

import math

import mt_thresholds
import pytest

from metrics.analysis.agreement import agreements, ceiling, fit_for, human_agreement
from metrics.cli.external import parse_meta
from metrics.core.family import FitSource
from metrics.families.external import External, ExternalScores
from metrics.families.external.fits import ALIASES, fit_named
from metrics.families.external.scores import from_document, parse_external, to_document
from metrics.io.inputs import InputError
from rendering.analysis import agreement_text
from tests.support.paths import DATA

# Kocmi et al. 2024, Table 1 (github.com/kocmitom/MT-Thresholds, appendix/main_thresholds.tex): the delta each
# metric needs for an estimated accuracy of 50 %, 70 % and 90 % ("-": never reached), rounded as published.
PUBLISHED = {
    "bleu": (0.27, 1.39, None),
    "chrf": (0.14, 1.00, 3.05),
    "spbleu200": (0.25, 1.49, 5.57),
    "bleurt-default": (0.23, 2.11, 5.98),
    "bleurt20": (0.02, 0.66, 1.73),
    "comet20": (0.08, 1.29, 3.45),
    "comet22": (0.03, 0.35, 0.94),
    "comet21qe": (0.003, 0.025, 0.073),
    "cometkiwi22": (0.01, 0.33, 0.85),
    "xcometxxl": (0.02, 0.76, 1.99),
    "xcometxl": (0.05, 0.67, 1.80),
    "spbleu101": (0.29, 1.24, None),
    "cometkiwixxl": (0.06, 0.77, 2.08),
    "bertscore": (0.04, 0.38, 1.08),
    "cometkiwi23-xl-src": (0.04, 0.52, 1.40),
    "metricx-23-large": (0.01, 0.04, 0.12),
    "metricx-23-qe-large": (0.00, 0.06, 0.16),
}


def test_every_fit_of_the_package_is_in_the_published_table():
    assert set(PUBLISHED) == mt_thresholds.METRICS


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_estimate_is_the_package_and_the_published_thresholds(name):
    for delta in (0.0, 0.001, 0.03, 0.2, 0.5, 1.0, 2.5, 7.0, 40.0):
        for signed in (delta, -delta):
            assert human_agreement(name, signed) == mt_thresholds.accuracy(delta, name) / 100
    # the table rounds deltas to 2 (COMET-21-QE: 3) decimals: the target lies within the rounding of its delta
    half = 0.0005 if name == "comet21qe" else 0.005
    for target, delta in zip((0.5, 0.7, 0.9), PUBLISHED[name], strict=True):
        if delta is None:
            assert ceiling(name) < target + 0.05  # "-": the fit levels off near or below it
        else:
            low, high = human_agreement(name, max(delta - half, 0.0)), human_agreement(name, delta + half)
            assert low <= target <= high, (name, target, delta)
    assert ceiling(name) == pytest.approx(mt_thresholds.accuracy(1e6, name) / 100, abs=1e-12)


def test_the_fit_is_below_chance_for_small_differences_and_saturates():
    """The shape the page must not hide: BLEU reads 44 % near 0, under 50 % until Δ 0.27, and never above 88 %."""
    assert human_agreement("bleu", 1e-9) == pytest.approx(0.4417, abs=1e-4)
    assert human_agreement("bleu", 0.2) < 0.5 < human_agreement("bleu", 0.3)
    assert ceiling("bleu") == pytest.approx(0.8833, abs=1e-4) and ceiling("chrf") == pytest.approx(0.93, abs=1e-4)
    assert human_agreement("bleu", 100.0) == pytest.approx(ceiling("bleu"), abs=1e-12)
    assert agreement_text(human_agreement("bleu", 0.2)) == "≈ chance"
    assert agreement_text(0.5) == "≈50%" and agreement_text(0.8761) == "≈88%" and agreement_text(None) == ""


@pytest.mark.parametrize(
    ("name", "fit"),
    [
        ("comet22", "comet22"),
        ("COMET-22", "comet22"),
        ("Unbabel/wmt22-comet-da", "comet22"),
        ("comet22.scores", "comet22"),  # the default name of a file comet22.scores.jsonl
        ("xcomet-xl", "xcometxl"),
        ("XCOMET-XXL", "xcometxxl"),
        ("metricx-23", "metricx-23-large"),
        ("MetricX-23-QE", "metricx-23-qe-large"),
        ("BLEURT-20", "bleurt20"),
        ("CometKiwi-22", "cometkiwi22"),
        ("comet20", "comet20"),
        ("xcomet", None),  # XL or XXL: no guess
        ("cometkiwi", None),
        ("BLEU", None),  # made elsewhere with an unknown tokenizer
        ("chrF", None),
        ("judge", None),
    ],
)
def test_external_names_find_their_fit(name, fit):
    assert fit_named(name) == fit


def test_every_alias_names_a_fit_of_the_package():
    assert set(ALIASES.values()) <= mt_thresholds.METRICS


def _external(name: str, values: dict[str, tuple[float, ...]], fit: str = "", higher: bool = True) -> External:
    lines = {system: tuple(range(1, len(v) + 1)) for system, v in values.items()}
    return External(ExternalScores(name, "s.tsv", values, lines, higher_is_better=higher, fit=fit))


def test_external_scores_are_read_on_the_fits_scale():
    """COMET-22 on 0–1 (as its tool writes it) is read ×100, as the fit's points; on 0–100 as is; MetricX-23 on
    its own 0–25 scale, as its published thresholds are."""
    fraction = _external("comet22", {"a": (0.81, 0.83), "b": (0.80, 0.80)})
    points = _external("COMET-22", {"a": (81.0, 83.0), "b": (80.0, 80.0)})
    metricx = _external("metricx-23", {"a": (1.2, 0.8), "b": (1.1, 1.0)}, higher=False)
    assert fit_for("comet22", fraction).scale == 100.0
    assert fit_for("COMET-22", points).scale == 1.0 and fit_for("COMET-22", points).source is FitSource.NAME
    assert fit_for("metricx-23", metricx).scale == 1.0
    for metric, name in ((fraction, "comet22"), (points, "COMET-22"), (metricx, "metricx-23")):
        scores = {s: {name: sum(v) / len(v)} for s, v in metric.scores.scores.items()}
        (g,) = agreements({name: metric}, scores, [("a", "b")])
        delta = scores["a"][name] - scores["b"][name]
        scale = fit_for(name, metric).scale
        assert g.delta == delta and g.fit == fit_for(name, metric).name
        assert g.human_agreement == mt_thresholds.accuracy(abs(delta * scale), g.fit) / 100
    # 0.81 − 0.80 = one COMET-22 point, as 82 − 80 is two
    one_point = agreements({"comet22": fraction}, {"a": {"comet22": 0.82}, "b": {"comet22": 0.81}}, [("a", "b")])
    assert one_point[0].human_agreement == pytest.approx(mt_thresholds.accuracy(1.0, "comet22") / 100, abs=1e-12)


def test_a_declared_fit_wins_and_none_declares_no_estimate():
    scores = {"a": (0.5, 0.7), "b": (0.4, 0.6)}
    declared = _external("my-model", scores, fit="xcometXL")
    fit = fit_for("my-model", declared)
    assert fit is not None and (fit.name, fit.scale, fit.source) == ("xcometxl", 100.0, FitSource.DECLARED)
    assert fit_for("comet22", _external("comet22", scores, fit="none")) is None
    assert fit_for("judge", _external("judge", scores)) is None
    with pytest.raises(ValueError, match="fit 'comet23'"):
        _external("judge", scores, fit="comet23")


def test_the_fit_is_kept_by_the_workspace_the_parser_and_the_cli():
    data = (DATA / "wmt23-he-en" / "COMET-refB.seg.tsv").read_bytes()
    systems = sorted(p.stem for p in (DATA / "wmt23-he-en" / "sys").glob("*.txt"))
    parsed = parse_external(data, "COMET-refB.seg.tsv", "wmt23-comet", systems, 40, fit="comet22")
    assert parsed.fit == "comet22" and from_document(to_document(parsed), "ws").fit == "comet22"
    assert from_document({**to_document(parsed), "fit": ""}, "ws").fingerprint() != parsed.fingerprint()
    with pytest.raises(InputError, match="fit 'comet'"):
        parse_external(data, "COMET-refB.seg.tsv", "x", systems, 40, fit="comet")
    name, declared = parse_meta("mx:lower,fit=metricx-23-large,provenance=MetricX-23, large")
    assert (name, declared.fit, declared.higher_is_better, declared.provenance) == (
        "mx", "metricx-23-large", False, "MetricX-23, large",
    )  # fmt: skip
    assert not math.isnan(parsed.scores[systems[0]][0])
