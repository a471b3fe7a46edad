"""The view of perplexity evidence: the text as a heat strip of per-token surprisal (bits), the tokens the model
found least likely, and the sum that makes the segment's perplexity."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from metrics.families.perplexity.metric import PerplexityExplanation
from rendering.edits_html import counts_html
from rendering.heat_strip import heat_strip_html
from rendering.parts import Part, note
from rendering.view import ViewOptions, evidence_view

BITS = 1 / math.log(2)


@evidence_view.register(PerplexityExplanation)
def _perplexity(ex: PerplexityExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    del hyp, refs, options
    bits = [s * BITS for s in ex.surprisals]
    words = [t.text for t in ex.tokens]
    titles = [
        f"{w}" + (f" (scored as {seen})" if seen != w else "") + f": p = {p:.3g}, {b:.2f} bits"
        for w, seen, p, b in zip(words, ex.seen, ex.probabilities, bits, strict=True)
    ]
    finite = [b for b in bits if math.isfinite(b)]
    high = max(16.0, max(finite, default=0.0))
    nll, count = ex.row
    table = pd.DataFrame(
        {"token": words, "scored as": ex.seen, "probability": ex.probabilities, "surprisal (bits)": bits}
    ).sort_values("surprisal (bits)", ascending=False, kind="stable")
    return [
        Part("html", heat_strip_html(words, bits, titles, low=0.0, high=high, ramp="costly", digits=1),
             "Surprisal of each token in bits (−log₂ p): the darker, the less the model expected it"),
        Part("html", counts_html([
            ("tokens", f"{int(count)}"), ("Σ surprisal", f"{nll:.4f} nats"),
            ("perplexity", f"exp({nll:.4f} / {int(count)}) = {ex.score:.4f}"),
        ])),
        Part("table", table, "Tokens from the most to the least surprising", detail=True),
        note(f"Model: {ex.model}."),
        *(note(n) for n in ex.notes),
    ]  # fmt: skip
