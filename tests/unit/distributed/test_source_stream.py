"""The source stream on the dask engine: each partition's source slice reaches its metrics, from texts in memory, a
source file beside the system files and a Parquet table's source column, with the local engine's numbers."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from metrics.core.base import MissingInput
from metrics.core.registry import create
from metrics.distributed.engine import evaluate_source
from metrics.distributed.sources import InMemory, ParquetTable, TextFiles
from metrics.evaluate import evaluate
from metrics.io.inputs import read_segments
from tests.support.paths import DATA
from tests.support.source_metric import LengthRatio

distributed = pytest.importorskip("distributed")

DEEN = DATA / "wmt22-de-en"
SYSTEMS = [DEEN / "sys" / "LT22.txt", DEEN / "sys" / "PROMT.txt"]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL
    ) as cluster:
        yield cluster.scheduler_address


def _texts() -> tuple[dict[str, list[str]], list[str]]:
    systems = {path.stem: list(read_segments(path).texts) for path in SYSTEMS}
    return systems, list(read_segments(DEEN / "src.txt").texts)


def _rows(evaluation: object) -> dict[str, bytes]:
    return {s.name: s.stats["ratio"].rows.tobytes() for s in evaluation.systems}  # type: ignore[attr-defined]


@pytest.mark.dask
def test_each_partition_gets_its_own_source_slice(scheduler, tmp_path: Path):
    systems, source = _texts()
    local = evaluate(systems, [], {"ratio": LengthRatio()}, source=source)
    metrics = {"ratio": LengthRatio()}
    memory = evaluate_source(InMemory(systems, [], source), metrics, scheduler=scheduler, partition_size=17)
    files = TextFiles((), tuple(map(str, SYSTEMS)), source=str(DEEN / "src.txt"), block_bytes=2048, stride=4)
    on_files = evaluate_source(files, metrics, scheduler=scheduler, partition_size=23)
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = tmp_path / "segments.parquet"
    pq.write_table(pa.table({"_src": source, **systems}), table, row_group_size=30)
    on_table = evaluate_source(ParquetTable(str(table), source="_src"), metrics, scheduler=scheduler, partition_size=40)
    assert _rows(memory.evaluation) == _rows(on_files.evaluation) == _rows(on_table.evaluation) == _rows(local)
    for scored in (memory, on_files, on_table):
        assert [s.scores for s in scored.evaluation.systems] == [s.scores for s in local.systems]


@pytest.mark.dask
def test_a_metric_that_needs_what_the_source_lacks_is_refused_before_scoring(scheduler):
    systems, source = _texts()
    with pytest.raises(MissingInput, match="BLEU needs the references"):
        evaluate_source(InMemory(systems, [], source), {"bleu": create("bleu")}, scheduler=scheduler)
    files = TextFiles((), tuple(map(str, SYSTEMS)))
    with pytest.raises(MissingInput, match="Length ratio needs the source"):
        evaluate_source(files, {"ratio": LengthRatio()}, scheduler=scheduler)
