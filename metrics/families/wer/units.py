"""The symbols the error rates' length buckets count: jiwer's words, or characters for CER."""

from __future__ import annotations

from metrics.core.tokens import TokenUnit
from metrics.families.wer.metric import ErrorRate


def token_unit(metric: ErrorRate) -> TokenUnit:
    """``symbols``; rows hold ``ref_len``, the mean over the references."""
    characters = metric.unit == "char"
    return TokenUnit(
        f"{metric.name} {'characters' if characters else 'words'}",
        metric.symbols,
        words=not characters,
        splits_cjk=characters,
        ref_column="ref_len",
        ref_column_mean=True,
    )
