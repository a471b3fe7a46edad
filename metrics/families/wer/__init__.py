"""WER and CER as jiwer computes them, and jiwer's word measures MER, WIL and WIP from the same counts."""

from metrics.core.family import EVERY_SCRIPT, Family, MetricDeclaration

_METRIC = "metrics.families.wer.metric"
_UNIT = "metrics.families.wer.units:token_unit"

FAMILY = Family(
    name="wer",
    title="WER",
    rank=90,
    metrics=(
        MetricDeclaration("wer", f"{_METRIC}:WER", "WER (jiwer)", namespace="wer", token_unit=_UNIT),
        MetricDeclaration("cer", f"{_METRIC}:CER", "CER (jiwer)", namespace="cer", token_unit=_UNIT),
        MetricDeclaration("mer", f"{_METRIC}:MER", "MER (jiwer)", namespace="wer", token_unit=_UNIT),
        MetricDeclaration("wil", f"{_METRIC}:WIL", "WIL (jiwer)", namespace="wer", token_unit=_UNIT),
        MetricDeclaration("wip", f"{_METRIC}:WIP", "WIP (jiwer)", namespace="wer", token_unit=_UNIT),
    ),
    language_options={},
    tasks=(),
    agreement_fits={},
    kernels=(),
    kernel_cases=(),
    extras=(),
    no_lesson={
        f"{_METRIC}:ErrorRateExplanation": "one edit distance over the reference length; the Segment page shows the "
        "alignment",
        f"{_METRIC}:WordMeasureExplanation": "one formula over WER's hit and edit counts; the Segment page shows it "
        "and the alignment",
    },
    text=EVERY_SCRIPT,
)
