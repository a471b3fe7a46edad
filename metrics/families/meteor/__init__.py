"""METEOR as nltk computes it (Banerjee and Lavie 2005), with an offline WordNet 3.0 index."""

from metrics.core.family import Family, KernelCase, MetricDeclaration, Task, TaskUse, TextSupport

FAMILY = Family(
    name="meteor",
    title="METEOR",
    rank=50,
    metrics=(
        MetricDeclaration(
            "meteor",
            "metrics.families.meteor.metric:Meteor",
            "METEOR (nltk)",
            namespace="meteor",
            token_unit="metrics.families.meteor.units:token_unit",
        ),
    ),
    language_options={},
    tasks=(TaskUse(Task.CAPTIONING, ("meteor",), order=3),),
    agreement_fits={},
    kernels=("porter",),
    kernel_cases=(KernelCase("meteor", {}, ("wmt22-de-en",)),),
    extras=(),
    no_lesson={},
    text=TextSupport(drops=None, keeps_all=None, english_only="stemmer (Porter) and synonyms (WordNet 3.0)"),
)
