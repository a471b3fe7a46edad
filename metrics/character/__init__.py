"""CharacTER (Wang et al. 2016), implemented from its behaviour."""

from metrics.character.metric import CharacTER
from metrics.core.registry import register

register(CharacTER, "characTER", label="CharacTER", rank=70)

__all__ = ["CharacTER"]
