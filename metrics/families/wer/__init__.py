"""WER and CER as jiwer computes them, and jiwer's word measures MER, WIL and WIP from the same counts."""

from metrics.core.registry import register

register("metrics.families.wer.metric:WER", "wer", label="WER (jiwer)", rank=90)
register("metrics.families.wer.metric:CER", "cer", label="CER (jiwer)", rank=90)
register("metrics.families.wer.metric:MER", "mer", label="MER (jiwer)", family="wer", rank=90)
register("metrics.families.wer.metric:WIL", "wil", label="WIL (jiwer)", family="wer", rank=90)
register("metrics.families.wer.metric:WIP", "wip", label="WIP (jiwer)", family="wer", rank=90)
