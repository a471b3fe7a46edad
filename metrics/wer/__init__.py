"""WER and CER as jiwer computes them."""

from metrics.core.registry import register

register("metrics.wer.metric:WER", "wer", label="WER (jiwer)", rank=90)
register("metrics.wer.metric:CER", "cer", label="CER (jiwer)", rank=90)
