"""Overview page: systems × metrics with intervals, significance against the chosen baseline, tied groups,
charts, downloads with signatures; nothing is recomputed on a rerun or a page switch."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import mt_thresholds
import pytest
from sacrebleu.metrics import BLEU, CHRF

import dashboard.state
from dashboard.dataset import Dataset
from metrics.cli.main import main
from metrics.io.inputs import read_segments
from metrics.stats import significance
from tests.support.paths import DATA
from tests.support.ui import (
    SCRIPT,
    app,
    assert_escaped_markdown,
    choose_metrics,
    hostile_dataset,
    markdown_bodies,
    plotly_specs,
    shown,
    small_dataset,
    with_downloads,
)

DEEN = DATA / "wmt22-de-en"


@pytest.fixture(scope="module")
def overview():
    at = app("app.py", small_dataset(), ["bleu", "chrf"]).run()
    assert not at.exception, at.exception
    return at


def test_scores_equal_sacrebleu_and_best_is_named(overview):
    data = small_dataset()
    table = overview.dataframe[0].value
    refs = [list(r) for r in data.refs]
    for name, hyps in data.systems.items():
        assert table.loc[name, "BLEU"] == pytest.approx(BLEU().corpus_score(list(hyps), refs).score, rel=1e-9)
        assert table.loc[name, "chrF2"] == pytest.approx(CHRF().corpus_score(list(hyps), refs).score, rel=1e-9)
    assert list(table.columns) == [
        "BLEU", "BLEU 95% CI", "BLEU p", "BLEU human agr.", "chrF2", "chrF2 95% CI", "chrF2 p", "chrF2 human agr.",
    ]  # fmt: skip
    assert table.loc["alpha", "BLEU p"] == "—"


def test_human_agreement_estimate_beside_each_p_value(overview):
    """The estimate of Kocmi et al. 2024 (mt-thresholds) for each system's difference to the baseline."""
    import mt_thresholds

    table = overview.dataframe[0].value
    assert table.loc["alpha", "BLEU human agr."] == ""  # the baseline has no difference to judge
    for name in ("beta", "gamma"):
        for label, metric in (("BLEU", "bleu"), ("chrF2", "chrf")):
            delta = table.loc[name, label] - table.loc["alpha", label]
            expected = mt_thresholds.accuracy(abs(delta), metric)
            assert table.loc[name, f"{label} human agr."] == f"≈{expected:.0f}%"
    captions = " ".join(c.value for c in overview.caption)
    assert "Kocmi et al. 2024" in captions


def test_intervals_pvalues_and_groups_come_from_the_significance_module(overview):
    data = small_dataset()
    table = overview.dataframe[0].value
    from metrics.core.registry import create
    from metrics.evaluate import evaluate

    bleu = create("bleu")
    result = evaluate({k: list(v) for k, v in data.systems.items()}, [list(r) for r in data.refs], {"bleu": bleu})
    stats = {r.name: r.stats["bleu"] for r in result.systems}
    report = significance.all_pairs(bleu, stats, n_samples=1000, seed=12345)
    lo, hi = report.intervals["beta"].lo, report.intervals["beta"].hi
    assert table.loc["beta", "BLEU 95% CI"] == f"{lo:.2f}–{hi:.2f}"
    pair = next(p for p in report.pairs if {p.baseline, p.system} == {"alpha", "beta"})
    assert table.loc["beta", "BLEU p"] == f"{pair.p_value:.4f}"
    groups = " ".join(shown(m.value) for m in overview.markdown)
    assert "BLEU: " + " > ".join("{" + ", ".join(g) + "}" for g in report.groups) in groups


def test_changing_the_baseline_moves_the_p_values(overview):
    overview.selectbox(key="baseline_box").set_value("gamma").run()
    table = overview.dataframe[0].value
    assert table.loc["gamma", "BLEU p"] == "—" and table.loc["alpha", "BLEU p"] != "—"
    assert overview.session_state["baseline"] == "gamma"


def test_downloads_carry_signatures(overview):
    downloads = {d.proto.label: d for d in overview.get("download_button")}
    assert set(downloads) == {"Download CSV", "Download JSON", "Download LaTeX"}
    signatures = [c.value for c in overview.code]
    assert any(s.startswith("BLEU: nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp") for s in signatures)
    assert "BLEU (segment scores): nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0" in signatures
    assert any(s.startswith("chrF2: nrefs:1|case:mixed") for s in signatures)
    assert len(plotly_specs(overview)) == 2  # scores with whiskers, rankings


def test_downloads_are_the_cli_results_on_the_same_files(monkeypatch, capsys):
    """The app's JSON and CSV downloads of WMT22 de-en equal ``scorelens score --paired-bs --all-pairs`` on the
    same files: one schema, one set of numbers (the dataset title and the human-agreement estimates of the table's
    agr. column are the app's alone)."""
    refs = [DEEN / "ref.A.txt", DEEN / "ref.B.txt"]
    files = sorted((DEEN / "sys").glob("*.txt"))
    data = Dataset(
        "WMT22 de-en",
        {p.stem: read_segments(p).texts for p in files},
        tuple(read_segments(p).texts for p in refs),
        tuple(p.name for p in refs),
    )
    at, downloads = with_downloads(app("app.py", data, ["bleu", "chrf"]))
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    args = ["score", "--refs", *map(str, refs), "--systems", *map(str, files), "--metrics", "bleu,chrf"]
    args += ["--paired-bs", "--all-pairs"]
    assert main([*args, "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    page = json.loads(downloads["scorelens.json"])
    assert page["dataset"] == "WMT22 de-en" and cli["dataset"] is None
    agreement = page.pop("agreement")
    assert page == {**cli, "dataset": "WMT22 de-en"}
    # every system against the baseline (the first), as the agr. column: mt-thresholds' value, the pair's p-value
    scores = {s["name"]: s["scores"] for s in page["systems"]}
    baseline = files[0].stem
    assert [(g["metric"], g["a"], g["b"]) for g in agreement] == [
        (m, p.stem, baseline) for m in ("bleu", "chrf") for p in files[1:]
    ]
    for g in agreement:
        delta = scores[g["a"]][g["metric"]] - scores[baseline][g["metric"]]
        assert g["delta"] == delta and g["fit"] == g["metric"]
        assert g["human_agreement"] == mt_thresholds.accuracy(abs(delta), g["metric"]) / 100
        (pair,) = [
            p for p in page["pairs"] if p["metric"] == g["metric"] and {p["baseline"], p["system"]} == {g["a"], g["b"]}
        ]
        assert g["p_value"] == pair["p_value"]
    # 5 systems, 10 Holm-corrected pairs: both take 2000 resamples, so that 10/2001 ≤ 0.05/10
    assert len(page["pairs"]) == 2 * 10 and page["signatures"]["bleu"].startswith("nrefs:2|bs:2000|seed:12345|")
    table = at.dataframe[0].value
    for system in page["systems"]:  # and the numbers are the ones the page shows
        assert system["scores"]["bleu"] == table.loc[system["name"], "BLEU"]
    assert main([*args, "--format", "csv"]) == 0
    with zipfile.ZipFile(io.BytesIO(downloads["scorelens-csv.zip"])) as archive:
        assert archive.namelist() == ["scores.csv", "comparisons.csv", "groups.csv", "agreement.csv"]
        tables = [archive.read(name).decode() for name in archive.namelist()]
    assert "\n".join(tables[:3]) == capsys.readouterr().out
    rows = list(csv.DictReader(io.StringIO(tables[3])))
    assert len(rows) == len(agreement) and rows[0]["fit"] == "bleu" and rows[0]["signature"].startswith("nrefs:2|")
    assert float(rows[0]["human_agreement"]) == agreement[0]["human_agreement"]
    latex = downloads["scorelens.tex"].decode()
    assert f"{page['systems'][0]['scores']['bleu']:.2f}" in latex and "bs:2000|seed:12345" in latex


def test_rerun_and_page_switch_never_recompute(monkeypatch):
    at = app("app.py", small_dataset(), ["bleu", "chrf"]).run()

    def forbidden(*_args, **_kwargs):
        raise AssertionError("corpus statistics recomputed")

    monkeypatch.setattr(dashboard.state, "evaluate", forbidden)
    monkeypatch.setattr(significance, "all_pairs", forbidden)
    at.run()
    assert not at.exception
    at.switch_page("pages/explorer.py").run()
    assert not at.exception
    at.switch_page("pages/segment.py").run()
    assert not at.exception
    at.number_input(key="segment_box:0").increment().run()
    assert not at.exception and at.session_state["segment"] == 1


def test_metric_options_from_the_sidebar_rescore_and_show_in_the_signature():
    at = app("app.py", small_dataset(), ["bleu"]).run()
    at.checkbox(key="opt:bleu:lowercase").check().run()
    assert at.session_state["metric_options"] == {"bleu": {"lowercase": True}}
    assert any("case:lc" in c.value for c in at.code)
    at.number_input(key="opt:bleu:max_ngram_order").set_value(3).run()
    assert at.session_state["metric_options"] == {"bleu": {"lowercase": True, "max_ngram_order": 3}}
    assert any("case:lc" in c.value for c in at.code) and not at.error
    at.number_input(key="opt:bleu:max_ngram_order").set_value(0).run()  # below the box's minimum: not taken
    order = at.number_input(key="opt:bleu:max_ngram_order").value
    assert 1 <= order <= 9 and not at.error
    assert at.session_state["metric_options"]["bleu"].get("max_ngram_order", 4) == order


def test_overview_escapes_hostile_text():
    at = app("app.py", hostile_dataset(), ["bleu"]).run()
    assert not at.exception
    for body in markdown_bodies(at):
        assert_escaped_markdown(body)
    assert any(SCRIPT in shown(m.value) for m in at.markdown)
    for spec in plotly_specs(at):
        assert "<script" not in spec and "\\u003cscript" not in spec
        assert "&lt;script&gt;" in json.dumps(json.loads(spec))
    assert SCRIPT in list(at.dataframe[0].value.index)


def test_twelve_systems_fit_every_page():
    base = small_dataset()
    systems = {
        f"sys{k:02d}": tuple(f"{line} {'extra ' * k}".strip() for line in base.systems["alpha"]) for k in range(12)
    }
    data = Dataset("twelve", systems, base.refs, base.ref_names, base.source, ("bleu",))
    at = app("app.py", data, ["bleu", "chrf"]).run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table.index) == list(systems) and table["BLEU"].idxmax() == "sys00"
    groups = [shown(m.value) for m in at.markdown if m.value.startswith("- BLEU")]
    assert groups and groups[0].count("sys") == 12
    at.switch_page("pages/segment.py").run()
    assert not at.exception
    assert sum(" — BLEU " in shown(m.value) for m in at.markdown) == 12


def test_every_metric_keeps_its_score_column_and_details_are_offered_while_they_fit():
    """Up to three metrics the table carries each score's interval and p-value; with more, every metric's score
    comes first (the table would overflow a 1400 px window) and the details are one click away."""
    at = app("app.py", small_dataset(), ["bleu", "chrf", "ter", "rouge1"]).run()
    assert not at.exception, at.exception
    assert list(at.dataframe[0].value.columns) == ["BLEU", "chrF2", "TER", "ROUGE-1"]
    assert list(at.dataframe[0].value.index) == ["alpha", "beta", "gamma"]
    at.pills(key="overview_details").set_value(["95% CI"]).run()
    assert list(at.dataframe[0].value.columns) == [
        "BLEU",
        "BLEU 95% CI",
        "chrF2",
        "chrF2 95% CI",
        "TER",
        "TER 95% CI",
        "ROUGE-1",
        "ROUGE-1 95% CI",
    ]


def test_ter_on_long_segments_asks_before_it_starts_and_the_rest_is_shown_meanwhile():
    """45 segments of 1,240 words (under TER's 5,000-character limit): TER's estimate (from the lengths: its search
    grows with the square of a segment's length) passes a minute, so the overview shows BLEU and asks; on the
    user's go TER is computed and shown."""
    words = [f"w{k % 97}" for k in range(1240)]
    refs = tuple(" ".join(words[i:] + words[:i]) for i in range(45))
    data = Dataset("long", {"same": refs, "copy": refs}, (refs,), ("ref",))
    at = app("app.py", data, ["bleu", "ter"]).run()
    assert not at.exception, at.exception
    warning = shown(at.warning[0].value)
    assert warning.startswith("Scoring: expected to take about 2.3 minutes in all, estimated from the segments'")
    assert "TER on same (69 seconds), TER on copy (69 seconds)" in warning
    assert list(at.dataframe[0].value.columns[:1]) == ["BLEU"] and "TER" not in at.dataframe[0].value.columns
    assert not at.error  # nothing failed: TER waits
    next(b for b in at.button if b.label == "Start it").click().run()
    assert not at.warning and list(at.dataframe[0].value["TER"]) == [0.0, 0.0]


HEEN = DATA / "wmt23-he-en"


def _heen(external: bool = True) -> Dataset:
    """WMT23 he-en, 40 segments, 12 systems, 2 references, with WMT23's COMET-22 segment scores as ``comet22``."""
    files = sorted((HEEN / "sys").glob("*.txt"))
    systems = {p.stem: read_segments(p).texts for p in files}
    refs = tuple(read_segments(HEEN / f"ref.{k}.txt").texts for k in "AB")
    data = Dataset("he-en", systems, refs, ("ref.A.txt", "ref.B.txt"))
    if not external:
        return data
    from metrics.families.external import read_external

    return data.with_external(read_external(HEEN / "COMET-refB.seg.tsv", "comet22", list(systems), 40))


def test_an_external_comet22_gets_its_estimate_on_the_0_to_1_scale_read_as_points():
    """WMT23's COMET-22 scores (0–1) loaded as ``comet22``: the agr. column carries mt-thresholds' comet22 fit of
    the difference ×100 (the fit's points), TER says it has none, and the JSON download holds the same numbers."""
    data = _heen()
    at, downloads = with_downloads(app("app.py", data, ["bleu", "ter", "comet22"], n_resamples=1000))
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert "comet22 human agr." in table.columns and "TER human agr." not in table.columns
    baseline = next(iter(data.systems))
    document = json.loads(downloads["scorelens.json"])
    comet = {g["a"]: g for g in document["agreement"] if g["metric"] == "comet22"}
    assert len(comet) == 11 and {g["fit"] for g in comet.values()} == {"comet22"}
    for name, g in comet.items():
        delta = table.loc[name, "comet22"] - table.loc[baseline, "comet22"]
        assert g["delta"] == pytest.approx(delta, abs=1e-12)
        expected = mt_thresholds.accuracy(abs(g["delta"]) * 100, "comet22") / 100
        assert abs(g["human_agreement"] - expected) <= 1e-12
        shown_text = table.loc[name, "comet22 human agr."]
        assert shown_text == ("≈ chance" if expected < 0.5 else f"≈{100 * expected:.0f}%")
    caption = " ".join(c.value for c in at.caption)
    assert "comet22: fit comet22 (its name) (scores on 0–1, differences read ×100), at most 96 %" in shown(caption)
    assert "No estimate for TER" in shown(caption) and "not a probability that the system is better" in caption


def test_rows_are_best_first_under_the_first_metric_and_upload_order_is_one_click_away():
    data = _heen(external=False)
    at = app("app.py", data, ["ter", "bleu"], n_resamples=1000).run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    ter = list(table["TER"])
    assert ter == sorted(ter) and list(table.index) != list(data.systems)  # TER: lower is better
    assert "Sorted by TER, best first (lower is better)." in at.caption[0].value
    at.radio(key="overview_order").set_value("as uploaded").run()
    assert list(at.dataframe[0].value.index) == list(data.systems)
    assert at.caption[0].value.startswith("In upload order.")


def test_the_chosen_columns_outlive_a_change_of_metrics_and_the_caption_names_only_them():
    at = app("app.py", small_dataset(), ["bleu", "chrf"]).run()
    at.pills(key="overview_details").set_value(["95% CI"]).run()
    assert list(at.dataframe[0].value.columns) == ["BLEU", "BLEU 95% CI", "chrF2", "chrF2 95% CI"]
    # past three metrics the offered default is no column: the user's pick stays
    choose_metrics(at, ["bleu", "chrf", "ter", "rouge1"]).run()
    assert not at.exception, at.exception
    assert list(at.dataframe[0].value.columns) == [
        "BLEU", "BLEU 95% CI", "chrF2", "chrF2 95% CI", "TER", "TER 95% CI", "ROUGE-1", "ROUGE-1 95% CI",
    ]  # fmt: skip
    caption = at.caption[0].value
    assert "95% CI: bootstrap interval" in caption
    assert "paired bootstrap against" not in caption and "agr." not in caption


def test_the_data_page_says_which_fit_external_scores_take_and_a_declared_one_reaches_the_overview():
    data = _heen(external=False)
    at = app("app.py", data, ["bleu"], n_resamples=1000).run()
    at.switch_page("pages/data.py").run()
    scores = (HEEN / "COMET-refB.seg.tsv").read_bytes()
    at.file_uploader(key="up_external").set_value(("COMET-refB.seg.tsv", scores, "text/tab-separated-values")).run()
    assert not at.exception, at.exception
    assert at.text_input(key="external_name").value == "COMET-refB.seg"
    captions = [shown(c.value) for c in at.caption]
    assert "No human-agreement estimate: no mt-thresholds fit is declared or matches the name." in captions
    at.selectbox(key="external_fit").set_value("comet22").run()
    captions = [shown(c.value) for c in at.caption]
    assert "Human agreement: fit comet22 (declared with its scores) (scores on 0–1, differences read ×100)" in captions
    at.button(key="load_external").click().run()
    loaded = at.session_state["dataset"].external["COMET-refB.seg"]
    assert loaded.fit == "comet22"
    at.switch_page("pages/overview.py").run()
    assert not at.exception, at.exception
    assert "COMET-refB.seg human agr." in at.dataframe[0].value.columns
