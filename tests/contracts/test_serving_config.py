"""The served app's settings, as ``streamlit run`` from the repository reads them (``.streamlit/config.toml``)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.paths import ROOT


def test_a_browser_is_shown_an_errors_type_only_and_no_usage_is_reported():
    """Read in a fresh process started in the repository, as a server reads them: an uncaught error shows neither
    its message nor a traceback (the server's paths; the real browser's view is tests/browser/test_hostile_names.py),
    and the browser sends no usage statistics."""
    names = ["client.showErrorDetails", "browser.gatherUsageStats"]
    code = f"import json; from streamlit import config; print(json.dumps([config.get_option(n) for n in {names!r}]))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["type", False]
