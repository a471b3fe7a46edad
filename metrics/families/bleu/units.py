"""The tokens BLEU's length buckets count: sacrebleu's (and Google's) tokenizer, with the lengths its rows hold."""

from __future__ import annotations

from metrics.core.tokens import TokenUnit
from metrics.families.bleu.metric import BLEU

CJK_SPLITTING = {"zh", "char", "ja-mecab"}  # tokenizers that cut Han and kana characters apart


def token_unit(metric: BLEU) -> TokenUnit:
    """``BLEU.tokenize``; rows hold ``sys_len`` and, with one reference, ``ref_len``."""
    tokenize = metric.config.tokenize
    return TokenUnit(
        f"{metric.name} tokens (tok:{tokenize})",
        metric.tokenize,
        splits_cjk=tokenize in CJK_SPLITTING,
        ref_column="ref_len",
        hyp_column="sys_len",
    )
