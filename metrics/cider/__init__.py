"""CIDEr-D as pycocoevalcap computes it (Vedantam et al. 2015)."""

from metrics.cider.metric import CiderD
from metrics.core.registry import register

register(CiderD, "cider", label="CIDEr-D (pycocoevalcap)", rank=40)

__all__ = ["CiderD"]
