"""unbabel-comet's side of the COMET benchmark (``benchmarks/bench_comet.py``), run by the interpreter of a virtual
environment that has unbabel-comet (2.2.7 here), never by ScoreLens's own: unbabel-comet pins numpy < 2 and
transformers < 5, so it lives apart.

    $SCORELENS_COMET_PYTHON scripts/unbabel_comet_predict.py --model DIR --source SRC [--reference REF] SYS ...

Scores every system file as ``comet-score`` does on a CPU (one ``predict`` per system, length batching, batch size
16, no progress bar) and prints one JSON object: ``scores`` (per system its system score, then every segment
score), and ``seconds`` and ``cpu`` (wall and CPU seconds of loading the checkpoint and predicting, without the
interpreter's start-up and imports, as the in-process side is timed).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import types
from importlib import metadata
from pathlib import Path


def _lines(path: Path, limit: int | None) -> list[str]:
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    return lines[:limit] if limit is not None else lines


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def provide_pkg_resources() -> None:
    """setuptools 81 removed ``pkg_resources``, which torchmetrics 0.10 (what unbabel-comet 2.2.7 pins) imports and
    comet's ``load_from_checkpoint`` reads its own version with (to read a ``sparsemax_patch`` checkpoint as
    softmax from 2.2.4 on): where it is missing, the three names they use, from the standard library."""
    try:
        import pkg_resources  # noqa: F401
    except ImportError:
        from packaging.version import parse

        shim = types.ModuleType("pkg_resources")
        shim.DistributionNotFound = metadata.PackageNotFoundError  # type: ignore[attr-defined]
        shim.get_distribution = lambda name: types.SimpleNamespace(version=metadata.version(name))  # type: ignore[attr-defined]
        shim.parse_version = parse  # type: ignore[attr-defined]
        sys.modules["pkg_resources"] = shim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, required=True, help="checkpoint folder (hparams.yaml, checkpoints/)")
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--reference", type=Path, help="omitted for a reference-free model")
    parser.add_argument("--limit", type=int, help="the first N segments of every file")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("systems", type=Path, nargs="+")
    args = parser.parse_args()

    provide_pkg_resources()
    from comet import load_from_checkpoint  # imported before the clock starts: start-up is not timed

    sources = _lines(args.source, args.limit)
    references = _lines(args.reference, args.limit) if args.reference else None
    systems = [_lines(path, args.limit) for path in args.systems]
    start, cpu = time.perf_counter(), _cpu()
    model = load_from_checkpoint(str(args.model / "checkpoints" / "model.ckpt"), reload_hparams=True)
    scores: list[float] = []
    for hyps in systems:
        samples = [{"src": s, "mt": h} for s, h in zip(sources, hyps, strict=True)]
        if references is not None:
            samples = [dict(sample, ref=r) for sample, r in zip(samples, references, strict=True)]
        output = model.predict(samples, batch_size=args.batch_size, gpus=0, progress_bar=False)
        scores.append(float(output.system_score))
        scores.extend(float(s) for s in output.scores)
    print(json.dumps({"scores": scores, "seconds": time.perf_counter() - start, "cpu": _cpu() - cpu}))


if __name__ == "__main__":
    main()
