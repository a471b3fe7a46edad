"""WER and CER against jiwer 4.0 (default transforms) on full WMT22 de-en and TED systems: corpus scores."""

from __future__ import annotations

from pathlib import Path

import jiwer

from benchmarks.common import Case, load_set
from metrics.families.wer.metric import CER, WER


def _sets(shared: Path) -> list[tuple[str, list[str], list[list[str]]]]:
    sets = []
    for label, folder, ref_file in (
        ("wmt22 de-en", shared / "wmt22" / "de-en", "ref.A.txt"),
        ("ted", shared / "compare-mt" / "ted", "ref.txt"),
    ):
        (ref,), systems = load_set(folder, [ref_file])
        sets.append((label, ref, list(systems.values())))
    return sets


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
