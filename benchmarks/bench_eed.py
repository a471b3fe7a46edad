"""EED (rwth float32 variant and python variant) on WMT22 de-en (first 300 segments, reference A, 3 systems).

Neither reference can run here: rwth-i6's EED is a compiled ``libEED.so`` (non-commercial licence, not on PyPI)
and torchmetrics needs torch (a wheel of several hundred MB), which this benchmark does not install. The
reference side is therefore a literal, cell-by-cell statement of parity.md §10.2/§10.3 (float32 scalars and
an int running minimum for rwth; doubles and ``list.index(min(row))`` for python) — the same per-cell Python
loop torchmetrics runs. The ratio compares ScoreLens with such a direct port.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.common import Case, corpus_and_segments, load_set
from benchmarks.spec_ports import eed_literal

SEGMENTS = 300


def cases(shared: Path) -> list[Case]:
    (full,), every = load_set(shared / "wmt22" / "de-en", ["ref.A.txt"], ["JDExploreAcademy", "Online-B", "LT22"])
    ref = full[:SEGMENTS]
    systems = {name: hyps[:SEGMENTS] for name, hyps in every.items()}

    def make(variant: str) -> Case:
        def ours() -> list[float]:
            from metrics.families.eed.metric import EED

            return corpus_and_segments(EED(variant=variant), systems.values(), [ref])

        def reference() -> list[float]:
            from metrics.families.eed.metric import preprocess

            scores: list[float] = []
            for hyps in systems.values():
                per = [
                    eed_literal(preprocess(h, "en", variant), preprocess(r, "en", variant), variant == "rwth")
                    for h, r in zip(hyps, ref, strict=True)
                ]
                scores.append(sum(per) / len(per))
                scores.extend(per)
            return scores

        return Case(f"eed[{variant}]: wmt22 de-en {len(systems)} sys x {SEGMENTS} (vs literal port)", ours, reference)

    return [make("rwth"), make("python")]
