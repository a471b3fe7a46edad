"""Output files are whole or absent: written under a temporary name and renamed; an unwritable folder is an error
that names it, found before any work."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from metrics.cli import main as cli_main
from metrics.cli.main import main
from metrics.core.evaluation import Evaluation, SystemResult
from metrics.core.registry import create
from metrics.io import outputs
from metrics.io.outputs import OutputError, check_writable, replacing, write_text
from metrics.reports import segment_files
from metrics.reports.segment_files import write_segment_scores
from tests.support.paths import DATA, ROOT

DEEN = DATA / "wmt22-de-en"
SCORE = ["score", "--refs", str(DEEN / "ref.A.txt"), "--systems", str(DEEN / "sys" / "LT22.txt"), "-m", "bleu"]


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_whole_write_lands_under_the_final_name_with_the_umasks_permissions(tmp_path):
    target = tmp_path / "table.csv"
    old = os.umask(0o022)
    try:
        write_text(target, "a,b\n1,2\n")
    finally:
        os.umask(old)
    assert target.read_text(encoding="utf-8") == "a,b\n1,2\n"
    assert target.stat().st_mode & 0o777 == 0o644  # not mkstemp's 0o600
    assert _listing(tmp_path) == ["table.csv"]


@pytest.mark.parametrize("stop", [RuntimeError("boom"), KeyboardInterrupt()])
def test_a_write_stopped_half_way_leaves_no_final_file_and_no_temporary_one(tmp_path, stop):
    target = tmp_path / "table.csv"
    with pytest.raises(type(stop)), replacing(target) as part:
        part.write_text("segment,bleu\n0,1.0\n", encoding="utf-8")  # whole rows: it would look complete
        raise stop
    assert _listing(tmp_path) == []


def test_a_stopped_rewrite_keeps_the_previous_file(tmp_path):
    target = tmp_path / "table.csv"
    target.write_text("previous\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), replacing(target) as part:
        part.write_text("half", encoding="utf-8")
        raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "previous\n"
    assert _listing(tmp_path) == ["table.csv"]


def test_a_full_disk_while_writing_names_the_file(tmp_path):
    target = tmp_path / "table.csv"
    with pytest.raises(OutputError, match=r"cannot write .*table\.csv: No space left on device"), replacing(target):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert _listing(tmp_path) == []


def test_a_folder_under_a_regular_file_or_in_proc_is_refused_by_name(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match=r"cannot write .*file/out: "):
        check_writable(blocker / "out")
    if Path("/proc/self").is_dir():  # /proc takes no new files, even from root
        with pytest.raises(OutputError, match="cannot write /proc: "):
            check_writable(Path("/proc"))
    check_writable(tmp_path / "new" / "folder")  # created, and left empty
    assert _listing(tmp_path / "new" / "folder") == []


def _evaluation(rows: int) -> Evaluation:
    scores = {"bleu": np.linspace(0, 100, rows)}
    return Evaluation({"bleu": create("bleu")}, {"bleu": "sig"}, (SystemResult("sys", {}, {}, scores),))


def test_segment_files_stopped_between_chunks_leave_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(segment_files, "CHUNK_ROWS", 10)
    chunks = segment_files._chunks

    def two_chunks_then_stop(result, metric_ids):
        for k, chunk in enumerate(chunks(result, metric_ids)):
            if k == 2:
                raise KeyboardInterrupt
            yield chunk

    monkeypatch.setattr(segment_files, "_chunks", two_chunks_then_stop)
    with pytest.raises(KeyboardInterrupt):
        write_segment_scores(_evaluation(100), tmp_path)
    assert _listing(tmp_path) == []


def test_an_unwritable_output_dir_is_refused_before_scoring(tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")

    def never(*_args, **_kwargs):
        raise AssertionError("scored although the output folder cannot be written")

    monkeypatch.setattr("metrics.cli.main.score_files", never)
    for folder in (blocker / "out", *([Path("/proc")] if Path("/proc/self").is_dir() else [])):
        assert main([*SCORE, "--output-dir", str(folder)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"scorelens: error: cannot write {folder}: ") and "Traceback" not in err


def test_an_unwritable_analysis_folder_is_refused_before_the_analysis(tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setattr("metrics.cli.analyze.analyse", lambda _args: pytest.fail("analysed anyway"))
    argv = ["analyze", *SCORE[1:], "--format", "csv", "--output-dir", str(blocker / "out")]
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"scorelens: error: cannot write {blocker / 'out'}: ")


def test_a_full_disk_while_writing_segment_files_is_an_error_naming_the_file(tmp_path, capsys, monkeypatch):
    def full(path, *_args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(segment_files, "_write_csv", full)
    assert main([*SCORE, "--output-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"scorelens: error: cannot write {tmp_path / 'LT22.segments.csv'}: No space left on device\n"
    assert _listing(tmp_path) == []


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import numpy as np
    from metrics.cli import main as cli
    from metrics.core.evaluation import Evaluation, SystemResult
    from metrics.core.registry import create
    from metrics.reports import segment_files

    segment_files.CHUNK_ROWS = 1000  # many small chunks: the signal lands between two of them
    metrics = {m: create(m) for m in ("bleu", "chrf", "ter")}
    scores = {m: np.linspace(0, 1, 3_000_000) for m in metrics}
    evaluation = Evaluation(metrics, {}, (SystemResult("sys", {}, {}, scores),))

    def run():
        segment_files.write_segment_scores(evaluation, Path(sys.argv[1]))
        return 0

    cli.main = lambda: run()
    sys.exit(cli.console())
    """
)


def _size(path: Path) -> int:
    """The size of a temporary file that may already be gone: the writer's probe of the folder is created and
    removed between the listing and the ``stat``."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_long_write_leaves_no_file_under_its_final_name(tmp_path, stop):
    """The scorelens entry point (``console``) writing 3 million rows is sent Ctrl-C (or ``kill``) once the
    temporary file has grown: it says it was interrupted, without a traceback, and leaves the folder empty."""
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(out)], env=env, stderr=subprocess.PIPE, cwd=ROOT, text=True
    )
    deadline = time.time() + 60
    while not any(_size(p) > 100_000 for p in out.glob(f"*{outputs.PART_SUFFIX}")):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.time() < deadline, "the writer never started"
        time.sleep(0.02)
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "scorelens: interrupted; no output file was left half-written\n"
    assert _listing(out) == []


def test_sigterm_ends_the_command_but_lets_its_forked_workers_exit_quietly():
    """A pool ends its forked workers with SIGTERM, and they inherit the command's handler: in a worker it exits at
    once (it used to raise KeyboardInterrupt there, a traceback per idle worker on many runs with --jobs); in the
    command's own process it still ends the run as Ctrl-C does."""
    handler = partial(cli_main._terminated, os.getpid())
    child = os.fork()
    if child == 0:  # a forked worker
        try:
            handler(signal.SIGTERM, None)
        finally:
            os._exit(99)  # reached only when the handler raised or returned
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 128 + signal.SIGTERM
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGTERM, None)
