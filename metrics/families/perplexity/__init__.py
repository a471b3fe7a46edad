"""Perplexity under an n-gram model of the references (nltk.lm) or a local causal language model."""

from metrics.core.family import EVERY_SCRIPT, Extra, Family, MetricDeclaration

FAMILY = Family(
    name="perplexity",
    title="Perplexity",
    rank=97,
    metrics=(
        MetricDeclaration(
            "perplexity",
            "metrics.families.perplexity.metric:Perplexity",
            "Perplexity (n-gram / causal LM)",
            namespace="perplexity",
            token_unit=None,
        ),
    ),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(Extra.NEURAL,),  # the causal language model
    no_lesson={
        "metrics.families.perplexity.metric:PerplexityExplanation": "no lesson written yet; the Segment page shows "
        "each token's surprisal"
    },
    text=EVERY_SCRIPT,
)
