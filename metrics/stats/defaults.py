"""The statistics' default settings, in a module that imports nothing: the command line's parsers state them
without importing the statistics themselves (their records, NumPy resampling code and the ``statistics`` module
cost a run that asks for none of them a tenth of its start-up)."""

from __future__ import annotations

from typing import Literal

DEFAULT_SEED = 12345  # sacrebleu's, when $SACREBLEU_SEED is not set
Arithmetic = Literal["sacrebleu", "float64"]
ARITHMETICS: tuple[str, ...] = ("sacrebleu", "float64")
DEFAULT_SAMPLES: dict[str, int] = {"bs": 1000, "ar": 10000}  # sacrebleu's --paired-bs-n / --paired-ar-n
DEFAULT_ALPHA = 0.05
DEFAULT_CONFIDENCE = 0.95  # rouge-score's BootstrapAggregator
