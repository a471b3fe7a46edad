"""The Meta-evaluation page: without human scores it says how to load them; with them its tables hold
:func:`metrics.meta.meta_evaluate`'s numbers on inputs made here (sacrebleu's chrF, WMT23's COMET and MQM files), on
all segments and on a metadata bucket; a system pair opens the Explorer on those two systems under the metric, a
segment pair the Segment view on that segment with both outputs and the metric's evidence; the downloads carry the
same numbers; names reach the page escaped."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from sacrebleu.metrics import CHRF

from dashboard import intake
from dashboard import meta as dashboard_meta
from dashboard.dataset import Dataset
from metrics.families.external import read_external
from metrics.io.metadata import read_metadata
from metrics.meta import MetaInput, meta_evaluate
from metrics.stats.human_table import read_human
from tests.support.paths import DATA
from tests.support.ui import app, markdown_bodies, shown, small_dataset, with_downloads

TEXTS = DATA / "wmt23-he-en"
META = DATA / "wmt23-he-en-meta"
SYSTEMS = sorted(p.stem for p in (TEXTS / "sys").glob("*.txt"))
N = 40
DOC = "auto-5285631.news"


def _lines(path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").rstrip("\n").split("\n"))


def he_en() -> Dataset:
    systems = {s: _lines(TEXTS / "sys" / f"{s}.txt") for s in SYSTEMS}
    human = read_human(META / "mqm.seg.tsv", N, SYSTEMS).human
    comet = read_external(TEXTS / "COMET-refB.seg.tsv", "COMET", SYSTEMS, N)
    return Dataset("he-en", systems, (_lines(TEXTS / "ref.B.txt"),), ("refB",), human=human, external={"COMET": comet})


def expected(segments: list[int]):
    """meta_evaluate with the page's settings on inputs made here."""
    data = he_en()
    ref = data.refs[0]
    chrf = CHRF()
    cols = np.array(segments)
    segment_chrf = np.array([[chrf.sentence_score(data.systems[s][i], [ref[i]]).score for i in cols] for s in SYSTEMS])
    corpus = [chrf.corpus_score([data.systems[s][i] for i in cols], [[ref[i] for i in cols]]).score for s in SYSTEMS]
    comet = np.array([np.array(data.external["COMET"].scores[s])[cols] for s in SYSTEMS])
    human = np.array([data.human.scores[s][cols] for s in SYSTEMS])
    inputs = MetaInput(
        tuple(SYSTEMS),
        human,
        {"chrf": segment_chrf, "COMET": comet},
        {"chrf": np.array(corpus)},
    )
    return meta_evaluate(inputs, dashboard_meta.SETTINGS)


@pytest.fixture(scope="module")
def report():
    return expected(list(range(N)))


@pytest.fixture
def page():
    at = app("app.py", he_en(), ["chrf", "COMET"]).run()
    at.session_state["analysis_metadata"] = read_metadata(META / "meta.tsv", N)
    at.switch_page("pages/meta.py").run()
    assert not at.exception, at.exception
    return at


def test_without_human_scores_the_page_says_how_to_load_them():
    at = app("app.py", small_dataset(), ["bleu"]).run()
    at.switch_page("pages/meta.py").run()
    assert not at.exception, at.exception
    said = " ".join(shown(b) for b in markdown_bodies(at))
    assert "none are loaded" in said and "Data" in said and "scorelens meta" in said
    assert not at.dataframe


def _by_metric(frame):
    return {row["metric"]: row for row in frame.to_dict("records")}


def test_tables_hold_meta_evaluate_numbers(page, report):
    system = _by_metric(page.dataframe[0].value)
    segment = _by_metric(page.dataframe[1].value)
    for metric_id, name in (("chrf", "chrF2"), ("COMET", "COMET (external scores)")):
        row = system.get(name) or system[next(k for k in system if k.startswith(metric_id))]
        level = report.metrics[metric_id].system
        assert row["SPA"] == pytest.approx(level.spa.value, rel=1e-12)
        assert row["accuracy"] == pytest.approx(level.accuracy.value, rel=1e-12)
        assert row["Pearson"] == pytest.approx(level.pearson.value, rel=1e-12)
        assert row["τ-b CI"] == f"[{level.kendall.lo:.3f}, {level.kendall.hi:.3f}]"
        seg_row = segment.get(name) or segment[next(k for k in segment if k.startswith(metric_id))]
        seg = report.metrics[metric_id].segment
        assert seg_row["acc_eq"] == pytest.approx(seg.acc_eq.value, rel=1e-12)
        assert seg_row["ε"] == pytest.approx(seg.calibration.threshold, rel=1e-12, abs=1e-15)
        assert seg_row["Pearson item"] == pytest.approx(seg.pearson_by_item, rel=1e-12, nan_ok=True)
    chance = system["chance"]
    assert chance["SPA"] == pytest.approx(report.metrics["chrf"].system.spa.chance)
    # the permutation tests are the slow part: computed when asked, then the clusters and every rank are shown
    assert "SPA rank" not in page.dataframe[0].value and len(page.dataframe) == 4
    page.button(key="meta_compute_clusters").click().run()
    assert not page.exception, page.exception
    clusters = page.dataframe[2].value
    for comparison in report.comparisons.values():
        name = {"sys_spa": "SPA (system level)", "sys_accuracy": "pairwise accuracy (system level)",
                "seg_acc_eq": "acc_eq (segment level)"}[comparison.statistic.value]  # fmt: skip
        shown_clusters = clusters[clusters["statistic"] == name]
        assert list(shown_clusters["rank"]) == list(range(1, len(comparison.clusters) + 1))
    ranks = _by_metric(page.dataframe[0].value)
    spa = next(c for c in report.comparisons.values() if c.statistic.value == "sys_spa")
    assert ranks["chrF2"]["SPA rank"] == dict(zip(spa.metrics, spa.ranks, strict=True))["chrf"]


def test_downloads_carry_the_page_numbers(page, report):
    at, files = with_downloads(page)
    document = json.loads(files["scorelens-meta.json"])
    assert document["scope"]["label"] == "all segments"
    spa = {r["metric"]: r["spa"]["value"] for r in document["system_level"]}
    assert spa == pytest.approx({m: report.metrics[m].system.spa.value for m in report.metrics})
    assert "\\begin{tabular}" in files["scorelens-meta.tex"].decode()
    assert files["scorelens-meta.zip"][:2] == b"PK"


def test_a_metadata_bucket_meta_evaluates_its_segments(page):
    scope = page.selectbox(key="meta_scope")
    label = f"doc_id = {DOC}"
    assert any(o.startswith(label) for o in scope.options)
    scope.set_value(label).run()
    assert not page.exception, page.exception
    bucket = expected(list(range(15, 40)))
    rows = _by_metric(page.dataframe[0].value)
    assert rows["chrF2"]["SPA"] == pytest.approx(bucket.metrics["chrf"].system.spa.value, rel=1e-12)
    segment_rows = page.dataframe[-1].value  # the last table: the segment pairs' tab
    assert len(segment_rows) and set(segment_rows["line"]) <= set(range(16, 41))  # lines of the bucket's document


def test_a_system_pair_opens_the_explorer_and_a_segment_pair_the_segment_view(page, report):
    metric = page.selectbox(key="meta_metric").value
    errors = report.metrics[metric].system_errors
    pair_buttons = [b for b in page.button if b.key.startswith(f"meta_open_pair:{metric}:")]
    assert len(pair_buttons) == len(errors)
    if errors:
        pair_buttons[0].click().run()
        assert [t.value for t in page.title] == ["Sentence explorer"]
        assert page.selectbox(key="ex_diff_a").value == errors[0].better
        assert page.selectbox(key="ex_diff_b").value == errors[0].worse
        assert page.selectbox(key="ex_diff_metric").value == metric
        page.switch_page("pages/meta.py").run()
    segment_errors = report.metrics[metric].segment_errors
    buttons = [b for b in page.button if b.key.startswith(f"meta_open_segment:{metric}:")]
    assert len(buttons) == min(len(segment_errors), dashboard_meta.SETTINGS.max_segment_pairs)
    first = segment_errors[0]
    buttons[0].click().run()
    assert not page.exception, page.exception
    assert [t.value for t in page.title] == ["Segment view"]
    assert page.session_state["segment"] == first.segment  # all segments: the report's index is the line's
    assert page.multiselect(key="seg_systems").value == [first.system_a, first.system_b]
    assert page.selectbox(key="seg_metric").value == metric


def test_system_names_reach_the_page_escaped():
    data = he_en()
    hostile = "*bold* [x](javascript:alert(1))"
    renamed = data.renamed(SYSTEMS[0], hostile)
    at = app("app.py", renamed, ["COMET"]).run()
    at.switch_page("pages/meta.py").run()
    assert not at.exception, at.exception
    labels = [b.label for b in at.button if b.key.startswith("meta_open_")]
    assert all("*bold*" not in label for label in labels)
    assert not any(math.isnan(v) for v in at.dataframe[0].value["SPA"])


def test_the_data_page_reads_a_wmt_human_table():
    data = he_en().with_human(None)
    human, notes = intake.parse_human_upload("mqm.seg.tsv", (META / "mqm.seg.tsv").read_bytes(), data)
    assert human.systems == tuple(SYSTEMS) and human.source == "mqm.seg.tsv"
    np.testing.assert_array_equal(human.scores["ONLINE-A"], he_en().human.scores["ONLINE-A"])
    assert notes == ["mqm.seg.tsv: left out the scores of systems that are not loaded: refA"]


def test_error_annotations_are_the_humans_side_when_no_human_scores_are_loaded():
    """The bundled MQM example has annotations, no segment-level human scores: the page meta-evaluates chrF and
    BLEU against the annotations' MQM, which is not itself a metric under test."""
    from dashboard.samples import load_sample
    from dashboard.state import annotation_metric

    data = load_sample("mqm")
    at = app("app.py", data, ["mqm", "chrf"]).run()
    at.switch_page("pages/meta.py").run()
    assert not at.exception, at.exception
    assert any("Human scores: mqm" in c.value for c in at.caption)
    table = at.dataframe[0].value
    assert list(table["metric"])[:1] == ["chrF2"] and "MQM" not in set(table["metric"])
    mqm = annotation_metric(data, "mqm")
    chrf = CHRF()
    systems = list(data.systems)
    ref = data.refs[0]
    scores = np.array(
        [[chrf.sentence_score(data.systems[s][i], [ref[i]]).score for i in range(len(data))] for s in systems]
    )
    corpus = np.array([chrf.corpus_score(list(data.systems[s]), [list(ref)]).score for s in systems])
    human = np.array([mqm.values(s) for s in systems])
    report = meta_evaluate(
        MetaInput(tuple(systems), human, {"chrf": scores}, {"chrf": corpus}), dashboard_meta.SETTINGS
    )
    assert table["SPA"].iloc[0] == pytest.approx(report.metrics["chrf"].system.spa.value, abs=1e-9)
