"""Measure pycocoevalcap's PTB tokenization and CIDEr-D into ``tests/data/ptb/golden.json.gz``.

    python -m venv /tmp/coco && /tmp/coco/bin/pip install pycocoevalcap==1.2     # ships the CoreNLP 3.4.1 jar
    /tmp/coco/bin/python scripts/build_ptb_golden.py                           # needs `java` on the PATH

This script is the reference side only: it imports pycocoevalcap, never ScoreLens, and writes what the Java
tokenizer and pycocoevalcap's ``Cider`` say. ``tests/parity/cider/test_ptb.py`` holds ``metrics.core.ptb`` and
CIDEr-D's ``tokenize="ptb"`` to these values.

Streams (each tokenized as one Java run, in this order, exactly as pycocoevalcap writes its file):

* ``coco/gts``: the references of the 500 COCO images of ``tests/data/coco`` (mscoco_thumb), image by image, as
  ``COCOEvalCap.evaluate`` passes its ``gts``; ``coco/res/<system>``: each system's captions, as its ``res``;
* ``hard_cases``: ``tests/data/ptb/hard_cases.txt``, written for this: quotes, brackets, hyphens, numbers,
  contractions, abbreviations at a sentence end, ellipses, URLs, currency, non-ASCII, emoji;
* ``wmt22-de-en/ref.A``, ``wmt22-de-en/ref.B``, ``ted/ref``: English news and talk sentences of ``tests/data``;
  ``wmt22-de-en/src``, ``wmt22-en-zh/ref.A``, ``wmt22-en-ja/ref.A``: German (decomposed umlauts, „quotes“),
  Chinese and Japanese, which the tokenizer is not made for but must not garble differently from Java.

For each stream: the input ``lines``, Java's raw output lines (``java``: ``PTBTokenizer -preserveLines
-lowerCase``, tokens separated by spaces) and pycocoevalcap's ``PTBTokenizer.tokenize`` result (``pycocoevalcap``:
punctuation removed). ``cider``: per system, ``Cider().compute_score`` on the tokenized ``gts``/``res`` (the
corpus score and every image's), which is COCOEvalCap's CIDEr; ``cider_raw`` the same on untokenized text.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.tokenizer import ptbtokenizer
from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
OUT = DATA / "ptb" / "golden.json.gz"
SYSTEMS = ("Up-Down", "Unified-VLP", "VinVL-base", "VinVL-large", "Human")
OTHER = {
    "wmt22-de-en/ref.A": "wmt22-de-en/ref.A.txt",
    "wmt22-de-en/ref.B": "wmt22-de-en/ref.B.txt",
    "ted/ref": "ted/ref.txt",
    "wmt22-de-en/src": "wmt22-de-en/src.txt",
    "wmt22-en-zh/ref.A": "wmt22-en-zh/ref.A.txt",
    "wmt22-en-ja/ref.A": "wmt22-en-ja/ref.A.txt",
}


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def java_lines(lines: list[str]) -> list[str]:
    """Java's raw output for ``lines``, run as pycocoevalcap runs it (same command, same file bytes)."""
    jar_dir = os.path.dirname(os.path.abspath(ptbtokenizer.__file__))
    with tempfile.NamedTemporaryFile("wb", delete=False, dir=jar_dir) as handle:
        handle.write("\n".join(line.replace("\n", " ") for line in lines).encode())
    try:
        cmd = ["java", "-cp", ptbtokenizer.STANFORD_CORENLP_3_4_1_JAR, "edu.stanford.nlp.process.PTBTokenizer"]
        out = subprocess.run(
            [*cmd, "-preserveLines", "-lowerCase", os.path.basename(handle.name)],
            cwd=jar_dir,
            capture_output=True,
            check=True,
        ).stdout.decode()
    finally:
        os.remove(handle.name)
    result = out.split("\n")[: len(lines)]
    if len(result) != len(lines):
        raise SystemExit(f"java returned {len(result)} lines for {len(lines)}")
    return [line.rstrip() for line in result]


def coco_tokenized(captions: dict[int, list[str]]) -> dict[int, list[str]]:
    return PTBTokenizer().tokenize({k: [{"caption": c} for c in v] for k, v in captions.items()})


def stream(lines: list[str], source: str) -> dict[str, object]:
    tokenized = coco_tokenized({i: [line] for i, line in enumerate(lines)})
    return {
        "source": source,
        "lines": lines,
        "java": java_lines(lines),
        "pycocoevalcap": [tokenized[i][0] for i in range(len(lines))],
    }


def main() -> None:
    coco = DATA / "coco"
    ids = [int(x) for x in read_lines(coco / "image_ids.txt")]
    refs = [read_lines(coco / f"ref.{k}.txt") for k in range(4)]
    gts_raw = {image: [stream_[i] for stream_ in refs] for i, image in enumerate(ids)}
    gts = coco_tokenized(gts_raw)
    flat_refs = [ref for image in ids for ref in gts_raw[image]]
    gts_stream = stream(flat_refs, "tests/data/coco/ref.{0..3}.txt, image by image")
    if gts_stream["pycocoevalcap"] != [ref for image in ids for ref in gts[image]]:
        raise SystemExit("coco/gts: a flat stream and the image dictionary tokenize differently")
    streams = {"coco/gts": gts_stream}
    cider: dict[str, object] = {}
    cider_raw: dict[str, object] = {}
    for system in SYSTEMS:
        hyps = read_lines(coco / "sys" / f"{system}.txt")
        res = coco_tokenized({image: [hyps[i]] for i, image in enumerate(ids)})
        streams[f"coco/res/{system}"] = stream(hyps, f"tests/data/coco/sys/{system}.txt")
        score, scores = Cider().compute_score(gts, res)
        cider[system] = {"score": float(score), "scores": [float(x) for x in scores]}
        raw_score, _ = Cider().compute_score(gts_raw, {image: [hyps[i]] for i, image in enumerate(ids)})
        cider_raw[system] = float(raw_score)
        print(f"{system}: CIDEr-D {score:.4f} (raw text {raw_score:.4f})", file=sys.stderr)
    streams["hard_cases"] = stream(read_lines(DATA / "ptb" / "hard_cases.txt"), "tests/data/ptb/hard_cases.txt")
    for name, path in OTHER.items():
        streams[name] = stream(read_lines(DATA / path), f"tests/data/{path}")
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    golden = {
        "reference": "pycocoevalcap 1.2 (PTBTokenizer: Stanford CoreNLP 3.4.1), " + java,
        "streams": streams,
        "cider": cider,
        "cider_raw": cider_raw,
    }
    payload = json.dumps(golden, ensure_ascii=False, indent=0, sort_keys=True).encode()
    with OUT.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        handle.write(payload)
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
