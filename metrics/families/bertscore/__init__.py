"""BERTScore as bert-score 0.3.13 computes it, on a local model (the ``neural`` extra: torch, transformers)."""

from metrics.core.extras import NEURAL
from metrics.core.family import EVERY_SCRIPT, Extra, Family, MetricDeclaration

FAMILY = Family(
    name="bertscore",
    title="BERTScore",
    rank=95,
    metrics=(
        MetricDeclaration(
            "bertscore",
            "metrics.families.bertscore.metric:BERTScore",
            "BERTScore (bert-score)",
            namespace="bertscore",
            token_unit=None,
            requires=(NEURAL,),
        ),
    ),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(Extra.NEURAL,),
    no_lesson={},
    text=EVERY_SCRIPT,
)
