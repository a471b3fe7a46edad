"""BLEU: sacrebleu's (the WMT standard), nltk's ``corpus_bleu`` and Google's ``compute_bleu``."""

from metrics.core.registry import register

register("metrics.families.bleu.metric:BLEU", "bleu", label="BLEU (sacrebleu)", rank=10)
register("metrics.families.bleu.variants:NltkBLEU", "bleu-nltk", label="BLEU (nltk corpus_bleu)", rank=10)
register("metrics.families.bleu.variants:GoogleBLEU", "bleu-google", label="BLEU (Google/TensorFlow)", rank=10)
