"""COMET checkpoints are read weights only: Lightning's few names through harmless stand-ins, any other pickled global
refused by name, plain state dicts beside an hparams.yaml, and hub ids through the Hugging Face cache (a local stand-in
for the hub, never the network). Needs the neural extra."""

from __future__ import annotations

import argparse
import json
import sys
import types
from pathlib import Path

import pytest

pytestmark = pytest.mark.neural

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from metrics.core.base import system_stats  # noqa: E402
from metrics.core.models import ModelUnavailable  # noqa: E402
from metrics.core.registry import create  # noqa: E402
from metrics.families.comet import checkpoint as ck  # noqa: E402
from tests.support import comet_checkpoints as cc  # noqa: E402

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "data" / "comet" / "golden.json").read_text("utf-8"))
HPARAMS = {"class_identifier": "regression_metric", "encoder_model": "BERT", "pretrained_model": "x", "pool": "avg"}


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture
def weights_only_loads(monkeypatch):
    """Every torch.load call made, failing any without weights_only=True."""
    calls = []
    original = torch.load

    def load(*args, **kwargs):
        assert kwargs.get("weights_only") is True, "a checkpoint must never be unpickled with weights_only=False"
        calls.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(torch, "load", load)
    return calls


def _folder(tmp_path, content, hparams=HPARAMS):
    cc.write_hparams(tmp_path, hparams)
    (tmp_path / "checkpoints").mkdir()
    torch.save(content, tmp_path / "checkpoints" / "model.ckpt")
    return tmp_path


def test_the_real_lightning_checkpoint_holds_only_weights_only_globals():
    """What pytorch-lightning 2.6 pickled beside the tensors in the golden script's real checkpoints."""
    for shape in GOLDEN["shapes"].values():
        assert set(shape["lightning_globals"]) <= {name for _, name in ck.STAND_INS}
        assert shape["hparams_differ_from_support"] == {}


def test_lightning_1_attribute_dict_loads_as_a_plain_dict(tmp_path, monkeypatch, weights_only_loads):
    """Lightning 1.x pickled hyper_parameters as its AttributeDict: the stand-in reads it as a dict."""
    for name in ("pytorch_lightning", "pytorch_lightning.utilities", "pytorch_lightning.utilities.parsing"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    attribute_dict = type("AttributeDict", (dict,), {"__module__": "pytorch_lightning.utilities.parsing"})
    sys.modules["pytorch_lightning.utilities.parsing"].AttributeDict = attribute_dict
    pickled = attribute_dict(HPARAMS, hidden_sizes=[8])
    state = {"estimator.ff.0.weight": torch.ones(2, 2)}
    folder = _folder(tmp_path, {"state_dict": state, "hyper_parameters": pickled, "epoch": 3})
    found = ck.read_checkpoint(folder)
    assert found.hparams == {**HPARAMS, "hidden_sizes": [8]} and type(found.hparams) is dict
    assert torch.equal(found.state_dict["estimator.ff.0.weight"], torch.ones(2, 2))
    assert weights_only_loads == [folder / "checkpoints" / "model.ckpt"]


def test_any_other_pickled_global_is_refused_by_name(tmp_path, weights_only_loads):
    folder = _folder(tmp_path, {"state_dict": {}, "hyper_parameters": argparse.Namespace(pool="avg")})
    with pytest.raises(ck.CheckpointRefused, match="argparse.Namespace"):
        ck.read_checkpoint(folder)
    assert weights_only_loads == []  # refused before anything was unpickled


def test_a_plain_state_dict_takes_its_hparams_from_the_yaml(tmp_path, weights_only_loads):
    folder = _folder(tmp_path, {"layerwise_attention.gamma": torch.tensor([2.0])})
    found = ck.read_checkpoint(folder / "checkpoints" / "model.ckpt")
    assert found.path == folder and found.class_identifier == "regression_metric"
    assert dict(found.hparams) == HPARAMS


def test_folder_errors_say_what_is_missing(tmp_path):
    with pytest.raises(ModelUnavailable, match="does not exist"):
        ck.checkpoint_folder(str(tmp_path / "nothing"))
    with pytest.raises(ModelUnavailable, match="hparams.yaml"):
        ck.checkpoint_folder(str(tmp_path))
    with pytest.raises(ModelUnavailable, match="CC BY-NC-SA 4.0"):
        ck.checkpoint_folder("")
    with pytest.raises(ModelUnavailable, match="hf download Unbabel/not-cached"):
        ck.checkpoint_folder("Unbabel/not-cached")


def test_a_hub_id_resolves_through_the_hugging_face_cache(tmp_path, monkeypatch):
    """A local stand-in for the hub: the cache layout snapshot_download reads (refs/main, snapshots/<commit>)."""
    built = cc.build(cc.BY_NAME["regression"], tmp_path / "built")
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "hub" / "models--Unbabel--tiny-comet"
    snapshot = repo / "snapshots" / commit
    (snapshot / "checkpoints").mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    (snapshot / "hparams.yaml").symlink_to(built / "hparams.yaml")
    (snapshot / "checkpoints" / "model.ckpt").symlink_to(built / "checkpoints" / "model.ckpt")
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    assert ck.checkpoint_folder("Unbabel/tiny-comet") == snapshot
    data = Path(__file__).resolve().parents[2] / "data" / "wmt23-he-en"
    src, ref, mt = (
        (data / n).read_text("utf-8").splitlines()[:4] for n in ("src.txt", "ref.A.txt", "sys/ONLINE-A.txt")
    )
    metric = create("comet", {"model": "Unbabel/tiny-comet"})
    stats = system_stats(metric, "ONLINE-A", mt, [ref], source=src)
    expected = GOLDEN["shapes"]["regression"]["runs"]["A"]["ONLINE-A"]["scores"][:4]
    assert stats.rows[:, 0] == pytest.approx(expected, abs=1e-6)
    assert "model:Unbabel/tiny-comet|" in metric.signature()
