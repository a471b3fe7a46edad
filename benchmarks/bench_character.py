"""CharacTER on WMT22 de-en (1984 segments, reference A, 3 systems).

rwth-i6/CharacTER cannot be installed (a script plus a compiled ``libED.so``, GPL-3), so the reference side is
a literal, naive statement of parity.md §9.2 — every candidate shift evaluated with rapidfuzz's C Levenshtein,
the proposals sorted as tuples — i.e. what the original script does per sentence. The ratio says how ScoreLens
compares with such a direct port, not with a measured run of the original.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.common import Case, corpus_and_segments, load_set
from benchmarks.spec_ports import character_literal


def cases(shared: Path) -> list[Case]:
    (ref,), systems = load_set(shared / "wmt22" / "de-en", ["ref.A.txt"], ["JDExploreAcademy", "Online-B", "LT22"])

    def ours() -> list[float]:
        from metrics.families.character.metric import CharacTER

        unbounded = CharacTER(max_shift_work=None)  # like the reference
        return corpus_and_segments(unbounded, systems.values(), [ref])

    def reference() -> list[float]:
        scores: list[float] = []
        for hyps in systems.values():
            per = [character_literal(h, r) for h, r in zip(hyps, ref, strict=True)]
            scores.append(sum(per) / len(per))
            scores.extend(per)
        return scores

    return [Case(f"characTER: wmt22 de-en {len(systems)} systems x {len(ref)} (vs literal port)", ours, reference)]
