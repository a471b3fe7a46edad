"""EED, the extended edit distance (Stanchev et al. 2019), implemented from its behaviour."""

from metrics.core.registry import register

register("metrics.families.eed.metric:EED", "eed", label="EED", rank=80)
