"""What the ``scorelens`` subcommands share: the metric list as ``--metrics`` spells it, reading and scoring the
input files, and notes on stderr."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from metrics.core.registry import SPECS, create_many, parse_set_options
from metrics.evaluate import Evaluation, evaluate
from metrics.io.inputs import check_same_length, read_segments
from metrics.io.results import Note


def metric_list(text: str) -> list[str]:
    ids = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in ids if m not in SPECS]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; valid metrics: {', '.join(SPECS)}")
    if len(set(ids)) != len(ids):
        raise ValueError(f"metric listed twice in {text!r}")
    return ids


@dataclass(frozen=True)
class Scored:
    """The input files' texts, their evaluation and the notes on reading them (``source`` when one was given)."""

    evaluation: Evaluation
    refs: list[list[str]]
    systems: Mapping[str, list[str]]
    notes: list[Note]
    source: list[str] | None = None


def score_files(
    metrics: str,
    options: Sequence[str],
    refs: Sequence[str],
    systems: Sequence[str],
    source: str | None = None,
    *,
    jobs: int = 1,
) -> Scored:
    """Read the files (all the same length, system names unique) and score every system with every metric, in
    ``jobs`` processes (:mod:`metrics.parallel`)."""
    chosen = create_many(metric_list(metrics), parse_set_options(options))
    ref_files = [read_segments(path) for path in refs]
    system_files = [read_segments(path) for path in systems]
    source_file = read_segments(source) if source is not None else None
    check_same_length([*ref_files, *system_files, *([source_file] if source_file else [])])
    names = [s.name for s in system_files]
    if len(set(names)) != len(names):
        raise ValueError(f"two system files share a name ({', '.join(names)}); rename one")
    texts = {s.name: list(s.texts) for s in system_files}
    ref_texts = [list(r.texts) for r in ref_files]
    read = [*ref_files, *system_files, *([source_file] if source_file else [])]
    return Scored(
        evaluate(texts, ref_texts, chosen, jobs=jobs),
        ref_texts,
        texts,
        [Note(n) for f in read for n in f.notes],
        list(source_file.texts) if source_file else None,
    )


def print_notes(notes: Sequence[Note]) -> None:
    for note in notes:
        where = f"{note.metric} on {', '.join(note.systems)}: " if note.metric else ""
        print(f"scorelens: {'warning' if note.metric else 'note'}: {where}{note.message}", file=sys.stderr)
