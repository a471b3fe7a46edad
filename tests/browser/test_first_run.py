"""The README's run command on a desktop that never ran Streamlit: it must serve, not stop at a prompt."""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path

from tests.support.serving import streamlit_server


def test_first_run_on_a_desktop_serves_without_prompting(tmp_path: Path) -> None:
    """A fresh home (no ~/.streamlit/credentials.toml), a display (so Streamlit is not headless and would prompt
    for an email address on its first run) and a terminal nobody types in: the server must come up anyway. The
    browser Streamlit opens on a desktop is a stand-in ``xdg-open`` that does nothing."""
    home, bin_dir = tmp_path / "home", tmp_path / "bin"
    home.mkdir()
    bin_dir.mkdir()
    opener = bin_dir / "xdg-open"
    opener.write_text("#!/bin/sh\nexit 0\n")
    opener.chmod(0o755)
    env = {**os.environ, "HOME": str(home), "DISPLAY": ":0", "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    for name in ("WAYLAND_DISPLAY", "STREAMLIT_SERVER_HEADLESS", "STREAMLIT_SERVER_SHOW_EMAIL_PROMPT"):
        env.pop(name, None)
    with streamlit_server(options=(), env=env, timeout=30) as server:
        with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=30) as response:
            assert response.read() == b"ok"
        printed = server.printed()
    assert "Email" not in printed, printed
    assert not (home / ".streamlit" / "credentials.toml").exists()
