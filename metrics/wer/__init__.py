"""WER and CER as jiwer computes them."""

from metrics.core.registry import register
from metrics.wer.metric import CER, WER

register(WER, "wer", label="WER (jiwer)", rank=90)
register(CER, "cer", label="CER (jiwer)", rank=90)

__all__ = ["CER", "WER"]
