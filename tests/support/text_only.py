"""Contracts that score text alone (outputs and references) do not apply to a metric that reads each segment's
source: the COMET family, whose rows need the source stream and a model (``tests/parity/comet`` covers them)."""

from __future__ import annotations

import pytest

from metrics.core.base import ReadsSource
from metrics.core.registry import SPECS


def reads_source(metric_id: str) -> bool:
    return issubclass(SPECS[metric_id].cls, ReadsSource)


def skip_if_reads_source(metric_id: str) -> None:
    if reads_source(metric_id):
        pytest.skip(f"{metric_id} reads the source and needs a model: tests/parity/comet")
