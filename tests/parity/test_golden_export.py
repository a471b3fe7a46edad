"""The numbers of every metric on the bundled samples stay byte-identical unless a change means to alter them."""

from __future__ import annotations

import gzip
import json

import pytest

from tests.support.golden_export import PINNED, canonical, path


@pytest.mark.parametrize("sample", PINNED)
def test_bundled_sample_export_is_byte_identical(sample: str) -> None:
    expected = gzip.decompress(path(sample).read_bytes())
    actual = canonical(sample)
    if actual != expected:
        old, new = json.loads(expected)["metrics"], json.loads(actual)["metrics"]
        changed = sorted(
            f"{m}/{s}"
            for m in old.keys() | new.keys()
            for s in {**old.get(m, {}), **new.get(m, {})}.get("systems", {})
            if old.get(m, {}).get("systems", {}).get(s) != new.get(m, {}).get("systems", {}).get(s)
        )
        signatures = sorted(
            m for m in old.keys() | new.keys() if old.get(m, {}).get("signature") != new.get(m, {}).get("signature")
        )
        pytest.fail(f"export of {sample} changed: systems {changed[:20]}, signatures {signatures}")
