"""metrics.core.devices and the neural metrics on it, tested without a GPU: the option values, a CUDA machine faked
(torch.cuda's answers monkeypatched), the ``meta`` device to see where a model and its inputs go, and bf16 run for
real on the CPU."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import numpy as np
import pytest

from metrics.core.devices import (
    PRECISIONS,
    DeviceKind,
    DeviceRequest,
    Placement,
    Precision,
    PrecisionName,
    parse_device,
)

HYPS = ["The cat sat on the mat.", "A dog ran in the park today.", "Hello world"]
REFS = [["The cat sat on a mat.", "A dog was running in the park.", "Hello, world!"]]


def test_device_values_parse_and_others_are_refused():
    assert parse_device("auto") == DeviceRequest(DeviceKind.AUTO)
    assert parse_device(" CUDA:3 ") == DeviceRequest(DeviceKind.CUDA, 3)
    assert parse_device("cuda") == DeviceRequest(DeviceKind.CUDA, None)
    assert parse_device("mps") == DeviceRequest(DeviceKind.MPS)
    for wrong in ("gpu", "cpu:1", "cuda:", "cuda:x", "mps:0", ""):
        with pytest.raises(ValueError, match="not one of auto, cpu, cuda, cuda:N, mps"):
            parse_device(wrong)


def test_the_precision_literal_is_the_enums_vocabulary():
    assert PRECISIONS == get_args(PrecisionName) == tuple(p.value for p in Precision)


class Stop(Exception):
    """Raised by a forward hook once it has seen the model's inputs."""


def _inputs_device(module: Any, run: Any) -> Any:
    """The device of the first tensor the model's forward received, stopping the forward there (a ``meta`` tensor
    cannot come back to the CPU)."""
    seen: list[Any] = []

    def hook(_module: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        seen.append(next(a for a in (*args, *kwargs.values()) if hasattr(a, "device")).device)
        raise Stop

    handle = module.register_forward_pre_hook(hook, with_kwargs=True)
    try:
        with pytest.raises(Stop):
            run()
    finally:
        handle.remove()
    return seen[0]


@pytest.mark.neural
class TestOnTorch:
    @pytest.fixture(autouse=True)
    def torch(self) -> Any:
        return pytest.importorskip("torch")

    @pytest.fixture
    def gpus(self, torch: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
        """A machine with two CUDA GPUs, as torch.cuda answers."""
        monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
        monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
        monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda: True)
        return torch

    @pytest.fixture
    def no_gpu(self, torch: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
        monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
        monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
        monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
        return torch

    def test_auto_is_the_cpu_without_a_gpu_and_fp16_is_refused_there(self, no_gpu):
        from metrics.core.devices import placement

        found = placement("auto", "fp32")
        assert (found.device, found.dtype, found.signature) == (no_gpu.device("cpu"), no_gpu.float32, "prec:fp32")
        assert placement("cpu", "bf16").dtype == no_gpu.bfloat16
        with pytest.raises(ValueError, match="precision fp16: not on the CPU"):
            placement("auto", "fp16")
        with pytest.raises(ValueError, match=r"device 'cuda'.* sees no CUDA GPU here; install torch's CUDA build"):
            placement("cuda", "fp32")
        with pytest.raises(ValueError, match="sees no Apple MPS device"):
            placement("mps", "fp32")

    def test_auto_takes_the_first_gpu_and_cuda_n_must_exist(self, gpus):
        from metrics.core.devices import placement

        found = placement("auto", "fp16")
        assert (found.device, found.dtype) == (gpus.device("cuda", 0), gpus.float16)
        assert found.signature == "prec:fp16|dev:cuda"
        assert placement("cuda:1", "bf16").device == gpus.device("cuda", 1)
        with pytest.raises(ValueError, match=r"this machine has 2 CUDA GPU\(s\), cuda:0 to cuda:1"):
            placement("cuda:2", "fp32")

    def test_bertscore_puts_model_and_inputs_on_the_device_in_its_dtype(self, torch, monkeypatch):
        from metrics.families.bertscore import encoder as module
        from metrics.families.bertscore.encoder import default_model_path

        meta = Placement(torch.device("meta"), torch.bfloat16, Precision.BF16)
        monkeypatch.setattr(module, "_encoders", {})  # a fresh encoder, not one another test loaded
        loaded = module.encoder(default_model_path(), None, meta)
        weights = list(loaded.model.parameters())
        assert {p.device.type for p in weights} == {"meta"} and {p.dtype for p in weights} == {torch.bfloat16}
        assert _inputs_device(loaded.model, lambda: loaded.encode(HYPS, batch_size=2)).type == "meta"
        assert module.encoder(default_model_path(), None, meta) is loaded  # one per (folder, layers, device, dtype)

    def test_bertscore_in_bf16_on_the_cpu_comes_back_as_float64_rows(self, torch):
        from metrics.core.registry import create

        fp32 = create("bertscore", {"device": "cpu"})
        bf16 = create("bertscore", {"device": "cpu", "precision": "bf16"})
        exact, rounded = fp32.stats(HYPS, REFS).rows, bf16.stats(HYPS, REFS).rows
        assert rounded.dtype == np.float64
        assert 0 < np.abs(rounded - exact).max() < 0.02  # bf16 keeps 8 bits of mantissa: the third digit moves
        assert {p.dtype for p in bf16.encoder.model.parameters()} == {torch.bfloat16}
        assert bf16.explain(HYPS[0], [REFS[0][0]]).references[0].similarity.dtype == np.float32
        assert "|prec:bf16|" in bf16.signature() and "|prec:fp32|" in fp32.signature()
        assert "dev:" not in fp32.signature()

    def test_a_neural_metric_on_a_device_that_is_not_here_says_why(self, no_gpu):
        from metrics.core.registry import create

        with pytest.raises(ValueError, match="sees no CUDA GPU here"):
            create("bertscore", {"device": "cuda:0"}).stats(HYPS, REFS)
        with pytest.raises(ValueError, match="option 'device'"):
            create("bertscore", {"device": "gpu"})

    def test_the_causal_lm_runs_on_the_device_in_its_dtype(self, torch, tmp_path: Path, monkeypatch):
        from metrics.core.registry import create
        from metrics.families.perplexity import causal
        from tests.support.tiny_models import tiny_gpt2

        tiny_gpt2(tmp_path)
        meta = Placement(torch.device("meta"), torch.float16, Precision.FP16)
        lm = causal.causal_lm(str(tmp_path), meta)
        weights = list(lm.model.parameters())
        assert {p.device.type for p in weights} == {"meta"} and {p.dtype for p in weights} == {torch.float16}
        assert _inputs_device(lm.model, lambda: lm.score("the cat sat")).type == "meta"

        options = {"model": "causal", "causal_model": str(tmp_path), "device": "cpu"}
        exact = create("perplexity", options).stats(HYPS, REFS).rows
        metric = create("perplexity", {**options, "precision": "bf16"})
        rounded = metric.stats(HYPS, REFS).rows
        assert rounded.dtype == np.float64 and (rounded[:, 1] == exact[:, 1]).all()  # the same tokens
        assert 0 < np.abs(rounded[:, 0] - exact[:, 0]).max() < 0.05 * exact[:, 0].max()
        assert metric.signature().endswith("|prec:bf16|version:scorelens-0.1.0")
