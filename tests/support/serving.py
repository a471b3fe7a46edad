"""Start ``streamlit run app.py`` as a user would, on a free loopback port, for the tests that need a real server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tests.support.paths import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Server:
    url: str
    log: IO[bytes]
    pid: int

    def printed(self) -> str:
        """Everything the server wrote so far (standard output and error)."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


@contextmanager
def streamlit_server(
    options: Sequence[str] = ("--server.headless", "true"),
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
    script: Path = ROOT / "app.py",
) -> Iterator[Server]:
    """A fresh ``streamlit run app.py`` (or another ``script``; cwd: the repository, so the project's
    ``.streamlit/config.toml`` applies) with ``options``, stopped afterwards.

    Its standard input stays an open pipe nobody writes to, like a terminal nobody types in: a prompt blocks the
    start, which then fails showing what the server printed. Output goes to a file, so a chatty server never blocks
    on a full pipe."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(script), *options]
    command += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=dict(os.environ if env is None else env),
            stdin=subprocess.PIPE,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        server = Server(f"http://127.0.0.1:{port}", log, proc.pid)
        try:
            deadline = time.time() + timeout
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if proc.poll() is not None or time.time() > deadline:
                        raise RuntimeError(
                            f"streamlit did not start within {timeout:.0f} s:\n{server.printed()}"
                        ) from None
                    time.sleep(0.3)
            yield server
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
