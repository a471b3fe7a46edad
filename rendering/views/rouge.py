"""The view of rouge-score's ROUGE-N, ROUGE-L and ROUGE-Lsum: one explanation type whose evidence per reference is
n-grams, an LCS or a union LCS, each drawn by its own view."""

from __future__ import annotations

from collections.abc import Sequence

from metrics.families.rouge.metric import LcsEvidence, NgramEvidence, RougeExplanation
from rendering.parts import Part
from rendering.view import ViewOptions, evidence_view
from rendering.views.lcs import rouge_l_parts, rouge_lsum_parts
from rendering.views.ngrams import rouge_n_parts


@evidence_view.register(RougeExplanation)
def rouge_parts(ex: RougeExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    k = ex.best_ref if options.reference is None else options.reference
    evidence = ex.references[k].evidence
    if isinstance(evidence, NgramEvidence):
        return rouge_n_parts(ex, evidence, hyp, refs, k)
    if isinstance(evidence, LcsEvidence):
        return rouge_l_parts(ex, evidence, hyp, refs, k)
    return rouge_lsum_parts(ex, evidence, hyp, refs, k)
