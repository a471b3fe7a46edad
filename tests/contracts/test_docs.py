"""The documentation keeps up with the registry: every metric id has a card on the site, and every family's
modules have an API page, so a new family cannot land undocumented. (The site's own links are checked by
``mkdocs build --strict`` in ``.ci/run``.)"""

from __future__ import annotations

import re

from metrics import SPECS
from tests.support.paths import ROOT

DOCS = ROOT / "docs"
# A card is "## `id` — Label {#anchor}"; the external scores' card is headed by its option, not an id.
CARD = re.compile(r"^## `([^`-][^`]*)` — .+\{#[^}]+\}$", re.M)


def test_every_metric_id_has_exactly_one_card() -> None:
    cards = [m.group(1) for page in sorted((DOCS / "metrics").glob("*.md")) for m in CARD.finditer(page.read_text())]
    assert sorted(cards) == sorted(SPECS), "docs/metrics/: one '## `id` — … {#anchor}' section per metric id"


def test_every_family_has_an_api_page() -> None:
    api = (DOCS / "api" / "families.md").read_text()
    targets = [SPECS[metric_id].target for metric_id in SPECS]
    modules = [target if isinstance(target, str) else f"{target.__module__}:" for target in targets]
    families = {module.split(":")[0].rsplit(".", 1)[0] for module in modules}
    missing = sorted(family for family in families if f"::: {family}." not in api)
    assert not missing, f"docs/api/families.md has no ::: line for {missing}"
