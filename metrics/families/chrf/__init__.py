"""chrF and chrF++ as sacrebleu computes them (Popović 2015, 2017).

A Chinese, Japanese or Korean target changes nothing: chrF scores characters already (as ``sacrebleu -l`` leaves it).
"""

from metrics.core.family import EVERY_SCRIPT, AgreementFit, Family, KernelCase, MetricDeclaration, Task, TaskUse

_UNIT = "metrics.families.chrf.units:token_unit"

FAMILY = Family(
    name="chrf",
    title="chrF",
    rank=20,
    metrics=(
        MetricDeclaration(
            "chrf", "metrics.families.chrf.metric:CHRF", "chrF (sacrebleu)", namespace="chrf", token_unit=_UNIT
        ),
        MetricDeclaration(
            "chrf++",
            "metrics.families.chrf.metric:CHRF",
            "chrF++ (sacrebleu)",
            namespace="chrf",
            token_unit=_UNIT,
            preset={"word_order": 2},
        ),
    ),
    language_options={},
    tasks=(TaskUse(Task.TRANSLATION, ("chrf",), order=2),),
    agreement_fits={"chrf": AgreementFit("chrf", free=())},
    kernels=("ngrams",),
    kernel_cases=(
        KernelCase("chrf", {}, ("wmt22-de-en", "wmt22-en-zh", "wmt22-en-ja", "cnndm")),
        KernelCase("chrf++", {}, ("wmt22-de-en", "ted")),
        KernelCase("chrf", {"lowercase": True, "whitespace": True, "word_order": 3}, ("wmt22-de-en",)),
    ),
    extras=(),
    no_lesson={},
    text=EVERY_SCRIPT,
)
