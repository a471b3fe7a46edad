"""chrF and chrF++ as sacrebleu computes them (Popović 2015, 2017)."""

from metrics.chrf.metric import CHRF
from metrics.core.registry import register

register(CHRF, "chrf", label="chrF (sacrebleu)", rank=20)
register(CHRF, "chrf++", family="chrf", preset={"word_order": 2}, label="chrF++ (sacrebleu)", rank=20)

__all__ = ["CHRF"]
