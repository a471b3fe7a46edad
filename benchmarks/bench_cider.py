"""CIDEr-D on the full MSCOCO THumB set (500 images, 4 references, 5 systems) against pycocoevalcap ``Cider``."""

from __future__ import annotations

from pathlib import Path

from benchmarks.common import Case, corpus_and_segments, load_set


def cases(shared: Path) -> list[Case]:
    refs, systems = load_set(shared / "mscoco_thumb", [f"ref.{k}.txt" for k in range(4)])

    def ours() -> list[float]:
        from metrics.families.cider.metric import CiderD

        # built inside: the reference-corpus cache is shared across systems, not across runs
        return corpus_and_segments(CiderD(), systems.values(), refs)

    def reference() -> list[float]:
        from pycocoevalcap.cider.cider import Cider

        gts = {i: [stream[i] for stream in refs] for i in range(len(refs[0]))}
        scores: list[float] = []
        for hyps in systems.values():
            score, per_image = Cider().compute_score(gts, {i: [h] for i, h in enumerate(hyps)})
            scores.append(float(score))
            scores.extend(float(s) for s in per_image)
        return scores

    return [Case(f"cider: mscoco_thumb {len(systems)} systems x {len(refs[0])} images", ours, reference)]
