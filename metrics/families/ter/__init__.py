"""TER as sacrebleu computes it (Snover et al. 2006), with every shift and edit kept.

sacrebleu's ``-l`` leaves TER at ``asian:no``, and its ``--ter-asian-support`` alone changes nothing: TER's tokenizer
splits CJK characters only when ``--ter-normalized`` is also given. Without both, an unsegmented Chinese or Japanese
sentence is one or a few "words" and TER counts whole clauses as single edits; so for Chinese and Japanese targets
both are set (``sacrebleu --ter-normalized --ter-asian-support`` reproduces it), which the signature states
(``norm:yes|asian:yes``). Korean separates words with spaces and TER's Asian ranges do not cover Hangul, so TER is
left as it is there.
"""

from metrics.core.family import (
    EVERY_SCRIPT,
    Family,
    KernelCase,
    Language,
    LanguageOption,
    MetricDeclaration,
    Task,
    TaskUse,
)

_CJK = "TER splits CJK characters: sacrebleu --ter-normalized --ter-asian-support"
_SPLIT_CJK = (LanguageOption("ter", "normalized", True, _CJK), LanguageOption("ter", "asian_support", True, _CJK))

FAMILY = Family(
    name="ter",
    title="TER",
    rank=60,
    metrics=(
        MetricDeclaration(
            "ter",
            "metrics.families.ter.metric:TER",
            "TER (sacrebleu)",
            namespace="ter",
            token_unit="metrics.families.ter.units:token_unit",
        ),
    ),
    language_options={Language.CHINESE: _SPLIT_CJK, Language.JAPANESE: _SPLIT_CJK},
    tasks=(TaskUse(Task.TRANSLATION, ("ter",), order=3),),
    agreement_fits={},
    kernels=("ter",),
    kernel_cases=(
        KernelCase("ter", {}, ("wmt22-de-en", "ted")),
        KernelCase("ter", {"normalized": True, "asian_support": True}, ("wmt22-en-zh",)),
        KernelCase("ter", {"case_sensitive": True, "no_punct": True}, ("wmt22-de-en",)),
    ),
    extras=(),
    no_lesson={},
    text=EVERY_SCRIPT,
)
