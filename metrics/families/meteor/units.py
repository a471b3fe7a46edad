"""The words METEOR's length buckets count: its lowercased whitespace words, with the lengths its rows hold."""

from __future__ import annotations

from metrics.core.tokens import TokenUnit
from metrics.families.meteor.metric import Meteor


def token_unit(metric: Meteor) -> TokenUnit:
    """Rows hold ``hyp_len`` and, with one reference, ``ref_len``."""
    return TokenUnit(f"{metric.name} words", metric.tokenize, ref_column="ref_len", hyp_column="hyp_len")
