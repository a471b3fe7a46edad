"""ROUGE-W (Lin 2004 §3.3), the weighted longest common subsequence, as ROUGE-1.5.5.pl computes it.

Per reference sentence, a weighted LCS with every hypothesis sentence (a match extending a run of ``k``
consecutive matches adds ``f(k+1) - f(k)``, ``f(k) = k^weight``; ties between up and left go up, i.e. to the previous
reference token); the paths are united into a hit mask of the reference sentence, which is scanned left to right
with unigram clipping (a marked token counts while both texts still have an unused occurrence of it) and run
lengths ``k`` of counted hits add ``f(k)``. Two quirks are kept: a marked but clipped position neither extends nor
ends a run (runs merge across it), and a run followed only by clipped marked positions up to the end of its
sentence is lost. Recall divides by ``f(Σ_s f(|s|))`` — the sentence lengths are weighted **twice** — and precision
by ``f(|hyp|)``; R and P are then ``f⁻¹`` of those ratios. So an identical 6-token text has R = 6^(1-w) ≈ 0.69883,
P = 1 (ROUGE-1.5.5 and ``PyRouge`` both do this). With ``multi_ref="B"`` the reference is chosen by the un-rounded
``f⁻¹(hits / Σ_s f(|s|))`` (single weighting, unlike the reported recall), as perl does. Options, pooling and
statistics: :mod:`metrics.families.rouge155.base`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, chain
from typing import ClassVar

import numpy as np

from metrics.core import limits
from metrics.core.base import CostEstimated
from metrics.core.limits import SegmentLimit
from metrics.families.rouge155.base import Rouge155, Rouge155Explanation, Rouge155Reference, _sentence_bounds, _Side
from metrics.families.rouge155.config import RougeWConfig


@dataclass(frozen=True)
class WlcsPath:
    """The weighted LCS of one reference sentence with one hypothesis sentence (empty paths are left out)."""

    ref_sentence: int
    hyp_sentence: int
    pairs: tuple[tuple[int, int], ...]  # (reference token index, hypothesis token index), whole-text indices
    values: tuple[float, ...]  # the WLCS grid's value at each pair's cell: the weighted LCS up to that match
    weight: float  # the WLCS value of the pair, Σ f(run) over the path's runs of consecutive matches


@dataclass(frozen=True)
class WlcsRun:
    """Reference positions credited as one run; adds ``weight = f(len(positions))`` to the hits."""

    ref_sentence: int
    positions: tuple[int, ...]  # whole-text reference token indices (may straddle a clipped position)
    weight: float
    lost: bool  # only clipped marked positions followed it to the end of the sentence: perl adds nothing


@dataclass(frozen=True, kw_only=True)
class WlcsReference(Rouge155Reference):
    """ROUGE-W against one reference: ``hits`` is Σ weight of the runs that are not lost, in scan order,
    ``ref_total`` f(Σ_s f(|s|)), ``hyp_total`` f(|hyp|) and ``selection_score`` f⁻¹(hits / Σ_s f(|s|)), what perl's
    ``-f B`` compares."""

    sentences: tuple[tuple[int, int], ...]  # [start, end) of each reference sentence in ``tokens``
    paths: tuple[WlcsPath, ...]
    marked: tuple[int, ...]  # the hit mask: reference positions on some path
    clipped: tuple[int, ...]  # marked positions not credited (their unigram was used up)
    runs: tuple[WlcsRun, ...]


@dataclass(frozen=True, kw_only=True)
class WlcsExplanation(Rouge155Explanation[WlcsReference]):
    """ROUGE-W of one segment: per reference the WLCS paths, the hit mask and the credited runs. ``run_weights[k]``
    is f(k) = k^weight, the weight of a run of k consecutive matches, for every run length the evidence has (and at
    least up to 4)."""

    hyp_sentences: tuple[tuple[int, int], ...]
    weight: float
    run_weights: tuple[float, ...]


def _wlcs_path(
    model: Sequence[str], peer: Sequence[str], where: dict[str, list[int]], power: Sequence[float]
) -> tuple[list[tuple[int, int]], list[float], float]:
    """ROUGE-1.5.5's ``wlcs_inner`` + ``markLCS`` for one model (reference) and one peer (hypothesis) sentence.

    ``where`` maps each peer token to its ascending positions. Returns the backtracked path as ``(model index,
    peer index)`` pairs, ascending, the grid's value at each of them, and the WLCS value. Rows are model tokens. A match always takes the diagonal
    and adds ``f(k+1) - f(k)`` (in that order of operations, so later comparisons tie exactly as in perl);
    otherwise the larger of up/left, up on ties; backtracking follows the same choices.

    Between two matches a row is the running maximum of the row above, started at the match value; a row whose
    token does not occur in the peer is the running maximum of the row above, i.e. that very row when it is
    already non-decreasing. So only matches cost Python steps; the rest runs in ``itertools.accumulate``.
    """
    m, n = len(model), len(peer)
    if not m or not n:
        return [], [], 0.0
    above = [0.0] * (n + 1)
    above_sorted = True  # whether ``above`` is non-decreasing
    run_above: dict[int, int] = {}  # column -> consecutive-match length, only at match cells
    rows = [above]
    for token in model:
        cols = where.get(token)
        if cols is None:
            row = above if above_sorted else list(accumulate(above, max))
            run: dict[int, int] = {}
            row_sorted = True
        else:
            first = cols[0]
            row = above[: first + 1] if above_sorted else list(accumulate(above[: first + 1], max))
            run = {}
            row_sorted = True
            for c, j in enumerate(cols):
                k = run_above.get(j, 0)
                value = above[j] + power[k + 1] - power[k]
                run[j + 1] = k + 1
                if value < row[-1]:
                    row_sorted = False
                stop = cols[c + 1] if c + 1 < len(cols) else n
                row.extend(accumulate(above[j + 2 : stop + 1], max, initial=value))
        rows.append(row)
        above, above_sorted, run_above = row, row_sorted, run
    path = []
    values = []
    i, j = m, n
    while i and j:
        if model[i - 1] == peer[j - 1]:
            values.append(rows[i][j])
            i -= 1
            j -= 1
            path.append((i, j))
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1
    path.reverse()
    values.reverse()
    return path, values, rows[m][n]


def _positions(sentence: Sequence[str]) -> dict[str, list[int]]:
    where: dict[str, list[int]] = {}
    for j, token in enumerate(sentence):
        where.setdefault(token, []).append(j)
    return where


@dataclass(frozen=True)
class _WText:
    sentences: tuple[tuple[str, ...], ...]
    counts: Counter[str]
    length: int


@dataclass
class _WEvidence:
    paths: list[WlcsPath]
    marked: list[int]
    clipped: list[int]
    runs: list[WlcsRun]


# ROUGE-W's time per cell of its weighted-LCS tables (hypothesis × reference tokens), numpy, on 2 shared cores:
# 2.9-3.5e-8 s for texts of 300-1,000 words, 2.2e-7 s for one-letter words (every cell a match); a value between.
SECONDS_PER_CELL = 1e-7


class RougeW(Rouge155[RougeWConfig, WlcsExplanation], CostEstimated):
    """ROUGE-W (weighted LCS, f(k) = k^weight), ROUGE-1.5.5.pl ``-w 1.2``; ``RougeW()`` is ROUGE-W-1.2."""

    id: ClassVar[str] = "rougeW"
    Config: ClassVar[type] = RougeWConfig
    explanation_type: ClassVar[type[WlcsExplanation]] = WlcsExplanation

    def __init__(self, config: RougeWConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._power: list[float] = []

    @property
    def segment_limit(self) -> SegmentLimit | None:
        return limits.ROUGE_W

    @property
    def name(self) -> str:
        return f"ROUGE-W-{self.config.weight:.15g}"

    def _type(self) -> str:
        return f"rougeW-{self.config.weight:.15g}"

    def expected_seconds(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> float:
        """Its tables grow with the product of the lengths: ``SECONDS_PER_CELL`` × the hypothesis × reference
        words of every pair (:func:`~metrics.core.limits.pair_cells`): about 3× the time of ordinary text, half
        that of the worst case, so that a corpus of long texts asks first as TER does."""
        return SECONDS_PER_CELL * limits.pair_cells(hyps, refs, limits.ROUGE_W)

    def _metric_flags(self) -> list[str]:
        return ["-w", f"{self.config.weight:.15g}"]

    def _f(self, k: int) -> float:
        power = self._power
        while len(power) <= k:
            power.append(float(len(power)) ** self.config.weight)  # perl's $r**$power: C pow()
        return power[k]

    def _prepare(self, sentences: tuple[tuple[str, ...], ...]) -> _WText:
        counts = Counter(chain.from_iterable(sentences))
        return _WText(sentences, counts, sum(len(s) for s in sentences))

    def _ref(self, ref: str) -> _WText:
        return self._cached(ref, lambda text: self._prepare(self._tokenizer.sentences(text)))

    def _side(self, hyp: _WText, ref: _WText, evidence: _WEvidence | None) -> _Side:
        """ROUGE-1.5.5's ``wlcs`` for one reference: weighted hits, base Σ f(|s|), and the hit mask scan."""
        w = self.config.weight
        longest = max(max((len(s) for s in ref.sentences), default=0), max((len(s) for s in hyp.sentences), default=0))
        self._f(longest + 1)
        power = self._power
        ref_left = dict(ref.counts)
        hyp_left = dict(hyp.counts)  # perl renews the peer counts for every model
        hyp_where = [_positions(s) for s in hyp.sentences]
        hyp_offsets = [b[0] for b in _sentence_bounds(hyp.sentences)]
        hits = 0.0
        base = 0.0
        offset = 0
        for si, sentence in enumerate(ref.sentences):
            m = len(sentence)
            base += power[m]
            mask = [False] * m
            for hj, (peer, where) in enumerate(zip(hyp.sentences, hyp_where, strict=True)):
                if where.keys().isdisjoint(sentence):
                    continue
                path, values, value = _wlcs_path(sentence, peer, where, power)
                for i, _ in path:
                    mask[i] = True
                if evidence is not None and path:
                    pairs = tuple((offset + i, hyp_offsets[hj] + j) for i, j in path)
                    evidence.paths.append(WlcsPath(si, hj, pairs, tuple(values), value))
            run = 0
            run_positions: list[int] = []
            for j in range(m):
                if not mask[j]:
                    continue
                token = sentence[j]
                if ref_left.get(token, 0) > 0 and hyp_left.get(token, 0) > 0:
                    run += 1
                    if evidence is not None:
                        run_positions.append(offset + j)
                    if j + 1 == m or not mask[j + 1]:
                        hits += power[run]
                        if evidence is not None:
                            evidence.runs.append(WlcsRun(si, tuple(run_positions), power[run], False))
                            run_positions = []
                        run = 0
                    ref_left[token] -= 1
                    hyp_left[token] -= 1
                elif evidence is not None:
                    evidence.clipped.append(offset + j)
            if evidence is not None:
                if run_positions:
                    evidence.runs.append(WlcsRun(si, tuple(run_positions), 0.0, True))
                evidence.marked.extend(offset + j for j in range(m) if mask[j])
            offset += m
        selection = (hits / base) ** (1 / w) if base else 0.0
        return _Side(hits, base**w, float(hyp.length) ** w, selection)

    def _ratio(self, hits: float, total: float) -> float:
        """f⁻¹(hits / total), perl's ``wlcsWeightInverse`` (0 when the total is 0)."""
        return (hits / total) ** (1 / self.config.weight) if total != 0 else 0.0

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        hyp_text = self._prepare(self._tokenizer.sentences(hyp))
        sides = [self._side(hyp_text, self._ref(r), None) for r in refs]
        return self._row(sides, self._ratio)[0]

    def _explain(self, hyp: str, refs: Sequence[str]) -> WlcsExplanation:
        hyp_sents = self._tokenizer.tokens(hyp)
        hyp_text = self._prepare(tuple(tuple(t.text for t in s) for s in hyp_sents))
        sides = []
        references = []
        for k, ref in enumerate(refs):
            ref_sents = self._tokenizer.tokens(ref)
            ref_text = self._prepare(tuple(tuple(t.text for t in s) for s in ref_sents))
            evidence = _WEvidence([], [], [], [])
            side = self._side(hyp_text, ref_text, evidence)
            sides.append(side)
            references.append((k, ref_sents, side, evidence))
        row, selected = self._row(sides, self._ratio)
        longest = max((len(run.positions) for _, _, _, ev in references for run in ev.runs), default=0)
        self._f(max(4, longest))
        return WlcsExplanation(
            **self._pooled(row, selected),
            hyp_tokens=tuple(chain.from_iterable(hyp_sents)),
            references=tuple(
                WlcsReference(
                    index=k,
                    tokens=tuple(chain.from_iterable(ref_sents)),
                    hits=side.hits,
                    ref_total=side.ref_total,
                    hyp_total=side.hyp_total,
                    selection_score=side.selection_score,
                    selected=selected[k],
                    sentences=_sentence_bounds(ref_sents),
                    paths=tuple(ev.paths),
                    marked=tuple(ev.marked),
                    clipped=tuple(ev.clipped),
                    runs=tuple(ev.runs),
                )
                for k, ref_sents, side, ev in references
            ),
            hyp_sentences=_sentence_bounds(hyp_sents),
            weight=self.config.weight,
            run_weights=tuple(self._power[: max(4, longest) + 1]),
        )
