"""The Analysis page's readings under AppTest, on real data: word accuracy with two references says how it counts
and does not zig-zag; buckets show each system's difference from the baseline with its paired interval, small
buckets do not set the axis and the baseline's p reads "baseline"; metric disagreement names the system each
metric prefers; documents rank the flips of significantly different pairs (WMT23 he-en paragraphs, 12 systems);
a slice chosen by a score difference is not tested on that metric."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dashboard import workspace
from dashboard.dataset import Dataset
from metrics.analysis.slices import ScoreCondition
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.io.metadata import read_metadata
from tests.support.corpora import DATA, load_corpus, slice_corpus
from tests.support.parity import rel_close
from tests.support.ui import app, plotly_specs, shown

PAGE = "pages/analysis.py"


@pytest.fixture(scope="module")
def deen() -> Dataset:
    c = slice_corpus("wmt22-de-en")
    systems = {k: tuple(c.systems[k]) for k in ("LT22", "Online-B", "PROMT")}
    return Dataset("WMT22 de-en slice", systems, tuple(tuple(r) for r in c.refs), ("A", "B"), tuple(c.src or ()))


def _run(data: Dataset, section: str, metrics: tuple[str, ...] = ("bleu", "chrf"), **state: object):
    at = app(PAGE, data, list(metrics), an_section=section, **state).run(timeout=180)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def test_word_accuracy_with_two_references_says_how_and_does_not_zig_zag(deen):
    at = _run(deen, "Words by frequency")
    frame = at.dataframe[0].value
    for system in deen.systems:
        mine = frame[frame["system"] == system].set_index("frequency")["F-measure"]
        f = [mine[k] for k in ("1", "2", "3", "4")]
        # no alternation: counts 2 and 3 lie near their neighbours' mean (pooled references: 0.25 below it)
        assert np.abs(np.diff(f, 2)).max() < 0.1, f
        assert max(f) - min(f) < 0.08
    captions = " ".join(shown(c.value) for c in at.caption)
    assert "how often they occur in the reference they are matched against" in captions
    assert "With 2 references" in captions and "frequency 1 means once in that reference" in captions
    (spec,) = [json.loads(s) for s in plotly_specs(at)]
    assert spec["layout"]["xaxis"]["title"]["text"] == "word frequency (occurrences in the word's reference)"


def test_buckets_show_differences_from_the_baseline_with_paired_intervals(deen):
    at = _run(deen, "Buckets")
    (spec,) = [json.loads(s) for s in plotly_specs(at)]
    assert {t["name"] for t in spec["data"]} == {"Online-B", "PROMT"}  # the baseline is the zero line
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    assert titles == ["BLEU: above 0 = better than LT22", "chrF2: above 0 = better than LT22"]
    frame = at.dataframe[0].value
    assert "None" not in frame["p vs baseline"].astype(str).tolist()
    base = frame[frame["system"] == "LT22"]
    assert set(base["p vs baseline"]) == {"baseline"} and (base["Δ vs baseline"] == 0).all()
    for _, row in frame[frame["system"] != "LT22"].iterrows():
        other = base[(base["bucket"] == row["bucket"]) & (base["metric"] == row["metric"])].iloc[0]
        assert rel_close(row["Δ vs baseline"], row["score"] - other["score"])
        assert row["Δ 95% CI low"] <= row["Δ vs baseline"] <= row["Δ 95% CI high"]
        if row["segments"] < 10:
            assert row["p vs baseline"] == "— (< 10 segments)"
    # the bars drawn are the table's differences
    promt = next(t for t in spec["data"] if t["name"] == "PROMT" and t.get("yaxis", "y") == "y")
    table = frame[(frame["system"] == "PROMT") & (frame["metric"] == "BLEU")]
    assert sorted(promt["y"]) == pytest.approx(sorted(table["Δ vs baseline"]))
    colours = {t["name"]: t["marker"]["color"] for t in spec["data"]}
    at.segmented_control(key="an_bucket_view").set_value("Scores").run()
    (spec,) = [json.loads(s) for s in plotly_specs(at)]
    assert "LT22" in {t["name"] for t in spec["data"]}
    assert all(t["marker"]["color"] == colours[t["name"]] for t in spec["data"] if t["name"] in colours)


def test_a_one_segment_bucket_is_pale_and_does_not_set_the_axis(deen):
    at = _run(deen, "Buckets", **{"an_edges:ref-length": "10:60:95"})
    frame = at.dataframe[0].value
    tiny = frame[frame["segments"] < 10]
    assert len(tiny) and set(tiny["bucket"]) <= {">=95", "[60,95)"}
    for view in ("Difference from the baseline", "Scores"):
        at.segmented_control(key="an_bucket_view").set_value(view).run()
        (spec,) = [json.loads(s) for s in plotly_specs(at)]
        first = [t for t in spec["data"] if t.get("yaxis", "y") == "y"]
        low, high = spec["layout"]["yaxis"]["range"]
        for trace in first:
            for x, y, up, down, opacity in zip(
                trace["x"], trace["y"], trace["error_y"]["array"], trace["error_y"]["arrayminus"],
                trace["marker"]["opacity"], strict=True,
            ):  # fmt: skip
                if "(few)" in x:
                    assert opacity < 1
                else:
                    assert opacity == 1 and low <= y - down and y + up <= high


def test_metric_disagreement_names_the_system_each_metric_prefers(deen):
    at = _run(deen, "Metric disagreement", ("bleu", "chrf", "ter"), an_dis_a="LT22", an_dis_b="PROMT")
    frame = at.dataframe[0].value
    assert {"prefers A = LT22", "A better by", "prefers B = PROMT", "B better by"} <= set(frame.columns)
    assert (frame["A better by"] > 0).all() and (frame["B better by"] > 0).all()
    metrics = {"bleu": create("bleu"), "chrf": create("chrf"), "ter": create("ter")}
    evaluation = evaluate({k: list(v) for k, v in deen.systems.items()}, [list(r) for r in deen.refs], metrics)
    seg = {r.name: r.segment_scores for r in evaluation.systems}
    ter_rows = frame[frame["prefers A = LT22"] == "TER ↓ (lower is better)"]
    assert len(ter_rows)
    for segment, row in ter_rows.iterrows():
        i = segment - 1  # TER prefers LT22: its TER is lower, by the margin shown
        assert rel_close(row["A better by"], seg["PROMT"]["ter"][i] - seg["LT22"]["ter"][i])
    for segment, row in frame[frame["prefers B = PROMT"] == "TER ↓ (lower is better)"].iterrows():
        i = segment - 1
        assert rel_close(row["B better by"], seg["LT22"]["ter"][i] - seg["PROMT"]["ter"][i])
    assert any("lower is better" in shown(c.value) for c in at.caption)


def test_documents_rank_flips_of_significant_pairs_on_paragraphs():
    folder = DATA / "wmt23-he-en-para"
    c = load_corpus(folder, ["ref.A.txt", "ref.B.txt"])
    data = Dataset("WMT23 he-en paragraphs", {k: tuple(v) for k, v in c.systems.items()},
                   tuple(tuple(r) for r in c.refs), ("A", "B"))  # fmt: skip
    meta = read_metadata(folder / "meta.tsv", len(data))
    at = _run(data, "Documents", ("bleu",), analysis_metadata=meta)
    heads = [shown(m.value) for m in at.markdown]
    assert "**Documents that reverse a significant difference**: 11 of 13 (largest reversal first)" in heads
    flips = at.dataframe[1].value
    assert len(flips) == 11 and list(flips["largest reversal"]) == sorted(flips["largest reversal"], reverse=True)
    top = flips.iloc[0]
    assert top["document"] == "business-6713575.news" and round(top["largest reversal"], 2) == 16.23
    assert top["reversed here (better here > better on the corpus, by)"].startswith(
        "NLLB_MBR_BLEU > ZengHuiMT (by 16.23)"
    )
    assert any("2 more documents flip only pairs that are not significantly" in shown(c.value) for c in at.caption)


def test_a_slice_chosen_by_a_score_difference_says_its_test_is_circular(deen):
    explorer = app("pages/explorer.py", deen, ["bleu", "chrf"]).run(timeout=120)
    assert not explorer.exception
    diff = explorer.slider(key="ex_diff_range:LT22 − Online-B · BLEU")
    explorer.slider(key=diff.key).set_range(diff.min, -20.0).run()
    explorer.text_input(key="ex_slice_name").set_value("LT22 far behind").run()
    explorer.button(key="ex_slice_save").click().run()
    assert not explorer.exception
    (saved,) = explorer.session_state["slices"]
    assert saved.selected_by == (ScoreCondition("bleu", ("LT22", "Online-B")),)
    assert len(saved.segments) >= 10
    # the workspace keeps what chose the slice
    settings = workspace.Settings(("bleu",), {}, {}, (saved,))
    _, loaded = workspace.loads(workspace.dumps(deen, settings))
    assert loaded.slices == (saved,)

    at = _run(deen, "Slices", slices=(saved,))
    frame = at.dataframe[0].value.set_index(["system", "metric"])
    circular = "— circular: the slice was selected by BLEU of LT22 − Online-B"
    assert frame.loc[("Online-B", "BLEU"), "p vs baseline"] == circular
    assert frame.loc[("PROMT", "BLEU"), "p vs baseline"] == circular  # against LT22, whose BLEU chose the slice
    assert not frame.loc[("Online-B", "BLEU"), "p < 0.05"]
    assert frame.loc[("Online-B", "BLEU"), "Δ vs baseline"] > 20  # the slice's content is still shown
    assert frame.loc[("Online-B", "chrF2"), "p vs baseline"] != circular  # another metric is tested
    listed = " ".join(shown(m.value) for m in at.markdown)
    assert "selected by scores (BLEU of LT22 − Online-B)" in listed and "circular" in listed
    (spec,) = [json.loads(s) for s in plotly_specs(at)]
    first = [t for t in spec["data"] if t.get("yaxis", "y") == "y"]  # BLEU: no outline marks a finding
    assert all(w == 0 for t in first for w in t["marker"]["line"]["width"])


def test_a_slice_without_score_filters_is_tested_as_before(deen):
    explorer = app("pages/explorer.py", deen, ["bleu"]).run(timeout=120)
    explorer.text_input(key="ex_text").set_value("the").run()
    explorer.text_input(key="ex_slice_name").set_value("the").run()
    explorer.button(key="ex_slice_save").click().run()
    (saved,) = explorer.session_state["slices"]
    assert saved.selected_by == ()  # the untouched difference slider is no selection
    at = _run(deen, "Slices", slices=(saved,))
    p = at.dataframe[0].value.set_index(["system", "metric"]).loc[("Online-B", "BLEU"), "p vs baseline"]
    assert float(p) > 0
