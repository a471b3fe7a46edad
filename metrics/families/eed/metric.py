"""EED, the Extended Edit Distance of rwth-i6/ExtendedEditDistance (HEAD f944adc), in two named variants.

Stanchev, Wang and Ney, "EED: Extended Edit Distance Measure for Machine Translation", WMT 2019. The reference
is under the RWTH EED licence (non-commercial); this is a clean-room implementation of the behaviour described
in parity.md §10, no code was consulted. Lower is better; sentence scores lie in [0, 1]; the corpus score is the
mean of the sentence scores.

A character-level CDER-style alignment: rows over reference characters, columns over hypothesis positions,
deletion 0.2, insertion and substitution 1, a "long jump" after every reference space (every cell capped at
α = 2 plus the row's argmin cell), and a coverage penalty ρ = 0.3 per column visited more than once or never:
``min(1, (errors + ρ·coverage) / (|ref| + ρ·coverage))``.

Variants (option ``variant``; they disagree on most sentences, so results must name theirs):

* ``"rwth"`` (default) — the C++ library the official CLI ``EED.py`` calls: every cell, constant and the final
  division in IEEE float32 (emulated exactly with numpy float32); the row's argmin is tracked as a *truncated
  int* (a later column wins only if its value is below that integer); coverage sums columns 1..|hyp|.
  Identical strings score 0.0.
* ``"python"`` — the repository's ``eed_python`` and torchmetrics' ``extended_edit_distance``: Python doubles,
  exact first-minimum argmin, coverage over columns 0..|hyp| (so identical strings score ρ/(|ref|+ρ) > 0).
  torchmetrics stores each sentence score in a float32 tensor, so it agrees with this variant to ~1e-7.

Pre-processing (option ``language``): ``"en"`` is the CLI's ``util.preprocess_en`` (space before ``. ! ? ,``,
whitespace collapsed, ``3 .5``-style digit joins, a greedy title regex that turns ``Mr Smith`` into
``Mr.mith``, ``e . g .``/``U . S .`` re-joined — and, in the rwth variant, its bug ``i . e .`` → ``e.g.``, which
torchmetrics fixed); ``"ja"`` is rstrip + NFKC. Both sides are then padded with one space at each end — except
``variant="python", language="ja"``, where torchmetrics pads nothing.

Multiple references: the segment scores the **minimum over its references** in both variants (torchmetrics'
rule; the CLI takes exactly one reference, so for it this is our choice). Ties keep the first reference.

Bound (documented, never silent): the alignment is |hyp|·|ref| cells of Python-level work (~0.15 µs each).
``max_cells`` (default 2·10⁷, about 3 s) caps it per hypothesis/reference pair; a pair beyond it is not aligned
and scores 1.0, EED's maximum, and the segment is named in ``SegmentStats.notes`` and in its explanation. Real
text stays below it: a 200-character pair is 4·10⁴ cells; measured with ``python -m benchmarks.work_bounds``, the
largest WMT22 de-en paragraph pair (380–439 words) is 7·10⁶ cells (1.0 s), the longest CNN/DM summaries 1·10⁶.
Two texts of ~700 words each would exceed it, and a 10 000-word line against a normal reference still fits.
``max_cells=None`` always aligns.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from metrics.core.base import Progress, Rows, StatsNote, segment_refs, segments_text
from metrics.core.checkpoint import checkpoint
from metrics.core.config import check_options, option
from metrics.core.explanation import Explanation
from metrics.core.references import LowestOverReferences, reference_notes

VERSION = "scorelens-0.1.0"
f32 = np.float32
DEFAULT_MAX_CELLS = 20_000_000

_TITLES = re.compile(r"(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) .")
_DECIMALS = re.compile(r"(\d) ([.,]) (\d)")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class EEDConfig:
    """Options; ``alpha``, ``rho``, ``deletion``, ``insertion`` are the reference's defaults (2.0, 0.3, 0.2, 1.0)."""

    variant: Literal["rwth", "python"] = option(
        "rwth",
        label="Variant",
        help="rwth: the C++ library of the official CLI (float32); python: eed_python and torchmetrics. They "
        "disagree on most sentences.",
        choice_labels={"rwth": "rwth (official CLI)", "python": "python (torchmetrics)"},
    )
    language: Literal["en", "ja"] = option(
        "en",
        label="Pre-processing",
        help="en: the CLI's English pre-processing; ja: rstrip and NFKC.",
        choice_labels={"en": "en (English)", "ja": "ja (Japanese)"},
    )
    alpha: float = option(
        2.0, label="α (jump cost)", help="Cost of a long jump after a reference space.", low=0.0, step=0.1
    )
    rho: float = option(
        0.3,
        label="ρ (coverage cost)",
        help="Penalty per hypothesis position visited more than once or never.",
        low=0.0,
        step=0.05,
    )
    deletion: float = option(
        0.2, label="Deletion cost", help="Cost of deleting a reference character.", low=0.0, step=0.1
    )
    insertion: float = option(
        1.0, label="Insertion cost", help="Cost of inserting a hypothesis character.", low=0.0, step=0.1
    )
    max_cells: int | None = option(
        DEFAULT_MAX_CELLS,
        label="Alignment limit (cells)",
        help="A hypothesis/reference pair of more cells is not aligned and scores 1.0 (noted). none (left empty) = "
        "always align.",
        low=1,
        step=1,
        work_bound=True,
    )

    def __post_init__(self) -> None:
        check_options(self)


def preprocess(text: str, language: str = "en", variant: str = "rwth") -> str:
    """The text EED aligns: language pre-processing plus the padding spaces (see the module docstring)."""
    text = text.rstrip()
    if language == "ja":
        text = unicodedata.normalize("NFKC", text)
        return text if variant == "python" else f" {text} "
    for mark in (".", "!", "?", ","):
        text = text.replace(mark, " " + mark)
    text = _SPACES.sub(" ", text)
    text = _DECIMALS.sub(r"\1\2\3", text)
    text = _TITLES.sub(r"\1.", text)
    text = text.replace("e . g .", "e.g.")
    text = text.replace("i . e .", "e.g." if variant == "rwth" else "i.e.")
    text = text.replace("U . S .", "U.S.")
    return f" {text} "


@dataclass(frozen=True)
class RefStep:
    """One reference character's row: the argmin column (the variant's rule), its ``value``, the row's true
    ``minimum`` (they differ in the rwth variant when its truncated-int rule kept an earlier column), and whether
    the row was a long-jump row (reference space: every cell capped at α + ``value``)."""

    index: int
    char: str
    argmin: int
    value: float
    long_jump: bool
    minimum: float


@dataclass(frozen=True)
class EEDAlignment:
    """EED of one hypothesis against one (pre-processed) reference.

    ``visits[i]`` is the final visit counter of hypothesis column ``i`` (−1 = never the argmin); ``coverage`` is
    Σ (1 if counter < 0 else counter) over the variant's columns (rwth: 1..|hyp|, python: 0..|hyp|);
    ``score = min(1, (errors + ρ·coverage) / (ref_length + ρ·coverage))``, in float32 for rwth. ``steps`` is
    empty when the pair exceeded ``max_cells`` (then ``score`` is 1.0 and ``notes`` says so).
    """

    hypothesis: str
    reference: str
    steps: tuple[RefStep, ...]
    visits: tuple[int, ...]
    coverage: int
    errors: float
    ref_length: int
    score: float
    notes: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class EEDExplanation(Explanation):
    """Evidence for one segment: the alignment against every reference and ``best_ref``, the one scored (the lowest
    score, the first on ties)."""

    best_ref: int
    variant: str
    references: tuple[EEDAlignment, ...]


class _Costs:
    """Constants of one variant, in its arithmetic (float32 for rwth, double for python)."""

    def __init__(self, config: EEDConfig) -> None:
        self.rwth = config.variant == "rwth"
        kind = np.float32 if self.rwth else np.float64
        self.dtype = kind
        self.alpha = kind(config.alpha)
        self.rho = kind(config.rho)
        self.deletion = kind(config.deletion)
        self.insertion = kind(config.insertion)
        self.one = kind(1.0)
        self.chain: dict[float, float] = {}


def _argmin(values: np.ndarray, rwth: bool, axis: int = 0) -> np.ndarray:
    """The row's argmin column by the variant's rule.

    python: the first minimum. rwth: the C++ keeps the running minimum in an ``int``, so a later column wins only
    if it is below the truncated value of the current one; a column is then chosen exactly when its truncated
    value is a new strict prefix minimum, so the final choice is the first column whose truncated value is the
    row's smallest.
    """
    return np.argmin(np.floor(values) if rwth else values, axis=axis)


def _coverage(visits: np.ndarray, rwth: bool) -> np.ndarray:
    """Σ (1 if counter < 0 else counter) over the variant's columns (rwth skips column 0); ``visits`` may be 2-D."""
    counted = visits[1:] if rwth else visits
    return np.where(counted < 0, 1, counted).sum(axis=0)


def _finish(
    errors: np.ndarray | float, coverage: np.ndarray | int, ref_length: np.ndarray | int, costs: _Costs
) -> np.ndarray:
    """``min(1, (errors + ρ·coverage) / (|ref| + ρ·coverage))`` elementwise, in the variant's arithmetic."""
    dtype = costs.dtype
    penalty: np.ndarray = np.multiply(np.asarray(coverage).astype(dtype), costs.rho)
    result = (np.asarray(errors).astype(dtype) + penalty) / (np.asarray(ref_length).astype(dtype) + penalty)
    return np.minimum(dtype(1.0), result)


def align(hyp: str, ref: str, costs: _Costs, trace: bool) -> tuple[float, float, np.ndarray, int, list[RefStep]]:
    """The EED recurrence (parity.md §10.2) for pre-processed ``hyp``/``ref``, one pair, with evidence.

    Returns (score, errors, visit counters, coverage, per-reference-character steps if ``trace``).
    """
    n = len(hyp)
    dtype = costs.dtype
    row: np.ndarray = np.ones(n + 1, dtype=dtype)
    row[0] = 0
    visits = np.full(n + 1, -1, dtype=np.int64)
    codes = np.array([ord(c) for c in hyp], dtype=np.int64)
    mismatch: dict[str, np.ndarray] = {}
    insertion, one, alpha = costs.insertion, costs.one, costs.alpha
    rwth = costs.rwth
    # float32 rounding of prev + deletion, cached: a row's chain revisits few distinct values.
    memo = costs.chain
    deletion = float(costs.deletion)
    steps: list[RefStep] = []
    for w, char in enumerate(ref):
        checkpoint()  # a pair near max_cells takes seconds: let the caller stop it between rows
        cost = mismatch.get(char)
        if cost is None:
            cost = mismatch[char] = (codes != ord(char)).astype(dtype)
        # Diagonal and vertical moves vectorize; the horizontal (deletion) chain below is sequential.
        best = np.minimum(row[:-1] + cost, row[1:] + insertion).tolist()
        prev = float(row[0] + one)
        out = [prev]
        append = out.append
        if rwth:
            memo_get = memo.get
            for candidate in best:
                chained = memo_get(prev)
                if chained is None:
                    chained = memo[prev] = float(f32(prev) + costs.deletion)
                prev = candidate if candidate < chained else chained
                append(prev)
        else:
            for candidate in best:
                chained = prev + deletion
                prev = candidate if candidate < chained else chained
                append(prev)
        new = np.array(out, dtype=dtype)
        argmin = int(_argmin(new, rwth))
        visits[argmin] += 1
        jump = char == " "
        if trace:
            steps.append(RefStep(w, char, argmin, float(new[argmin]), jump, float(new.min())))
        if jump:
            np.minimum(new, alpha + new[argmin], out=new)
        row = new
    coverage = int(_coverage(visits, rwth))
    score = float(_finish(row[n], coverage, len(ref), costs))
    return score, float(row[n]), visits, coverage, steps


def align_batch(pairs: Sequence[tuple[str, str]], costs: _Costs) -> np.ndarray:
    """Scores of many pre-processed (hyp, ref) pairs at once: the recurrence of :func:`align`, vectorized across
    pairs instead of along a row, so that numpy (exact IEEE float32/float64, like the reference) does the
    cell arithmetic. Pairs should have similar lengths (padding is wasted work); ``stats`` batches them so.
    """
    dtype = costs.dtype
    count = len(pairs)
    # Longest reference first: at row w the pairs still running are a prefix, so finished ones cost nothing.
    order = sorted(range(count), key=lambda k: -len(pairs[k][1]))
    hyp_len = np.array([len(pairs[k][0]) for k in order], dtype=np.int64)
    ref_len = np.array([len(pairs[k][1]) for k in order], dtype=np.int64)
    width = int(hyp_len.max()) + 1
    hyp_codes = np.full((width - 1, count), -1, dtype=np.int64)  # column-major: one row per hypothesis position
    ref_codes = np.full((int(ref_len.max()) if count else 0, count), -2, dtype=np.int64)
    for p, k in enumerate(order):
        hyp, ref = pairs[k]
        hyp_codes[: len(hyp), p] = [ord(c) for c in hyp]
        ref_codes[: len(ref), p] = [ord(c) for c in ref]
    space = ord(" ")
    column = np.arange(width)[:, None]
    padding = column > hyp_len[None, :]
    row = np.ones((width, count), dtype=dtype)
    row[0] = 0
    visits = np.full((width, count), -1, dtype=np.int64)
    insertion, deletion, one, alpha = costs.insertion, costs.deletion, costs.one, costs.alpha
    inf = dtype(np.inf)
    active = count
    for w in range(ref_codes.shape[0]):
        checkpoint()
        while active and ref_len[active - 1] <= w:
            active -= 1
        cur = row[:, :active]
        cost = (hyp_codes[:, :active] != ref_codes[w, :active]).astype(dtype)
        best = np.minimum(cur[:-1] + cost, cur[1:] + insertion)
        new = np.empty_like(cur)
        new[0] = cur[0] + one
        chained = np.empty(active, dtype=dtype)
        step = np.full(active, deletion, dtype=dtype)
        # The deletion chain is sequential along the row; one numpy call per column serves every pair at once.
        targets, sources = list(new), list(best)
        add, minimum = np.add, np.minimum
        for i in range(1, width):
            add(targets[i - 1], step, out=chained)
            minimum(sources[i - 1], chained, out=targets[i])
        values = np.where(padding[:, :active], inf, new)
        argmin = _argmin(values, costs.rwth)
        lanes = np.arange(active)
        visits[argmin, lanes] += 1
        jumps = ref_codes[w, :active] == space
        if jumps.any():
            cap = np.where(jumps, alpha + new[argmin, lanes], inf)
            np.minimum(new, cap[None, :], out=new)
        row[:, :active] = new
    # Padding columns were never the argmin (their value is inf), so their -1 counters are set to 0 here.
    coverage = _coverage(np.where(padding, 0, visits), costs.rwth)
    errors = row[hyp_len, np.arange(count)]
    scores = _finish(errors, coverage, ref_len, costs)
    result = np.empty(count, dtype=np.float64)
    result[order] = scores
    return result


class EED(LowestOverReferences[EEDConfig, EEDExplanation, EEDAlignment]):
    """Extended Edit Distance (rwth-i6): character alignment with jumps and a coverage penalty. Lower is better.

    Rows hold one sentence score each (aggregate "mean": the references average sentence scores).
    """

    id = "eed"
    Config = EEDConfig
    explanation_type = EEDExplanation

    def __init__(self, config: EEDConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._costs = _Costs(self.config)

    @property
    def name(self) -> str:
        return "EED" if self.config.variant == "rwth" else "EED (python)"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("eed",)

    def one_reference(self, hyp: str, ref: str, detail: bool) -> EEDAlignment:
        c = self.config
        h = preprocess(hyp, c.language, c.variant)
        r = preprocess(ref, c.language, c.variant)
        cells = (len(h) + 1) * len(r)
        if c.max_cells is not None and cells > c.max_cells:
            note = (
                f"not aligned: {len(h)}×{len(r)} characters exceed max_cells={c.max_cells}; scored 1.0 (EED's maximum)"
            )
            return EEDAlignment(h, r, (), (), 0, float("nan"), len(r), 1.0, (note,))
        score, errors, visits, coverage, steps = align(h, r, self._costs, detail)
        return EEDAlignment(h, r, tuple(steps), tuple(int(v) for v in visits), coverage, errors, len(r), score, ())

    def _explain(self, hyp: str, refs: Sequence[str]) -> EEDExplanation:
        results, best = self.against_references(hyp, list(refs), detail=True)
        notes = reference_notes(results)
        score = results[best].score
        return EEDExplanation(
            score=score,
            row=(score,),
            notes=notes,
            best_ref=best,
            variant=self.config.variant,
            references=tuple(results),
        )

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        """Sentence scores; segments with a pair beyond ``max_cells`` are named in ``notes``.

        Pairs of similar length are aligned together (:func:`align_batch`); the arithmetic per cell is the same
        as :func:`align`, which :meth:`explain` uses (the tests check both agree on every real segment).
        """
        c = self.config
        pairs: list[tuple[str, str]] = []
        owner: list[int] = []
        for i, hyp in enumerate(hyps):
            seg_refs = segment_refs(refs, i)
            if not seg_refs:
                raise ValueError(f"eed: segment {i + 1} has no reference")
            h = preprocess(hyp, c.language, c.variant)
            for ref in seg_refs:
                pairs.append((h, preprocess(ref, c.language, c.variant)))
                owner.append(i)
        scores = np.ones(len(pairs), dtype=np.float64)
        over = [k for k, (h, r) in enumerate(pairs) if c.max_cells is not None and (len(h) + 1) * len(r) > c.max_cells]
        skipped = set(over)
        todo = sorted((k for k in range(len(pairs)) if k not in skipped), key=lambda k: len(pairs[k][0]))
        start = 0
        while start < len(todo):
            # A group: up to 256 pairs whose hypotheses are within ~30% in length (padding is wasted work).
            limit = len(pairs[todo[start]][0]) * 1.3 + 10
            stop = start + 1
            while stop < len(todo) and stop - start < 256 and len(pairs[todo[stop]][0]) <= limit:
                stop += 1
            group = todo[start:stop]
            if len(group) >= 8:
                scores[group] = align_batch([pairs[k] for k in group], self._costs)
            else:
                for k in group:
                    scores[k] = align(*pairs[k], self._costs, False)[0]
            start = stop
            if progress is not None:  # pairs go by length, not in segment order: report the share done
                progress(len(hyps) * (len(skipped) + stop) // len(pairs))
        rows = np.full((len(hyps), 1), np.inf, dtype=np.float64)
        for k, i in enumerate(owner):
            if scores[k] < rows[i, 0]:  # strictly lower: the first of equal minima wins, as in against_references
                rows[i, 0] = scores[k]
        notes: tuple[StatsNote, ...] = ()
        if over:
            bounded = sorted({owner[k] + 1 for k in over})
            kind = f"a hypothesis/reference pair beyond max_cells={c.max_cells} was scored 1.0 without alignment"
            notes = (StatsNote(kind, segments_text(bounded)),)
        return Rows(rows, notes)

    def signature(self) -> str:
        c = self.config
        params = f"alpha:{c.alpha:g}|rho:{c.rho:g}|del:{c.deletion:g}|ins:{c.insertion:g}"
        if c.max_cells != DEFAULT_MAX_CELLS:  # a pair beyond it scores 1.0, so a different bound may change scores
            params += f"|maxcells:{c.max_cells if c.max_cells is not None else 'none'}"
        return f"variant:{c.variant}|lang:{c.language}|refs:min|{params}|version:{VERSION}"
