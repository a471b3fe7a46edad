"""BLEU: sacrebleu's (the WMT standard), nltk's ``corpus_bleu`` and Google's ``compute_bleu``.

A Chinese, Japanese or Korean target changes BLEU's tokenizer as sacrebleu 2.6.0's command line does
(``sacrebleu -l SRC-TRG``, ``BLEU._TOKENIZER_MAP``: ``zh`` → ``zh``, ``ja`` → ``ja-mecab``, ``ko`` → ``ko-mecab``).
Without MeCab, Japanese BLEU tokenizes characters (``char``) and Korean BLEU keeps ``13a`` (space-separated words,
as sacrebleu scored Korean before ``ko-mecab``), visibly.
"""

from metrics.core.family import (
    EVERY_SCRIPT,
    AgreementFit,
    Extra,
    Family,
    KernelCase,
    Language,
    LanguageOption,
    MetricDeclaration,
    Task,
    TaskUse,
)

_UNIT = "metrics.families.bleu.units:token_unit"
_TOKENIZER = {
    Language.CHINESE: ("zh", None),
    Language.JAPANESE: ("ja-mecab", "char"),
    Language.KOREAN: ("ko-mecab", "13a"),
}

FAMILY = Family(
    name="bleu",
    title="BLEU",
    rank=10,
    metrics=(
        MetricDeclaration(
            "bleu", "metrics.families.bleu.metric:BLEU", "BLEU (sacrebleu)", namespace="bleu", token_unit=_UNIT
        ),
        MetricDeclaration(
            "bleu-nltk",
            "metrics.families.bleu.variants:NltkBLEU",
            "BLEU (nltk corpus_bleu)",
            namespace="bleu-nltk",
            token_unit=None,  # nltk scores the whitespace words it is given
        ),
        MetricDeclaration(
            "bleu-google",
            "metrics.families.bleu.variants:GoogleBLEU",
            "BLEU (Google/TensorFlow)",
            namespace="bleu-google",
            token_unit=_UNIT,
        ),
    ),
    language_options={
        language: (
            LanguageOption("bleu", "tokenize", value, f"sacrebleu's choice for -l xx-{language.value}", instead),
        )
        for language, (value, instead) in _TOKENIZER.items()
    },
    tasks=(TaskUse(Task.TRANSLATION, ("bleu",), order=1), TaskUse(Task.CAPTIONING, ("bleu",), order=2)),
    agreement_fits={"bleu": AgreementFit("bleu", free=("tokenize",))},
    kernels=("ngrams", "tokenize"),
    kernel_cases=(
        KernelCase("bleu", {}, ("wmt22-de-en", "wmt22-en-ja", "ted")),
        KernelCase("bleu", {"tokenize": "zh"}, ("wmt22-en-zh",)),
        KernelCase("bleu", {"lowercase": True, "max_ngram_order": 6}, ("wmt22-de-en",)),
        KernelCase("bleu-nltk", {}, ("wmt22-de-en", "ted")),
        KernelCase("bleu-nltk", {"max_ngram_order": 7, "smoothing": 5}, ("ted",)),
    ),
    extras=(Extra.JAPANESE, Extra.KOREAN),
    no_lesson={
        "metrics.families.bleu.variants:GoogleBLEUExplanation": "the BLEU lesson derives sacrebleu's sentence BLEU; "
        "Google's compute_bleu has no smoothing or effective order",
        "metrics.families.bleu.variants:NltkBLEUExplanation": "nltk's BLEU keeps only counts per order, no n-gram "
        "evidence to derive from",
    },
    text=EVERY_SCRIPT,
)
