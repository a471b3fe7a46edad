"""The evidence behind a metric's errors, as data the app can link to: the system pairs it orders against the
humans, and the segment pairs (two systems' outputs of one segment) behind its segment-level errors."""

from __future__ import annotations

import numpy as np

from metrics.meta.data import MetaInput
from metrics.meta.results import Grouping, PairOutcome, SegmentPairError, SystemPairError
from metrics.meta.segment import segment_pairs
from metrics.meta.system import interval, resampled_system_scores


def _outcome(human_diff: np.ndarray, metric_diff: np.ndarray, epsilon: float) -> np.ndarray:
    """Per pair: the :class:`PairOutcome` index (0 discordant, 1 false tie, 2 missed tie) or -1 when right."""
    htie = human_diff == 0.0
    mtie = np.abs(metric_diff) <= epsilon
    out = np.full(human_diff.shape, -1)
    out[~htie & ~mtie & (np.sign(human_diff) != np.sign(metric_diff))] = 0
    out[~htie & mtie] = 1
    out[htie & ~mtie] = 2
    return out


_OUTCOMES = (PairOutcome.DISCORDANT, PairOutcome.FALSE_TIE, PairOutcome.MISSED_TIE)


def system_pair_errors(
    data: MetaInput,
    metric: str,
    human_p: np.ndarray,
    metric_p: np.ndarray,
    counts: np.ndarray,
    confidence: float = 0.95,
) -> tuple[SystemPairError, ...]:
    """Every system pair whose order by ``metric``'s system scores differs from the humans' (a reversal, a tie the
    humans do not have, or a human tie the metric breaks), largest human delta first. ``human_p``/``metric_p``: the
    SPA p-value matrices (over all systems, in input order); ``counts``: bootstrap segment counts (resamples ×
    segments) for the delta intervals."""
    h = data.human_system_scores()
    m = data.metric_system_scores(metric)
    hs = resampled_system_scores(data, None, counts)
    ms = resampled_system_scores(data, metric, counts)
    out = []
    i, j = np.triu_indices(len(data.systems), 1)
    keep = ~np.isnan(h[i]) & ~np.isnan(h[j])
    i, j = i[keep], j[keep]
    kinds = _outcome(h[i] - h[j], m[i] - m[j], 0.0)
    for a, b, kind in zip(i.tolist(), j.tolist(), kinds.tolist(), strict=True):
        if kind < 0:
            continue
        # orient by the humans: ``better`` first; p-values are stored for the input order (row < column)
        better, worse, p_h, p_m = (a, b, human_p[a, b], metric_p[a, b])
        if h[b] > h[a]:
            better, worse = b, a
            p_h, p_m = 1.0 - human_p[a, b], 1.0 - metric_p[a, b]
        out.append(
            SystemPairError(
                data.systems[better],
                data.systems[worse],
                _OUTCOMES[kind],
                float(h[better] - h[worse]),
                interval(hs[:, better] - hs[:, worse], confidence),
                float(m[better] - m[worse]),
                interval(ms[:, better] - ms[:, worse], confidence),
                float(p_h),
                float(p_m),
            )
        )
    return tuple(sorted(out, key=lambda e: (-e.human_delta, e.better, e.worse)))


def segment_pair_errors(
    data: MetaInput, metric: str, threshold: float, limit: int = 200
) -> tuple[tuple[SegmentPairError, ...], int]:
    """The segment pairs (two systems on one item) the metric gets wrong at tie threshold ``threshold`` (the acc_eq
    calibration's): discordant pairs, pairs it ties that the humans order, pairs the humans tie that it orders.
    Returns the ``limit`` with the largest human difference (then segment, systems) and the number of all of them."""
    pairs = segment_pairs(data.human, Grouping.ITEM, data.items)
    h = data.human.ravel()
    m = data.metrics[metric].ravel()
    kinds = _outcome(h[pairs.a] - h[pairs.b], m[pairs.a] - m[pairs.b], threshold)
    wrong = np.flatnonzero(kinds >= 0)
    weight = np.abs(h[pairs.a[wrong]] - h[pairs.b[wrong]])
    n_seg = data.n_segments
    seg = pairs.a[wrong] % n_seg
    chosen = wrong[np.lexsort((pairs.b[wrong], pairs.a[wrong], seg, -weight))[:limit]]
    out = []
    for p in chosen.tolist():
        a, b = int(pairs.a[p]), int(pairs.b[p])
        out.append(
            SegmentPairError(
                a % n_seg,
                data.systems[a // n_seg],
                data.systems[b // n_seg],
                _OUTCOMES[int(kinds[p])],
                float(h[a]),
                float(h[b]),
                float(m[a]),
                float(m[b]),
                float(abs(h[a] - h[b])),
                None if a % n_seg == b % n_seg else b % n_seg,
            )
        )
    return tuple(out), int(wrong.size)
