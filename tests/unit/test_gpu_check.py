"""scripts/gpu_check.py, the GPU machine's one-go check, smoke-tested on the CPU with tiny input."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.paths import ROOT


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "scripts" / "gpu_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gpu_check"] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_the_input_is_stretched_into_distinct_segments():
    stretch = _script().stretch
    lines = ["a", "b", "c"]
    assert stretch(lines, 7) == ["a", "b", "c", "a b", "b c", "c a", "a c"]
    assert len(set(stretch(lines, 9))) == 9
    with pytest.raises(SystemExit, match="at most 9 distinct segments"):
        stretch(lines, 10)


@pytest.mark.neural
def test_the_check_runs_on_the_cpu_with_tiny_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    pytest.importorskip("torch")
    from tests.support.tiny_models import tiny_gpt2

    tiny_gpt2(tmp_path / "gpt", positions=64)
    out = tmp_path / "runs.json"
    argv = ["--device", "cpu", "--segments", "6", "--cpu-segments", "4", "--systems", "1"]
    assert _script().main([*argv, "--causal", str(tmp_path / "gpt"), "--out", str(out)]) == 0
    runs = json.loads(out.read_text())["runs"]
    assert [(r["metric"], r["device"], r["precision"], r["segments"]) for r in runs] == [
        ("bertscore", "cpu", "fp32", 4),
        ("bertscore", "cpu", "bf16", 6),
        ("perplexity", "cpu", "fp32", 4),
        ("perplexity", "cpu", "bf16", 6),
    ]
    assert 0 < runs[1]["vs_cpu_fp32"] < 0.02 and 0 < runs[3]["vs_cpu_fp32"] < 0.05
    assert "bertscore all-MiniLM-L6-v2: cpu bf16: load" in capsys.readouterr().out
