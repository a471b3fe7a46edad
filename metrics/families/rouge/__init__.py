"""ROUGE-N, ROUGE-L and ROUGE-Lsum as rouge-score computes them (Lin 2004)."""

from metrics.core.family import Family, KernelCase, MetricDeclaration, Task, TaskUse, TextSupport

_UNIT = "metrics.families.rouge.units:token_unit"
_ROUGE_N = "metrics.families.rouge.metric:RougeN"
_DROPS = "metrics.families.rouge.tokenize:discarded"

FAMILY = Family(
    name="rouge",
    title="ROUGE-1/2/L/Lsum",
    rank=30,
    metrics=(
        MetricDeclaration(
            "rouge1", _ROUGE_N, "ROUGE-1 (rouge-score)", namespace="rouge", token_unit=_UNIT, preset={"n": 1}
        ),
        MetricDeclaration(
            "rouge2", _ROUGE_N, "ROUGE-2 (rouge-score)", namespace="rouge", token_unit=_UNIT, preset={"n": 2}
        ),
        MetricDeclaration(
            "rougeL",
            "metrics.families.rouge.metric:RougeL",
            "ROUGE-L (rouge-score)",
            namespace="rouge",
            token_unit=_UNIT,
        ),
        MetricDeclaration(
            "rougeLsum",
            "metrics.families.rouge.metric:RougeLsum",
            "ROUGE-Lsum (rouge-score)",
            namespace="rouge",
            token_unit=_UNIT,
        ),
    ),
    language_options={},
    tasks=(TaskUse(Task.SUMMARIZATION, ("rouge1", "rouge2", "rougeL", "rougeLsum"), order=1),),
    agreement_fits={},
    kernels=("porter", "rouge"),
    kernel_cases=(
        KernelCase("rouge1", {}, ("cnndm", "wmt22-de-en")),
        KernelCase("rouge2", {"stemmer": True}, ("cnndm",)),
        KernelCase("rougeL", {}, ("cnndm", "ted")),
        KernelCase("rougeLsum", {}, ("cnndm",)),
        KernelCase("rougeLsum", {"stemmer": True, "tokenizer": "unicode"}, ("cnndm", "wmt22-en-zh")),
        KernelCase("rougeLsum", {"split": "rules", "tokenizer": "unicode"}, ("cnndm", "wmt22-en-zh")),
    ),
    extras=(),
    no_lesson={},
    text=TextSupport(drops=_DROPS, keeps_all=("tokenizer", "unicode"), english_only=""),
)
