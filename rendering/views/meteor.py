"""The view of METEOR evidence: the alignment with one reference drawn as links and chunks, its numbers and its
matches."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from metrics.families.meteor.metric import MeteorExplanation
from rendering.alignment_svg import Chunk, Link, alignment_svg
from rendering.edits_html import counts_html, shown
from rendering.parts import Part, note
from rendering.view import ViewOptions, evidence_view

MAX_DRAWN = 150  # tokens per side the alignment figure draws


@evidence_view.register(MeteorExplanation)
def meteor_parts(ex: MeteorExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    k = ex.best_ref if options.reference is None else options.reference
    al = ex.alignments[k]
    links = [
        Link(m.hyp_index, m.ref_index, m.stage.value, f"{m.hyp_form} ~ {m.ref_form} ({m.stage.value})")
        for m in al.matches
    ]
    chunks = [Chunk(c.hyp_start, c.hyp_end, c.ref_start, c.ref_end) for c in al.chunks]
    svg = alignment_svg(
        [shown(hyp, t) for t in al.hyp_tokens],
        [shown(refs[k], t) for t in al.ref_tokens],
        links,
        chunks,
        limit=MAX_DRAWN,
    )
    parts = [
        Part("html", svg, f"Alignment with reference {k + 1}" + (" (best)" if k == ex.best_ref else ""), wide=True),
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
    if al.hyp_len > MAX_DRAWN or al.ref_len > MAX_DRAWN:
        parts.append(note(f"Only the first {MAX_DRAWN} tokens of each side are drawn."))
    return parts
