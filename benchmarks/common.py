"""What a benchmark case is: the same scores computed by ScoreLens and by the reference implementation."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metrics.core.base import Metric

Scores = float | Sequence[float]
TOLERANCE = 1e-9  # largest relative difference between two sides' scores


@dataclass(frozen=True)
class Timed:
    """Scores computed in another process, with the wall and CPU seconds that process measured for the work alone
    (without its interpreter's start-up and imports), taken in place of the time of the whole call, so that a
    side that must run in an environment of its own is timed as the in-process sides are."""

    scores: Sequence[float]
    seconds: float
    cpu: float


@dataclass(frozen=True)
class Process:
    """The same case as whole processes: a command line for each side, each printing its scores on stdout (a JSON
    list of numbers, or what ``read_ours`` turns into one for ScoreLens's own command line)."""

    ours: Sequence[str]
    reference: Sequence[str]
    peer: Sequence[str] | None = None
    read_ours: Callable[[str], list[float]] | None = None


@dataclass(frozen=True)
class Case:
    """``reference`` is ``None`` where the reference implementation is not installed here (its columns stay empty);
    ``tolerance`` is the parity target of the case (float32 neural scores: 1e-6)."""

    name: str
    ours: Callable[[], Scores | Timed]
    reference: Callable[[], Scores | Timed] | None
    peer: Callable[[], Scores | Timed] | None = None  # the fastest installable peer, where there is one
    peer_name: str = ""
    process: Process | None = None
    tolerance: float = TOLERANCE


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


def corpus_and_segments(
    metric: Metric, systems: Iterable[Sequence[str]], refs: Sequence[Sequence[str]], sentence: Metric | None = None
) -> list[float]:
    """ScoreLens's side of a case: for each system in turn its corpus score, then every segment score — scored from
    the same statistics by ``sentence`` when given (sacrebleu scores sentences with other options than corpora)."""
    scores: list[float] = []
    for hyps in systems:
        stats = metric.stats(hyps, refs)
        scores.append(metric.corpus_score(stats))
        scores.extend((sentence or metric).segment_scores(stats).tolist())
    return scores


def load_set(
    folder: Path, ref_files: Sequence[str], systems: Sequence[str] | None = None, suffix: str = ".txt"
) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Reference streams and system outputs (by name) of one data set in ``shared``: the files ``folder/sys/<name>
    <suffix>`` for the named systems, or all of them in name order. ``.sents.jsonl`` files are read with their
    sentences joined by "\\n", as the app reads them; plain text files one segment a line."""

    def read(path: Path) -> list[str]:
        if suffix == ".sents.jsonl":
            from metrics.io.inputs import read_segments

            return list(read_segments(path).texts)
        return read_lines(path)

    refs = [read(folder / name) for name in ref_files]
    if systems is None:
        paths = sorted((folder / "sys").glob(f"*{suffix}"))
    else:
        paths = [folder / "sys" / f"{name}{suffix}" for name in systems]
    return refs, {p.name[: -len(suffix)]: read(p) for p in paths}
