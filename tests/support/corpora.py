"""The real-data slices in ``tests/data`` and, for the ``sweep`` marker, the full sets in ``../shared/data``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from metrics.io.inputs import read_segments
from tests.support.paths import DATA, SHARED_DATA


@dataclass(frozen=True)
class Corpus:
    """One test set: system outputs by name and reference streams (``refs[k][i]``)."""

    name: str
    systems: dict[str, list[str]]
    refs: list[list[str]]
    src: list[str] | None = None


def load_corpus(folder: Path, ref_files: list[str], src: str | None = None) -> Corpus:
    """Systems are the files in ``folder/sys`` with the references' suffix, named without it, so that
    ``baseline.sents.jsonl`` and ``baseline.txt`` never collide."""
    refs = [list(read_segments(folder / name).texts) for name in ref_files]
    suffix = ".sents.jsonl" if ref_files[0].endswith(".sents.jsonl") else Path(ref_files[0]).suffix
    files = sorted(p for p in (folder / "sys").iterdir() if p.name.endswith(suffix))
    systems = {p.name[: -len(suffix)]: list(read_segments(p).texts) for p in files}
    source = list(read_segments(folder / src).texts) if src else None
    return Corpus(folder.name, systems, refs, source)


SLICES = {
    "wmt22-de-en": (["ref.A.txt", "ref.B.txt"], "src.txt"),
    "wmt22-en-zh": (["ref.A.txt", "ref.B.txt"], None),
    "wmt22-en-ja": (["ref.A.txt"], None),
    "wmt23-he-en-short": (["ref.A.txt", "ref.B.txt"], None),
    "ted": (["ref.txt"], None),
    "cnndm": (["reference.sents.jsonl"], None),
    "coco": (["ref.0.txt", "ref.1.txt", "ref.2.txt", "ref.3.txt"], None),
}


def slice_corpus(name: str) -> Corpus:
    refs, src = SLICES[name]
    return load_corpus(DATA / name, refs, src)


@pytest.fixture(scope="session")
def corpora() -> dict[str, Corpus]:
    return {name: slice_corpus(name) for name in SLICES}


def shared_corpus(folder: str, refs: list[str], src: str | None = None) -> Corpus:
    """A full set from ``../shared/data`` for the ``sweep`` marker; skips when it is absent."""
    path = SHARED_DATA / folder
    if not path.exists():
        pytest.skip(f"{path} not present (wide sweeps need ../shared/data)")
    return load_corpus(path, refs, src)
