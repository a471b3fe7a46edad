"""What a distributed run scores, and how a worker reads one partition of it.

A source (:class:`InMemory`, :class:`TextFiles`, :class:`ParquetTable`) makes a :class:`Plan` on the cluster: the
number of segments, the system names, and for any range of segments a small, picklable reader that a task carries
to its worker. The reader opens the files there, so the client never holds the texts of a large corpus; a task
that is retried (its worker died) reads its partition again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from metrics.core.base import check_corpus, check_source
from metrics.distributed.lines import BLOCK_BYTES, STRIDE, LineIndex, LineSpan, blocks, count_block, file_size
from metrics.io.inputs import TABLE_SUFFIXES, InputError, check_same_counts, display_name
from metrics.io.parquet import TableLayout, read_rows, table_layout

if TYPE_CHECKING:
    from distributed import Client


@dataclass(frozen=True)
class Part:
    """Segments ``start`` … ``stop - 1`` of every system and reference stream and of the source (``None``: none
    was given), with notes on how the input was read (line endings, a byte-order mark). A part in hand is its own
    reader."""

    start: int
    stop: int
    systems: Mapping[str, Sequence[str]]
    refs: tuple[Sequence[str | None], ...]
    notes: tuple[str, ...] = ()
    source: Sequence[str] | None = None

    def __post_init__(self) -> None:
        streams = [*self.systems.items(), *((f"reference {k + 1}", r) for k, r in enumerate(self.refs))]
        if self.source is not None:
            streams.append(("the source", self.source))
        for name, texts in streams:
            if len(texts) != self.stop - self.start:
                raise ValueError(f"{name}: {len(texts)} segments in a part of lines {self.start + 1}–{self.stop}")

    def read(self, systems: bool = True) -> Part:
        return self


class PartReader(Protocol):
    """Reads segments ``start`` … ``stop - 1`` where it runs; ``systems=False``: the references only."""

    @property
    def start(self) -> int: ...

    @property
    def stop(self) -> int: ...

    def read(self, systems: bool = True) -> Part: ...


class Plan(Protocol):
    @property
    def segments(self) -> int: ...

    @property
    def has_references(self) -> bool: ...

    @property
    def has_source(self) -> bool: ...

    @property
    def systems(self) -> tuple[str, ...]: ...

    def part(self, start: int, stop: int) -> PartReader: ...


class Source(Protocol):
    def plan(self, client: Client) -> Plan: ...


def first_segments(plan: Plan, segments: int) -> Part:
    """The first ``segments`` segments of every reference stream and system, read here (what choosing default
    metrics and a language's options looks at, as the local engine does)."""
    return plan.part(0, min(segments, plan.segments)).read()


# --------------------------------------------------------------------------------------------------------- memory


@dataclass(frozen=True)
class MemoryPlan:
    texts: InMemory
    segments: int

    @property
    def has_references(self) -> bool:
        return bool(self.texts.refs)

    @property
    def has_source(self) -> bool:
        return self.texts.source is not None

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.texts.systems)

    def part(self, start: int, stop: int) -> Part:
        return Part(
            start,
            stop,
            {name: tuple(hyps[start:stop]) for name, hyps in self.texts.systems.items()},
            tuple(tuple(stream[start:stop]) for stream in self.texts.refs),
            source=None if self.texts.source is None else tuple(self.texts.source[start:stop]),
        )


@dataclass(frozen=True)
class InMemory:
    """Texts this process holds (what :func:`metrics.evaluate.evaluate` is given): each task carries its slice.
    ``refs`` may be empty when no metric reads references; ``source`` is the segments' source texts, or ``None``."""

    systems: Mapping[str, Sequence[str]]
    refs: Sequence[Sequence[str | None]]
    source: Sequence[str] | None = None

    def plan(self, client: Client) -> MemoryPlan:
        if not self.systems:
            raise ValueError("no systems to score")
        for name, hyps in self.systems.items():
            check_corpus(hyps, self.refs, f"system {name!r}", references=False)
        segments = len(next(iter(self.systems.values())))
        if self.source is not None:
            check_source(self.source, segments)
        return MemoryPlan(self, segments)


# ----------------------------------------------------------------------------------------------------- text files


@dataclass(frozen=True)
class TextSlice:
    start: int
    stop: int
    refs: tuple[LineSpan, ...]
    systems: tuple[tuple[str, LineSpan], ...]
    json_key: str
    source: LineSpan | None = None

    def read(self, systems: bool = True) -> Part:
        refs = [span.read(self.json_key) for span in self.refs]
        outputs = {name: span.read(self.json_key) for name, span in self.systems} if systems else {}
        source = self.source.read(self.json_key) if systems and self.source is not None else None
        read = (*refs, *outputs.values(), *([source] if source is not None else []))
        notes = dict.fromkeys(n for segments in read for n in segments.notes)
        return Part(
            self.start,
            self.stop,
            {name: s.texts for name, s in outputs.items()},
            tuple(s.texts for s in refs),
            tuple(notes),
            None if source is None else source.texts,
        )


@dataclass(frozen=True)
class TextPlan:
    refs: tuple[LineIndex, ...]
    outputs: tuple[tuple[str, LineIndex], ...]
    json_key: str
    source: LineIndex | None = None

    @property
    def segments(self) -> int:
        return self.outputs[0][1].lines

    @property
    def has_references(self) -> bool:
        return bool(self.refs)

    @property
    def has_source(self) -> bool:
        return self.source is not None

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.outputs)

    def part(self, start: int, stop: int) -> TextSlice:
        return TextSlice(
            start,
            stop,
            tuple(index.span(start, stop) for index in self.refs),
            tuple((name, index.span(start, stop)) for name, index in self.outputs),
            self.json_key,
            None if self.source is None else self.source.span(start, stop),
        )


@dataclass(frozen=True)
class TextFiles:
    """One-segment-per-line files (``.txt``, ``.jsonl``: :func:`metrics.io.inputs.parse_lines`), each a reference
    stream or a system named by its file (:func:`~metrics.io.inputs.display_name`), and the source file when one is
    given. The cluster first counts the lines of every ``block_bytes`` block (:mod:`metrics.distributed.lines`); no
    file size limit applies. No reference file is needed when no metric reads references."""

    refs: tuple[str, ...]
    systems: tuple[str, ...]
    json_key: str = "text"
    block_bytes: int = field(default=BLOCK_BYTES)
    stride: int = field(default=STRIDE)
    source: str | None = None

    def plan(self, client: Client) -> TextPlan:
        if not self.systems:
            raise ValueError("give at least one system file")
        names = [display_name(path) for path in self.systems]
        if len(set(names)) != len(names):
            raise ValueError(f"two system files share a name ({', '.join(names)}); rename one")
        given = (*self.refs, *self.systems, *((self.source,) if self.source is not None else ()))
        paths = list(dict.fromkeys(given))
        for path in paths:
            if Path(path).suffix.lower() in TABLE_SUFFIXES:
                raise InputError(path, "CSV/TSV is not read in partitions (a record may span lines); use Parquet")
        sizes = {path: file_size(path) for path in paths}
        for path, size in sizes.items():
            if size == 0:
                raise InputError(path, "file is empty")
        counting = {
            path: [
                client.submit(count_block, path, a, b, self.stride, pure=False)
                for a, b in blocks(size, self.block_bytes)
            ]
            for path, size in sizes.items()
        }
        counted = client.gather(counting)
        index = {path: LineIndex.from_blocks(path, sizes[path], counted[path], self.stride) for path in paths}
        check_same_counts({path: index[path].lines for path in given})
        return TextPlan(
            tuple(index[p] for p in self.refs),
            tuple((display_name(p), index[p]) for p in self.systems),
            self.json_key,
            None if self.source is None else index[self.source],
        )


# ---------------------------------------------------------------------------------------------------------- table


@dataclass(frozen=True)
class TableSlice:
    layout: TableLayout
    start: int
    stop: int

    def read(self, systems: bool = True) -> Part:
        rows = read_rows(self.layout, self.start, self.stop, systems=systems)
        return Part(self.start, self.stop, rows.systems, rows.refs, source=rows.source)


@dataclass(frozen=True)
class TablePlan:
    layout: TableLayout

    @property
    def segments(self) -> int:
        return self.layout.rows

    @property
    def has_references(self) -> bool:
        return bool(self.layout.refs)

    @property
    def has_source(self) -> bool:
        return self.layout.source is not None

    @property
    def systems(self) -> tuple[str, ...]:
        return self.layout.systems

    def part(self, start: int, stop: int) -> TableSlice:
        return TableSlice(self.layout, start, stop)


@dataclass(frozen=True)
class ParquetTable:
    """A Parquet table of segments (the column convention of :mod:`metrics.io.parquet`), read by row range;
    ``source`` names the column of the source texts, when the metrics read them."""

    path: str
    source: str | None = None

    def plan(self, client: Client) -> TablePlan:
        return TablePlan(table_layout(self.path, self.source))
