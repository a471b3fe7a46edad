"""CIDEr-D on the full MSCOCO THumB set (500 images, 4 references, 5 systems) against pycocoevalcap: ``Cider`` on
raw text (``tokenize=split``), and the COCO caption pipeline, its Java PTBTokenizer then ``Cider`` (``tokenize=ptb``,
the default; only where ``java`` and pycocoevalcap's jar are here)."""

from __future__ import annotations

import shutil
from pathlib import Path

from benchmarks.common import Case, corpus_and_segments, load_set


def cases(shared: Path) -> list[Case]:
    refs, systems = load_set(shared / "mscoco_thumb", [f"ref.{k}.txt" for k in range(4)])
    title = f"mscoco_thumb {len(systems)} systems x {len(refs[0])} images"
    gts = {i: [stream[i] for stream in refs] for i in range(len(refs[0]))}

    def ours(tokenize: str) -> list[float]:
        from metrics.families.cider.metric import CiderD

        # built inside: the reference-corpus cache is shared across systems, not across runs
        return corpus_and_segments(CiderD(tokenize=tokenize), systems.values(), refs)

    def reference(ptb: bool) -> list[float]:
        from pycocoevalcap.cider.cider import Cider

        references = gts
        if ptb:
            from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

            references = PTBTokenizer().tokenize({i: [{"caption": c} for c in cs] for i, cs in gts.items()})
        scores: list[float] = []
        for hyps in systems.values():
            outputs = {i: [h] for i, h in enumerate(hyps)}
            if ptb:
                outputs = PTBTokenizer().tokenize({i: [{"caption": h}] for i, h in enumerate(hyps)})
            score, per_image = Cider().compute_score(references, outputs)
            scores.append(float(score))
            scores.extend(float(s) for s in per_image)
        return scores

    found = [Case(f"cider raw text: {title}", lambda: ours("split"), lambda: reference(False))]
    if shutil.which("java"):
        found.append(Case(f"cider PTB (Java vs ours): {title}", lambda: ours("ptb"), lambda: reference(True)))
    return found
