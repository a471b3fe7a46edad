"""BERTScore as bert-score 0.3.13 computes it, on a local model (the ``neural`` extra: torch, transformers)."""

from metrics.core.extras import NEURAL
from metrics.core.registry import register

register(
    "metrics.families.bertscore.metric:BERTScore",
    "bertscore",
    label="BERTScore (bert-score)",
    requires=(NEURAL,),
    rank=95,
)
