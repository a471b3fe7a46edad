"""The Segment view and the Teach lesson of a COMET metric in the app, on seeded checkpoints
(tests/support/comet_checkpoints.py) that the server's owner offers in ``SCORELENS_MODELS``: xCOMET's spans drawn on
each output with its score's parts, the lesson derived on a typed triple with the metric's own number, and a plain
word when the server offers no COMET model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import server_config
from metrics.core.registry import create
from tests.support.comet_checkpoints import BY_NAME, build
from tests.support.paths import ROOT
from tests.support.ui import app, assert_safe_html, hostile_dataset, html_bodies, shown

pytestmark = pytest.mark.neural
pytest.importorskip("torch")

TEACH = str(ROOT / "pages" / "teach.py")


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("comet-models")
    return {name: build(BY_NAME[name], root / name) for name in ("regression", "xcomet")}


@pytest.fixture
def offered(folders: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """The server's model list offering both checkpoints for ``comet``."""
    listing = tmp_path / "models.json"
    listing.write_text(
        json.dumps(
            {
                "comet.model": {
                    "xCOMET (seeded)": str(folders["xcomet"]),
                    "COMET-22 (seeded)": str(folders["regression"]),
                }
            }
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv(server_config.ENV, str(listing))
    server_config.server_config.cache_clear()
    yield folders
    server_config.server_config.cache_clear()


@pytest.fixture
def none_offered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(server_config.ENV, raising=False)
    server_config.server_config.cache_clear()
    yield
    server_config.server_config.cache_clear()


def test_segment_view_draws_xcomets_spans_on_every_output(offered: dict[str, Path]) -> None:
    data = hostile_dataset()
    model = str(offered["xcomet"])
    at = app("pages/segment.py", data, ["comet"], seg_metric="comet", metric_options={"comet": {"model": model}})
    at.run(timeout=180)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    metric = create("comet", {"model": model})
    bodies = html_bodies(at)
    for body in bodies:
        assert_safe_html(body)
    outputs = [b for b in bodies if "sl-spans" in b and "severity:" in b]
    assert len(outputs) == len(data.systems)
    for name, hyps in data.systems.items():
        explanation = metric.explain_source(hyps[0], data.source[0], [data.refs[0][0]])
        assert at.dataframe[0].value.loc[name, "COMET"] == pytest.approx(explanation.score, abs=1e-6)
        cards = [shown(m.value) for m in at.markdown if shown(m.value).startswith(f"**{name}** — COMET ")]
        assert cards == [f"**{name}** — COMET {explanation.score:.4f}"]
        for span in explanation.spans:  # each span's tooltip is on the page, escaped
            assert f"{span.origin}: {span.severity.value} · confidence {span.confidence:.3f}" in " ".join(outputs)
    assert any("<b>mqm</b>" in b for b in bodies)


def _teach(metric_id: str) -> AppTest:
    at = AppTest.from_file(TEACH, default_timeout=180).run()
    at.selectbox(key="teach_metric").set_value(metric_id).run()
    assert not at.exception, at.exception
    return at


def test_teach_derives_comet_on_the_typed_triple(offered: dict[str, Path]) -> None:
    at = _teach("comet")
    box = at.selectbox(key="teach_comet_model")
    assert box.options == ["xCOMET (seeded)", "COMET-22 (seeded)"]  # the server's list; no empty default
    box.set_value(str(offered["regression"])).run(timeout=180)
    source, hyp, ref = "Die Katze <b>sitzt</b>.", "The cat <script>sits</script>.", "The cat is sitting."
    at.text_area(key="teach_src").set_value(source)
    at.text_area(key="teach_hyp").set_value(hyp)
    at.text_area(key="teach_ref_0").set_value(ref)
    at.run(timeout=180)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    expected = create("comet", {"model": str(offered["regression"])}).explain_source(hyp, source, [ref]).score
    assert at.metric[0].value == f"{expected:.4f}"
    titles = [h.value for h in at.subheader]
    assert titles[:5] == [
        "1. Three sentences, encoded one by one",
        "2. Mixing the encoder's layers",
        "3. Pooling: one vector per sentence",
        "4. The feature vector",
        "5. The feed-forward regressor",
    ]
    assert "The score" in titles[-1]
    assert any(e.label.startswith("Limitations card") for e in at.expander)  # the docs' card ends the lesson
    assert all("<script>" not in body for body in html_bodies(at))


def test_teach_says_plainly_when_the_server_offers_no_comet_model(none_offered: None) -> None:
    at = _teach("comet")
    assert not at.error, [e.value for e in at.error]
    said = " ".join(shown(i.value) for i in at.info)
    assert "No model for COMET (unbabel-comet) is configured on this server" in said
    assert "SCORELENS_MODELS" in said and not at.metric
