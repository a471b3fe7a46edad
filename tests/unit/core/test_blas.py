"""The command line and the app shorten OpenBLAS's idle spinning before numpy loads it, and leave a user's own
setting alone (:mod:`metrics.core.blas`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from metrics.core.blas import SPIN

PROBE = (
    "import json, os, sys\n"
    "import {package}\n"
    "loaded = 'numpy' in sys.modules\n"
    "import numpy\n"
    "print(json.dumps({{'numpy_before': loaded, 'timeout': os.environ.get('OPENBLAS_THREAD_TIMEOUT')}}))\n"
)


def _probe(package: str, **env: str) -> dict[str, object]:
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"} | env
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(package=package)], capture_output=True, text=True, env=environment
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("package", ["metrics.cli", "dashboard"])
def test_the_command_line_and_the_app_set_it_before_numpy_loads(package):
    assert _probe(package) == {"numpy_before": False, "timeout": SPIN}


def test_a_users_own_setting_is_kept():
    assert _probe("metrics.cli.main", OPENBLAS_THREAD_TIMEOUT="8")["timeout"] == "8"


def test_the_library_alone_leaves_the_environment_alone():
    assert _probe("metrics.core.registry") == {"numpy_before": True, "timeout": None}
