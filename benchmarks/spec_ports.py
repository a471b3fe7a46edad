"""Literal, naive ports of parity.md's prose for the metrics whose reference cannot run here.

rwth-i6/CharacTER (GPL-3, a script plus a compiled ``libED.so``) and rwth-i6/EED (non-commercial, a compiled
``libEED.so``; torchmetrics needs torch) are not installable, so both the tests (as an oracle) and the benchmarks
(as the reference side) use these direct statements of the spec, written from its description only. They live
in one place so that the oracle the tests trust is exactly the code the benchmark times.
"""

from __future__ import annotations

import numpy as np
from rapidfuzz.distance import Levenshtein


def character_literal(hyp: str, ref: str) -> float:
    """CharacTER, parity.md §9.2 stated as literally as possible: every candidate shift evaluated with
    rapidfuzz's C Levenshtein, the (improvement, words) proposals sorted as tuples and the last one taken."""
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


def eed_literal(hyp: str, ref: str, rwth: bool) -> float:
    """EED, parity.md §10.2/§10.3 cell by cell on pre-processed strings: float32 scalars and an int running
    minimum (rwth) or doubles and ``list.index(min(row))`` (python) — the per-cell loop torchmetrics runs."""
    number = np.float32 if rwth else float
    n = len(hyp)
    row = [number(0)] + [number(1)] * n
    visits = [-1] * (n + 1)
    for w in range(len(ref)):
        nxt = [row[0] + number(1)]
        for i in range(1, n + 1):
            sub = number(0) if hyp[i - 1] == ref[w] else number(1)
            nxt.append(min(nxt[i - 1] + number(0.2), row[i - 1] + sub, row[i] + number(1)))
        if rwth:
            index, floor = 0, int(nxt[0])
            for i in range(1, n + 1):
                if nxt[i] < floor:
                    floor, index = int(nxt[i]), i
        else:
            index = nxt.index(min(nxt))
        visits[index] += 1
        if ref[w] == " ":
            jump = number(2.0) + nxt[index]
            nxt = [min(x, jump) for x in nxt]
        row = nxt
    coverage = sum(1 if x < 0 else x for x in (visits[1:] if rwth else visits))
    if rwth:
        penalty = np.float32(0.3) * np.float32(coverage)
        return float(min(np.float32(1), (row[n] + penalty) / (np.float32(len(ref)) + penalty)))
    penalty = 0.3 * coverage
    return float(min(1, (row[-1] + penalty) / (float(len(ref)) + penalty)))
