"""Where a neural metric's model comes from: a local folder, or a Hugging Face hub id resolved into the user's cache.

A ``model`` option is either

* a **local folder** (an existing directory, or any value that looks like a path: it starts with ``/``, ``~`` or
  ``.``, or has more than one ``/``) — used as it is, offline; or
* a **hub id** — ``owner/name`` (``FacebookAI/roberta-large``) or a bare name (``roberta-large``). It is looked up
  in the user's Hugging Face cache first (``HF_HOME`` / ``HF_HUB_CACHE``, as ``huggingface_hub`` reads them), so a
  model downloaded once works offline; otherwise it is downloaded there with ``huggingface_hub.snapshot_download``
  (``HF_ENDPOINT``, ``HF_TOKEN`` or a ``hf auth login`` token, all as ``huggingface_hub`` reads them). Only the files
  of the model's :class:`Layout` are fetched: for a transformers model its configuration, tokenizer files and
  safetensors weights (the ``.bin`` weights only for a repository that has no safetensors), never TensorFlow, Flax,
  ONNX or GGUF copies; for a COMET checkpoint ``hparams.yaml`` and ``checkpoints/model.ckpt``.

With ``HF_HUB_OFFLINE=1``, with no network, or for a gated or private model without a token, :func:`model_folder`
raises :class:`ModelUnavailable` with a message that says what to download and where to put it. Loading the weights
is the metric's business; the loaders of this package read folders only (``local_files_only``) and load weights
only, never pickled objects.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

# A hub id as the hub spells repository names: an optional owner, then a name (letters, digits, ``-``, ``_``, ``.``).
HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?")


class Layout(Enum):
    """How a model's folder is laid out: the file that marks it, and the files fetched from the hub."""

    TRANSFORMERS = "transformers"  # config.json, tokenizer files, safetensors (else .bin) weights
    COMET = "comet"  # unbabel-comet's checkpoint: hparams.yaml and checkpoints/model.ckpt
    # A model's config and tokenizer without its weights: a COMET checkpoint holds its encoder's weights, so fetching
    # them (14 GB for XLM-R XL) would be for nothing.
    CONFIG = "config"

    @property
    def marker(self) -> str:
        return "hparams.yaml" if self is Layout.COMET else "config.json"

    @property
    def files(self) -> tuple[str, ...]:
        """The hub files to fetch (patterns)."""
        if self is Layout.COMET:
            return ("hparams.yaml", "checkpoints/model.ckpt")
        tokenizer = ("*.json", "*.txt", "*.model", "*.tiktoken")
        return tokenizer if self is Layout.CONFIG else (*tokenizer, "*.safetensors")

    @property
    def fallback(self) -> tuple[str, ...]:
        """Weights fetched only when :attr:`files` brought none (loaded with torch's ``weights_only``: tensors,
        never pickled objects)."""
        return ("*.bin",) if self is Layout.TRANSFORMERS else ()


class ModelUnavailable(ValueError):
    """A model option that names no usable model here; the message says what to do."""


def hub_offline() -> bool:
    """Whether huggingface_hub is in offline mode (``HF_HUB_OFFLINE``, read when it was first imported)."""
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def is_hub_id(name: str) -> bool:
    """Whether ``name`` is read as a hub id rather than a folder (an existing folder is always a folder)."""
    if Path(name).expanduser().is_dir() or name.startswith(("/", "~", ".")) or "\\" in name:
        return False
    return HUB_ID.fullmatch(name) is not None


def model_folder(name: str, layout: Layout = Layout.TRANSFORMERS) -> Path:
    """The local folder of the model ``name`` names (a folder, or a hub id resolved into the Hugging Face cache),
    laid out as ``layout`` says; :class:`ModelUnavailable` when there is none, saying how to get it."""
    if not name:
        raise ModelUnavailable("no model given: name a local Hugging Face model folder or a hub id")
    if not is_hub_id(name):
        path = Path(name).expanduser()
        if not path.is_dir():
            raise ModelUnavailable(f"model folder {name!r} does not exist")
        if not (path / layout.marker).is_file():
            raise ModelUnavailable(f"model folder {name!r}: not a local {_kind(layout)} folder (no {layout.marker})")
        return path
    return _hub_folder(name, layout)


def _kind(layout: Layout) -> str:
    return "COMET checkpoint" if layout is Layout.COMET else "Hugging Face model"


def _hub_folder(repo_id: str, layout: Layout) -> Path:
    from huggingface_hub.errors import GatedRepoError, HfHubHTTPError, LocalEntryNotFoundError, RepositoryNotFoundError

    try:
        return _snapshot(repo_id, layout, local_only=True)
    except LocalEntryNotFoundError:
        pass  # not in the cache (or not complete there): download it, if the hub may be reached
    if hub_offline():
        raise ModelUnavailable(_fetch_advice(repo_id, "it is not in the Hugging Face cache and HF_HUB_OFFLINE is set"))
    try:
        return _snapshot(repo_id, layout, local_only=False)
    except GatedRepoError as error:
        raise ModelUnavailable(
            f"model {repo_id!r} is gated on the Hugging Face hub: accept its terms on its hub page, then give your "
            "token (the environment variable HF_TOKEN, or `hf auth login`)"
        ) from error
    except RepositoryNotFoundError as error:
        raise ModelUnavailable(
            f"model {repo_id!r}: the Hugging Face hub has no such model, or it is private and needs your token "
            "(HF_TOKEN, or `hf auth login`); a local folder is given by its path (./name)"
        ) from error
    except (HfHubHTTPError, LocalEntryNotFoundError) as error:
        # snapshot_download answers a hub it cannot reach, and most refusals, with LocalEntryNotFoundError caused
        # by what the hub said (nothing, when it could not be reached)
        said = error if isinstance(error, HfHubHTTPError) else error.__cause__
        status = said.response.status_code if isinstance(said, HfHubHTTPError) and said.response is not None else None
        if status in (401, 403):
            raise ModelUnavailable(
                f"model {repo_id!r}: the Hugging Face hub refused access ({status}); a gated or private model needs "
                "your token (HF_TOKEN, or `hf auth login`) and, if gated, its terms accepted on its hub page"
            ) from error
        why = "the Hugging Face hub cannot be reached" if status is None else f"the Hugging Face hub answered {status}"
        raise ModelUnavailable(_fetch_advice(repo_id, why)) from error


def _snapshot(repo_id: str, layout: Layout, local_only: bool) -> Path:
    """The snapshot folder of ``repo_id`` with the files of ``layout``, from the cache only or fetched as needed —
    for a transformers model the safetensors weights, or the ``.bin`` ones where there are none (the cache check
    asks for the same files, or huggingface_hub calls a snapshot without its other formats incomplete)."""
    from huggingface_hub import snapshot_download

    folder = Path(snapshot_download(repo_id, allow_patterns=list(layout.files), local_files_only=local_only))
    if layout.fallback and not any(folder.glob("*.safetensors")):
        patterns = [*layout.files, *layout.fallback]
        folder = Path(snapshot_download(repo_id, allow_patterns=patterns, local_files_only=local_only))
    if not (folder / layout.marker).is_file():
        raise ModelUnavailable(f"model {repo_id!r}: its files have no {layout.marker}, so it is no {_kind(layout)}")
    return folder


def _fetch_advice(repo_id: str, why: str) -> str:
    """What to do when a hub model cannot be had here: fetch it where there is a network, and give the folder."""
    local = repo_id.rsplit("/", 1)[-1]
    return (
        f"model {repo_id!r}: {why}. Download it where there is a network — "
        f"`hf download {repo_id} --local-dir ./{local}` (or `huggingface-cli download …` with older huggingface_hub) "
        f"— copy that folder here and give its path as the model (e.g. ./{local}); or run once online so it is "
        "cached in the Hugging Face cache (HF_HOME)"
    )
