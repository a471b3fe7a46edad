"""What every test gets: the shared fixtures (the real-data slices, nltk's WordNet), the app run as served, and the
``fast`` lane. The helpers themselves live in ``tests/support``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Tests never reach the network: huggingface_hub reads this when first imported, so BERTScore's default model is the
# packaged MiniLM and a hub id resolves from the cache only (tests/unit/test_models.py gives its own hub a process
# of its own).
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.support.corpora import corpora  # noqa: F401  (a fixture)
from tests.support.meteor import nltk_wordnet  # noqa: F401  (a fixture)

TESTS = Path(__file__).resolve().parent
# Folders whose tests are quick enough to rerun on every edit, unless a lane below claims them.
FAST_KINDS = ("unit", "contracts")
SLOW_LANES = ("slow", "browser", "dask", "neural", "sweep", "fuzz")


# Each worker imports the app and the reference implementations and may start a Streamlit server and Chromium: on a
# machine with many cores, more than four would cost memory and contention for little gain.
MAX_WORKERS = 4


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: without xdist, pytest runs as before
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per core this process may use, at most :data:`MAX_WORKERS`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(MAX_WORKERS, cores)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the ``fast`` lane (``python -m pytest -m fast``) before ``-m`` selects, so that it can select it."""
    for item in items:
        kind = item.path.relative_to(TESTS).parts[0]
        if kind in FAST_KINDS and not any(item.get_closest_marker(lane) for lane in SLOW_LANES):
            item.add_marker(pytest.mark.fast)


@pytest.fixture(autouse=True)
def _navigation_as_served() -> Iterator[None]:
    """AppTest runs of ``app.py`` route as a server does after its first request (``dashboard.legacy_pages``)."""
    from dashboard.legacy_pages import served_mode

    with served_mode():
        yield
