"""CIDEr-D as pycocoevalcap computes it (Vedantam et al. 2015)."""

from metrics.core.family import EVERY_SCRIPT, Family, MetricDeclaration, Task, TaskUse

FAMILY = Family(
    name="cider",
    title="CIDEr-D",
    rank=40,
    metrics=(
        MetricDeclaration(
            "cider",
            "metrics.families.cider.metric:CiderD",
            "CIDEr-D (pycocoevalcap)",
            namespace="cider",
            token_unit=None,
        ),
    ),
    language_options={},
    tasks=(TaskUse(Task.CAPTIONING, ("cider",), order=1),),  # built for many references of one image
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(),
    no_lesson={},
    text=EVERY_SCRIPT,
)
