"""Random access by line number to one-segment-per-line files (``.txt``, ``.jsonl``) too large for one process.

Dask's ``read_text`` splits a file into byte blocks but forgets where each block starts in lines, and blocks of a
system file and of its reference file hold different segments. So a file is read in two passes instead:

1. :func:`count_block` counts the lines that start in one byte block and notes the byte offset of every
   ``stride``-th of them (an *anchor*). Blocks are independent, so the cluster counts them in parallel.
2. :class:`LineIndex` adds up the counts: it knows the file's number of lines and where anchors are, so
   :meth:`LineIndex.span` finds the bytes of any line range ``[start, stop)`` by reading at most ``stride`` lines
   too many on each side. :meth:`LineSpan.read` parses exactly those lines, naming the file's own line numbers in
   errors.

Paths are ``fsspec`` URLs (a local path, ``s3://…`` with ``s3fs`` installed, …) that every worker can open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.io.inputs import UTF16_BOMS, InputError, Segments, old_mac_line_ends, parse_lines

BLOCK_BYTES = 64 * 1024 * 1024
STRIDE = 1024
_NEWLINE = 10


def _read(path: str, offset: int, end: int) -> bytes:
    import fsspec  # type: ignore[import-untyped]  # installed with Dask; imported late so the engine fails clearly without it

    try:
        with fsspec.open(path, "rb") as handle:
            handle.seek(offset)
            return bytes(handle.read(end - offset))
    except OSError as err:
        raise InputError(path, f"cannot read file ({err.strerror or err})") from None


def file_size(path: str) -> int:
    import fsspec

    try:
        fs, location = fsspec.core.url_to_fs(path)
        return int(fs.size(location))
    except OSError as err:
        raise InputError(path, f"cannot read file ({err.strerror or err})") from None


@dataclass(frozen=True)
class BlockLines:
    """The lines that start in one byte block: how many, and the byte offsets of the 0th, ``stride``-th, …"""

    count: int
    anchors: np.ndarray


def count_block(path: str, start: int, stop: int, stride: int = STRIDE) -> BlockLines:
    """Lines of ``path`` that start at a byte offset in ``[start, stop)``."""
    before = max(start - 1, 0)  # the byte before the block tells whether a line starts at its first byte
    data = np.frombuffer(_read(path, before, stop), dtype=np.uint8)
    starts = np.flatnonzero(data == _NEWLINE) + before + 1
    starts = starts[(starts >= start) & (starts < stop)]
    if start == 0 and stop > 0:
        starts = np.concatenate([[0], starts])
    return BlockLines(len(starts), starts[::stride].astype(np.int64))


def blocks(size: int, block_bytes: int = BLOCK_BYTES) -> list[tuple[int, int]]:
    """Byte ranges ``[start, stop)`` that cover a file of ``size`` bytes."""
    return [(start, min(start + block_bytes, size)) for start in range(0, size, block_bytes)]


@dataclass(frozen=True)
class LineSpan:
    """Lines ``first_line`` … ``first_line + count - 1`` (1-based) of ``path``: they lie in bytes
    ``[offset, end)``, after ``skip`` lines that belong to the range read but not to the span."""

    path: str
    offset: int
    end: int
    skip: int
    count: int
    first_line: int

    def read(self, json_key: str = "text") -> Segments:
        """The span's segments; an error if the file no longer has them (it changed during the run)."""
        data = _read(self.path, self.offset, self.end)
        # Lines were counted at LF bytes, which neither a UTF-16 file nor old Mac OS line ends (CR) have. A span from
        # offset 0 without LF is the whole file; latin-1 decodes any bytes, enough to look at its CRs.
        mac = b"\n" not in data and old_mac_line_ends(data.decode("latin-1"))
        if self.offset == 0 and (data[:2] in UTF16_BOMS or mac):
            raise InputError(
                self.path,
                "the dask engine splits files at UTF-8 line feeds, and this one is UTF-16 or has old Mac OS (CR) line "
                "ends: re-save it as UTF-8 with LF line ends (the local engine reads it as it is)",
            )
        newlines = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == _NEWLINE)
        begin = 0 if self.skip == 0 else int(newlines[self.skip - 1]) + 1
        last = self.skip + self.count - 1
        finish = int(newlines[last]) + 1 if last < len(newlines) else len(data)
        segments = parse_lines(data[begin:finish], self.path, first_line=self.first_line, json_key=json_key)
        if len(segments) != self.count:
            raise InputError(
                self.path,
                f"expected lines {self.first_line}–{self.first_line + self.count - 1}, read {len(segments)} "
                "(did the file change during the run?)",
            )
        return segments


@dataclass(frozen=True)
class LineIndex:
    """Where the lines of one file are: its size, its number of lines and its anchors (line number, 0-based, and
    byte offset of every ``stride``-th line of each block)."""

    path: str
    size: int
    lines: int
    anchor_lines: np.ndarray
    anchor_offsets: np.ndarray

    @classmethod
    def from_blocks(cls, path: str, size: int, counted: Sequence[BlockLines], stride: int = STRIDE) -> LineIndex:
        """The index of a file from :func:`count_block` of each of its :func:`blocks`, in order."""
        lines, offsets, first = [], [], 0
        for block in counted:
            lines.append(first + stride * np.arange(len(block.anchors), dtype=np.int64))
            offsets.append(block.anchors)
            first += block.count
        empty = np.zeros(0, dtype=np.int64)
        return cls(path, size, first, np.concatenate([empty, *lines]), np.concatenate([empty, *offsets]))

    def span(self, start: int, stop: int) -> LineSpan:
        """Lines ``[start, stop)`` (0-based)."""
        if not 0 <= start < stop <= self.lines:
            raise ValueError(f"{self.path}: lines [{start}, {stop}) are not within its {self.lines} lines")
        i = int(np.searchsorted(self.anchor_lines, start, side="right")) - 1
        j = int(np.searchsorted(self.anchor_lines, stop, side="left"))
        end = self.size if j == len(self.anchor_lines) else int(self.anchor_offsets[j])
        first = int(self.anchor_lines[i])
        return LineSpan(self.path, int(self.anchor_offsets[i]), end, start - first, stop - start, start + 1)
