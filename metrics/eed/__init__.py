"""EED, the extended edit distance (Stanchev et al. 2019), implemented from its behaviour."""

from metrics.core.registry import register
from metrics.eed.metric import EED

register(EED, "eed", label="EED", rank=80)

__all__ = ["EED"]
