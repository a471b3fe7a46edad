"""A heat strip: tokens in reading order, each on a background whose strength shows one number of that token (a
BERTScore token's best similarity, a perplexity token's surprisal), with the number under it and a tooltip. Token
text and tooltips are escaped; colours are computed from numbers only."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rendering.text import escape_html

# Two ramps from white: green for "good" values (similarity), orange-red for "costly" ones (surprisal).
RAMPS = {"good": (46, 125, 50), "costly": (216, 67, 21)}


def _background(value: float, low: float, high: float, ramp: str) -> str:
    if not math.isfinite(value):
        return "background:#212121;color:#ffffff"
    share = 0.0 if high <= low else min(max((value - low) / (high - low), 0.0), 1.0)
    r, g, b = RAMPS[ramp]
    mix = [round(255 + (c - 255) * share * 0.85) for c in (r, g, b)]
    text = "#ffffff" if share > 0.6 else "#212121"
    return f"background:rgb({mix[0]},{mix[1]},{mix[2]});color:{text}"


def heat_strip_html(
    tokens: Sequence[str],
    values: Sequence[float],
    titles: Sequence[str],
    *,
    low: float,
    high: float,
    ramp: str = "good",
    digits: int = 2,
) -> str:
    """One chip per token, shaded by its value between ``low`` (white) and ``high`` (full colour); ``titles`` are the
    tooltips. A non-finite value (an infinite surprisal) is drawn black."""
    chips = []
    for token, value, title in zip(tokens, values, titles, strict=True):
        number = f"{value:.{digits}f}" if math.isfinite(value) else ("∞" if value > 0 else "−∞")
        chips.append(
            f'<span class="sl-col" style="{_background(value, low, high, ramp)}" title="{escape_html(title)}">'
            f'<span class="sl-h">{escape_html(token)}</span><span class="sl-op">{number}</span></span>'
        )
    return f'<div class="sl-align sl-heat">{"".join(chips)}</div>'
