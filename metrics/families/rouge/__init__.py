"""ROUGE-N, ROUGE-L and ROUGE-Lsum as rouge-score computes them (Lin 2004)."""

from metrics.core.registry import register

register(
    "metrics.families.rouge.metric:RougeN",
    "rouge1",
    family="rouge",
    preset={"n": 1},
    label="ROUGE-1 (rouge-score)",
    rank=30,
)
register(
    "metrics.families.rouge.metric:RougeN",
    "rouge2",
    family="rouge",
    preset={"n": 2},
    label="ROUGE-2 (rouge-score)",
    rank=30,
)
register("metrics.families.rouge.metric:RougeL", "rougeL", family="rouge", label="ROUGE-L (rouge-score)", rank=30)
register(
    "metrics.families.rouge.metric:RougeLsum", "rougeLsum", family="rouge", label="ROUGE-Lsum (rouge-score)", rank=30
)
