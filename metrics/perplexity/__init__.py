"""Perplexity under an n-gram model of the references (nltk.lm) or a local causal language model."""

from metrics.core.registry import register
from metrics.perplexity.metric import Perplexity, PerplexityExplanation

register(Perplexity, "perplexity", label="Perplexity (n-gram / causal LM)", rank=97)

__all__ = ["Perplexity", "PerplexityExplanation"]
