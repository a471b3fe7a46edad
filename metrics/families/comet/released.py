"""The COMET-family checkpoints Unbabel released, and which of them a human-agreement estimate belongs to.

mt-thresholds 1.0.4 (Kocmi et al. 2024, :mod:`metrics.analysis.agreement`) fitted its estimates on the scores of
these released models over WMT's system pairs. A fit describes that model's score scale, not the architecture: a
checkpoint trained or seeded otherwise (a fine-tune, the small MiniLM checkpoints of the tests) scores on a scale of
its own, and reading its differences through COMET-22's curve would print an agreement nobody measured. So a COMET
metric gets a fit only when its checkpoint *is* the released model, which ScoreLens tells from two things it can
read without the network:

* its **name**: the hub id (``Unbabel/wmt22-comet-da``), the folder ``huggingface-cli download … --local-dir``
  made (``…/wmt22-comet-da``), or a hub cache's snapshot folder (``…/models--Unbabel--wmt22-comet-da/snapshots/…``);
* its **hparams.yaml**: the estimator class (``class_identifier``) and the encoder it was built on
  (``pretrained_model``) must be the released model's, so that a folder merely named so is not taken for it.

The estimates are on 0–100 points while COMET scores run on 0–1, so differences are read ×100, as for external COMET
scores (:mod:`metrics.families.external.fits`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from metrics.core.family import Fit, FitSource
from metrics.core.models import ModelUnavailable
from metrics.families.comet.checkpoint import HPARAMS, checkpoint_folder
from metrics.families.comet.explanation import Estimator

SCALE = 100.0  # fits take points on 0–100; COMET scores are on 0–1


@dataclass(frozen=True)
class Released:
    """One released checkpoint: its hub id, estimator, the encoder its ``hparams.yaml`` names, the mt-thresholds
    fit of its scores, its licence, and whether the hub asks users to accept that licence before downloading."""

    hub_id: str
    estimator: Estimator
    encoder: str
    fit: str
    licence: str
    gated: bool

    @property
    def name(self) -> str:
        return self.hub_id.split("/", 1)[1]


NON_COMMERCIAL = "CC BY-NC-SA 4.0"
RELEASED = (
    Released("Unbabel/wmt22-comet-da", Estimator.REGRESSION, "xlm-roberta-large", "comet22", "Apache-2.0", False),
    Released(
        "Unbabel/wmt22-cometkiwi-da", Estimator.UNIFIED, "microsoft/infoxlm-large", "cometkiwi22", NON_COMMERCIAL, True
    ),
    Released(
        "Unbabel/wmt23-cometkiwi-da-xl",
        Estimator.UNIFIED,
        "facebook/xlm-roberta-xl",
        "cometkiwi23-xl-src",
        NON_COMMERCIAL,
        True,
    ),
    Released(
        "Unbabel/wmt23-cometkiwi-da-xxl",
        Estimator.UNIFIED,
        "facebook/xlm-roberta-xxl",
        "cometkiwixxl",
        NON_COMMERCIAL,
        True,
    ),
    Released("Unbabel/XCOMET-XL", Estimator.XCOMET, "facebook/xlm-roberta-xl", "xcometxl", NON_COMMERCIAL, True),
    Released("Unbabel/XCOMET-XXL", Estimator.XCOMET, "facebook/xlm-roberta-xxl", "xcometxxl", NON_COMMERCIAL, True),
)
_BY_NAME = {released.name.lower(): released for released in RELEASED}
_CACHE_FOLDER = re.compile(r"^models--([^/]+)--([^/]+)$")  # huggingface_hub's cache: models--<owner>--<name>


@dataclass(frozen=True)
class ModelFit:
    """The human-agreement fit a COMET checkpoint gets (``None`` for none) and why, in a sentence for a page."""

    fit: Fit | None
    reason: str


def model_name(model: str) -> str:
    """The name a model option gives its checkpoint: a hub id's name, a folder's name, or for a snapshot folder of
    a hub cache the model it caches (``…/models--Unbabel--XCOMET-XL/snapshots/<commit>`` → ``XCOMET-XL``)."""
    parts = PurePath(model.rstrip("/\\")).parts
    for part in reversed(parts):
        cached = _CACHE_FOLDER.match(part)
        if cached:
            return cached.group(2)
    return parts[-1] if parts else model


def _encoder(name: str) -> str:
    """An encoder name without its owner, in lower case (``FacebookAI/xlm-roberta-large`` → ``xlm-roberta-large``)."""
    return name.rstrip("/").rsplit("/", 1)[-1].lower()


def checkpoint_fit(model: str) -> ModelFit:
    """The fit of the checkpoint the ``model`` option names, from its name and its ``hparams.yaml`` alone (the
    weights are not read: on the dask engine the client never loads the model)."""
    import yaml

    try:
        found = checkpoint_folder(model)
    except ModelUnavailable as error:
        return ModelFit(None, f"the checkpoint cannot be read here ({error})")
    folder = found if found.is_dir() else found.parents[1] if found.parent.name == "checkpoints" else found.parent
    with (folder / HPARAMS).open(encoding="utf-8") as handle:
        hparams = yaml.safe_load(handle)
    declared = str(hparams.get("class_identifier", "")) if isinstance(hparams, dict) else ""
    if declared not in {e.value for e in Estimator}:
        return ModelFit(None, f"its hparams.yaml declares the estimator {declared!r}, which no fit belongs to")
    return released_fit(model, Estimator(declared), str(hparams.get("pretrained_model", "")))


def released_fit(model: str, estimator: Estimator, encoder: str) -> ModelFit:
    """The fit of the checkpoint that ``model`` (hub id or folder) names, whose ``hparams.yaml`` declares
    ``estimator`` and the encoder ``encoder`` (``pretrained_model``): see the module docstring."""
    name = model_name(model)
    released = _BY_NAME.get(name.lower())
    if released is None:
        known = ", ".join(r.name for r in RELEASED)
        return ModelFit(
            None,
            f"mt-thresholds fitted the released models ({known}), and {name!r} is none of them; another "
            "checkpoint's scores lie on a scale of their own",
        )
    if estimator is not released.estimator or _encoder(encoder) != _encoder(released.encoder):
        return ModelFit(
            None,
            f"{name!r} is named as the released {released.hub_id}, but its hparams.yaml "
            f"declares a {estimator.value} on {encoder!r}, not the released {released.estimator.value} on "
            f"{released.encoder!r}",
        )
    return ModelFit(
        Fit(released.fit, SCALE, FitSource.MODEL),
        f"the released {released.hub_id}, fitted by mt-thresholds as {released.fit}",
    )
