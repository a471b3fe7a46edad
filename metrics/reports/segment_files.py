"""Segment scores as files, one per system, for corpora whose segment scores do not belong in one JSON document
(``scorelens score --output-dir DIR``).

``DIR/<system>.segments.csv`` (or ``.parquet``) has a row per segment: ``segment`` (the 0-based index) and ``line``
(its 1-based line number in the input files), as in the results schema's ``segments`` table, then one column per
metric id holding that segment's score. A score that is not a
finite number is an empty cell in CSV and null in Parquet, as in the results schema. Parquet files carry every
metric's signature of its segment scores in their schema metadata (key ``scorelens.signatures``, a JSON object;
BLEU's says ``eff:yes``, as ``sacrebleu.sentence_bleu``); for CSV they are the corpus-level results'
``segment_signature``. Rows are written in chunks, so a file never exists twice in memory as text; each file
is written under a temporary name and renamed when whole (:mod:`metrics.io.outputs`), so a stopped run never leaves
a truncated file under its final name.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Sequence
from enum import Enum
from pathlib import Path

import numpy as np

from metrics.core.evaluation import Evaluation, SystemResult
from metrics.io.outputs import check_writable, replacing
from metrics.reports.results import csv_cell

CHUNK_ROWS = 100_000


class SegmentFormat(str, Enum):
    CSV = "csv"
    PARQUET = "parquet"


def segment_file(directory: Path, system: str, fmt: SegmentFormat) -> Path:
    """Where a system's segment scores go; a system name that is not a plain file name is refused."""
    if Path(system).name != system or system in {".", ".."}:
        raise ValueError(f"system name {system!r} cannot name a file in {directory}; rename the system")
    return directory / f"{system}.segments.{fmt.value}"


def _chunks(result: SystemResult, metric_ids: Sequence[str]) -> Iterator[tuple[int, int, list[np.ndarray]]]:
    count = len(result.segment_scores[metric_ids[0]]) if metric_ids else 0
    for start in range(0, count, CHUNK_ROWS):
        stop = min(start + CHUNK_ROWS, count)
        yield start, stop, [np.asarray(result.segment_scores[m][start:stop], dtype=np.float64) for m in metric_ids]


def _write_csv(path: Path, result: SystemResult, metric_ids: Sequence[str]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["segment", "line", *metric_ids])
        for start, stop, columns in _chunks(result, metric_ids):
            cells = [[csv_cell(x) for x in column.tolist()] for column in columns]
            writer.writerows(zip(range(start, stop), range(start + 1, stop + 1), *cells, strict=True))


def _write_parquet(path: Path, result: SystemResult, metric_ids: Sequence[str], signatures: dict[str, str]) -> None:
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise ValueError(
            "writing Parquet needs pyarrow: pip install 'scorelens[parquet]' (or --segment-format csv)"
        ) from None
    fields = [pa.field("segment", pa.int64()), pa.field("line", pa.int64())]
    fields += [pa.field(m, pa.float64()) for m in metric_ids]
    schema = pa.schema(fields, metadata={"scorelens.signatures": json.dumps(signatures, ensure_ascii=False)})
    with pq.ParquetWriter(path, schema) as writer:
        for start, stop, columns in _chunks(result, metric_ids):
            index = np.arange(start, stop, dtype=np.int64)
            arrays = [pa.array(index), pa.array(index + 1)]
            arrays += [pa.array(column, mask=~np.isfinite(column)) for column in columns]
            writer.write_table(pa.Table.from_arrays(arrays, schema=schema))


def write_segment_scores(
    evaluation: Evaluation, directory: Path, fmt: SegmentFormat = SegmentFormat.CSV
) -> tuple[Path, ...]:
    """Write every system's segment scores under ``directory`` (created if needed); returns the files. A folder or
    file that cannot be written raises :class:`metrics.io.outputs.OutputError` naming it."""
    paths = [segment_file(directory, result.name, fmt) for result in evaluation.systems]
    check_writable(directory)
    metric_ids = list(evaluation.metrics)
    for path, result in zip(paths, evaluation.systems, strict=True):
        with replacing(path) as part:
            if fmt is SegmentFormat.CSV:
                _write_csv(part, result, metric_ids)
            else:
                _write_parquet(part, result, metric_ids, evaluation.segment_signatures)
    return tuple(paths)
