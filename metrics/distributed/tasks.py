"""What runs on a worker: counting lines (:func:`metrics.distributed.lines.count_block`), summarizing a
partition's references, adding summaries up, and scoring a partition with the local engine's code.

Metrics travel as a :class:`Recipe` (class and frozen config), not as objects: a metric the caller already used
carries caches that need not cross the network. Each task builds its own metrics, so their caches of prepared
references live as long as one partition and a worker's memory is bounded by the partition size (kept across a
million segments, they would grow to their 200,000-entry limits). A corpus-dependent metric is the exception: it is
kept per worker thread, because binding the corpus summary (CIDEr-D's idf of every n-gram) is its costly part and
it caches nothing per text. What a metric loads once per process (WordNet) is shared either way.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from metrics.core.base import CorpusDependent, CorpusSummary, Metric
from metrics.core.cache import BoundedCache
from metrics.core.evaluation import reference_counts
from metrics.distributed.gather import PartResult
from metrics.distributed.sources import PartReader
from metrics.parallel import segment_stats


@dataclass(frozen=True)
class Recipe:
    cls: type[Metric[Any, Any]]
    config: Any

    @classmethod
    def of(cls, metric: Metric[Any, Any]) -> Recipe:
        return cls(type(metric), metric.config)


_bound: BoundedCache[tuple[Recipe, int], Metric[Any, Any]] = BoundedCache(limit=64)


def built(recipe: Recipe) -> Metric[Any, Any]:
    """A new instance of the metric, or this thread's kept one for a corpus-dependent metric."""
    if not issubclass(recipe.cls, CorpusDependent):
        return recipe.cls(recipe.config)
    return _bound.get_or_make((recipe, threading.get_ident()), lambda: recipe.cls(recipe.config))


def summarize_part(reader: PartReader, recipes: Mapping[str, Recipe]) -> dict[str, CorpusSummary]:
    """The summary of one partition's references for each corpus-dependent metric."""
    refs = reader.read(systems=False).refs
    summaries = {}
    for metric_id, recipe in recipes.items():
        metric = built(recipe)
        if not isinstance(metric, CorpusDependent):
            raise TypeError(f"{metric_id}: {recipe.cls.__name__} is not corpus-dependent; it has no summary")
        summaries[metric_id] = metric.summarize(refs)
    return summaries


def add_summaries(a: Mapping[str, CorpusSummary], b: Mapping[str, CorpusSummary]) -> dict[str, CorpusSummary]:
    return {metric_id: a[metric_id] + b[metric_id] for metric_id in a}


def score_part(
    reader: PartReader, recipes: Mapping[str, Recipe], summaries: Mapping[str, CorpusSummary] | None
) -> PartResult:
    """Rows of one partition for every system and metric, with what the gather checks."""
    part = reader.read()
    metrics = {metric_id: built(recipe) for metric_id, recipe in recipes.items()}  # built for this partition
    stats = segment_stats(part.systems, part.refs, metrics, summaries, source=part.source)
    return PartResult(part.start, part.stop, stats, reference_counts(part.refs), part.notes)
