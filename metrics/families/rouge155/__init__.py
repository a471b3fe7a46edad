"""ROUGE-W, ROUGE-S and ROUGE-SU as ROUGE-1.5.5.pl computes them; options share the ``rouge`` namespace.

:mod:`~metrics.families.rouge155.config` holds their options (the shared :class:`~metrics.families.rouge155.config.Rouge155Config`
and each one's own), :mod:`~metrics.families.rouge155.base` what the three share in scoring (pooling of references,
statistics, the perl report), :mod:`~metrics.families.rouge155.skip_bigram` ROUGE-S/SU and
:mod:`~metrics.families.rouge155.weighted_lcs` ROUGE-W.
"""

from metrics.core.family import Family, MetricDeclaration, TextSupport

_SKIP = "metrics.families.rouge155.skip_bigram"

FAMILY = Family(
    name="rouge155",
    title="ROUGE-W/S/SU",
    rank=35,
    metrics=(
        MetricDeclaration(
            "rougeW",
            "metrics.families.rouge155.weighted_lcs:RougeW",
            "ROUGE-W-1.2 (ROUGE-1.5.5)",
            namespace="rouge",
            token_unit=None,
        ),
        MetricDeclaration("rougeS", f"{_SKIP}:RougeS", "ROUGE-S (ROUGE-1.5.5)", namespace="rouge", token_unit=None),
        MetricDeclaration("rougeSU", f"{_SKIP}:RougeSU", "ROUGE-SU (ROUGE-1.5.5)", namespace="rouge", token_unit=None),
    ),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(),
    no_lesson={},
    text=TextSupport(
        drops="metrics.families.rouge.tokenize:discarded", keeps_all=("tokenizer", "unicode"), english_only=""
    ),
)
