"""Perplexity under an n-gram model of the references (nltk.lm) or a local causal language model."""

from metrics.core.registry import register

register(
    "metrics.families.perplexity.metric:Perplexity", "perplexity", label="Perplexity (n-gram / causal LM)", rank=97
)
