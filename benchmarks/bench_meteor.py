"""METEOR on the full WMT22 de-en set (1984 segments, 2 references, every system) against nltk's ``meteor_score``.

nltk reads WordNet 3.0 through the offline reader of ``shared/spec/wordnet_offline.py`` (Debian's wordnet-base);
ours reads the index shipped in ``metrics/data``. Each run builds a new ``Meteor``, so every text is prepared
again; word-level memos (Porter stems, WordNet lemma names) live for the process on our side, as nltk's reader keeps
its synset cache. Loading our index (~0.06 s) and building nltk's reader happen once, outside the timing.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

from benchmarks.common import Case, corpus_and_segments, load_set


def _nltk_wordnet(shared: Path):  # type: ignore[no-untyped-def]
    spec = shared.parent / "spec"
    if str(spec) not in sys.path:
        sys.path.insert(0, str(spec))
    import wordnet_offline

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available" (no OMW reader)
        return wordnet_offline.load()


def cases(shared: Path) -> list[Case]:
    refs, systems = load_set(shared / "wmt22" / "de-en", ["ref.A.txt", "ref.B.txt"])
    wordnet = _nltk_wordnet(shared)

    def ours() -> list[float]:
        from metrics.families.meteor.metric import Meteor

        return corpus_and_segments(Meteor(), systems.values(), refs)

    def reference() -> list[float]:
        from nltk.translate.meteor_score import meteor_score

        scores: list[float] = []
        for hyps in systems.values():
            segment = [
                meteor_score([stream[i].split() for stream in refs], hyp.split(), wordnet=wordnet)
                for i, hyp in enumerate(hyps)
            ]
            scores.append(sum(segment) / len(segment))
            scores.extend(segment)
        return scores

    return [Case(f"meteor: wmt22 de-en {len(systems)} systems x {len(refs[0])} segs, 2 refs", ours, reference)]
