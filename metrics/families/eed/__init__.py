"""EED, the extended edit distance (Stanchev et al. 2019), implemented from its behaviour."""

from metrics.core.family import EVERY_SCRIPT, Family, MetricDeclaration

FAMILY = Family(
    name="eed",
    title="EED",
    rank=80,
    metrics=(MetricDeclaration("eed", "metrics.families.eed.metric:EED", "EED", namespace="eed", token_unit=None),),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(),
    no_lesson={
        "metrics.families.eed.metric:EEDExplanation": "no lesson written yet; the Segment page shows its alignment grid"
    },
    text=EVERY_SCRIPT,
)
