"""A COMET checkpoint read as unbabel-comet 2.2.7 lays it out, weights only.

unbabel-comet's models are folders (the hub's ``Unbabel/wmt22-comet-da`` and its kin) holding ``hparams.yaml`` and
``checkpoints/model.ckpt``: ``comet.models.load_from_checkpoint`` reads the YAML only for ``class_identifier`` (which
estimator), then builds the model from the hyper-parameters pickled in the Lightning checkpoint, each missing one
taking the estimator class's default, and loads the ``state_dict`` with ``strict=False``. This module does the same,
except that it never unpickles an arbitrary object: unbabel-comet calls ``torch.load(weights_only=False)``, which runs
whatever a checkpoint's pickle names; here ``torch.load(weights_only=True)`` admits tensors, containers and numbers,
plus harmless stand-ins for the few Lightning names a checkpoint holds (:data:`STAND_INS`), and a checkpoint naming
any other global is refused with an error that names it. A plain state-dict file (a ``.ckpt``, ``.pt`` or ``.bin``
holding only tensors) is accepted beside an ``hparams.yaml`` too, and then the YAML gives every hyper-parameter.

Lightning 2.x (pytorch-lightning 2.6, as the golden script here saves them) pickles ``hyper_parameters`` as a plain
dict and its other entries as dicts, lists and numbers: nothing beyond what ``weights_only`` admits. Lightning 1.x,
which wrote the released checkpoints, could pickle the hyper-parameters as its ``AttributeDict`` (a ``dict``
subclass): the stand-in for each of its import paths builds a plain dict, and runs no code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from metrics.core.models import ModelUnavailable, is_hub_id

HPARAMS = "hparams.yaml"
CHECKPOINT = Path("checkpoints") / "model.ckpt"
# What a COMET repository on the hub holds that this module reads: its settings and its weights.
CHECKPOINT_FILES = (HPARAMS, CHECKPOINT.as_posix())


class CheckpointRefused(ValueError):
    """A checkpoint whose pickle names a global outside the weights-only set and :data:`STAND_INS`."""


class AttributeDict(dict[str, Any]):
    """Stand-in for Lightning's ``AttributeDict``: unpickling one makes a plain ``dict`` (this ``__new__`` returns
    one: the weights-only unpickler fills only a plain dict's items), and runs no code of Lightning's."""

    def __new__(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:  # type: ignore[misc]
        return dict(*args, **kwargs)


# Lightning's import paths of AttributeDict over its versions (pytorch-lightning 1.x, lightning-fabric, lightning 2.x).
STAND_INS: tuple[tuple[type, str], ...] = tuple(
    (AttributeDict, name)
    for name in (
        "pytorch_lightning.utilities.parsing.AttributeDict",
        "lightning_fabric.utilities.data.AttributeDict",
        "lightning.fabric.utilities.data.AttributeDict",
        "lightning.pytorch.utilities.parsing.AttributeDict",
    )
)


@dataclass(frozen=True)
class Checkpoint:
    """A COMET checkpoint read: its folder (or the file, for a plain state dict beside an ``hparams.yaml``), the
    estimator's ``class_identifier``, the hyper-parameters the model is built from (the checkpoint's own, as
    unbabel-comet builds it, else the YAML's), and the weights (name → tensor)."""

    path: Path
    class_identifier: str
    hparams: Mapping[str, Any]
    state_dict: Mapping[str, Any]


def checkpoint_folder(name: str) -> Path:
    """The local folder of the COMET checkpoint ``name`` names: a folder with ``hparams.yaml`` (a ``.ckpt`` file in
    such a folder's ``checkpoints/``, or beside it, is taken too), or a hub id (``Unbabel/wmt22-comet-da``) already in
    the Hugging Face cache or downloaded into it (:class:`ModelUnavailable` saying how to get it otherwise)."""
    if not name:
        raise ModelUnavailable(
            "no COMET model given: name a checkpoint folder (hparams.yaml and checkpoints/model.ckpt) or a hub id "
            "such as Unbabel/wmt22-comet-da (Apache-2.0); the CometKiwi and xCOMET models (CC BY-NC-SA 4.0) are "
            "gated on the hub: accept their terms there and give your token (HF_TOKEN)"
        )
    if is_hub_id(name):
        return _hub_checkpoint(name)
    path = Path(name).expanduser()
    if path.is_file():
        return path
    if not path.is_dir():
        raise ModelUnavailable(f"COMET model folder {name!r} does not exist")
    if not (path / HPARAMS).is_file():
        raise ModelUnavailable(f"COMET model folder {name!r} has no {HPARAMS} (unbabel-comet's layout)")
    return path


def _hub_checkpoint(repo_id: str) -> Path:
    """A COMET repository of the hub in the user's cache, fetched there when the hub may be reached."""
    from huggingface_hub import constants, snapshot_download
    from huggingface_hub.errors import GatedRepoError, HfHubHTTPError, LocalEntryNotFoundError

    try:
        return Path(snapshot_download(repo_id, allow_patterns=list(CHECKPOINT_FILES), local_files_only=True))
    except LocalEntryNotFoundError:
        pass  # not cached yet
    advice = (
        f"download it where there is a network (`hf download {repo_id} --local-dir ./{repo_id.rsplit('/', 1)[-1]}`) "
        "and give that folder's path"
    )
    if constants.is_offline_mode():
        raise ModelUnavailable(f"COMET model {repo_id!r} is not in the Hugging Face cache and HF_HUB_OFFLINE is set: "
                               f"{advice}")  # fmt: skip
    try:
        return Path(snapshot_download(repo_id, allow_patterns=list(CHECKPOINT_FILES)))
    except GatedRepoError as error:
        raise ModelUnavailable(
            f"COMET model {repo_id!r} is gated on the Hugging Face hub: accept its licence (CC BY-NC-SA 4.0 for "
            "CometKiwi and xCOMET) on its hub page, then give your token (HF_TOKEN, or `hf auth login`)"
        ) from error
    except (HfHubHTTPError, LocalEntryNotFoundError) as error:
        raise ModelUnavailable(f"COMET model {repo_id!r} cannot be fetched ({error}): {advice}") from error


def read_checkpoint(path: Path) -> Checkpoint:
    """The checkpoint at ``path`` (:func:`checkpoint_folder`'s answer): its class, hyper-parameters and weights."""
    import yaml

    if path.is_dir():
        folder, weights = path, path / CHECKPOINT
    else:
        weights = path
        folder = path.parents[1] if path.parent.name == "checkpoints" else path.parent
    if not (folder / HPARAMS).is_file():
        raise ModelUnavailable(f"COMET checkpoint {str(path)!r}: no {HPARAMS} in {str(folder)!r}")
    if not weights.is_file():
        raise ModelUnavailable(f"COMET checkpoint {str(folder)!r} has no {CHECKPOINT.as_posix()}")
    with (folder / HPARAMS).open(encoding="utf-8") as handle:
        yaml_hparams = yaml.safe_load(handle)
    if not isinstance(yaml_hparams, dict) or "class_identifier" not in yaml_hparams:
        raise ValueError(f"{folder / HPARAMS}: not a COMET hparams.yaml (no class_identifier)")
    loaded = load_weights_only(weights)
    if isinstance(loaded, dict) and isinstance(loaded.get("state_dict"), dict):  # a Lightning checkpoint
        state_dict, pickled = loaded["state_dict"], loaded.get("hyper_parameters")
        hparams = dict(pickled) if isinstance(pickled, dict) else dict(yaml_hparams)
    elif isinstance(loaded, dict):
        state_dict, hparams = loaded, dict(yaml_hparams)
    else:
        raise ValueError(f"{weights}: holds a {type(loaded).__name__}, neither a checkpoint nor a state dict")
    return Checkpoint(folder, str(yaml_hparams["class_identifier"]), hparams, state_dict)


def load_weights_only(path: Path) -> Any:
    """``torch.load(path, weights_only=True)`` on the CPU, with :data:`STAND_INS` admitted; a checkpoint naming any
    other global is refused (:class:`CheckpointRefused`, naming it) before anything is unpickled."""
    import torch

    with path.open("rb") as handle:
        unsafe = set(torch.serialization.get_unsafe_globals_in_checkpoint(handle))
    foreign = sorted(unsafe - {name for _, name in STAND_INS})
    if foreign:
        raise CheckpointRefused(
            f"{path}: the checkpoint's pickle names {', '.join(foreign)}; ScoreLens loads weights only and does not "
            "unpickle arbitrary objects (save the model's state_dict, or the checkpoint with Lightning 2)"
        )
    with torch.serialization.safe_globals(list(STAND_INS)):
        return torch.load(path, weights_only=True, map_location="cpu")
