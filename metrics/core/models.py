"""Where a neural metric's model comes from: a local folder, or a Hugging Face hub id resolved into the user's cache.

A ``model`` option is either

* a **local folder** (an existing directory, or any value that looks like a path: it starts with ``/``, ``~`` or
  ``.``, or has more than one ``/``) — used as it is, offline; or
* a **hub id** — ``owner/name`` (``FacebookAI/roberta-large``) or a bare name (``roberta-large``). It is looked up
  in the user's Hugging Face cache first (``HF_HOME`` / ``HF_HUB_CACHE``, as ``huggingface_hub`` reads them), so a
  model downloaded once works offline; otherwise it is downloaded there with ``huggingface_hub.snapshot_download``
  (``HF_ENDPOINT``, ``HF_TOKEN`` or a ``hf auth login`` token, all as ``huggingface_hub`` reads them). Only the files
  a PyTorch model needs are fetched: configuration, tokenizer files and the safetensors weights (the ``.bin`` weights
  only for a repository that has no safetensors), never TensorFlow, Flax, ONNX or GGUF copies.

With ``HF_HUB_OFFLINE=1``, with no network, or for a gated or private model without a token, :func:`model_folder`
raises :class:`ModelUnavailable` with a message that says what to download and where to put it. Loading the weights
is the metric's business; the loaders of this package read folders only (``local_files_only``) and load weights
only, never pickled objects.
"""

from __future__ import annotations

import re
from pathlib import Path

# A hub id as the hub spells repository names: an optional owner, then a name (letters, digits, ``-``, ``_``, ``.``).
HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?")
# What transformers needs to build a PyTorch model and its tokenizer from a folder.
NEEDED_FILES = ("*.json", "*.txt", "*.model", "*.tiktoken", "*.safetensors")
FALLBACK_WEIGHTS = ("*.bin",)  # loaded with torch's weights_only: tensors, never pickled objects


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


def model_folder(name: str) -> Path:
    """The local folder of the model ``name`` names (a folder, or a hub id resolved into the Hugging Face cache);
    :class:`ModelUnavailable` when there is none, saying how to get it."""
    if not name:
        raise ModelUnavailable("no model given: name a local Hugging Face model folder or a hub id")
    if not is_hub_id(name):
        path = Path(name).expanduser()
        if not path.is_dir():
            raise ModelUnavailable(f"model folder {name!r} does not exist")
        if not (path / "config.json").is_file():
            raise ModelUnavailable(f"model folder {name!r}: not a local Hugging Face model folder (no config.json)")
        return path
    return _hub_folder(name)


def _hub_folder(repo_id: str) -> Path:
    from huggingface_hub.errors import GatedRepoError, HfHubHTTPError, LocalEntryNotFoundError, RepositoryNotFoundError

    try:
        return _snapshot(repo_id, local_only=True)
    except LocalEntryNotFoundError:
        pass  # not in the cache (or not complete there): download it, if the hub may be reached
    if hub_offline():
        raise ModelUnavailable(_fetch_advice(repo_id, "it is not in the Hugging Face cache and HF_HUB_OFFLINE is set"))
    try:
        return _snapshot(repo_id, local_only=False)
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


def _snapshot(repo_id: str, local_only: bool) -> Path:
    """The snapshot folder of ``repo_id`` with the files a PyTorch model needs, from the cache only or fetched as
    needed: the safetensors weights, or the ``.bin`` ones where there are none (the cache check asks for the same
    files, or huggingface_hub calls a snapshot without its other formats incomplete)."""
    from huggingface_hub import snapshot_download

    folder = Path(snapshot_download(repo_id, allow_patterns=list(NEEDED_FILES), local_files_only=local_only))
    if not any(folder.glob("*.safetensors")):
        patterns = [*NEEDED_FILES, *FALLBACK_WEIGHTS]
        folder = Path(snapshot_download(repo_id, allow_patterns=patterns, local_files_only=local_only))
    if not (folder / "config.json").is_file():
        raise ModelUnavailable(f"model {repo_id!r}: its files have no config.json, so it is no transformers model")
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
