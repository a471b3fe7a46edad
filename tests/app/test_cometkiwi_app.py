"""CometKiwi in the app on data without references: a source and two systems' outputs, a seeded kiwi-shaped
checkpoint the server lists (``SCORELENS_MODELS``). Its scores are the library's; COMET, which reads references, is
named as not available instead of computed. Needs the neural extra."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.neural

pytest.importorskip("torch")
pytest.importorskip("transformers")

from dashboard import server_config  # noqa: E402
from dashboard.dataset import Dataset  # noqa: E402
from metrics.core.registry import create  # noqa: E402
from metrics.evaluate import evaluate  # noqa: E402
from metrics.io.inputs import read_segments  # noqa: E402
from tests.support import comet_checkpoints as cc  # noqa: E402
from tests.support.paths import DATA  # noqa: E402
from tests.support.ui import app, shown  # noqa: E402

HEEN = DATA / "wmt23-he-en"
SEGMENTS = 12


@pytest.fixture(scope="module")
def kiwi(tmp_path_factory):
    shape = next(s for s in cc.SHAPES if s.name == "kiwi")
    return str(cc.build(shape, tmp_path_factory.mktemp("comet") / "kiwi"))


@pytest.fixture
def listed(kiwi, tmp_path, monkeypatch):
    models = tmp_path / "models.json"
    models.write_text(json.dumps({"cometkiwi.model": {"Kiwi (seeded test checkpoint)": kiwi}}), encoding="utf-8")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv(server_config.ENV, str(models))
    server_config.server_config.cache_clear()
    yield kiwi
    server_config.server_config.cache_clear()


def _data() -> Dataset:
    source = read_segments(HEEN / "src.txt").texts[:SEGMENTS]
    names = sorted(p.stem for p in (HEEN / "sys").glob("*.txt"))[:2]
    systems = {name: read_segments(HEEN / "sys" / f"{name}.txt").texts[:SEGMENTS] for name in names}
    return Dataset("he-en, no references", systems, (), (), source)


@pytest.mark.parametrize("page", ["pages/overview.py", "pages/explorer.py", "pages/analysis.py"])
def test_cometkiwi_scores_data_without_references_on_every_page(listed, page):
    data = _data()
    options = {"cometkiwi": {"model": listed}}
    at = app(page, data, ["cometkiwi", "comet"], metric_options=options).run(timeout=300)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    notes = [shown(i.value) for i in at.info if "Not available on this data" in shown(i.value)]
    assert notes and "COMET (needs the references)" in notes[0]
    if page == "pages/overview.py":
        metric = create("cometkiwi", {"model": listed})
        expected = evaluate(
            {k: list(v) for k, v in data.systems.items()}, [], {"cometkiwi": metric}, source=list(data.source)
        )
        table = at.dataframe[0].value
        for result in expected.systems:
            assert table.loc[result.name, "CometKiwi"] == pytest.approx(result.scores["cometkiwi"], abs=1e-12)
