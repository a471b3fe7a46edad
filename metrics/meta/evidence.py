"""The evidence behind a metric's errors, as data the app can link to: the system pairs it orders against the
humans, and the segment pairs (two systems' outputs of one segment) behind its segment-level errors."""

from __future__ import annotations

import numpy as np

from metrics.meta.data import MetaInput
from metrics.meta.results import DEFAULT_SETTINGS, MetaSettings, SegmentPairError, SystemPairError


def system_pair_errors(
    data: MetaInput,
    metric: str,
    human_p: np.ndarray,
    metric_p: np.ndarray,
    resamples: np.ndarray,
    settings: MetaSettings = DEFAULT_SETTINGS,
) -> tuple[SystemPairError, ...]:
    """Every system pair whose order by ``metric``'s system scores differs from the humans' (a reversal, a tie the
    humans do not have, or a human tie the metric breaks), largest human delta first. ``human_p``/``metric_p``: the
    SPA p-value matrices; ``resamples``: bootstrap segment counts (resamples × segments) for the delta intervals."""
    raise NotImplementedError


def segment_pair_errors(
    data: MetaInput, metric: str, threshold: float, limit: int = 200
) -> tuple[tuple[SegmentPairError, ...], int]:
    """The segment pairs the metric gets wrong at tie threshold ``threshold`` (the acc_eq calibration's): discordant
    pairs, pairs it ties that the humans order, pairs the humans tie that it orders. Returns the ``limit`` with the
    largest human difference (then segment, systems) and the number of all of them."""
    raise NotImplementedError
