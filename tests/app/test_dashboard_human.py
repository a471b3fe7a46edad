"""Human judgments in the dashboard: the captioning sample brings THumB's, the Data page attaches uploaded ones
(errors name the file and line; a bad file never replaces what is loaded), the workspace keeps them, and the
overview shows each metric's correlation with them exactly as ``metrics.stats.correlation`` computes it."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.stats

import dashboard.state
from dashboard import intake, workspace
from dashboard.samples import load_sample
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.io.inputs import InputError
from metrics.stats.correlation import correlate
from metrics.stats.human import HumanScores
from rendering.correlation import correlation_table, interval_text
from tests.support.ui import (
    IMG,
    ROOT,
    SCRIPT,
    app,
    assert_escaped_markdown,
    hostile_dataset,
    markdown_bodies,
    shown,
    small_dataset,
    with_downloads,
)

GOOD = b"\n".join(
    json.dumps({"SYS": system, "seg_id": str(i), "human_score": score}).encode()
    for system, scores in (("alpha", (5, 4, 5, 3)), ("beta", (3, 4, 2, 2)), ("gamma", (1, 2, 2, 1)), ("zeta", (1,) * 4))
    for i, score in enumerate(scores, start=1)
)


def _lines(*records: object) -> bytes:
    return "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records).encode()


# ------------------------------------------------------------------------------------------ pure intake


def test_human_upload_keeps_loaded_systems_and_names_file_and_line_of_problems():
    data = small_dataset()
    human, notes = intake.parse_human_upload("h.jsonl", GOOD, data)
    assert human.systems == ("alpha", "beta", "gamma") and human.source == "h.jsonl"
    assert list(human.scores["beta"]) == [3.0, 4.0, 2.0, 2.0]
    assert notes == ["h.jsonl: judgments of systems not loaded were left out: zeta"]
    record = {"SYS": "alpha", "seg_id": "1", "human_score": 2}
    with pytest.raises(InputError, match=r"^h\.jsonl, line 2: not valid JSON"):
        intake.parse_human_upload("h.jsonl", _lines(record, "{oops"), data)
    with pytest.raises(InputError, match=r"^h\.jsonl, line 1: segment id '9' is not a line number 1\.\.4"):
        intake.parse_human_upload("h.jsonl", _lines({**record, "seg_id": "9"}), data)
    with pytest.raises(InputError, match=r"^h\.jsonl, line 2: a second judgment"):
        intake.parse_human_upload("h.jsonl", _lines(record, record), data)
    with pytest.raises(InputError, match=r"^h\.jsonl, line 2: bytes .* are not valid UTF-8"):
        intake.parse_human_upload("h.jsonl", _lines(record) + b"\n\xff\n", data)
    with pytest.raises(InputError, match=r"^h\.jsonl: judges zeta; none of them is loaded"):
        intake.parse_human_upload("h.jsonl", _lines({**record, "SYS": "zeta"}), data)
    ids = intake.parse_upload("ids.txt", b"a\nb\nc\n").segments
    with pytest.raises(InputError, match=r"^ids\.txt: has 3 segment ids but the data has 4"):
        intake.parse_human_upload("h.jsonl", _lines(record), data, ids)
    ids = intake.parse_upload("ids.txt", b"a\nb\nc\nd\n").segments
    by_id, _ = intake.parse_human_upload("h.jsonl", _lines({**record, "seg_id": "c"}), data, ids)
    assert np.isnan(by_id.scores["alpha"][[0, 1, 3]]).all() and by_id.scores["alpha"][2] == 2.0


def test_human_scores_follow_renames_removals_and_the_workspace():
    data = small_dataset().with_human(intake.parse_human_upload("h.jsonl", GOOD, small_dataset())[0])
    renamed = data.renamed("alpha", "Alpha")
    assert renamed.human.systems == ("Alpha", "beta", "gamma") and renamed.human_hash("Alpha") == data.human_hash(
        "alpha"
    )
    assert data.without("beta").human.systems == ("alpha", "gamma")
    assert data.fingerprint() != small_dataset().fingerprint()
    loaded, _ = workspace.loads(workspace.dumps(data, workspace.Settings()))
    assert loaded.fingerprint() == data.fingerprint() and loaded.human.source == "h.jsonl"
    document = json.loads(workspace.dumps(data, workspace.Settings()))
    document["human"]["scores"]["alpha"][0] = "five"
    with pytest.raises(InputError, match=r"ws\.json: human\.scores\['alpha'\] must be a list of finite numbers"):
        workspace.loads(json.dumps(document), "ws.json")
    document["human"]["scores"] = {"nobody": [1, 2, 3, 4]}
    with pytest.raises(InputError, match="judges system 'nobody', which is not loaded"):
        workspace.loads(json.dumps(document), "ws.json")


def test_caption_sample_brings_the_thumb_judgments_of_its_200_images():
    data = load_sample("caption")
    ids = (ROOT / "assets/samples/coco/image_ids.txt").read_text().split()
    rows = [json.loads(line) for line in (ROOT / "tests/data/coco/human_scores.jsonl").read_text().splitlines()]
    expected = {(r["SYS"], r["seg_id"]): r["human_score"] for r in rows if r["seg_id"] in set(ids)}
    assert len(expected) == 1000 and set(data.human.systems) == set(data.systems)
    for (system, seg_id), score in expected.items():
        assert data.human.scores[system][ids.index(seg_id)] == score
    assert load_sample("mt").human is None


# ---------------------------------------------------------------------------------------------- the pages


@pytest.fixture(scope="module")
def caption_overview():
    at = app("app.py", load_sample("caption"), ["bleu", "rougeL"]).run()
    assert not at.exception, at.exception
    return at


def _reference_correlations():
    data = load_sample("caption")
    metrics = {"bleu": create("bleu"), "rougeL": create("rougeL")}
    result = evaluate({k: list(v) for k, v in data.systems.items()}, [list(r) for r in data.refs], metrics)
    found = {}
    for metric_id, metric in metrics.items():
        stats = {r.name: r.stats[metric_id] for r in result.systems}
        found[metric_id] = (correlate(metric, stats, data.human, 1000, 12345, label=metric.name), stats)
    return data, metrics, found


def test_overview_correlation_table_equals_metrics_correlation(caption_overview):
    table = next(d.value for d in caption_overview.dataframe if "Kendall τ-b" in d.value.columns)
    data, metrics, found = _reference_correlations()
    expected = correlation_table([c for correlations, _ in found.values() for c in correlations])
    assert list(table.columns) == list(expected.columns)
    assert list(zip(table.metric, table.level, strict=True)) == [
        ("BLEU", "segment"),
        ("BLEU", "system"),
        ("ROUGE-L", "segment"),
        ("ROUGE-L", "system"),
    ]
    for column in ("n", "Pearson", "Spearman", "Kendall τ-b"):
        assert list(table[column]) == list(expected[column]), column
    for column in ("Pearson 95% CI", "Spearman 95% CI", "Kendall τ-b 95% CI"):
        assert list(table[column]) == list(expected[column]), column
    bleu_segment_kendall = next(c for c in found["bleu"][0] if c.level == "segment" and c.method == "kendall")
    assert table.loc[0, "Kendall τ-b 95% CI"] == interval_text(bleu_segment_kendall.lo, bleu_segment_kendall.hi)
    assert table.loc[0, "n"] == 1000

    # one value against scipy: segment-level Kendall τ-b of sentence BLEU, all (system, image) pairs pooled
    stats = found["bleu"][1]
    x = np.concatenate([metrics["bleu"].segment_scores(stats[name]) for name in data.systems])
    y = np.concatenate([data.human.scores[name] for name in data.systems])
    assert table.loc[0, "Kendall τ-b"] == pytest.approx(scipy.stats.kendalltau(x, y).statistic, rel=1e-9)
    captions = " ".join(shown(c.value) for c in caption_overview.caption)
    assert "coco/human_scores.jsonl" in captions and "seed 12345" in captions


def test_downloads_carry_the_correlations(caption_overview):
    _, downloads = with_downloads(app("app.py", load_sample("caption"), ["bleu", "rougeL"]))
    document = json.loads(downloads["scorelens.json"])
    data, _, found = _reference_correlations()
    expected = [
        {"metric": m, "level": c.level, "method": c.method, "value": c.value, "ci": [c.lo, c.hi], "n": c.n}
        for m, (correlations, _) in found.items()
        for c in correlations
    ]
    assert document["human"] == expected
    assert document["statistics"]["human"] == data.human.source
    assert document["signatures"]["rougeL"] == document["metrics"]["rougeL"]["signature"]


def test_reruns_and_renames_do_not_recompute_correlations(caption_overview, monkeypatch):
    def forbidden(*_args, **_kwargs):
        raise AssertionError("correlations recomputed")

    monkeypatch.setattr(dashboard.state, "correlate", forbidden)
    monkeypatch.setattr(dashboard.state, "evaluate", forbidden)
    caption_overview.run()
    assert not caption_overview.exception, caption_overview.exception
    caption_overview.session_state["dataset"] = load_sample("caption").renamed("Up-Down", "UpDown")
    caption_overview.run()
    assert not caption_overview.exception, caption_overview.exception
    assert any("UpDown" in shown(c.value) for c in caption_overview.caption)


def test_a_bad_human_file_is_reported_and_never_replaces_the_loaded_data():
    before = small_dataset()
    at = app("pages/data.py", before, ["bleu"]).run()
    bad = GOOD.replace(b'"seg_id": "3"', b'"seg_id": "33"', 1)
    at.file_uploader(key="up_human").set_value(("judged.jsonl", bad, "application/json")).run()
    assert any(shown(e.value).startswith("judged.jsonl, line 3: segment id '33'") for e in at.error)
    assert not any(b.key == "load_human" for b in at.button)
    assert at.session_state["dataset"] is before and before.human is None

    at.file_uploader(key="up_human").set_value(("judged.jsonl", GOOD, "application/json")).run()
    assert any("zeta" in shown(i.value) for i in at.info)
    at.button(key="load_human").click().run()
    loaded = at.session_state["dataset"]
    assert loaded.human.systems == ("alpha", "beta", "gamma") and loaded.systems == before.systems
    overview = app("app.py", loaded, ["bleu"]).run()
    assert not overview.exception, overview.exception
    assert any("Kendall τ-b" in d.value.columns for d in overview.dataframe)


def test_overview_escapes_human_score_source_and_system_names():
    data = hostile_dataset()
    ones = np.array([1.0, 3.0, 2.0])
    data = data.with_human(HumanScores({name: ones + k for k, name in enumerate(data.systems)}, f"{IMG} {SCRIPT}"))
    at = app("app.py", data, ["bleu"]).run()
    assert not at.exception, at.exception
    for body in markdown_bodies(at):
        assert_escaped_markdown(body)
    assert any(SCRIPT in shown(c.value) and IMG in shown(c.value) for c in at.caption)
