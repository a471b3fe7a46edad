"""Which view shows which explanation: one entry per explanation class, a generic table for anything else.

Dispatch is by class name, so this module imports no metric family and a family that has not landed (or fails to
import) simply falls back to :func:`generic_parts`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from rendering.alignment_svg import Chunk, Link, alignment_svg
from rendering.edits_html import counts_html
from rendering.evidence_edits import character_parts, eed_parts, error_rate_parts, ter_parts
from rendering.evidence_lcs import rouge_l_parts, rouge_lsum_parts, rouge_w_parts
from rendering.evidence_ngrams import (
    bleu_parts,
    chrf_order_labels,
    chrf_parts,
    cider_parts,
    nltk_bleu_parts,
    rouge_n_parts,
    skip_bigram_parts,
)
from rendering.parts import Part, note


def meteor_parts(ex: Any, hyp: str, refs: Sequence[str], reference: int | None = None) -> list[Part]:
    k = ex.best if reference is None else reference
    al = ex.alignments[k]

    def shown(text: str, token: Any) -> str:
        return text[token.start : token.end] if token.located else token.text

    links = [
        Link(m.hyp_index, m.ref_index, m.stage.value, f"{m.hyp_form} ~ {m.ref_form} ({m.stage.value})")
        for m in al.matches
    ]
    chunks = [Chunk(c.hyp_start, c.hyp_end, c.ref_start, c.ref_end) for c in al.chunks]
    svg = alignment_svg(
        [shown(hyp, t) for t in al.hyp_tokens], [shown(refs[k], t) for t in al.ref_tokens], links, chunks
    )
    parts = [
        Part("html", svg, f"Alignment with reference {k + 1}" + (" (best)" if k == ex.best else "")),
        Part(
            "html",
            counts_html(
                [
                    ("matches", f"{al.m} (hyp {al.hyp_len}, ref {al.ref_len})"),
                    ("chunks", str(len(al.chunks))),
                    ("P", f"{al.precision:.4f}"),
                    ("R", f"{al.recall:.4f}"),
                    ("Fmean", f"{al.fmean:.4f}"),
                    ("frag", f"{al.fragmentation:.4f}"),
                    ("penalty", f"{al.penalty:.4f}"),
                    ("METEOR", f"{al.score:.4f}"),
                ]
            ),
        ),
        Part(
            "table",
            pd.DataFrame(
                [
                    {
                        "hyp #": m.hyp_index + 1,
                        "hypothesis": shown(hyp, m.hyp_token),
                        "ref #": m.ref_index + 1,
                        "reference": shown(refs[k], m.ref_token),
                        "stage": m.stage.value,
                        "compared as": f"{m.hyp_form} = {m.ref_form}",
                    }
                    for m in al.matches
                ]
            ),
            "Matches",
            detail=True,
        ),
    ]
    if len(al.hyp_tokens) > 150 or len(al.ref_tokens) > 150:
        parts.append(note("Only the first 150 tokens of each side are drawn."))
    return parts


def _scalar(value: Any) -> bool:
    return isinstance(value, (int, float, str, bool, np.floating, np.integer))


def generic_parts(ex: Any, hyp: str, refs: Sequence[str], columns: Sequence[str] = ()) -> list[Part]:
    """The statistics row and any scalar fields of an explanation this module has no dedicated view for."""
    parts: list[Part] = []
    row = getattr(ex, "row", None)
    if row is not None:
        values = [float(v) for v in np.asarray(row, dtype=np.float64).ravel()]
        names = list(columns) if len(columns) == len(values) else [f"stat {i + 1}" for i in range(len(values))]
        parts.append(Part("table", pd.DataFrame({"statistic": names, "value": values}), "Sufficient statistics"))
    if dataclasses.is_dataclass(ex):
        scalars = [(f.name, getattr(ex, f.name)) for f in dataclasses.fields(ex) if f.name != "row"]
        scalars = [(name, value) for name, value in scalars if _scalar(value)]
        if scalars:
            parts.append(Part("html", counts_html([(name, str(value)) for name, value in scalars])))
    return parts or [note("This metric gives no evidence to show.")]


def _rouge(ex: Any, hyp: str, refs: Sequence[str], reference: int | None = None, **_: Any) -> list[Part]:
    kind = type(ex.references[ex.best_ref].evidence).__name__
    if kind == "NgramEvidence":
        return rouge_n_parts(ex, hyp, refs, reference)
    if kind == "LcsEvidence":
        return rouge_l_parts(ex, hyp, refs, reference)
    if kind == "LsumEvidence":
        return rouge_lsum_parts(ex, hyp, refs, reference)
    return generic_parts(ex, hyp, refs)


Builder = Callable[..., list[Part]]
BUILDERS: dict[str, Builder] = {
    "BLEUExplanation": lambda ex, hyp, refs, order=1, **_: bleu_parts(ex, hyp, refs, order),
    "CHRFExplanation": lambda ex, hyp, refs, order=1, lowercase=False, **_: chrf_parts(ex, hyp, refs, order, lowercase),
    "RougeExplanation": _rouge,
    "MeteorExplanation": lambda ex, hyp, refs, reference=None, **_: meteor_parts(ex, hyp, refs, reference),
    "TERExplanation": lambda ex, hyp, refs, reference=None, **_: ter_parts(ex, hyp, refs, reference),
    "CharacTERExplanation": lambda ex, hyp, refs, reference=None, **_: character_parts(ex, hyp, refs, reference),
    "ErrorRateExplanation": lambda ex, hyp, refs, reference=None, **_: error_rate_parts(ex, hyp, refs, reference),
    "WlcsExplanation": lambda ex, hyp, refs, reference=None, **_: rouge_w_parts(ex, hyp, refs, reference),
    "SkipBigramExplanation": lambda ex, hyp, refs, reference=None, **_: skip_bigram_parts(ex, hyp, refs, reference),
    "NltkBLEUExplanation": lambda ex, hyp, refs, **_: nltk_bleu_parts(ex, hyp, refs),
    "EEDExplanation": lambda ex, hyp, refs, reference=None, **_: eed_parts(ex, hyp, refs, reference),
    "CiderExplanation": lambda ex, hyp, refs, order=1, **_: cider_parts(ex, hyp, refs, order),
}


def order_labels(ex: Any) -> list[str]:
    """The n-gram orders a view can switch between (empty when the evidence has no orders)."""
    name = type(ex).__name__
    if name == "BLEUExplanation":
        return [f"{o.order}-grams" for o in ex.orders]
    if name == "CHRFExplanation":
        return chrf_order_labels(ex)
    if name == "CiderExplanation":
        return [f"{k}-grams" for k in range(1, len(ex.grams) + 1)]
    return []


def explanation_parts(
    ex: Any,
    hyp: str,
    refs: Sequence[str],
    *,
    columns: Sequence[str] = (),
    order: int = 1,
    reference: int | None = None,
    lowercase: bool = False,
) -> list[Part]:
    """The view of one segment's explanation; an unknown or malformed explanation falls back to its statistics."""
    builder = BUILDERS.get(type(ex).__name__)
    if builder is None:
        return generic_parts(ex, hyp, refs, columns)
    try:
        return builder(ex, hyp, refs, order=order, reference=reference, lowercase=lowercase)
    except (AttributeError, IndexError, TypeError, KeyError) as err:
        # A family may change its evidence shape while the app is older; show what is certain instead.
        return [
            note(f"The evidence view could not be drawn ({type(err).__name__}: {err}); statistics instead."),
            *generic_parts(ex, hyp, refs, columns),
        ]
