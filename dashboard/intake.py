"""Turning uploaded or pasted files into a :class:`Dataset`, with a message naming the file and line for every
problem. Pure functions (no Streamlit), so the same checks are unit-tested directly.

Reading a file is :func:`metrics.io.inputs.parse_segments`, shared with the command line. Nothing here replaces the
loaded dataset: the page swaps datasets only when :func:`assemble` succeeds, so a bad file never wipes good data.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dashboard.dataset import Dataset, unique_name
from metrics.io.inputs import MAX_FILE_BYTES, InputError, Segments, decode_text, parse_segments, table_columns
from metrics.stats.human import HumanScores, parse_human_scores
from metrics.stats.human_table import DELIMITERS, parse_human_table

# Each session holds its uploads in memory. Measured on 2 cores: a 100 MB reference and a 100 MB system (CNN/DM
# summaries, 331,266 segments) take 24 s to read and hash, 1.1 GB at peak, and the default ROUGE metrics then take
# about 3 s per MB and system. Beyond this the command line, which reads files up to MAX_FILE_BYTES, serves better.
MAX_UPLOAD_BYTES = 100 * 1024 * 1024
TABLE_SUFFIXES = (".tsv", ".csv")


@dataclass(frozen=True)
class Parsed:
    """One uploaded file: its segments, or the error that stopped it; ``columns`` for tables."""

    name: str
    segments: Segments | None = None
    error: InputError | None = None
    columns: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.segments is not None


def upload_name(upload: Any) -> str:
    """An uploaded file's name as the user named it. Browsers send it in a multipart form, where the HTML standard
    writes a double quote as ``%22`` (and a line break as ``%0A``/``%0D``, nothing else); the quote is put back. A
    line break stays encoded, so a name always fits on one line."""
    return str(upload.name).replace("%22", '"')


def is_table(name: str) -> bool:
    return name.lower().endswith(TABLE_SUFFIXES)


def columns_of(name: str, data: bytes) -> tuple[str, ...]:
    """Header of a table file, or ``()`` when it cannot be read (the parse error will say why)."""
    try:
        return tuple(table_columns(data, name))
    except InputError:
        return ()


def default_column(columns: Sequence[str]) -> str | None:
    """The column a user most likely wants: one named like text/hypothesis/output, else the last one."""
    preferred = ("text", "hyp", "hypothesis", "output", "translation", "prediction", "summary", "caption", "ref")
    lowered = [c.lower() for c in columns]
    for name in preferred:
        if name in lowered:
            return columns[lowered.index(name)]
    return columns[-1] if columns else None


def megabytes(size: int) -> str:
    return f"{size / 2**20:,.1f} MB"


def limit_text(limit: int) -> str:
    """A size limit as every text states it: whole megabytes without decimals (``100 MB``), as Streamlit's uploader
    writes its own ("100MB per file", from :func:`upload_megabytes`); another limit as :func:`megabytes`."""
    return f"{limit // 2**20:,} MB" if limit % 2**20 == 0 else megabytes(limit)


def upload_megabytes(limit: int) -> int:
    """The whole megabytes an uploader is given for a limit in bytes (at least 1, as Streamlit requires): its text
    and the browser's own refusal then say the app's limit, whatever the server's ``maxUploadSize``."""
    return max(1, -(-limit // 2**20))


def too_large(name: str, size: int) -> InputError:
    """The error of a file over the dashboard's limit: its size, the limit, and where a larger file can go."""
    if size <= MAX_FILE_BYTES:
        elsewhere = f"the command line reads it: `scorelens score -r REFERENCES -i {shlex.quote(name)}`"
    else:
        elsewhere = f"the command line reads files up to {limit_text(MAX_FILE_BYTES)}; split it into parts"
    return InputError(
        name,
        f"the file has {megabytes(size)} ({size:,} bytes), more than the dashboard's upload limit of "
        f"{limit_text(MAX_UPLOAD_BYTES)}; {elsewhere}",
    )


def parse_upload(name: str, data: bytes, *, column: str | None = None, json_key: str = "text") -> Parsed:
    """Parse one file; every failure comes back as a :class:`Parsed` with an :class:`InputError`, never raised."""
    columns = columns_of(name, data) if is_table(name) and data else ()
    if len(data) > MAX_UPLOAD_BYTES:
        return Parsed(name, error=too_large(name, len(data)))
    if is_table(name) and column is None:
        column = default_column(columns)
    try:
        return Parsed(name, parse_segments(data, name, column=column, json_key=json_key), columns=columns)
    except InputError as err:
        return Parsed(name, error=err, columns=columns)


def parse_pasted(name: str, text: str) -> Parsed:
    """Pasted text, one segment per line, read exactly like an uploaded ``.txt`` file."""
    label = name.strip() or "pasted"
    return parse_upload(f"{label}.txt" if Path(label).suffix.lower() != ".txt" else label, text.encode("utf-8"))


def length_errors(expected: int, expected_from: str, files: Sequence[Segments]) -> list[InputError]:
    """One error per file whose segment count differs from ``expected``, naming the first line without a partner."""
    errors = []
    for f in files:
        source = f.source or f.name
        if len(f) < expected:
            errors.append(
                InputError(
                    source,
                    f"the file ends after {len(f)} segments but {expected_from} has {expected}; "
                    f"segments {len(f) + 1}–{expected} are missing",
                    len(f) + 1,
                )
            )
        elif len(f) > expected:
            errors.append(
                InputError(
                    source,
                    f"has {len(f)} segments but {expected_from} has only {expected}; "
                    f"line {expected + 1} onwards has no counterpart",
                    expected + 1,
                )
            )
    return errors


def assemble(
    refs: Sequence[Segments],
    systems: Sequence[Segments],
    source: Segments | None = None,
    *,
    title: str = "Uploaded files",
    base: Dataset | None = None,
    default_metrics: Sequence[str] | None = None,
) -> Dataset:
    """A new dataset from parsed files; raises :class:`InputError` (first problem) and leaves ``base`` untouched.

    Without references, ``systems`` are added to ``base`` and checked against its length; with neither references
    nor ``base`` they are a fresh dataset without references (a source and outputs: only metrics that read no
    references score it). With references the result is a fresh dataset whose default metrics are
    ``default_metrics``, else chosen from its references.
    """
    problems = assemble_problems(refs, systems, source, base=base)
    if problems:
        raise problems[0]
    notes = tuple(note for f in [*refs, *systems, *([source] if source else [])] for note in f.notes)
    if not refs and base is not None:
        # Segments.name is already the display name; two files of one name are both kept, numbered apart.
        added = dict(zip(_unique_names(systems, list(base.systems)), (s.texts for s in systems), strict=True))
        grown = base.with_systems(added)
        return replace(grown, source=grown.source if source is None else source.texts, notes=base.notes + notes)
    names, ref_names = _unique_names(systems), _unique_names(refs)
    return Dataset(
        title=title,
        systems={name: s.texts for name, s in zip(names, systems, strict=True)},
        refs=tuple(r.texts for r in refs),
        ref_names=tuple(ref_names),
        source=source.texts if source else None,
        default_metrics=tuple(default_metrics) if default_metrics else None,
        notes=notes,
    )


def _unique_names(files: Sequence[Segments], taken: Sequence[str] = ()) -> list[str]:
    """The files' names, ``name (2)``… where one is in ``taken`` or an earlier file's."""
    names: list[str] = []
    for f in files:
        names.append(unique_name(f.name, [*taken, *names]))
    return names


def assemble_problems(
    refs: Sequence[Segments],
    systems: Sequence[Segments],
    source: Segments | None = None,
    *,
    base: Dataset | None = None,
) -> list[InputError]:
    """Every reason :func:`assemble` would refuse these files, each naming a file (and a line where one applies)."""
    if not systems:
        return [InputError("system outputs", "add at least one system output file")]
    if refs:
        expected, expected_from = len(refs[0]), refs[0].source or refs[0].name
        others = [*refs[1:], *systems]
    elif base is not None:
        loaded = f"the loaded references ({', '.join(base.ref_names)})" if base.refs else "the loaded data"
        expected, expected_from = len(base), loaded
        others = list(systems)
    else:  # new data without references: every file against the first system's
        expected, expected_from = len(systems[0]), systems[0].source or systems[0].name
        others = list(systems[1:])
    if source is not None:
        others.append(source)
    return length_errors(expected, expected_from, others)


def parse_human_upload(
    name: str, data: bytes, base: Dataset, ids: Segments | None = None
) -> tuple[HumanScores, list[str]]:
    """Human judgments of the loaded systems — JSON lines (``metrics.stats.human``) or, for a ``.tsv``/``.csv`` name,
    a table (``metrics.stats.human_table``) — and notes on what was converted or left out.

    ``ids`` (e.g. THumB's ``image_ids.txt``) gives the id of each segment; without it ``seg_id`` is the line number.
    Raises :class:`InputError` naming the file (and line); judgments of systems not loaded are left out with a note.
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise too_large(name, len(data))
    notes: list[str] = []
    text = decode_text(data, name, notes)
    delimiter = DELIMITERS.get(Path(name).suffix.lower())
    if delimiter is not None:  # WMT's layout: system, segment (0-based), score; null where not rated
        if ids is not None:
            raise InputError(name, "a table numbers its segments (0-based): leave out the segment ids file")
        table = parse_human_table(text, len(base), list(base.systems), delimiter=delimiter, source=name)
        return table.human, [*notes, *table.notes]
    segment_ids = None
    if ids is not None:
        if len(ids) != len(base):
            raise InputError(
                ids.source or ids.name, f"has {len(ids)} segment ids but the data has {len(base)} segments"
            )
        segment_ids = [s.strip() for s in ids.texts]
    human = parse_human_scores(text.split("\n"), len(base), segment_ids, name)
    kept = {system: values for system, values in human.scores.items() if system in base.systems}
    if not kept:
        raise InputError(
            name,
            f"judges {', '.join(human.systems)}; none of them is loaded (loaded: {', '.join(base.systems)})",
        )
    ignored = [system for system in human.systems if system not in kept]
    if ignored:
        notes.append(f"{name}: judgments of systems not loaded were left out: {', '.join(ignored)}")
    return HumanScores(kept, name), notes
