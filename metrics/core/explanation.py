"""The base of every explanation: the evidence behind one segment's score, computed on the scoring path.

Every family's explanation subclasses :class:`Explanation`, so a view or a lesson can rely on these fields whatever
the metric: the score, the statistics row it adds up to (equal to the segment's row in
:meth:`metrics.core.base.Metric.stats`), the notes of the scoring path (bounds that applied, text a tokenizer
dropped) and the reference the score used. Views and lessons are found by the explanation's type.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Explanation:
    """Fields every explanation has.

    ``score``: the segment score the metric reports (its ``segment_scores`` value for this segment).
    ``row``: the sufficient statistics of the segment, in the metric's ``columns`` order.
    ``notes``: what the scoring path reports about this segment, in plain words.
    ``best_ref``: index (into the segment's non-missing references) of the reference whose statistics the row
    holds, or ``None`` when the statistics pool every reference (BLEU's clipping, CIDEr-D's mean, ROUGE-1.5.5 -f A).
    """

    score: float
    row: tuple[float, ...]
    notes: tuple[str, ...] = ()
    best_ref: int | None = None
