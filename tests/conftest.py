"""What every test gets: the shared fixtures (the real-data slices, nltk's WordNet), the app run as served, and the
``fast`` lane. The helpers themselves live in ``tests/support``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.corpora import corpora  # noqa: F401  (a fixture)
from tests.support.meteor import nltk_wordnet  # noqa: F401  (a fixture)

TESTS = Path(__file__).resolve().parent
# Folders whose tests are quick enough to rerun on every edit, unless a lane below claims them.
FAST_KINDS = ("unit", "contracts")
SLOW_LANES = ("slow", "browser", "dask", "neural", "sweep", "fuzz")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the ``fast`` lane (``python -m pytest -m fast``) before ``-m`` selects, so that it can select it."""
    for item in items:
        kind = item.path.relative_to(TESTS).parts[0]
        if kind in FAST_KINDS and not any(item.get_closest_marker(lane) for lane in SLOW_LANES):
            item.add_marker(pytest.mark.fast)


@pytest.fixture(autouse=True)
def _navigation_as_served(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``app.py`` under AppTest as a server runs it. A ``pages/`` folder beside the entry point puts Streamlit in
    its legacy mode, which runs the chosen page file *instead of* ``app.py``; a server leaves that mode for good
    once ``app.py`` calls ``st.navigation``, but AppTest forgets it before every run. Keeping it off here makes every
    run go through ``app.py`` (and its frame, the sidebar) as in the browser; pages run on their own stay testable
    through ``AppTest.from_file("pages/…")``."""
    from streamlit.runtime.pages_manager import PagesManager

    legacy_init = PagesManager.__init__

    def served_init(self: PagesManager, *args: object, **kwargs: object) -> None:
        legacy_init(self, *args, **kwargs)  # type: ignore[arg-type]
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", served_init)
