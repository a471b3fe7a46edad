"""AppTest runs read the project's ``.streamlit/config.toml``, which shows a browser only an uncaught error's type
(``client.showErrorDetails = "type"``); a failing test here names the error in full."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from streamlit import config


@pytest.fixture(autouse=True)
def _error_details_in_full() -> Iterator[None]:
    before = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", "full")
    yield
    config.set_option("client.showErrorDetails", before)
