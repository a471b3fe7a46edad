"""BLEU: sacrebleu's (the WMT standard), nltk's ``corpus_bleu`` and Google's ``compute_bleu``."""

from metrics.bleu.metric import BLEU
from metrics.bleu.variants import GoogleBLEU, NltkBLEU
from metrics.core.registry import register

register(BLEU, "bleu", label="BLEU (sacrebleu)", rank=10)
register(NltkBLEU, "bleu-nltk", label="BLEU (nltk corpus_bleu)", rank=10)
register(GoogleBLEU, "bleu-google", label="BLEU (Google/TensorFlow)", rank=10)

__all__ = ["BLEU", "GoogleBLEU", "NltkBLEU"]
