"""The dask engine: the local engine's rows bit for bit on a real slice, for every metric; a worker killed
mid-run; partitioned reading of text and Parquet files with the files' own line numbers; the gather's checks.

Tests that need a cluster are marked ``dask`` (``python -m pytest -m dask``; ``.ci/run`` runs them after the default
run): each module-scoped cluster of two worker processes takes seconds to start and stop on a loaded machine."""

from __future__ import annotations

import json
import logging
import os
import pickle
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from metrics.cli.main import main
from metrics.core.base import Metric, Progress, SegmentStats, StatsNote
from metrics.core.evaluation import Evaluation
from metrics.core.registry import SPECS, create
from metrics.distributed.cluster import ClusterError
from metrics.distributed.engine import evaluate_source
from metrics.distributed.gather import GatherError, PartResult, check_tiling, merge_notes
from metrics.distributed.lines import LineIndex, blocks, count_block
from metrics.distributed.sources import TextFiles
from metrics.evaluate import evaluate
from metrics.io.inputs import InputError, read_segments
from tests.support.corpora import slice_corpus
from tests.support.paths import DATA
from tests.support.terminal import Terminal
from tests.support.text_only import reads_source

distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

DEEN = DATA / "wmt22-de-en"
REFS = [str(DEEN / "ref.A.txt"), str(DEEN / "ref.B.txt")]
SYSTEMS = [str(DEEN / "sys" / "LT22.txt"), str(DEEN / "sys" / "PROMT.txt")]


@contextmanager
def _cluster(**config: object) -> Iterator[str]:
    import dask

    with (
        dask.config.set(config),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL
        ) as cluster,
    ):
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """Two single-threaded worker processes that stay alive."""
    with _cluster() as address:
        yield address


@pytest.fixture(scope="module")
def fragile() -> Iterator[str]:
    """Two workers for the tests that kill them (a restarted worker may take long on a loaded machine). A task
    whose workers died twice fails (allowed-failures = 1), so the test of a worker that keeps dying is quick."""
    with _cluster(**{"distributed.scheduler.allowed-failures": 1}) as address:
        yield address


@pytest.fixture(scope="module")
def corpus() -> tuple[dict[str, list[str]], list[list[str | None]]]:
    """120 real segments of two systems; the second reference is missing for every 7th segment (nrefs:var)."""
    data = slice_corpus("wmt22-de-en")
    systems = {name: data.systems[name][:120] for name in ("LT22", "PROMT")}
    refs: list[list[str | None]] = [list(data.refs[0][:120]), list(data.refs[1][:120])]
    refs[1] = [None if i % 7 == 3 else text for i, text in enumerate(refs[1])]
    return systems, refs


def _same(a: SegmentStats, b: SegmentStats) -> bool:
    return a.columns == b.columns and a.rows.shape == b.rows.shape and a.rows.tobytes() == b.rows.tobytes()


def _assert_identical(local: Evaluation, dist: Evaluation) -> None:
    assert local.signatures == dist.signatures
    assert [s.name for s in local.systems] == [s.name for s in dist.systems]
    for ours, theirs in zip(local.systems, dist.systems, strict=True):
        for metric_id in local.metrics:
            assert _same(ours.stats[metric_id], theirs.stats[metric_id]), (ours.name, metric_id)
            assert ours.scores[metric_id] == theirs.scores[metric_id] or np.isnan(ours.scores[metric_id])
            assert ours.segment_scores[metric_id].tobytes() == theirs.segment_scores[metric_id].tobytes()


@pytest.mark.dask
def test_every_metric_gives_the_local_rows_bit_for_bit(scheduler, corpus):
    systems, refs = corpus
    # and those scored as one task beside the partitions (CIDEr-D's PTB tokens depend on the next caption); the
    # COMET family reads the source this corpus has not (tests/parity/comet/test_comet_dask.py covers it)
    ids = [
        m
        for m in SPECS
        if SPECS[m].available()
        and not reads_source(m)
        and (create(m).traits.partitionable or create(m).traits.whole_task)
    ]
    assert "cider" in ids and not create("cider").traits.partitionable
    assert create("cider", {"tokenize": "split"}).traits.partitionable
    local = evaluate(systems, refs, {m: create(m) for m in ids})
    dist = evaluate(systems, refs, {m: create(m) for m in ids}, engine="dask", scheduler=scheduler)
    _assert_identical(local, dist)
    # Perplexity's model trains on every reference: partitions cannot reproduce it, so the engine refuses it
    with pytest.raises(ValueError, match="perplexity: rows depend on the whole corpus"):
        evaluate(systems, refs, {"perplexity": create("perplexity")}, engine="dask", scheduler=scheduler)
    assert local.signatures["bleu"].startswith("nrefs:var|")
    # CIDEr-D rows depend on the whole corpus's document frequencies: partitions scored alone would differ.
    alone = create("cider").stats(systems["LT22"][:30], [r[:30] for r in refs]).rows
    assert alone.tobytes() != local.system("LT22").stats["cider"].rows[:30].tobytes()


def _cli(*args: str) -> list[str]:
    return ["score", "--metrics", "bleu,chrf,ter,cider,wer", "--format", "json", "--confidence", "--paired-bs", *args]


@pytest.mark.dask
def test_cli_prints_the_local_json_and_writes_the_same_segment_files(scheduler, tmp_path, capsys):
    files = ["--refs", *REFS, "--systems", *SYSTEMS]
    assert main(_cli(*files, "--output-dir", str(tmp_path / "local"))) == 0
    local = capsys.readouterr().out
    dask_args = ["--engine", "dask", "--scheduler", scheduler, "--partition-size", "64"]
    assert main(_cli(*files, *dask_args, "--output-dir", str(tmp_path / "dask"))) == 0
    assert capsys.readouterr().out == local
    for system in ("LT22", "PROMT"):
        ours = (tmp_path / "local" / f"{system}.segments.csv").read_text()
        assert (tmp_path / "dask" / f"{system}.segments.csv").read_text() == ours
        assert len(ours.splitlines()) == 401 and ours.startswith("segment,line,bleu,chrf,ter,cider,wer\n0,1,")
    document = json.loads(local)
    assert "segments" not in document["systems"][0] and "intervals" in document["systems"][0]


@pytest.mark.dask
def test_metrics_and_options_chosen_from_the_first_references_are_the_local_engine_s(scheduler, capsys):
    """Without -m, Chinese references: BLEU tokenizes zh and TER splits Han characters on both engines."""
    zh = DATA / "wmt22-en-zh"
    args = ["score", "-r", str(zh / "ref.A.txt"), "-i", str(zh / "sys" / "Lan-Bridge.txt"), "--format", "json"]
    assert main(args) == 0
    local = capsys.readouterr()
    assert main([*args, "--engine", "dask", "--scheduler", scheduler, "--partition-size", "70"]) == 0
    dist = capsys.readouterr()
    assert dist.out == local.out and dist.err == local.err
    assert "metrics chosen from the data: bleu, chrf, ter" in local.err
    assert json.loads(local.out)["signatures"]["bleu"].startswith("nrefs:1|case:mixed|eff:no|tok:zh|")


@pytest.mark.dask
def test_files_counted_in_many_small_blocks_give_the_local_rows(scheduler, tmp_path):
    """Partitions that start mid-block, anchors every 16 lines, a byte-order mark and CRLF line endings."""
    refs, systems = [], []
    for name, path in (("ref.A.txt", REFS[0]), ("LT22.txt", SYSTEMS[0])):
        copy = tmp_path / name
        copy.write_bytes(b"\xef\xbb\xbf" + Path(path).read_bytes().replace(b"\n", b"\r\n"))
        (refs if name.startswith("ref") else systems).append(str(copy))
    source = TextFiles(tuple(refs), tuple(systems), block_bytes=4096, stride=16)
    scored = evaluate_source(
        source, {"bleu": create("bleu"), "chrf": create("chrf")}, scheduler=scheduler, partition_size=37
    )
    ref, hyp = read_segments(refs[0]), read_segments(systems[0])
    local = evaluate({"LT22": list(hyp.texts)}, [list(ref.texts)], {"bleu": create("bleu"), "chrf": create("chrf")})
    _assert_identical(local, scored.evaluation)
    assert scored.notes == (*ref.notes, *hyp.notes)  # each file's byte-order mark and line endings, once


def _write_table(path: Path, corpus: tuple[dict[str, list[str]], list[list[str | None]]], row_group: int) -> None:
    systems, refs = corpus
    columns = {"_id": [f"doc{i}" for i in range(len(refs[0]))], "ref.A": refs[0], **systems, "ref.B": refs[1]}
    pq.write_table(pa.table(columns), path, row_group_size=row_group)


@pytest.mark.dask
def test_parquet_table_scores_alike_on_both_engines(scheduler, corpus, tmp_path, capsys):
    table = tmp_path / "segments.parquet"
    _write_table(table, corpus, row_group=25)
    assert main(_cli("--table", str(table), "--output-dir", str(tmp_path / "a"), "--segment-format", "parquet")) == 0
    local = capsys.readouterr().out
    dask_args = ["--engine", "dask", "--scheduler", scheduler, "--partition-size", "40"]
    assert main(_cli("--table", str(table), *dask_args, "--output-dir", str(tmp_path / "b"))) == 0
    assert capsys.readouterr().out == local
    document = json.loads(local)
    assert [s["name"] for s in document["systems"]] == ["LT22", "PROMT"]
    assert document["signatures"]["bleu"].startswith("nrefs:var|bs:1000|seed:12345|")
    written = pq.read_table(tmp_path / "a" / "LT22.segments.parquet")
    csv_lines = (tmp_path / "b" / "LT22.segments.csv").read_text().splitlines()
    assert written.num_rows == 120 == len(csv_lines) - 1
    # no resampling per segment, and segment BLEU is sacrebleu's sentence_bleu (effective order)
    signature = document["signatures"]["bleu"].replace("bs:1000|seed:12345|", "").replace("|eff:no|", "|eff:yes|")
    assert json.loads(written.schema.metadata[b"scorelens.signatures"])["bleu"] == signature
    assert f"{written.column('chrf')[7].as_py()!r}" == csv_lines[8].split(",")[3]  # segment, line, bleu, chrf


def _dying(metric_id: str, marker: Path, always: bool) -> Metric:
    """A metric whose worker process dies the first time it scores (or every time): a worker killed mid-run."""
    base = type(create(metric_id))

    class Dying(base):  # type: ignore[valid-type, misc]
        def stats(
            self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None = None
        ) -> SegmentStats:
            if always or not marker.exists():
                marker.touch()
                os._exit(1)
            return super().stats(hyps, refs, progress)

    return Dying(create(metric_id).config)


@pytest.mark.dask
def test_a_worker_killed_mid_run_is_replaced_and_its_partition_scored_again(fragile, corpus, tmp_path):
    systems, refs = corpus
    marker = tmp_path / "died"
    metrics = {"chrf": _dying("chrf", marker, always=False), "bleu": create("bleu")}
    dist = evaluate(systems, refs, metrics, engine="dask", scheduler=fragile)
    assert marker.exists()  # a worker did die
    _assert_identical(evaluate(systems, refs, {"chrf": create("chrf"), "bleu": create("bleu")}), dist)


@pytest.mark.dask
def test_a_partition_whose_workers_keep_dying_fails_with_a_clear_error(fragile, corpus, tmp_path):
    systems, refs = corpus
    metrics = {"ter": _dying("ter", tmp_path / "died", always=True)}
    with pytest.raises(ClusterError, match=r"task scorelens-score-\d+-\d+-\w+ ran on workers that died 2 times"):
        evaluate(systems, refs, metrics, engine="dask", scheduler=fragile)


@pytest.mark.dask
def test_an_input_error_on_a_worker_names_the_file_and_its_line(scheduler, tmp_path, capsys):
    lines = (DEEN / "sys" / "LT22.txt").read_bytes().split(b"\n")
    lines[336] = b"caf\xe9"
    broken = tmp_path / "LT22.txt"
    broken.write_bytes(b"\n".join(lines))
    args = ["score", "--refs", REFS[0], "--systems", str(broken), "-m", "bleu"]
    assert main(args) == 2
    local = capsys.readouterr().err
    assert f"{broken}, line 337: bytes b'\\xe9" in local
    assert main([*args, "--engine", "dask", "--scheduler", scheduler, "--partition-size", "50"]) == 2
    assert capsys.readouterr().err == local


# ---------------------------------------------------------------------------------------- reading by line, no cluster


def _index(path: Path, block_bytes: int, stride: int) -> LineIndex:
    size = path.stat().st_size
    counted = [count_block(str(path), a, b, stride) for a, b in blocks(size, block_bytes)]
    return LineIndex.from_blocks(str(path), size, counted, stride)


@pytest.mark.parametrize("block_bytes,stride", [(7, 1), (64, 3), (1 << 20, 1024)])
def test_any_line_range_reads_as_the_whole_file_does(tmp_path, block_bytes, stride):
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"\xef\xbb\xbffirst\r\n\r\nthird line\r\n\xc3\xa9t\xc3\xa9\r\n\r\n\r\nseventh\r\nlast, no newline")
    whole = read_segments(path)
    index = _index(path, block_bytes, stride)
    assert index.lines == len(whole) == 8
    for start in range(8):
        for stop in range(start + 1, 9):
            part = index.span(start, stop).read()
            assert part.texts == whole.texts[start:stop], (start, stop)
            # a partition notes its own empty lines, by the file's line numbers; its other notes are the file's
            blank = [n for n in part.notes if "empty or only whitespace" in n]
            assert set(part.notes) - set(blank) <= set(whole.notes)
            empty = [str(k + 1) for k in range(start, stop) if not whole.texts[k].strip()]
            assert len(blank) == (1 if empty else 0)
            if empty:
                assert f"{len(empty)} segment(s)" in blank[0] and f" {', '.join(empty)}); " in blank[0]

    def read_notes(notes: tuple[str, ...]) -> list[str]:
        return [n for n in notes if "empty or only whitespace" not in n]

    assert read_notes(index.span(0, 2).read().notes) == read_notes(whole.notes)  # the byte-order mark is line 1's


def test_a_jsonl_error_in_a_later_partition_names_the_file_line(tmp_path):
    path = tmp_path / "sys.jsonl"
    path.write_text(
        "".join(json.dumps({"text": f"segment {i}"}) + "\n" for i in range(40)).replace('"segment 33"', "segment 33")
    )
    index = _index(path, block_bytes=100, stride=4)
    assert index.span(0, 33).read().texts[-1] == "segment 32"
    with pytest.raises(InputError, match=r"sys.jsonl, line 34: not valid JSON"):
        index.span(30, 40).read()


@pytest.mark.parametrize("data", [b"\xff\xfea\x00\n\x00b\x00\n\x00", b"one\rtwo\rthree\r"], ids=["UTF-16", "lone CR"])
def test_files_the_local_reader_converts_are_refused_by_the_line_index_saying_what_to_do(tmp_path, data):
    path = tmp_path / "sys.txt"
    path.write_bytes(data)
    assert len(read_segments(path)) in (2, 3)  # the local engine reads them
    index = _index(path, block_bytes=1 << 20, stride=4)
    with pytest.raises(InputError, match=r"sys.txt: the dask engine splits files at UTF-8 line feeds.*re-save it"):
        index.span(0, 1).read()


def test_input_errors_keep_their_type_across_processes():
    error = pickle.loads(pickle.dumps(InputError("a.txt", "not valid UTF-8", 12)))
    assert isinstance(error, InputError) and str(error) == "a.txt, line 12: not valid UTF-8" and error.line == 12


# ------------------------------------------------------------------------------------------------ gathering, no cluster


def _part(start: int, stop: int, rows: int | None = None, notes: tuple[str, ...] = ()) -> PartResult:
    n = stop - start if rows is None else rows
    stats = SegmentStats("ter", ("edits", "ref_len"), np.ones((n, 2)), "sum", notes)
    return PartResult(start, stop, {"sys": {"ter": stats}}, frozenset({1}), ())


def test_gather_refuses_missing_duplicated_or_short_partitions():
    assert [p.start for p in check_tiling([_part(5, 9), _part(0, 5)], 9)] == [0, 5]
    with pytest.raises(GatherError, match="segments 6–7 are missing"):
        check_tiling([_part(0, 5), _part(7, 9)], 9)
    with pytest.raises(GatherError, match="segments 4–5 were gathered twice"):
        check_tiling([_part(0, 5), _part(3, 9)], 9)
    with pytest.raises(GatherError, match="segments 10–12 are missing"):
        check_tiling([_part(0, 9)], 12)
    with pytest.raises(GatherError, match="ter on sys: 3 rows for the 4 segments 6–9"):
        check_tiling([_part(0, 5), _part(5, 9, rows=3)], 9)


def test_notes_of_every_partition_stay_as_they_are_others_name_their_partitions():
    corpus_wide = StatsNote("no text has a newline")
    budget = "the search stopped at its budget"
    local = StatsNote(budget, "1 segment(s) (2)")
    parts = [(0, 10, (corpus_wide,)), (10, 20, (corpus_wide, local)), (20, 30, (corpus_wide, local))]
    assert merge_notes(parts) == (corpus_wide, StatsNote(budget, "partition of segments 11–30: 1 segment(s) (2)"))
    many = [(10 * k, 10 * k + 10, (StatsNote(budget, f"{k} segment(s)"),)) for k in range(6)]
    (merged,) = merge_notes(many)
    assert merged.kind == budget
    assert merged.detail.split("; ") == [
        "partition of segments 1–10: 0 segment(s)",
        "partition of segments 11–20: 1 segment(s)",
        "partition of segments 21–30: 2 segment(s)",
        "3 more partition(s) (the local engine counts the whole corpus)",
    ]


def test_dask_options_need_the_dask_engine(capsys, monkeypatch):
    assert main(["score", "--refs", REFS[0], "--systems", SYSTEMS[0], "--workers", "2"]) == 2
    assert "--workers need --engine dask" in capsys.readouterr().err
    assert main(["score", "--refs", REFS[0], "--systems", "-", "--engine", "dask"]) == 2
    assert "--engine dask reads files on its workers, not standard input (-)" in capsys.readouterr().err
    assert main(["score", "--table", "t.parquet", "--refs", REFS[0]]) == 2
    assert "give either --table or the reference (REFS or -r/--refs) and system (-i) files" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", Terminal())  # without -i a pipe would be read: none here
    assert main(["score", "--refs", REFS[0]]) == 2
    assert "no system output given" in capsys.readouterr().err
    assert main(["score", "--systems", SYSTEMS[0]]) == 2
    err = capsys.readouterr().err
    assert "give the reference files, as REFS" in err and "or --table" in err
    with pytest.raises(ValueError, match="scheduler and workers are options of engine='dask'"):
        evaluate({"s": ["a"]}, [["a"]], {"bleu": create("bleu")}, workers=2)


@pytest.mark.dask
def test_cli_starts_its_own_local_cluster_without_a_scheduler_address(capsys):
    args = ["score", "--refs", *REFS, "--systems", *SYSTEMS, "--metrics", "bleu,meteor", "--format", "json"]
    assert main(args) == 0
    local = capsys.readouterr().out
    assert main([*args, "--engine", "dask", "--workers", "2"]) == 0
    assert capsys.readouterr().out == local
