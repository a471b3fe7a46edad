"""The COMET family (unbabel-comet 2.2.7's estimators: COMET-22, CometKiwi, xCOMET) computed on torch and
transformers from a checkpoint the user names (the ``neural`` extra)."""

from metrics.core.extras import NEURAL
from metrics.core.family import EVERY_SCRIPT, Extra, Family, MetricDeclaration

FAMILY = Family(
    name="comet",
    title="COMET",
    rank=96,
    metrics=(
        MetricDeclaration(
            "comet",
            "metrics.families.comet.metric:COMET",
            "COMET (unbabel-comet)",
            namespace="comet",
            token_unit=None,
            requires=(NEURAL,),
        ),
        MetricDeclaration(
            "cometkiwi",
            "metrics.families.comet.metric:CometKiwi",
            "CometKiwi, reference-free (unbabel-comet)",
            namespace="cometkiwi",
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
