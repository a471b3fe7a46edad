"""The characters chrF's length buckets count: characters without whitespace (its character unigrams). Its rows
hold them, but for the best reference and with ``hyp_c1 = 0`` against an empty reference, so lengths are derived."""

from __future__ import annotations

from metrics.core.tokens import TokenUnit
from metrics.families.chrf.metric import CHRF


def _characters(text: str) -> list[str]:
    return [c for c in text if not c.isspace()]


def token_unit(metric: CHRF) -> TokenUnit:
    del metric
    return TokenUnit("characters (chrF)", _characters, words=False, splits_cjk=True)
