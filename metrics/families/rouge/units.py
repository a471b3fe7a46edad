"""The tokens ROUGE-N/L/Lsum's length buckets count: rouge-score's tokenizer. Their rows count n-grams or the best
reference's tokens, so lengths are derived."""

from __future__ import annotations

from metrics.core.tokens import TokenUnit
from metrics.families.rouge.metric import RougeL, RougeLsum, RougeN


def token_unit(metric: RougeN | RougeL | RougeLsum) -> TokenUnit:
    return TokenUnit(
        f"ROUGE tokens (tok:{metric.config.tokenizer})",
        metric.tokenizer.words,
        splits_cjk=metric.config.tokenizer == "unicode",
    )
