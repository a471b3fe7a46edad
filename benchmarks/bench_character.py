"""CharacTER on WMT22 de-en (1984 segments, reference A, 3 systems).

rwth-i6/CharacTER cannot be installed (a script plus a compiled ``libED.so``, GPL-3), so the reference side is
a literal, naive statement of parity.md §9.2 — every candidate shift evaluated with rapidfuzz's C Levenshtein,
the proposals sorted as tuples — i.e. what the original script does per sentence. The ratio says how ScoreLens
compares with such a direct port, not with a measured run of the original.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.common import Case, read_lines


def literal(hyp: str, ref: str) -> float:
    from rapidfuzz.distance import Levenshtein

    h, r = hyp.split(), ref.split()
    if not r or not h:
        return 1.0
    d = Levenshtein.distance(h, r)
    if d == 0:
        return 0.0
    words = list(h)
    while True:
        proposals = []
        for i in range(len(words)):
            for j in range(len(r)):
                if i == j or words[i] != r[j]:
                    continue
                length = 1
                while i + length < len(words) and j + length < len(r) and words[i + length] == r[j + length]:
                    length += 1
                rest = words[:i] + words[i + length :]
                rest[j:j] = words[i : i + length]
                proposals.append((d - Levenshtein.distance(rest, r), rest))
        if not proposals:
            break
        proposals.sort()
        gain, best = proposals[-1]
        if gain <= 0:
            break
        words, d = best, d - gain
    cost, p = 0.0, 0
    while p < len(h):
        if h[p] == words[p]:
            p += 1
            continue
        for s in range(p + 1, len(h)):
            if words[s] == h[p]:
                k = 1
                while p + k < len(h) and s + k < len(h) and h[p + k] == words[s + k]:
                    k += 1
                cost += sum(len(w) for w in h[p : p + k]) / k
                p += k
                break
        else:
            p += 1
    shifted = " ".join(words)
    return min(1.0, (Levenshtein.distance(shifted, " ".join(r)) + cost) / len(shifted))


def cases(shared: Path) -> list[Case]:
    folder = shared / "wmt22" / "de-en"
    ref = read_lines(folder / "ref.A.txt")
    names = ["JDExploreAcademy", "Online-B", "LT22"]
    systems = {name: read_lines(folder / "sys" / f"{name}.txt") for name in names}

    def ours() -> list[float]:
        from metrics.character import CharacTER

        metric = CharacTER(max_shift_work=None)  # unbounded, like the reference
        scores: list[float] = []
        for hyps in systems.values():
            stats = metric.stats(hyps, [ref])
            scores.append(metric.corpus_score(stats))
            scores.extend(metric.segment_scores(stats).tolist())
        return scores

    def reference() -> list[float]:
        scores: list[float] = []
        for hyps in systems.values():
            per = [literal(h, r) for h, r in zip(hyps, ref, strict=True)]
            scores.append(sum(per) / len(per))
            scores.extend(per)
        return scores

    return [Case(f"characTER: wmt22 de-en {len(systems)} systems x {len(ref)} (vs literal port)", ours, reference)]
