"""CharacTER (Wang et al. 2016), implemented from its behaviour."""

from metrics.core.family import EVERY_SCRIPT, Family, MetricDeclaration

FAMILY = Family(
    name="character",
    title="CharacTER",
    rank=70,
    metrics=(
        MetricDeclaration(
            "characTER",
            "metrics.families.character.metric:CharacTER",
            "CharacTER",
            namespace="characTER",
            token_unit=None,
        ),
    ),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(),
    no_lesson={
        "metrics.families.character.metric:CharacTERExplanation": "no lesson written yet; the Segment page shows its "
        "shifts and character alignment"
    },
    text=EVERY_SCRIPT,
)
