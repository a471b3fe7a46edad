"""Copy the slices of ``../shared/data`` that ScoreLens ships (``assets/samples``) and tests on (``tests/data``).

Run from the repository root: ``python scripts/make_samples.py [SHARED_DATA_DIR]``. Slices are contiguous line
ranges, byte-identical to the source lines, so every test and sample traces back to a published file.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _copy_lines(src: Path, dst: Path, start: int, stop: int) -> None:
    lines = src.read_bytes().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    chunk = lines[start:stop]
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(b"\n".join(chunk) + b"\n")


def _score_rows(src: Path, dst: Path, systems: list[str], stop: int) -> None:
    """The header and the rows of a ``system, segment, score`` file of ``systems`` whose segment is below ``stop``,
    unchanged."""
    lines = src.read_bytes().split(b"\n")
    keep = {name.encode() for name in systems}
    rows = [line.split(b"\t") for line in lines[1:] if line]
    kept = [lines[0]] + [b"\t".join(r) for r in rows if r[0] in keep and int(r[1]) < stop]
    dst.write_bytes(b"\n".join(kept) + b"\n")


def _slice(shared: Path, folder: str, files: list[str], out: Path, start: int, stop: int, extra: list[str]) -> None:
    if out.exists():
        shutil.rmtree(out)
    for name in files:
        _copy_lines(shared / folder / name, out / name, start, stop)
    for name in extra:
        shutil.copy(shared / folder / name, out / Path(name).name)
    (out / "SLICE.json").write_text(
        json.dumps({"source": f"shared/data/{folder}", "lines": [start + 1, stop], "files": files}, indent=1) + "\n"
    )


DEDE = ["src.txt", "ref.A.txt", "ref.B.txt"]
TED_SYS = ["Facebook-AI", "Online-W", "VolcTrans-AT", "UEdin", "Nemo"]
TED_LINES = 100


def _mqm_rows(src: Path, dst: Path, systems: list[str], seg_ids: set[int]) -> None:
    """The header and the rows of a WMT MQM TSV (``system, doc, doc_id, seg_id, …``) of ``systems`` whose
    ``seg_id`` is one of ``seg_ids``, unchanged and in their order."""
    lines = src.read_bytes().split(b"\n")
    keep = {name.encode() for name in systems}
    rows = [line for line in lines[1:] if line]
    kept = [lines[0]] + [r for r in rows if r.split(b"\t")[0] in keep and int(r.split(b"\t")[3]) in seg_ids]
    dst.write_bytes(b"\n".join(kept) + b"\n")


def mqm_sample(shared: Path) -> None:
    """WMT21 TED en→de with Google's MQM ratings: its first lines are its first upstream ``seg_id``s (every one of
    them rated), so the TSV's rows of those ``seg_id``s are the ratings of exactly these lines."""
    out = ROOT / "assets" / "samples" / "wmt21-ted-en-de"
    files = ["src.txt", "ref.A.txt"] + [f"sys/{s}.txt" for s in TED_SYS]
    provenance = (out / "PROVENANCE.md").read_bytes()  # written for this slice, kept across a rebuild
    _slice(shared, "wmt21-ted/en-de", files, out, 0, TED_LINES, [])
    (out / "PROVENANCE.md").write_bytes(provenance)
    _mqm_rows(shared / "wmt21-ted/en-de/raw/mqm_ted_ende.tsv", out / "mqm.tsv", TED_SYS, set(range(1, TED_LINES + 1)))


def mqm_zh_en_test_slice(shared: Path) -> None:
    """WMT21 TED zh→en, 8 lines (omissions marked on the Chinese source): the TSV names segments by upstream
    ``seg_id``, which ``ids.txt`` gives per loaded line (``meta.tsv``'s column)."""
    folder, out, stop = shared / "wmt21-ted/zh-en", ROOT / "tests" / "data" / "wmt21-ted-zh-en-mqm", 8
    systems = ["SMU", "metricsystem4", "Online-W"]
    _slice(shared, "wmt21-ted/zh-en", ["src.txt", "ref.A.txt"] + [f"sys/{s}.txt" for s in systems], out, 0, stop, [])
    ids = [line.split("\t")[4] for line in (folder / "meta.tsv").read_text().splitlines()[1 : stop + 1]]
    (out / "ids.txt").write_text("\n".join(ids) + "\n")
    _mqm_rows(folder / "raw/mqm_ted_zhen.tsv", out / "mqm.tsv", systems, {int(i) for i in ids})


def main(shared: Path) -> None:
    deen_sys = ["JDExploreAcademy", "Online-B", "Lan-Bridge", "LT22", "PROMT"]
    zh_sys = ["Online-B", "Lan-Bridge"]
    ja_sys = ["Online-W", "NT5"]
    coco_sys = ["Up-Down", "Unified-VLP", "VinVL-base", "VinVL-large", "Human"]
    cnn_sys = ["baseline", "pointer-gen", "pointer-gen-cov"]
    cnn_files = ["reference.sents.jsonl"] + [f"sys/{s}.sents.jsonl" for s in cnn_sys]

    # Bundled demo data (shipped with the app).
    samples = ROOT / "assets" / "samples"
    _slice(
        shared,
        "wmt22/de-en",
        DEDE + [f"sys/{s}.txt" for s in deen_sys],
        samples / "wmt22-de-en",
        0,
        300,
        ["../PROVENANCE.md"],
    )
    _slice(shared, "cnndm_see2017", cnn_files, samples / "cnndm", 0, 100, ["PROVENANCE.md"])
    mqm_sample(shared)
    _slice(
        shared,
        "mscoco_thumb",
        [f"ref.{k}.txt" for k in range(4)] + [f"sys/{s}.txt" for s in coco_sys] + ["image_ids.txt"],
        samples / "coco",
        0,
        200,
        ["PROVENANCE.md"],
    )

    # Test slices (a fresh clone must pass without ../shared).
    mqm_zh_en_test_slice(shared)
    data = ROOT / "tests" / "data"
    _slice(shared, "wmt22/de-en", DEDE + [f"sys/{s}.txt" for s in deen_sys], data / "wmt22-de-en", 300, 700, [])
    _slice(
        shared,
        "wmt22/en-zh",
        ["ref.A.txt", "ref.B.txt"] + [f"sys/{s}.txt" for s in zh_sys],
        data / "wmt22-en-zh",
        0,
        200,
        [],
    )
    _slice(shared, "wmt22/en-ja", ["ref.A.txt"] + [f"sys/{s}.txt" for s in ja_sys], data / "wmt22-en-ja", 700, 900, [])
    he_sys = [
        "GPT4-5shot", "GTCOM_Peter", "Lan-BridgeMT", "NLLB_Greedy", "NLLB_MBR_BLEU", "ONLINE-A", "ONLINE-B",
        "ONLINE-G", "ONLINE-Y", "Samsung_Research_Philippines", "UvA-LTL", "ZengHuiMT",
    ]  # fmt: skip
    # Short social-media comments: outputs that equal a reference in fewer than 4 tokens ("Well done", "king.").
    he_files = ["ref.A.txt", "ref.B.txt"] + [f"sys/{s}.txt" for s in he_sys]
    _slice(shared, "wmt23/he-en", he_files, data / "wmt23-he-en-short", 1575, 1620, [])
    # the first 40 lines with WMT23's COMET-22 segment scores (the Overview at full width; external fits)
    he_en = data / "wmt23-he-en"
    _slice(shared, "wmt23/he-en", DEDE + [f"sys/{s}.txt" for s in he_sys], he_en, 0, 40, [])
    _score_rows(shared / "wmt23/he-en/metric-scores/COMET-refB.seg.tsv", he_en / "COMET-refB.seg.tsv", he_sys, 40)
    _slice(shared, "compare-mt/ted", ["ref.txt", "sys/sys1.txt", "sys/sys2.txt"], data / "ted", 0, 400, [])
    _slice(shared, "cnndm_see2017", cnn_files, data / "cnndm", 100, 300, [])
    _slice(
        shared,
        "mscoco_thumb",
        [f"ref.{k}.txt" for k in range(4)] + [f"sys/{s}.txt" for s in coco_sys] + ["image_ids.txt"],
        data / "coco",
        0,
        500,
        ["human_scores.jsonl"],
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data")
