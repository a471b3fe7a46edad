"""Shared test fixtures: the real-data slices in ``tests/data`` and, when present, the full ``../shared/data``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from metrics.io.inputs import read_segments  # noqa: E402


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


def rel_close(a: float, b: float, tol: float = 1e-9) -> bool:
    """Relative closeness as the parity contract states it (absolute near zero)."""
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


@pytest.fixture(autouse=True)
def _navigation_as_served() -> Iterator[None]:
    """AppTest runs of ``app.py`` route as a server does after its first request (``dashboard.legacy_pages``)."""
    from dashboard.legacy_pages import served_mode

    with served_mode():
        yield
