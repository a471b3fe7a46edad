"""The app's first overview of an upload, timed in a fresh process: the Overview page run once (Streamlit's
AppTest, no browser) on a dataset that is already loaded, as after an upload, with nothing cached — scoring,
bootstrap resampling, tables and charts. Prints a JSON object: the page's wall and CPU seconds, and the
process's wall seconds up to that point (imports of Streamlit and the app included). :mod:`benchmarks.suite` runs
it as a subprocess.

    python -m benchmarks.overview REF [REF ...] --systems SYS [SYS ...] --metrics bleu,chrf,...
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

STARTED = time.perf_counter()
ROOT = Path(__file__).resolve().parent.parent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("refs", nargs="+", type=Path)
    parser.add_argument("--systems", nargs="+", type=Path, required=True)
    parser.add_argument("--metrics", required=True)
    args = parser.parse_args(argv)

    from streamlit.testing.v1 import AppTest

    from benchmarks.common import read_lines
    from dashboard.dataset import Dataset

    systems = {path.stem: tuple(read_lines(path)) for path in args.systems}
    data = Dataset(
        title="benchmark upload",
        systems=systems,
        refs=tuple(tuple(read_lines(path)) for path in args.refs),
        ref_names=tuple(path.stem for path in args.refs),
    )
    page = AppTest.from_file(str(ROOT / "pages" / "overview.py"), default_timeout=600)
    page.session_state["dataset"] = data
    page.session_state["metric_ids"] = args.metrics.split(",")
    page.session_state["baseline"] = next(iter(systems))
    start, cpu = time.perf_counter(), time.process_time()
    page.run()
    end, cpu = time.perf_counter(), time.process_time() - cpu
    if page.exception:
        raise RuntimeError(f"the overview failed: {page.exception[0].message}")
    print(json.dumps({"page": end - start, "page_cpu": cpu, "process": end - STARTED}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
