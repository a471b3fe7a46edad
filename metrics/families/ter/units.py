"""The tokens TER's length buckets count: tercom's tokenizer, with the mean reference length its rows hold."""

from __future__ import annotations

from metrics.core.tokens import TokenUnit
from metrics.families.ter.metric import TER


def token_unit(metric: TER) -> TokenUnit:
    return TokenUnit(f"{metric.name} tokens", metric.tokenize, ref_column="ref_len", ref_column_mean=True)
