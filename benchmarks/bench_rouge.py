"""ROUGE-1/2/L/Lsum (rouge-score 0.1.2 semantics) on the full CNN/DailyMail test set: 11 490 documents × 3 systems.

Both sides return every segment's F1 for the three systems in turn. The reference side is rouge-score's
``RougeScorer([type], use_stemmer=…).score(reference, hypothesis)``, one type per scorer as a user computing one
metric would call it. Ours builds a fresh metric per call, so no cache survives from one timed run to the next;
reference preprocessing is cached across the three systems within a run, as when a user compares systems.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.common import Case, load_set
from metrics.core.registry import create

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
SYSTEMS = ("baseline", "pointer-gen", "pointer-gen-cov")


def _load(shared: Path) -> tuple[list[str], dict[str, list[str]]]:
    (refs,), systems = load_set(shared / "cnndm_see2017", ["reference.sents.jsonl"], SYSTEMS, ".sents.jsonl")
    return refs, systems


def _ours(rouge_type: str, stemmer: bool, refs: list[str], systems: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def run() -> list[float]:
        metric = create(rouge_type, {"stemmer": stemmer})
        scores: list[float] = []
        for hyps in systems.values():
            scores.extend(metric.segment_scores(metric.stats(hyps, [refs])).tolist())
        return scores

    return run


def _reference(rouge_type: str, stemmer: bool, refs: list[str], systems: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    from rouge_score.rouge_scorer import RougeScorer

    def run() -> list[float]:
        scorer = RougeScorer([rouge_type], use_stemmer=stemmer)
        scores: list[float] = []
        for hyps in systems.values():
            scores.extend(scorer.score(r, h)[rouge_type].fmeasure for r, h in zip(refs, hyps, strict=True))
        return scores

    return run


def cases(shared: Path) -> list[Case]:
    refs, systems = _load(shared)
    result = []
    for stemmer in (False, True):
        for rouge_type in TYPES:
            if stemmer and rouge_type not in ("rouge1", "rougeLsum"):
                continue  # the stemmer's cost is the same for every type; two stemmed cases show it
            label = f"{rouge_type}{' stem' if stemmer else ''} cnndm 11490×3"
            result.append(
                Case(label, _ours(rouge_type, stemmer, refs, systems), _reference(rouge_type, stemmer, refs, systems))
            )
    return result
