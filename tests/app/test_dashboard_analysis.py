"""The Analysis page under AppTest: every section renders on real data, numbers equal the references on the
segments concerned, bad input gives a message while the page keeps working, user text stays literal; slices are
saved from the Explorer and with the workspace."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import BLEU

from dashboard import workspace
from dashboard.dataset import Dataset
from metrics.analysis.slices import Slice
from metrics.io.inputs import InputError
from metrics.io.metadata import parse_metadata
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close
from tests.support.ui import (
    ANALYSIS_SECTIONS,
    SCRIPT,
    app,
    assert_escaped_markdown,
    hostile_dataset,
    markdown_bodies,
    plotly_specs,
    shown,
    small_dataset,
    with_downloads,
)

PAGE = "pages/analysis.py"
SECTIONS = ANALYSIS_SECTIONS


@pytest.fixture(scope="module")
def deen() -> Dataset:
    c = slice_corpus("wmt22-de-en")
    systems = {k: tuple(c.systems[k]) for k in ("LT22", "Online-B", "PROMT")}
    return Dataset("WMT22 de-en slice", systems, tuple(tuple(r) for r in c.refs), ("A", "B"), tuple(c.src or ()))


def _run(data: Dataset, section: str, **state: object):
    at = app(PAGE, data, ["bleu", "chrf"], an_section=section, **state).run(timeout=120)
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("section", SECTIONS)
def test_every_section_renders(deen, section):
    at = _run(deen, section)
    assert not at.error, [e.value for e in at.error]


def test_bucket_scores_are_sacrebleu_on_the_buckets_lines(deen):
    at = _run(deen, "Buckets")
    frame = at.dataframe[0].value
    assert set(frame["bucket"]) <= {"<10", "[10,20)", "[20,30)", "[30,40)", "[40,50)", "[50,60)", ">=60"}
    row = frame[(frame["bucket"] == "[10,20)") & (frame["system"] == "PROMT") & (frame["metric"] == "BLEU")].iloc[0]
    # the bucket holds the segments whose mean reference length (BLEU 13a tokens) is in [10, 20)
    bleu = BLEU()
    lengths = [
        sum(len(bleu._preprocess_segment(r[i]).split()) for r in deen.refs) / len(deen.refs) for i in range(len(deen))
    ]
    lines = [i for i, n in enumerate(lengths) if 10 <= n < 20]
    assert row["segments"] == len(lines)
    hyps = [deen.systems["PROMT"][i] for i in lines]
    refs = [[r[i] for i in lines] for r in deen.refs]
    assert rel_close(row["score"], BLEU().corpus_score(hyps, refs).score)
    assert row["95% CI low"] <= row["score"] <= row["95% CI high"]
    assert len(plotly_specs(at)) == 1


def test_bucket_download_is_the_cli_document(deen, tmp_path, capsys):
    at, files = with_downloads(app(PAGE, deen, ["bleu", "chrf"], an_section="Buckets"))
    document = json.loads(files["scorelens-buckets.json"])
    assert {"signatures", "buckets", "analysis"} <= set(document)
    assert document["signatures"]["bleu"].startswith("nrefs:2|bs:1000|seed:12345|")
    first = document["buckets"][0]
    assert set(first["scores"]["PROMT"]["bleu"]) >= {"score", "ci", "p_value"}
    assert files["scorelens-buckets.tex"].startswith(b"% ScoreLens analysis") or "\\toprule" in str(
        files["scorelens-buckets.tex"]
    )


def test_edges_bad_and_empty_buckets_keep_the_page_working(deen):
    at = _run(deen, "Buckets")
    at.text_input(key="an_edges:ref-length").set_value("30:20").run()
    assert not at.exception and any("increase" in e.value for e in at.error)
    at.text_input(key="an_edges:ref-length").set_value("60:70:80").run()
    assert not at.exception and any("no segments in bucket" in i.value for i in at.info)


def test_per_system_buckets_say_there_is_no_paired_test(deen):
    at = _run(deen, "Buckets")
    at.selectbox(key="an_by").set_value("length-diff").run()
    assert not at.exception
    assert any("no paired test" in c.value for c in at.caption)
    assert len(plotly_specs(at)) == 2  # scores and the segments per bucket


def test_a_system_compared_with_itself_gets_a_message(deen):
    at = _run(deen, "N-grams A vs B")
    at.selectbox(key="an_ng_b").set_value(at.selectbox(key="an_ng_a").value).run()
    assert not at.exception and any("compared with itself" in w.value for w in at.warning)


def test_ngram_tables_list_both_directions(deen):
    at = _run(deen, "N-grams A vs B", an_ng_a="LT22", an_ng_b="PROMT")
    a_better, b_better = at.dataframe[0].value, at.dataframe[1].value
    assert (a_better["A"] > a_better["B"]).all() and (b_better["B"] > b_better["A"]).all()
    assert any("A = LT22 matches more than B = PROMT" in shown(m.value) for m in at.markdown)


def test_metadata_buckets_and_documents(deen):
    rows = ["doc\tdomain", *(f"d{i // 100}\t{'news' if i % 2 else 'talk'}" for i in range(len(deen)))]
    meta = parse_metadata(("\n".join(rows) + "\n").encode(), "meta.tsv", len(deen))
    at = _run(deen, "Buckets", analysis_metadata=meta, an_by="meta:domain")
    frame = at.dataframe[0].value
    assert set(frame["bucket"]) == {"news", "talk"}
    assert set(frame.loc[frame["bucket"] == "news", "segments"]) == {200}
    at = _run(deen, "Documents", analysis_metadata=meta)
    documents = at.dataframe[0].value
    assert list(documents["document"]) == ["d0", "d1", "d2", "d3"]
    lines = range(100, 200)
    hyps = [deen.systems["LT22"][i] for i in lines]
    refs = [[r[i] for i in lines] for r in deen.refs]
    assert rel_close(documents.loc[1, "LT22"], BLEU().corpus_score(hyps, refs).score)


def test_metadata_of_the_wrong_length_is_refused_with_file_and_count(deen):
    with pytest.raises(InputError, match="meta.tsv: has 3 rows of metadata but the data has 400 segments"):
        parse_metadata(b"doc\na\nb\nc\n", "meta.tsv", 400)
    stale = parse_metadata(b"doc\na\nb\nc\n", "meta.tsv", 3)  # metadata of other data is not used
    at = _run(deen, "Documents", analysis_metadata=stale)
    assert any("Load a metadata file" in i.value for i in at.info)


def test_slices_are_scored_and_saved_from_the_explorer(deen):
    piece = Slice("first fifty", "segments 1-50", tuple(range(50)))
    at = _run(deen, "Slices", slices=(piece,))
    frame = at.dataframe[0].value
    row = frame[(frame["system"] == "LT22") & (frame["metric"] == "BLEU")].iloc[0]
    hyps = list(deen.systems["LT22"][:50])
    refs = [list(r[:50]) for r in deen.refs]
    assert row["slice"] == "first fifty" and rel_close(row["score"], BLEU().corpus_score(hyps, refs).score)

    explorer = app("pages/explorer.py", small_dataset(), ["bleu"]).run()
    explorer.text_input(key="ex_text").set_value("dog").run()
    explorer.text_input(key="ex_slice_name").set_value("dogs").run()
    explorer.button(key="ex_slice_save").click().run()
    assert not explorer.exception
    (saved,) = explorer.session_state["slices"]
    assert saved.name == "dogs" and saved.segments == (1,) and "dog" in saved.description


def test_slices_go_with_the_workspace(deen):
    settings = workspace.Settings(("bleu",), {}, {}, (Slice("s", "made by hand", (0, 2)),))
    data, loaded = workspace.loads(workspace.dumps(small_dataset(), settings))
    assert loaded.slices == settings.slices
    document = json.loads(workspace.dumps(small_dataset(), settings))
    document["settings"]["slices"][0]["segments"] = [0, 9]
    with pytest.raises(InputError, match=r"settings.slices\[1\].*4 segments"):
        workspace.loads(json.dumps(document))


def test_metadata_goes_with_the_workspace():
    data = small_dataset()
    meta = parse_metadata(
        b"doc\tdomain\n" + b"".join(f"d{i // 2}\tnews\n".encode() for i in range(len(data))), "m.tsv", 4
    )
    settings = workspace.Settings(("bleu",), {}, {}, (), meta)
    _, loaded = workspace.loads(workspace.dumps(data, settings))
    assert loaded.metadata == meta and loaded.metadata.column("doc") == ("d0", "d0", "d1", "d1")
    document = json.loads(workspace.dumps(data, settings))
    document["settings"]["metadata"]["columns"]["doc"] = ["d0"]
    with pytest.raises(InputError, match=r"ws.json: settings.metadata.columns\['doc'\] has 1 values .* 4 segments"):
        workspace.loads(json.dumps(document), "ws.json")
    # the Data page's workspace load puts it where the Analysis page reads it
    at = app("pages/data.py", data, ["bleu"]).run()
    at.file_uploader(key="up_workspace").set_value(("ws.json", workspace.dumps(data, settings).encode(), "x"))
    at.run()
    at.button(key="load_workspace").click().run()
    assert not at.exception and at.session_state["analysis_metadata"] == meta
    at = app(PAGE, data, ["bleu"], analysis_metadata=meta, an_section="Documents").run(timeout=120)
    assert not at.exception and list(at.dataframe[0].value["document"]) == ["d0", "d1"]


def test_trust_shows_the_estimate_beside_the_p_value(deen):
    import mt_thresholds

    at = _run(deen, "Trust in differences")
    frame = at.dataframe[0].value
    assert set(frame["metric"]) == {"BLEU", "chrF2"} and len(frame) == 2 * 3
    for _, row in frame.iterrows():
        name = "bleu" if row["metric"] == "BLEU" else "chrf"
        assert row["human agreement (est.)"] == mt_thresholds.accuracy(abs(row["Δ = A − B"]), name) / 100
        assert 0 < row["p (paired bootstrap)"] <= 1


def test_hostile_names_stay_literal():
    data = hostile_dataset()
    for section in ("Buckets", "N-grams A vs B", "Trust in differences", "Metric disagreement"):
        at = app(PAGE, data, ["bleu", "chrf"], an_section=section).run(timeout=120)
        assert not at.exception, at.exception
        for body in markdown_bodies(at):
            assert_escaped_markdown(body)
        for spec in plotly_specs(at):
            assert SCRIPT not in spec and "<img" not in spec


@pytest.mark.parametrize("section", ["Buckets", "Words by frequency", "Slices"])
def test_quotes_and_ampersands_in_names_show_as_typed_in_the_charts(section):
    """Plotly decodes ``&amp;``, ``&lt;``, ``&gt;`` but not ``&quot;`` (an HTML escape showed it literally): a
    system called ``my "best" & <run>`` is ``my "best" &amp; &lt;run&gt;`` in every trace, never ``&quot;``."""
    base = small_dataset()
    name = 'my "best" & <run>'
    systems = {(name if k == "alpha" else k): v for k, v in base.systems.items()}
    data = Dataset(base.title, systems, base.refs, base.ref_names, base.source, base.default_metrics)
    slices = (Slice('the "first" two', "segments 1-2", (0, 1)),)
    at = _run(data, section, slices=slices)
    specs = [json.loads(spec) for spec in plotly_specs(at)]
    assert specs
    for spec in specs:
        assert "&quot;" not in json.dumps(spec) and "&#34;" not in json.dumps(spec)
    names = {trace.get("name") for spec in specs for trace in spec["data"]}
    # the baseline: a trace of the scores, or named in the title of its differences
    titles = " ".join(spec["layout"]["title"]["text"] for spec in specs if "title" in spec["layout"])
    assert 'my "best" &amp; &lt;run&gt;' in names or 'from my "best" &amp; &lt;run&gt;' in titles
    if section == "Slices":
        assert any('the "first" two' in str(trace.get("x")) for spec in specs for trace in spec["data"])
