"""WER and CER as jiwer computes them, and jiwer's word measures MER, WIL and WIP from the same counts."""

from metrics.core.registry import register
from metrics.wer.metric import CER, MER, WER, WIL, WIP

register(WER, "wer", label="WER (jiwer)", rank=90)
register(CER, "cer", label="CER (jiwer)", rank=90)
register(MER, "mer", label="MER (jiwer)", family="wer", rank=90)
register(WIL, "wil", label="WIL (jiwer)", family="wer", rank=90)
register(WIP, "wip", label="WIP (jiwer)", family="wer", rank=90)

__all__ = ["CER", "MER", "WER", "WIL", "WIP"]
