"""TER as sacrebleu computes it (Snover et al. 2006), with every shift and edit kept."""

from metrics.core.registry import register

register("metrics.families.ter.metric:TER", "ter", label="TER (sacrebleu)", rank=60)
