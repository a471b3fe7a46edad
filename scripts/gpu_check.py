"""BERTScore and causal-LM perplexity on a GPU against the CPU: the numbers' differences and the timings, in one run.

Run from the repository root on a machine with the neural extra (offline: nothing is downloaded)::

    python scripts/gpu_check.py                                  # cuda: MiniLM, WMT-sized input
    python scripts/gpu_check.py --model /models/roberta-large --causal /models/gpt2 --out gpu.json
    python scripts/gpu_check.py --device cpu --segments 40 --cpu-segments 20 --systems 1   # a smoke test

For each BERTScore model (the packaged all-MiniLM-L6-v2, then every ``--model`` folder) it scores the first
``--cpu-segments`` segments of every system on the CPU in fp32 (the reference implementation's setting) and on the
device in fp32, bf16 and fp16 (``--device cpu``: fp32 and bf16), and reports the largest absolute difference of P, R
and F from the CPU's fp32 and from the device's fp32; then it times every device setting on all ``--segments``
segments (a fresh sentence cache each time; model loading timed apart). ``--causal`` does the same for perplexity
with a causal LM, in batches of ``--causal-batch`` off the CPU's fp32 (which scores each text alone): the largest
relative difference of the per-segment perplexities.

The input is a WMT22 de-en slice (``--data``: a folder with ``ref.*.txt`` and ``sys/*.txt``, default the tests'
400-segment slice). Beyond its length, segment ``i`` joins line ``i mod n`` with line ``(i mod n + i div n) mod n``
(the same for the references), so every segment stays a distinct text: BERTScore embeds each unique sentence once,
and repeated lines would time the cache.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before anything imports huggingface_hub: never the network

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from metrics.core.registry import create  # noqa: E402
from metrics.io.inputs import read_segments  # noqa: E402

DEFAULT_DATA = ROOT / "tests" / "data" / "wmt22-de-en"


@dataclass(frozen=True)
class Run:
    """One model in one setting: load and scoring seconds on the full input, and the largest differences of its
    rows on the subset from the CPU's fp32 and from the device's fp32."""

    metric: str
    model: str
    device: str
    precision: str
    segments: int
    load_s: float | None
    score_s: float | None
    vs_cpu_fp32: float | None
    vs_device_fp32: float | None


def stretch(lines: Sequence[str], n: int) -> list[str]:
    """``n`` distinct segments from ``lines``: the lines, then each joined with a later one (module docstring)."""
    m = len(lines)
    if n > m * m:
        raise SystemExit(f"--segments {n}: at most {m * m} distinct segments from {m} lines")
    return [lines[i % m] if i < m else f"{lines[i % m]} {lines[(i % m + i // m) % m]}" for i in range(n)]


def load_input(folder: Path, systems: int, segments: int) -> tuple[list[list[str]], list[list[str]]]:
    refs = [list(read_segments(p).texts) for p in sorted(folder.glob("ref.*.txt"))]
    outputs = [list(read_segments(p).texts) for p in sorted((folder / "sys").glob("*.txt"))[:systems]]
    if not refs or not outputs:
        raise SystemExit(f"{folder}: needs ref.*.txt and sys/*.txt")
    return [stretch(h, segments) for h in outputs], [stretch(r, segments) for r in refs]


def settings(device: str) -> list[tuple[str, str]]:
    """The (device, precision) settings to try besides the CPU's fp32."""
    if device == "cpu":
        return [("cpu", "bf16")]
    return [(device, "fp32"), (device, "bf16"), (device, "fp16")]


def fresh(metric_id: str, options: dict[str, Any]) -> tuple[Any, float]:
    """A metric whose model is loaded anew (no sentence cached from an earlier run), and the seconds loading took."""
    from metrics.families.bertscore import encoder
    from metrics.families.perplexity import causal

    encoder._encoders.clear()
    causal._models.clear()
    metric = create(metric_id, options)
    start = time.perf_counter()
    if metric_id == "bertscore":
        metric.encoder  # noqa: B018 (loads the model)
    else:
        metric._causal()
    _sync()
    return metric, time.perf_counter() - start


def _sync() -> None:
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


def rows_of(metric: Any, systems: Sequence[Sequence[str]], refs: Sequence[Sequence[str]]) -> np.ndarray:
    """Every system's rows, stacked; for perplexity the per-segment perplexity."""
    found = np.vstack([metric.stats(list(h), [list(r) for r in refs]).rows for h in systems])
    return np.exp(found[:, 0] / found[:, 1]) if metric.id == "perplexity" else found


def largest(a: np.ndarray, b: np.ndarray, relative: bool) -> float:
    diff = np.abs(a - b) / (np.abs(b) if relative else 1.0)
    return float(np.nanmax(diff))


def check(
    metric_id: str,
    label: str,
    options: dict[str, Any],
    device: str,
    data: tuple[list[list[str]], list[list[str]]],
    subset: int,
    say: Callable[[str], None],
    batched: dict[str, Any] | None = None,
) -> list[Run]:
    """The CPU's fp32 on the subset, then every device setting (with ``batched`` options) on the subset against
    it and timed on everything."""
    systems, refs = data
    small = ([h[:subset] for h in systems], [r[:subset] for r in refs])
    relative = metric_id == "perplexity"
    cpu, _ = fresh(metric_id, {**options, "device": "cpu", "precision": "fp32"})
    start = time.perf_counter()
    reference = rows_of(cpu, *small)
    cpu_s = time.perf_counter() - start
    runs = [Run(metric_id, label, "cpu", "fp32", subset, None, cpu_s, 0.0, None)]
    say(f"{metric_id} {label}: cpu fp32 on {subset} segments × {len(systems)} systems: {cpu_s:.1f} s")
    device_fp32: np.ndarray | None = None
    for where, precision in settings(device):
        chosen = {**options, **(batched or {}), "device": where, "precision": precision}
        metric, _ = fresh(metric_id, chosen)
        ours = rows_of(metric, *small)
        if precision == "fp32":
            device_fp32 = ours
        vs_cpu = largest(ours, reference, relative)
        vs_device = None if device_fp32 is None else largest(ours, device_fp32, relative)
        metric, load_s = fresh(metric_id, chosen)
        start = time.perf_counter()
        rows_of(metric, systems, refs)
        _sync()
        score_s = time.perf_counter() - start
        runs.append(Run(metric_id, label, where, precision, len(systems[0]), load_s, score_s, vs_cpu, vs_device))
        say(
            f"{metric_id} {label}: {where} {precision}: load {load_s:.1f} s, {len(systems[0])} segments × "
            f"{len(systems)} systems {score_s:.1f} s; max {'rel. ' if relative else ''}diff vs cpu fp32 {vs_cpu:.2e}"
            + ("" if vs_device is None else f", vs {where} fp32 {vs_device:.2e}")
        )
    return runs


def environment() -> dict[str, str]:
    import torch
    import transformers

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none"
    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": str(torch.version.cuda),
        "transformers": transformers.__version__,
        "gpu": gpu,
        "cpu_threads": str(torch.get_num_threads()),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda", help="cuda, cuda:N, mps or cpu (a smoke test: fp32 and bf16)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a folder with ref.*.txt and sys/*.txt")
    parser.add_argument("--systems", type=int, default=2, help="systems scored (default 2)")
    parser.add_argument("--segments", type=int, default=2000, help="segments per system, timed (default 2000)")
    parser.add_argument("--cpu-segments", type=int, default=200, help="segments compared with the CPU (200)")
    parser.add_argument("--model", action="append", default=[], help="a further BERTScore model folder (repeatable)")
    parser.add_argument("--layers", type=int, default=None, help="num_layers for the --model folders")
    parser.add_argument("--causal", action="append", default=[], help="a causal LM folder for perplexity")
    parser.add_argument("--causal-batch", type=int, default=16, help="perplexity's batch_size off the CPU fp32 (16)")
    parser.add_argument("--out", type=Path, help="write the runs as JSON here")
    args = parser.parse_args(argv)
    subset = min(args.cpu_segments, args.segments)

    def say(line: str) -> None:
        print(line, flush=True)

    found = environment()
    say(" · ".join(f"{k} {v}" for k, v in found.items()))
    data = load_input(args.data, args.systems, args.segments)
    runs = check("bertscore", "all-MiniLM-L6-v2", {}, args.device, data, subset, say)
    for folder in args.model:
        options = {"model": folder, "num_layers": args.layers}
        runs += check("bertscore", Path(folder).name, options, args.device, data, subset, say)
    for folder in args.causal:
        options = {"model": "causal", "causal_model": folder}
        batched = {"batch_size": args.causal_batch}
        runs += check("perplexity", Path(folder).name, options, args.device, data, subset, say, batched)
    if args.out is not None:
        args.out.write_text(json.dumps({"environment": found, "runs": [asdict(r) for r in runs]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
