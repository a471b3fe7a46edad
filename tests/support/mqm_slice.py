"""Loading the WMT21 TED MQM slices of ``tests/data/mqm-analysis`` through the annotation reader."""

from __future__ import annotations

from pathlib import Path

from metrics.annotations.collect import LoadedTexts
from metrics.annotations.model import Annotations
from metrics.annotations.wmt import read_mqm_tsv

DATA = Path(__file__).resolve().parents[1] / "data" / "mqm-analysis"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def load(pair: str) -> tuple[Annotations, dict[str, list[str]], list[str], list[str]]:
    """Annotations, outputs by system, reference A and the source of one pair's slice."""
    folder = DATA / pair
    rows = [line.split("\t") for line in lines(folder / "systems.tsv")[1:]]
    outputs = {name: lines(folder / file) for name, file in rows}
    ids = [row.split("\t")[4] for row in lines(folder / "meta.tsv")[1:]]
    source = lines(folder / "src.txt")
    texts = LoadedTexts(outputs, source, segment_ids=ids)
    return read_mqm_tsv(folder / "mqm.tsv", texts), outputs, lines(folder / "ref.A.txt"), source
