"""What each change of the metric choice costs on the Overview, timed in one process (Streamlit's AppTest, no
browser): the first overview of an upload under the metrics chosen from its references, then adding BLEU, chrF and
TER one at a time (TER asks first on long segments; its go is a step of its own), removing BLEU, and applying an
empty box. Prints one JSON object a step: its wall and CPU seconds and the metrics then shown.

    python -m benchmarks.metric_changes REF [REF ...] --systems SYS [SYS ...]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("refs", nargs="+", type=Path)
    parser.add_argument("--systems", nargs="+", type=Path, required=True)
    args = parser.parse_args(argv)

    from streamlit.testing.v1 import AppTest

    from benchmarks.common import read_lines
    from dashboard.dataset import Dataset
    from metrics.core.defaults import choose_metrics
    from metrics.core.registry import available_metrics

    systems = {path.stem: tuple(read_lines(path)) for path in args.systems}
    refs = tuple(tuple(read_lines(path)) for path in args.refs)
    data = Dataset("benchmark upload", systems, refs, tuple(path.stem for path in args.refs))
    page = AppTest.from_file(str(ROOT / "app.py"), default_timeout=3600)
    page.session_state["dataset"] = data
    page.session_state["metric_ids"] = list(choose_metrics(refs, available_metrics()).metrics)
    page.session_state["baseline"] = next(iter(systems))

    def choose(change: Callable[[list[str]], list[str]]) -> Callable[[], Any]:
        def act() -> Any:
            box = page.multiselect(key="metrics_box")
            box.set_value(change(list(box.value)))
            page.button(key="metrics_apply").click()
            return page.run()

        return act

    steps: list[tuple[str, Callable[[], Any]]] = [
        ("first overview", page.run),
        ("+BLEU", choose(lambda ids: [*ids, "bleu"])),
        ("+chrF", choose(lambda ids: [*ids, "chrf"])),
        ("+TER", choose(lambda ids: [*ids, "ter"])),
        ("TER's go", lambda: next(b for b in page.button if b.label == "Start it").click().run()),
        ("-BLEU", choose(lambda ids: [m for m in ids if m != "bleu"])),
        ("empty box", choose(lambda ids: [])),
    ]
    for name, act in steps:
        if name == "TER's go" and not any(b.label == "Start it" for b in page.button):
            continue  # TER was not expected to take long: it was computed with the step before
        wall, cpu = time.perf_counter(), time.process_time()
        act()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if page.exception:
            raise RuntimeError(f"{name}: the overview failed: {page.exception[0].message}")
        shown = list(page.session_state["metric_ids"])
        print(json.dumps({"step": name, "wall": round(wall, 2), "cpu": round(cpu, 2), "metrics": shown}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
