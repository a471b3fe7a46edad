"""The one edit vocabulary: alignment steps of a hypothesis against a reference, and the evidence of the edit-rate
metrics (TER, WER/CER) built on it.

TER's word alignment (:mod:`metrics.families.ter.search`), the Levenshtein alignment (:mod:`metrics.core.levenshtein`, used
by CharacTER), jiwer's chunks (:mod:`metrics.families.wer.metric`) and every view of an alignment speak of :class:`EditOp`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from metrics.core.explanation import Explanation
from metrics.core.tokens import Token


class EditOp(Enum):
    """One step of an alignment of a hypothesis with a reference, named for what the hypothesis did to the
    reference (jiwer's view, the usual one in speech recognition):

    * ``MATCH``: a hypothesis symbol equal to its reference symbol;
    * ``SUBSTITUTE``: a hypothesis symbol in place of a different reference symbol;
    * ``INSERT``: a hypothesis symbol the reference lacks (it has no reference counterpart);
    * ``DELETE``: a reference symbol the hypothesis lacks (it has no hypothesis counterpart).

    tercom and sacrebleu name the last two the other way round (the edits that turn the hypothesis into the
    reference delete an inserted word); TER's ``deletions``/``insertions`` statistics columns keep that naming.
    """

    MATCH = "match"
    SUBSTITUTE = "substitute"
    INSERT = "insert"
    DELETE = "delete"

    @property
    def is_error(self) -> bool:
        return self is not EditOp.MATCH


@dataclass(frozen=True)
class Edit:
    """One alignment step; ``hyp_index``/``ref_index`` are ``None`` on the side the step does not consume."""

    op: EditOp
    hyp_index: int | None
    ref_index: int | None


@dataclass(frozen=True, kw_only=True)
class EditAlignment:
    """The hypothesis aligned with one reference by an edit-rate metric.

    ``hypothesis`` holds the hypothesis units that ``alignment``'s ``hyp_index`` points into (TER: the hypothesis
    after its shifts; WER/CER: the hypothesis as tokenized), ``tokens`` the reference units its ``ref_index`` points
    into. ``edits`` is what the metric counts against this reference (TER adds its shifts). The four counts are those
    of ``alignment``'s steps; ``alignment`` is ``None`` only where the metric could not align (a bounded segment).
    """

    index: int
    tokens: tuple[Token, ...]
    hypothesis: tuple[Token, ...]
    alignment: tuple[Edit, ...] | None
    edits: int
    ref_len: int
    matches: int
    substitutions: int
    insertions: int
    deletions: int


AlignmentT = TypeVar("AlignmentT", bound=EditAlignment)


@dataclass(frozen=True, kw_only=True)
class EditExplanation(Explanation, Generic[AlignmentT]):
    """Evidence of an edit rate: the hypothesis aligned with every reference. The score keeps the reference with the
    fewest edits (``best_ref``, the first on ties) and divides by the **average** length of all references."""

    best_ref: int
    hyp_tokens: tuple[Token, ...]
    references: tuple[AlignmentT, ...]
    edits: int
    avg_ref_len: float

    @property
    def chosen(self) -> AlignmentT:
        return self.references[self.best_ref]


def count_ops(alignment: tuple[Edit, ...]) -> dict[EditOp, int]:
    """How many steps of each kind ``alignment`` has (every kind present, zeros included)."""
    counts = dict.fromkeys(EditOp, 0)
    for step in alignment:
        counts[step.op] += 1
    return counts
