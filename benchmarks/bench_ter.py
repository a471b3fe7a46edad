"""TER against sacrebleu 2.6.0 on full WMT22 de-en (several systems, both references): corpus and segment scores."""

from __future__ import annotations

from pathlib import Path

from sacrebleu.metrics import TER as SacreTER

from benchmarks.common import Case, corpus_and_segments, load_set
from metrics.families.ter.metric import TER

SYSTEMS = ("Online-B", "JDExploreAcademy", "LT22")


def cases(shared: Path) -> list[Case]:
    refs, named = load_set(shared / "wmt22" / "de-en", ["ref.A.txt", "ref.B.txt"], SYSTEMS)
    systems = list(named.values())

    def ours() -> list[float]:
        return corpus_and_segments(TER(), systems, refs)

    def reference() -> list[float]:
        metric = SacreTER(references=refs)  # sacrebleu's own reference cache, as for several systems
        scores: list[float] = []
        for hyps in systems:
            stats = metric._extract_corpus_statistics(hyps, None)
            scores.append(metric._aggregate_and_compute(stats).score)
            scores.extend(metric._compute_score_from_stats(row).score for row in stats)
        return scores

    name = f"ter wmt22 de-en {len(systems)} systems × 2 refs ({len(refs[0])} segs)"
    return [Case(name, ours, reference)]
