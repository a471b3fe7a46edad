"""CharacTER (Wang et al. 2016), implemented from its behaviour."""

from metrics.core.registry import register

register("metrics.families.character.metric:CharacTER", "characTER", label="CharacTER", rank=70)
