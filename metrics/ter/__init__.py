"""TER as sacrebleu computes it (Snover et al. 2006), with every shift and edit kept."""

from metrics.core.registry import register
from metrics.ter.metric import TER

register(TER, "ter", label="TER (sacrebleu)", rank=60)

__all__ = ["TER"]
