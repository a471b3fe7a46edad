"""The input of a meta-evaluation: human and metric scores as (systems × segments) matrices.

``human[s, i]`` is the human score of system ``s`` on segment ``i`` (NaN: not rated); ``metrics[name][s, i]`` the
metric's score (finite everywhere). ``system_scores[name][s]`` is a metric's own corpus score where it has one that
is not the mean of its segment scores (BLEU, chrF); without, a metric's system score is the mean of its segment
scores over every segment of the input (as WMT's metric files hold them: over all segments, rated or not), and the
humans' is the mean over the rated segments. ``items[i]`` groups segments into items for the by-item statistics
(default: every segment its own item, as WMT's segment level).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from metrics.stats.human import HumanScores


def _frozen(values: np.ndarray) -> np.ndarray:
    out = np.array(values, dtype=np.float64, copy=True)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class MetaInput:
    """Scores of ``systems`` (rows) on ``n_segments`` segments (columns); see the module docstring."""

    systems: tuple[str, ...]
    human: np.ndarray
    metrics: Mapping[str, np.ndarray]
    system_scores: Mapping[str, np.ndarray] = field(default_factory=dict)
    items: np.ndarray | None = None

    def __post_init__(self) -> None:
        shape = (len(self.systems), self.human.shape[-1] if self.human.ndim == 2 else -1)
        if self.human.ndim != 2 or self.human.shape[0] != len(self.systems):
            raise ValueError(
                f"human scores must be systems × segments, {len(self.systems)} rows; got {self.human.shape}"
            )
        if len(set(self.systems)) != len(self.systems):
            raise ValueError("system names are not unique")
        if len(self.systems) < 2:
            raise ValueError("a meta-evaluation needs at least two systems")
        if not self.metrics:
            raise ValueError("no metric scores")
        for name, values in self.metrics.items():
            if values.shape != shape:
                raise ValueError(f"metric {name!r}: scores of shape {values.shape}, expected {shape}")
            if not np.isfinite(values).all():
                raise ValueError(f"metric {name!r}: every segment score must be finite")
        for name, values in self.system_scores.items():
            if name not in self.metrics:
                raise ValueError(f"system scores for {name!r}, which has no segment scores")
            if values.shape != (len(self.systems),) or not np.isfinite(values).all():
                raise ValueError(f"metric {name!r}: system scores must be {len(self.systems)} finite numbers")
        if np.isinf(self.human).any():
            raise ValueError("human scores must be finite or NaN")
        if self.items is not None and self.items.shape != (shape[1],):
            raise ValueError(f"items: {self.items.shape} entries for {shape[1]} segments")
        object.__setattr__(self, "human", _frozen(self.human))
        object.__setattr__(self, "metrics", {k: _frozen(v) for k, v in self.metrics.items()})
        object.__setattr__(self, "system_scores", {k: _frozen(v) for k, v in self.system_scores.items()})
        if self.items is not None:
            items = np.unique(self.items, return_inverse=True)[1].astype(np.intp)
            items.setflags(write=False)
            object.__setattr__(self, "items", items)

    @property
    def n_segments(self) -> int:
        return int(self.human.shape[1])

    @property
    def item_ids(self) -> np.ndarray:
        """The item (0-based, dense) of every segment."""
        return self.items if self.items is not None else np.arange(self.n_segments)

    def metric_system_scores(self, metric: str) -> np.ndarray:
        """The metric's system scores: its own (``system_scores``) or the mean of its segment scores."""
        own = self.system_scores.get(metric)
        return own if own is not None else self.metrics[metric].mean(axis=1)

    def human_system_scores(self) -> np.ndarray:
        """The humans' system scores: the mean over each system's rated segments (NaN for a system with none)."""
        rated = ~np.isnan(self.human)
        total = np.where(rated, self.human, 0.0).sum(axis=1)
        count = rated.sum(axis=1)
        return np.divide(total, count, out=np.full(len(self.systems), np.nan), where=count > 0)

    def subset(
        self, segments: Sequence[int] | np.ndarray, system_scores: Mapping[str, np.ndarray] | None = None
    ) -> MetaInput:
        """The input restricted to ``segments`` (a bucket, a slice, a domain). Corpus scores do not restrict to
        segments, so the metrics' own system scores are dropped unless ``system_scores`` gives them for the subset
        (WMT's per-domain score files)."""
        index = np.asarray(segments, dtype=np.intp)
        if index.ndim != 1 or index.size == 0 or index.min() < 0 or index.max() >= self.n_segments:
            raise ValueError("segments must be a non-empty list of segment indices of the input")
        return MetaInput(
            self.systems,
            self.human[:, index],
            {k: v[:, index] for k, v in self.metrics.items()},
            dict(system_scores or {}),
            None if self.items is None else self.items[index],
        )


def meta_input(
    human: HumanScores,
    metrics: Mapping[str, Mapping[str, Sequence[float] | np.ndarray]],
    system_scores: Mapping[str, Mapping[str, float]] | None = None,
    items: Sequence[object] | None = None,
    systems: Sequence[str] | None = None,
) -> MetaInput:
    """Build a :class:`MetaInput` from scores keyed by system name. ``systems`` (default: the systems with at least
    one human score, in the human scores' order) must each have scores from every metric. ``items``: an item label
    per segment (e.g. a document id) for the by-item statistics."""
    names = tuple(systems) if systems is not None else tuple(s for s in human.systems if len(human.judged(s)))
    for s in names:
        if s not in human.scores:
            raise ValueError(f"system {s!r} has no human scores")
        for metric, rows in metrics.items():
            if s not in rows:
                raise ValueError(f"metric {metric!r} has no scores for system {s!r}")
    own = {metric: np.array([float(values[s]) for s in names]) for metric, values in (system_scores or {}).items()}
    return MetaInput(
        names,
        np.array([human.scores[s] for s in names], dtype=np.float64),
        {metric: np.array([np.asarray(rows[s], dtype=np.float64) for s in names]) for metric, rows in metrics.items()},
        own,
        None if items is None else np.unique(np.asarray([str(i) for i in items]), return_inverse=True)[1],
    )
