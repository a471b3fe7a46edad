"""Fixtures of the real-browser tests: a Chromium (or a skip with its reason) and the app served once per module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import chromium
from tests.support.serving import streamlit_server


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with streamlit_server() as server:
        yield server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()
