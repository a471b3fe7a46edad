"""chrF and chrF++ as sacrebleu computes them (Popović 2015, 2017)."""

from metrics.core.registry import register

register("metrics.families.chrf.metric:CHRF", "chrf", label="chrF (sacrebleu)", rank=20)
register(
    "metrics.families.chrf.metric:CHRF",
    "chrf++",
    family="chrf",
    preset={"word_order": 2},
    label="chrF++ (sacrebleu)",
    rank=20,
)
