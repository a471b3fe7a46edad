"""Concurrent browser sessions on one ScoreLens server: inputs lost, leaks between sessions, the server's peak memory
and the slowest page (see :mod:`tests.support.load` for what each session does).

    python -m benchmarks.load [--sessions 10] [--clicks 7]
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.support.load import SERVER_OPTIONS, run_load
from tests.support.serving import streamlit_server


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--clicks", type=int, default=7, help="Next clicks in one burst on the segment view")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, streamlit_server(SERVER_OPTIONS) as server:
        report = run_load(server.url, server.pid, Path(folder), args.sessions, args.clicks, args.chromium)
    for session in report.sessions:
        loads = ", ".join(f"{page} {seconds:.1f} s" for page, seconds in session.loads.items())
        print(
            f"session {session.index:2d}: files {session.files_counted}/{session.files_chosen}, "
            f"clicks {session.moved}/{session.clicks}, slices {session.slices_seen}/{session.slices_saved}; {loads}"
        )
    for problem in [*report.leaks, *report.errors]:
        print(f"  {problem}")
    print(report.summary())
    return 1 if report.lost or report.leaks or report.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
