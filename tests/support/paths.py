"""Where the tests find the repository and their data: the slices in ``tests/data`` and, when present, the full sets
in ``../shared/data``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data"
