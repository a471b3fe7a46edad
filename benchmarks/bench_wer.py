"""WER and CER against jiwer 4.0 (default transforms) on full WMT22 de-en and TED systems: corpus scores."""

from __future__ import annotations

from pathlib import Path

import jiwer

from benchmarks.common import Case, read_lines
from metrics.wer import CER, WER


def _sets(shared: Path) -> list[tuple[str, list[str], list[list[str]]]]:
    de_en = shared / "wmt22" / "de-en"
    ted = shared / "compare-mt" / "ted"
    return [
        ("wmt22 de-en", read_lines(de_en / "ref.A.txt"), [read_lines(p) for p in sorted((de_en / "sys").iterdir())]),
        ("ted", read_lines(ted / "ref.txt"), [read_lines(p) for p in sorted((ted / "sys").iterdir())]),
    ]


def cases(shared: Path) -> list[Case]:
    out = []
    for label, ref, systems in _sets(shared):
        for metric_cls, fn in ((WER, jiwer.wer), (CER, jiwer.cer)):

            def ours(metric_cls=metric_cls, ref=ref, systems=systems) -> list[float]:
                metric = metric_cls()
                return [metric.score(hyps, [ref]) for hyps in systems]

            def reference(fn=fn, ref=ref, systems=systems) -> list[float]:
                return [fn(ref, hyps) for hyps in systems]

            name = f"{metric_cls.__name__.lower()} {label} {len(systems)} systems ({len(ref)} segs)"
            out.append(Case(name, ours, reference))
    return out
