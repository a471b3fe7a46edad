"""CIDEr-D as pycocoevalcap computes it (Vedantam et al. 2015)."""

from metrics.core.registry import register

register("metrics.families.cider.metric:CiderD", "cider", label="CIDEr-D (pycocoevalcap)", rank=40)
