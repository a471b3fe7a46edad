"""Views of ROUGE-L and ROUGE-Lsum evidence: the LCS path on the DP grid, and the union LCS per reference sentence.

The ROUGE-L grid is the metric's own (``LcsEvidence.dp_table``) with the backtracked pairs the score counted. For
ROUGE-Lsum the heatmap shows where tokens are equal (reference × hypothesis, sentence boundaries dotted) with one
LCS path per (reference sentence, hypothesis sentence) pair, as the evidence lists them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from metrics.families.rouge.metric import LcsEvidence, LsumEvidence, RougeExplanation, RougeRefScore
from metrics.families.rouge155.weighted_lcs import WlcsExplanation
from rendering.edits_html import counts_html
from rendering.figures import lcs_grid_figure
from rendering.ngram_view import LEGEND, Occurrence, Status, ngram_html, token_units
from rendering.parts import Part, note
from rendering.view import ViewOptions, evidence_view

MAX_GRID = 80


def _equal_tokens(ref_words: Sequence[str], hyp_words: Sequence[str]) -> np.ndarray:
    """A grid for :func:`lcs_grid_figure` that marks where a reference and a hypothesis token are equal (row and
    column 0 stay empty, as in an LCS grid)."""
    grid = np.zeros((len(ref_words) + 1, len(hyp_words) + 1), dtype=np.int64)
    for i, r in enumerate(ref_words):
        for j, h in enumerate(hyp_words):
            grid[i + 1, j + 1] = int(r == h)
    return grid


def _scores(ref: RougeRefScore) -> Part:
    return Part(
        "html",
        counts_html(
            [
                ("LCS hits", f"{ref.hits}"),
                ("P", f"{ref.hits}/{ref.hyp_total} = {ref.precision:.4f}"),
                ("R", f"{ref.hits}/{ref.ref_total} = {ref.recall:.4f}"),
                ("F1", f"{ref.fmeasure:.4f}"),
            ]
        ),
    )


def rouge_l_parts(
    ex: RougeExplanation, ev: LcsEvidence, hyp: str, refs: Sequence[str], k: int, limit: int = MAX_GRID
) -> list[Part]:
    """ROUGE-L against reference ``k``, whose evidence is ``ev``."""
    ref = ex.references[k]
    text, units = token_units(hyp, ex.hyp_tokens)
    rtext, runits = token_units(refs[k], ref.ref_tokens)
    hyp_occ = [Occurrence(j, 1, "match", f"LCS: ref {i + 1} = hyp {j + 1}") for i, j in ev.pairs]
    ref_occ = [Occurrence(i, 1, "match", f"LCS: ref {i + 1} = hyp {j + 1}") for i, j in ev.pairs]
    fig, cut = lcs_grid_figure(ev.ref_words, ev.hyp_words, ev.dp_table(), [ev.pairs], path_names=["LCS"], limit=limit)
    parts = [
        Part("html", LEGEND + ngram_html(text, units, hyp_occ), "Hypothesis: tokens on the LCS"),
        Part(
            "html", ngram_html(rtext, runits, ref_occ), f"Reference {k + 1}" + (" (best F)" if k == ex.best_ref else "")
        ),
        _scores(ref),
        Part("figure", fig, "LCS grid: rows = reference, columns = hypothesis; the line is the backtracked LCS"),
    ]
    if cut:
        parts.append(note(cut))
    return parts + [note(w) for w in ex.notes]


def rouge_lsum_parts(
    ex: RougeExplanation, ev: LsumEvidence, hyp: str, refs: Sequence[str], k: int, limit: int = MAX_GRID
) -> list[Part]:
    """ROUGE-Lsum against reference ``k``, whose evidence is ``ev``."""
    ref = ex.references[k]
    hyp_words = [t.text for t in ex.hyp_tokens]
    ref_words = [t.text for t in ref.ref_tokens]
    paths: list[list[tuple[int, int]]] = []
    names: list[str] = []
    hyp_occ, ref_occ = [], []
    for sent in ev.sentences:
        for h, pairs in enumerate(sent.lcs):
            h_start = ev.hyp_sentences[h][0]
            path = [(sent.start + i, h_start + j) for i, j in pairs]
            if path:
                paths.append(path)
                names.append(f"ref sentence {sent.index + 1} × hyp sentence {h + 1}")
            hyp_occ += [
                Occurrence(j, 1, "match", f"on the LCS with reference sentence {sent.index + 1}") for _, j in path
            ]
        hits = set(sent.hits)
        for i in sent.union:
            status: Status = "match" if i in hits else "clip"
            label = "in LCS∪, credited" if i in hits else "in LCS∪ but its token was already used up (clipped)"
            ref_occ.append(Occurrence(sent.start + i, 1, status, f"sentence {sent.index + 1}: {label}"))
    padded = _equal_tokens(ref_words, hyp_words)
    boundaries = ([s.start for s in ev.sentences], [start for start, _ in ev.hyp_sentences])
    fig, cut = lcs_grid_figure(
        ref_words, hyp_words, padded, paths, path_names=names, limit=limit, boundaries=boundaries
    )
    text, units = token_units(hyp, ex.hyp_tokens)
    rtext, runits = token_units(refs[k], ref.ref_tokens)
    union = pd.DataFrame(
        [
            {
                "reference sentence": s.index + 1,
                "tokens": " ".join(ref_words[s.start : s.end]),
                "LCS∪ size": len(s.union),
                "credited": len(s.hits),
                "clipped": len(s.clipped),
            }
            for s in ev.sentences
        ]
    )
    parts = [
        Part("html", LEGEND + ngram_html(text, units, hyp_occ), "Hypothesis: tokens on some sentence LCS"),
        Part("html", ngram_html(rtext, runits, ref_occ), f"Reference {k + 1}: union LCS (credited / clipped)"),
        _scores(ref),
        Part("table", union, "Union LCS per reference sentence"),
        Part(
            "figure",
            fig,
            "Equal tokens (reference × hypothesis), sentence boundaries dotted, one LCS per sentence pair",
        ),
    ]
    if cut:
        parts.append(note(cut))
    return parts + [note(w) for w in ex.notes]


@evidence_view.register(WlcsExplanation)
def rouge_w_parts(
    ex: WlcsExplanation, hyp: str, refs: Sequence[str], options: ViewOptions, limit: int = MAX_GRID
) -> list[Part]:
    """ROUGE-W (ROUGE-1.5.5): weighted-LCS paths per sentence pair on the token grid, the hit mask on the reference
    (credited / clipped) and the runs whose f(length) weights add up to the hits."""
    k = options.reference if options.reference is not None else (ex.best_ref or 0)
    ref = ex.references[k]
    hyp_words = [t.text for t in ex.hyp_tokens]
    ref_words = [t.text for t in ref.tokens]
    paths = [list(p.pairs) for p in ref.paths]
    names = [
        f"ref sentence {p.ref_sentence + 1} × hyp sentence {p.hyp_sentence + 1} (weight {p.weight:g})"
        for p in ref.paths
    ]
    padded = _equal_tokens(ref_words, hyp_words)
    fig, cut = lcs_grid_figure(
        ref_words,
        hyp_words,
        padded,
        paths,
        path_names=names,
        limit=limit,
        boundaries=([s for s, _ in ref.sentences], [s for s, _ in ex.hyp_sentences]),
    )
    clipped = set(ref.clipped)
    ref_occ = [
        Occurrence(i, 1, "clip" if i in clipped else "match", "on a WLCS path" + (", clipped" if i in clipped else ""))
        for i in ref.marked
    ]
    hyp_occ = [Occurrence(j, 1, "match", "on a WLCS path") for p in ref.paths for _, j in p.pairs]
    text, units = token_units(hyp, ex.hyp_tokens)
    rtext, runits = token_units(refs[k], ref.tokens)
    runs = pd.DataFrame(
        [
            {
                "reference sentence": r.ref_sentence + 1,
                "positions": ", ".join(str(p + 1) for p in r.positions),
                "f(run)": r.weight,
                "lost": r.lost,
            }
            for r in ref.runs
        ]
    )
    parts = [
        Part("html", LEGEND + ngram_html(text, units, hyp_occ), "Hypothesis: tokens on a weighted LCS"),
        Part("html", ngram_html(rtext, runits, ref_occ), f"Reference {k + 1}: hit mask (credited / clipped)"),
        Part(
            "html",
            counts_html(
                [
                    ("hits (Σ f(run))", f"{ref.hits:g}"),
                    ("P", f"{ex.precision:.5f}"),
                    ("R", f"{ex.recall:.5f}"),
                    ("F", f"{ex.fmeasure:.5f}"),
                ]
            ),
        ),
        Part("figure", fig, "Equal tokens (reference × hypothesis) with the WLCS path of each sentence pair"),
        Part("table", runs, "Runs of consecutive matches and their weights", detail=True),
    ]
    if cut:
        parts.append(note(cut))
    return parts
