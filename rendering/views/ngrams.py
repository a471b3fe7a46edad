"""Views of n-gram evidence — BLEU (sacrebleu's, Google's, nltk's), chrF/chrF++, ROUGE-N, CIDEr-D, ROUGE-S/SU —
all highlighted by :func:`ngram_html`.

Each view reads one metric's frozen explanation and returns :class:`Part` s; nothing is rescored here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.families.bleu.metric import BLEUExplanation
from metrics.families.bleu.variants import NltkBLEUExplanation
from metrics.families.chrf.metric import CHRFExplanation
from metrics.families.cider.metric import CiderExplanation
from metrics.families.rouge.metric import NgramEvidence, RougeExplanation
from metrics.families.rouge155.skip_bigram import SkipBigramExplanation
from rendering.edits_html import counts_html
from rendering.figures import weights_figure
from rendering.ngram_view import (
    LEGEND,
    Occurrence,
    Status,
    Unit,
    ngram_html,
    plain_html,
    reference_legend,
    status_of,
    token_units,
)
from rendering.parts import Part, note
from rendering.view import ViewOptions, evidence_view, order_labels

MAX_TABLE_ROWS = 300


def _gram(ngram: Sequence[str] | str) -> str:
    return ngram if isinstance(ngram, str) else " ".join(ngram)


def _capped(frame: pd.DataFrame, what: str, title: str = "") -> list[Part]:
    parts = [Part("table", frame.head(MAX_TABLE_ROWS), title, detail=True)]
    if len(frame) > MAX_TABLE_ROWS:
        parts.append(note(f"{len(frame) - MAX_TABLE_ROWS} more {what} not listed.", detail=True))
    return parts


# ----------------------------------------------------------------------------------------------------- BLEU


@order_labels.register(BLEUExplanation)
def _bleu_orders(ex: BLEUExplanation) -> tuple[str, ...]:
    return tuple(f"{o.order}-grams" for o in ex.orders)


@evidence_view.register(BLEUExplanation)
def bleu_parts(ex: BLEUExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    order = max(1, min(options.order, len(ex.orders)))
    ev = ex.orders[order - 1]
    occurrences = []
    for m in ev.ngrams:
        source = f" (count set by reference {m.clip_ref + 1})" if m.clip_ref is not None else ""
        label = f"{_gram(m.ngram)}: {m.hyp_count}× here, at most {m.max_ref_count}× in a reference{source}; {m.clipped} credited"
        occurrences += [
            Occurrence(pos, order, status_of(k, m.clipped, m.max_ref_count), label, m.clip_ref)
            for k, pos in enumerate(m.positions)
        ]
    text, units = token_units(hyp, ex.hyp_tokens)
    parts = [
        Part(
            "html",
            LEGEND + reference_legend(len(refs)) + ngram_html(text, units, occurrences),
            f"Hypothesis, {order}-grams",
        ),
        Part(
            "html",
            counts_html(
                [
                    (f"{order}-gram precision", f"{ev.correct}/{ev.total} → {ev.precision:.2f}"),
                    ("length", f"hyp {ex.sys_len}, ref {ex.ref_len} (reference {ex.ref_len_index + 1})"),
                    ("BP", f"{ex.brevity_penalty:.4f}"),
                    ("geometric mean", f"{ex.geometric_mean:.4f}"),
                    ("sentence BLEU", f"{ex.score:.2f}"),
                ]
            ),
        ),
        *(note(n) for n in ex.notes),
    ]
    credited = [m for m in ev.ngrams if m.clipped > 0]
    for k, (ref, tokens) in enumerate(zip(refs, ex.ref_tokens, strict=True)):
        rtext, runits = token_units(ref, tokens)
        rocc = [
            Occurrence(p, order, "match", f"{_gram(m.ngram)}: credited in the hypothesis")
            for m in credited
            for p in m.ref_positions[k]
        ]
        parts.append(Part("html", ngram_html(rtext, runits, rocc), f"Reference {k + 1}: credited {order}-grams"))
    precisions = pd.DataFrame(
        [{"order": o.order, "matches": o.correct, "total": o.total, "precision": o.precision} for o in ex.orders]
    )
    parts.append(Part("table", precisions, "Precision per order (smoothed, as in the score)", detail=True))
    grams = pd.DataFrame(
        [
            {
                "n-gram": _gram(m.ngram),
                "in hypothesis": m.hyp_count,
                "max in a reference": m.max_ref_count,
                "credited (clipped)": m.clipped,
                "reference setting the clip": (m.clip_ref + 1) if m.clip_ref is not None else None,
            }
            for m in ev.ngrams
        ]
    )
    return parts + _capped(grams, "n-grams", f"Hypothesis {order}-grams and their clipping")


# ----------------------------------------------------------------------------------------------------- chrF


@order_labels.register(CHRFExplanation)
def _chrf_orders(ex: CHRFExplanation) -> tuple[str, ...]:
    return tuple(o.label for o in ex.orders)


@evidence_view.register(CHRFExplanation)
def chrf_parts(ex: CHRFExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    order = max(1, min(options.order, len(ex.orders)))
    ev = ex.orders[order - 1]
    # One unit per character of the hypothesis; whitespace between the characters of an n-gram stays plain.
    units: list[Unit] = [None if ch.isspace() else (i, i + 1) for i, ch in enumerate(hyp)]
    occurrences = []
    for c in ev.ngrams:
        label = f"{c.ngram!r}: {c.hyp_count}× here, {c.ref_count}× in reference {ex.best_ref + 1}; {c.matched} matched"
        occurrences += [
            Occurrence(start, end - start, status_of(k, c.matched, c.ref_count), label, ex.best_ref)
            for k, (start, end) in enumerate(c.hyp_spans)
        ]
    parts = [
        Part("html", LEGEND + ngram_html(hyp, units, occurrences), f"Hypothesis, {ev.label}"),
        Part(
            "html",
            counts_html(
                [
                    ("matches", f"{ev.n_match} of {ev.n_hyp} (hyp) / {ev.n_ref} (ref)"),
                    ("P", f"{ev.precision:.4f}"),
                    ("R", f"{ev.recall:.4f}"),
                    ("statistics from", f"reference {ex.best_ref + 1}"),
                    ("sentence score", f"{ex.score:.2f}"),
                ]
            ),
        ),
    ]
    if len(ex.ref_scores) > 1:
        parts.append(note("Sentence chrF per reference: " + ", ".join(f"{s:.2f}" for s in ex.ref_scores)))
    per_order = pd.DataFrame(
        [
            {
                "order": o.label,
                "hyp": o.n_hyp,
                "ref": o.n_ref,
                "matched": o.n_match,
                "precision": o.precision,
                "recall": o.recall,
            }
            for o in ex.orders
        ]
    )
    parts.append(Part("table", per_order, "Statistics per order", detail=True))
    grams = pd.DataFrame(
        [
            {"n-gram": g.ngram, "in hypothesis": g.hyp_count, "in reference": g.ref_count, "matched": g.matched}
            for g in ev.ngrams
        ]
    )
    return parts + _capped(grams, "n-grams", "N-gram counts of this order")


# -------------------------------------------------------------------------------------------------- ROUGE-N


def rouge_n_parts(ex: RougeExplanation, ev: NgramEvidence, hyp: str, refs: Sequence[str], k: int) -> list[Part]:
    """ROUGE-N against reference ``k``, whose evidence is ``ev``."""
    best = ex.references[k]
    hyp_occ, ref_occ = [], []
    for m in ev.matches:
        label = f"{_gram(m.ngram)}: {m.hyp_count}× here, {m.ref_count}× in the reference; {m.clipped} credited"
        hyp_occ += [
            Occurrence(p, ev.n, status_of(i, m.clipped, m.ref_count), label) for i, p in enumerate(m.hyp_positions)
        ]
        ref_occ += [
            Occurrence(p, ev.n, status_of(i, m.clipped, m.hyp_count), label) for i, p in enumerate(m.ref_positions)
        ]
    text, units = token_units(hyp, ex.hyp_tokens)
    rtext, runits = token_units(refs[k], best.ref_tokens)
    parts = [
        Part("html", LEGEND + ngram_html(text, units, hyp_occ), f"Hypothesis, shared {ev.n}-grams"),
        Part(
            "html", ngram_html(rtext, runits, ref_occ), f"Reference {k + 1}" + (" (best F)" if k == ex.best_ref else "")
        ),
        Part(
            "html",
            counts_html(
                [
                    ("hits", f"{best.hits}"),
                    ("P", f"{best.hits}/{best.hyp_total} = {best.precision:.4f}"),
                    ("R", f"{best.hits}/{best.ref_total} = {best.recall:.4f}"),
                    ("F1", f"{best.fmeasure:.4f}"),
                ]
            ),
        ),
    ]
    parts += [note(w) for w in ex.notes]
    grams = pd.DataFrame(
        [
            {"n-gram": _gram(m.ngram), "in hypothesis": m.hyp_count, "in reference": m.ref_count, "credited": m.clipped}
            for m in ev.matches
        ]
    )
    return parts + _capped(grams, "shared n-grams", "Shared n-grams")


# --------------------------------------------------------------------------------------------------- CIDEr-D


@order_labels.register(CiderExplanation)
def _cider_orders(ex: CiderExplanation) -> tuple[str, ...]:
    return tuple(f"{k}-grams" for k in range(1, len(ex.grams) + 1))


@evidence_view.register(CiderExplanation)
def cider_parts(ex: CiderExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    order = max(1, min(options.order, len(ex.grams)))
    hyp_grams = ex.grams[order - 1]
    shared = {term.gram for ref in ex.references for term in ref.orders[order - 1].terms}
    occurrences = []
    for g in hyp_grams:
        status: Status = "match" if g.gram in shared else "miss"
        label = f"{_gram(g.gram)}: tf {g.tf}, df {g.df}, idf {g.idf:.3f}, weight {g.weight:.3f}"
        occurrences += [Occurrence(p, order, status, label) for p in g.positions]
    text, units = token_units(hyp, ex.tokens)
    parts = [
        Part(
            "html",
            LEGEND + ngram_html(text, units, occurrences),
            f"Hypothesis, {order}-grams (matched = shared with a reference)",
        ),
        Part(
            "html",
            counts_html(
                [
                    ("CIDEr-D", f"{ex.score:.4f}"),
                    ("per order (Σ over references)", ", ".join(f"{v:.4f}" for v in ex.per_order)),
                    ("mean over the orders", f"{ex.mean_similarity:.4f}"),
                    ("images", f"{ex.images} (ln = {ex.log_images:.4f})"),
                    ("σ", f"{ex.sigma:g}"),
                ]
            ),
        ),
    ]
    parts.append(
        Part(
            "table",
            pd.DataFrame(
                [
                    {"n-gram": _gram(g.gram), "tf": g.tf, "df": g.df, "idf": g.idf, "weight (tf·idf)": g.weight}
                    for g in sorted(hyp_grams, key=lambda g: -g.weight)
                ]
            ).head(MAX_TABLE_ROWS),
            f"Hypothesis {order}-gram weights",
        )
    )
    if hyp_grams:
        parts.append(
            Part(
                "figure",
                weights_figure([(_gram(g.gram), g.weight) for g in hyp_grams[:40]], f"{order}-gram TF-IDF weights"),
                detail=True,
            )
        )
    per_ref = pd.DataFrame(
        [
            {
                "reference": k + 1,
                "δ (bigram-length difference)": ref.delta,
                "length penalty": ref.penalty,
                **{f"order {o.order}": o.value for o in ref.orders},
            }
            for k, ref in enumerate(ex.references)
        ]
    )
    parts.append(Part("table", per_ref, "Similarity per reference and order (cosine × penalty)"))
    terms = pd.DataFrame(
        [
            {
                "reference": k + 1,
                "n-gram": _gram(t.gram),
                "hyp weight": t.hyp_weight,
                "ref weight": t.ref_weight,
                "min(v_h, v_r)·v_r": t.contribution,
            }
            for k, ref in enumerate(ex.references)
            for t in ref.orders[order - 1].terms
        ]
    )
    if len(terms):
        parts.append(
            Part("table", terms.head(MAX_TABLE_ROWS), f"Clipped {order}-gram terms of the dot products", detail=True)
        )
    return parts


# ---------------------------------------------------------------------------------------------- ROUGE-S/SU


@evidence_view.register(SkipBigramExplanation)
def skip_bigram_parts(ex: SkipBigramExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    """ROUGE-S/SU (ROUGE-1.5.5): shared skip-bigrams (and unigrams) highlighted on both texts, clipped ones marked."""
    k = options.reference if options.reference is not None else (ex.best_ref or 0)
    ref = ex.references[k]
    hyp_occ, ref_occ = [], []
    for unit in ref.units:
        label = f"{_gram(unit.words)} ({unit.kind.value}): {unit.hyp_count}× here, {unit.ref_count}× in the reference; {unit.clipped} credited"
        for n, span in enumerate(unit.hyp_spans):
            hyp_occ += [Occurrence(i, 1, status_of(n, unit.clipped, unit.ref_count), label) for i in span]
        for n, span in enumerate(unit.ref_spans):
            ref_occ += [Occurrence(i, 1, status_of(n, unit.clipped, unit.hyp_count), label) for i in span]
    text, units = token_units(hyp, ex.hyp_tokens)
    rtext, runits = token_units(refs[k], ref.tokens)
    parts = [
        Part("html", LEGEND + ngram_html(text, units, hyp_occ), "Hypothesis: tokens of shared skip-bigrams"),
        Part("html", ngram_html(rtext, runits, ref_occ), f"Reference {k + 1}" + (" (counted)" if ref.selected else "")),
        Part(
            "html",
            counts_html(
                [
                    ("hits", str(ref.hits)),
                    ("P", f"{ref.hits}/{ref.hyp_total}"),
                    ("R", f"{ref.hits}/{ref.ref_total}"),
                    ("skip distance", "unlimited" if ex.skip_distance is None else str(ex.skip_distance)),
                    ("F", f"{ex.fmeasure:.5f}"),
                ]
            ),
        ),
    ]
    if ref.unigram_excluded is not None:
        parts.append(
            note(
                f"ROUGE-SU never counts the unigram of the last token ({ref.unigram_excluded.text!r}), as ROUGE-1.5.5."
            )
        )
    table = pd.DataFrame(
        [
            {
                "unit": _gram(u.words),
                "kind": u.kind.value,
                "in hypothesis": u.hyp_count,
                "in reference": u.ref_count,
                "credited": u.clipped,
            }
            for u in ref.units
        ]
    )
    return parts + _capped(table, "shared units", "Shared units")


# ------------------------------------------------------------------------------------------------ nltk BLEU


@evidence_view.register(NltkBLEUExplanation)
def nltk_bleu_parts(ex: NltkBLEUExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    """nltk's BLEU keeps only counts per order (no n-gram list): the modified precisions as nltk computes them."""
    table = pd.DataFrame(
        [
            {"order": n, "clipped matches": num, "hypothesis n-grams": den, "precision (smoothed)": p, "weight": w}
            for n, (num, den, p, w) in enumerate(
                zip(ex.numerators, ex.denominators, ex.precisions, ex.weights, strict=False), start=1
            )
        ]
    )
    return [
        Part("html", plain_html(hyp), "Hypothesis (nltk splits on whitespace)"),
        Part(
            "html",
            counts_html(
                [
                    ("length", f"hyp {ex.hyp_len}, ref {ex.ref_len}"),
                    ("BP", f"{ex.brevity_penalty:.4f}"),
                    ("BLEU", f"{ex.score:.4f}"),
                ]
            ),
        ),
        Part("table", table, "Modified precision per order (orders with precision ≤ 0 are left out of the sum)"),
    ]
