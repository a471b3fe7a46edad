"""The dashboard's one compute pipeline: content-keyed, process-wide stores, and the jobs that fill them under a
single progress bar.

Every result the pages show (scores, significance reports, correlations, explanations) is looked up by a key that
names its content (metric, options, references, the outputs concerned), so a rerun, a page switch or a renamed
system is a lookup, and only what is missing is computed — under one progress bar, drawn only then.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import streamlit as st

Item = TypeVar("Item", bound=Hashable)
T = TypeVar("T")


class LRU:
    """A small thread-safe LRU map; Streamlit serves several sessions from threads of one process."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The value stored under ``key``, ``None`` when there is none (values are never ``None``)."""
        with self._lock:
            if key not in self._data:
                return None
            self._data.move_to_end(key)
            return self._data[key]

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._data

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


@dataclass(frozen=True)
class Job(Generic[T]):
    """How to get one result: its content ``key`` in the store, the progress text while it runs, and ``run``."""

    key: Hashable
    message: str
    run: Callable[[], T]


def run_cached(
    store: LRU, jobs: Mapping[Item, Job[T]], label: str, expected: tuple[type[Exception], ...] = ()
) -> tuple[dict[Item, T], dict[Item, Exception]]:
    """(value of every item that has one, in the order of ``jobs``; the ``expected`` error of every item whose job
    raised one). Stored values are read once and kept; the missing ones are computed under one progress bar
    titled ``label`` (nothing is drawn when all are stored) and stored, so no eviction by another session between
    a check and a read can lose one. An error not in ``expected`` is a bug and propagates."""
    found: dict[Item, T] = {}
    missing: list[Item] = []
    for item, job in jobs.items():
        value = store.get(job.key)
        if value is None:
            missing.append(item)
        else:
            found[item] = value
    failed: dict[Item, Exception] = {}
    if missing:
        bar = st.progress(0.0, text=label)
        try:
            for k, item in enumerate(missing):
                job = jobs[item]
                bar.progress(k / len(missing), text=f"{label}: {job.message}")
                try:
                    value = job.run()
                except expected as err:
                    failed[item] = err
                    continue
                store.put(job.key, value)
                found[item] = value
        finally:
            bar.empty()
    return {item: found[item] for item in jobs if item in found}, failed
