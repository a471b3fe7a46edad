"""metrics.core.models: a model by local folder (offline) or hub id (the user's Hugging Face cache, then the hub).

The hub is a stand-in on 127.0.0.1 (tests/support/hub.py), never the network. huggingface_hub reads HF_ENDPOINT,
HF_HOME and HF_HUB_OFFLINE when it is imported, so each resolution by hub id runs in a fresh interpreter with the
environment a user would have.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from metrics.core.models import Layout, ModelUnavailable, is_hub_id, model_folder
from tests.support.hub import fake_hub

ROOT = Path(__file__).resolve().parents[2]
CONFIG = json.dumps({"model_type": "bert"}).encode()
TINY = {
    "config.json": CONFIG,
    "tokenizer.json": b"{}",
    "vocab.txt": b"[PAD]\n[UNK]\n",
    "model.safetensors": b"safetensors-bytes",
    "pytorch_model.bin": b"pickle-bytes",
    "tf_model.h5": b"tensorflow-bytes",
    "onnx/model.onnx": b"onnx-bytes",
}
BIN_ONLY = {"config.json": CONFIG, "pytorch_model.bin": b"pickle-bytes"}
COMET = {
    "hparams.yaml": b"pretrained_model: xlm-roberta-large\n",
    "checkpoints/model.ckpt": b"checkpoint-bytes",
    "README.md": b"# a COMET model",
}
RESOLVE = (
    "import sys\nfrom metrics.core.models import Layout, ModelUnavailable, model_folder\n"
    "try:\n    print(model_folder(sys.argv[1], Layout(sys.argv[2])))\n"
    "except ModelUnavailable as error:\n    print(error)\n    sys.exit(3)\n"
)


def resolve(
    name: str, home: Path, endpoint: str, offline: bool = False, layout: str = "transformers"
) -> tuple[int, str]:
    """``model_folder(name)`` in a fresh interpreter: (exit status, the folder or the error's message)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING")) and k != "TRANSFORMERS_OFFLINE"}
    env.update(
        HF_HOME=str(home), HF_ENDPOINT=endpoint, HF_HUB_OFFLINE="1" if offline else "0", PYTHONPATH=str(ROOT),
        HF_HUB_DISABLE_TELEMETRY="1", HF_HUB_DISABLE_PROGRESS_BARS="1", HF_HUB_ETAG_TIMEOUT="5",
    )  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", RESOLVE, name, layout], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode not in (0, 3):
        raise AssertionError(done.stderr)
    return done.returncode, done.stdout.strip()


def test_a_local_folder_is_used_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_bytes(CONFIG)
    assert model_folder(str(tmp_path)) == tmp_path


def test_a_folder_without_config_or_a_missing_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match="no config.json"):
        model_folder(str(tmp_path))
    with pytest.raises(ModelUnavailable, match="does not exist"):
        model_folder(str(tmp_path / "gone"))
    with pytest.raises(ModelUnavailable, match="does not exist"):
        model_folder("./roberta-large")  # a path, though its last part looks like a hub name
    with pytest.raises(ModelUnavailable, match="no model given"):
        model_folder("")


def test_a_comet_checkpoint_folder_is_marked_by_its_hparams(tmp_path: Path) -> None:
    (tmp_path / "hparams.yaml").write_bytes(COMET["hparams.yaml"])
    assert model_folder(str(tmp_path), Layout.COMET) == tmp_path
    with pytest.raises(ModelUnavailable, match=r"not a local Hugging Face model folder \(no config.json\)"):
        model_folder(str(tmp_path))
    with pytest.raises(ModelUnavailable, match=r"not a local COMET checkpoint folder \(no hparams.yaml\)"):
        model_folder(str(tmp_path / ".."), Layout.COMET)


def test_hub_ids_and_paths_are_told_apart(tmp_path: Path) -> None:
    assert is_hub_id("roberta-large") and is_hub_id("FacebookAI/roberta-large") and is_hub_id("Unbabel/wmt22-comet-da")
    assert not is_hub_id("/srv/models/x") and not is_hub_id("~/models/x") and not is_hub_id("./x")
    assert not is_hub_id("a/b/c") and not is_hub_id("a b") and not is_hub_id("C:\\models\\x")
    owner = tmp_path / "owner" / "name"
    owner.mkdir(parents=True)
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        assert not is_hub_id("owner/name")  # an existing folder is a folder, whatever it looks like
    finally:
        os.chdir(cwd)


@pytest.mark.neural
def test_a_hub_id_is_downloaded_into_the_cache_with_only_the_pytorch_files(tmp_path: Path) -> None:
    pytest.importorskip("huggingface_hub")
    with fake_hub({"org/tiny": TINY, "org/encoder": TINY, "org/bin-only": BIN_ONLY, "org/comet": COMET}) as hub:
        status, out = resolve("org/tiny", tmp_path, hub.url)
        assert status == 0, out
        folder = Path(out)
        assert folder.is_relative_to(tmp_path / "hub" / "models--org--tiny" / "snapshots")
        assert (folder / "config.json").read_bytes() == CONFIG
        assert (folder / "model.safetensors").read_bytes() == b"safetensors-bytes"
        assert hub.fetched("org/tiny") == {"config.json", "tokenizer.json", "vocab.txt", "model.safetensors"}

        # A repository without safetensors: its .bin weights are the ones to fetch.
        status, out = resolve("org/bin-only", tmp_path, hub.url)
        assert status == 0, out
        assert (Path(out) / "pytorch_model.bin").read_bytes() == b"pickle-bytes"
        assert hub.fetched("org/bin-only") == {"config.json", "pytorch_model.bin"}

        # A COMET checkpoint: its hparams and its checkpoint, nothing else.
        with_comet = resolve("org/comet", tmp_path, hub.url, layout="comet")
        assert with_comet[0] == 0 and (Path(with_comet[1]) / "checkpoints" / "model.ckpt").is_file()
        assert hub.fetched("org/comet") == {"hparams.yaml", "checkpoints/model.ckpt"}

        # A COMET checkpoint's encoder: its config and tokenizer, never its weights (the checkpoint has them).
        status, out = resolve("org/encoder", tmp_path, hub.url, layout="config")
        assert status == 0, out
        assert not list(Path(out).glob("*.safetensors")) and not list(Path(out).glob("*.bin"))
        assert hub.fetched("org/encoder") == {"config.json", "tokenizer.json", "vocab.txt"}

        # Cached: found offline, without asking the hub anything.
        before = len(hub.requests)
        assert resolve("org/tiny", tmp_path, hub.url, offline=True) == (0, str(folder))
        assert len(hub.requests) == before


@pytest.mark.neural
def test_offline_without_the_model_says_what_to_download_and_where(tmp_path: Path) -> None:
    pytest.importorskip("huggingface_hub")
    with fake_hub({"org/tiny": TINY}) as hub:
        status, out = resolve("org/tiny", tmp_path, hub.url, offline=True)
        assert hub.requests == []
    assert status == 3
    assert "not in the Hugging Face cache and HF_HUB_OFFLINE is set" in out
    assert "`hf download org/tiny --local-dir ./tiny`" in out
    assert "give its path as the model (e.g. ./tiny)" in out


@pytest.mark.neural
def test_an_unreachable_hub_says_what_to_download(tmp_path: Path) -> None:
    pytest.importorskip("huggingface_hub")
    with fake_hub({}) as hub:
        closed = hub.url  # the server is shut once the block ends: nothing listens there any more
    status, out = resolve("org/tiny", tmp_path, closed)
    assert status == 3
    assert "the Hugging Face hub cannot be reached" in out and "`hf download org/tiny --local-dir ./tiny`" in out


@pytest.mark.neural
def test_a_gated_or_unknown_model_says_why(tmp_path: Path) -> None:
    pytest.importorskip("huggingface_hub")
    repos = {"org/gated": TINY, "org/closed": TINY}
    with fake_hub(repos, gated=frozenset({"org/gated"}), forbidden=frozenset({"org/closed"})) as hub:
        answers = [resolve(name, tmp_path, hub.url) for name in ("org/gated", "org/none", "org/closed")]
    assert [status for status, _ in answers] == [3, 3, 3]
    gated, unknown, closed = (text for _, text in answers)
    assert "is gated on the Hugging Face hub" in gated and "HF_TOKEN" in gated and "hf auth login" in gated
    assert "has no such model, or it is private" in unknown and "HF_TOKEN" in unknown
    assert "the Hugging Face hub refused access (403)" in closed and "HF_TOKEN" in closed
