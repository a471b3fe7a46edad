"""Segment metadata on real paragraph-level MT data (WMT23 he-en, doc_id and domain; tests/data/wmt23-he-en-para-meta):
uploaded on the Data page with everything else and saved with the workspace, shown on the Analysis page, filtered
by in the Explorer and saved from there as a slice the Analysis page scores; the Explorer's save form never replaces
a slice silently and stays open while the filters change; segments are numbered as the command line numbers them."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import BLEU

from dashboard import workspace
from dashboard.dataset import Dataset
from metrics.analysis.slices import Slice
from metrics.cli.main import main
from metrics.io.metadata import Metadata, parse_metadata
from tests.support.corpora import load_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA
from tests.support.ui import app, markdown_bodies, shown, with_downloads

FOLDER = DATA / "wmt23-he-en-para-meta"
META_FILE = FOLDER / "meta.tsv"
REVIEWS = tuple(range(42, 80))  # rows 43–80 of meta.tsv are user reviews, the first 42 news


@pytest.fixture(scope="module")
def para() -> Dataset:
    c = load_corpus(FOLDER, ["ref.A.txt", "ref.B.txt"], "src.txt")
    systems = {name: tuple(texts) for name, texts in c.systems.items()}
    return Dataset("WMT23 he-en paragraphs", systems, tuple(tuple(r) for r in c.refs), ("A", "B"), tuple(c.src or ()))


@pytest.fixture(scope="module")
def meta(para: Dataset) -> Metadata:
    return parse_metadata(META_FILE.read_bytes(), "meta.tsv", len(para))


def test_the_slice_is_what_its_provenance_says(meta):
    domains = meta.column("domain")
    assert domains[:42] == ("news",) * 42 and domains[42:] == ("user_review",) * 38
    assert len(set(meta.column("doc_id"))) == 15


def test_metadata_is_attached_on_the_data_page_and_goes_with_the_workspace(para, meta):
    at = app("pages/data.py", para, ["bleu"]).run()
    at.file_uploader(key="up_metadata").set_value(("meta.tsv", META_FILE.read_bytes(), "text/tab-separated-values"))
    at.run()
    assert not at.exception, at.exception
    assert any("✓ meta.tsv: 80 rows" in m and "domain (2 values: news, user_review)" in m for m in _shown(at))
    assert "analysis_metadata" not in at.session_state  # read and shown, not used before the click
    at.button(key="load_metadata").click().run()
    assert not at.exception, at.exception
    assert at.session_state["analysis_metadata"] == meta
    assert [u.key for u in at.file_uploader if u.key.startswith("up_metadata")] == ["up_metadata:1"]  # emptied
    assert any("Loaded: **meta.tsv** for 80 segments" in m for m in _shown(at))

    at, files = with_downloads(at)
    _, settings = workspace.loads(files["scorelens-workspace.json"])
    assert settings.metadata is not None and settings.metadata.values == meta.values

    at.button(key="drop_metadata").click().run()
    assert at.session_state["analysis_metadata"] is None


def test_metadata_of_other_data_is_refused_and_keeps_what_is_loaded(para, meta):
    at = app("pages/data.py", para, ["bleu"], analysis_metadata=meta).run()
    short = b"".join(META_FILE.read_bytes().splitlines(keepends=True)[:41])
    at.file_uploader(key="up_metadata").set_value(("short.tsv", short, "text/tab-separated-values"))
    at.run()
    assert not at.exception, at.exception
    errors = [shown(e.value) for e in at.error]
    assert "short.tsv: has 40 rows of metadata but the data has 80 segments (one row per segment)" in errors
    assert not any(b.key == "load_metadata" for b in at.button)
    assert at.session_state["analysis_metadata"] is meta


def test_new_references_drop_the_metadata(para, meta):
    at = app("pages/data.py", para, ["bleu"], analysis_metadata=meta).run()
    at.selectbox(key="sample_choice").set_value(at.selectbox(key="sample_choice").options[0])
    at.button(key="load_sample").click().run()
    assert not at.exception, at.exception
    assert at.session_state["analysis_metadata"] is None


def test_the_analysis_page_shows_the_metadata_and_leads_to_the_data_page(para, meta):
    at = app("app.py", para, ["bleu"], analysis_metadata=meta).run()
    at.switch_page("pages/analysis.py").run()
    assert not at.exception, at.exception
    assert not at.file_uploader  # one place to upload: the Data page
    assert "Segment metadata: meta.tsv (doc_id, domain)" in _shown(at)
    at.button(key="an_meta_data_page").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Data"


def test_explorer_filters_by_metadata_and_saves_a_slice_the_analysis_page_scores(para, meta):
    at = app("app.py", para, ["bleu"], analysis_metadata=meta).run()
    at.switch_page("pages/explorer.py").run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert list(table["domain (metadata)"]) == list(meta.column("domain"))
    at.multiselect(key="ex_meta:domain").set_value(["user_review"]).run()
    table = at.dataframe[0].value
    assert list(table.index) == [i + 1 for i in REVIEWS]  # numbered from 1, as everywhere a user reads them
    # a second column narrows further: one document of the reviews
    document = meta.column("doc_id")[60]
    at.multiselect(key="ex_meta:doc_id").set_value([document]).run()
    lines = [i for i in REVIEWS if meta.column("doc_id")[i] == document]
    assert list(at.dataframe[0].value.index) == [i + 1 for i in lines] and len(lines) > 1
    at.multiselect(key="ex_meta:doc_id").set_value([]).run()

    at.text_input(key="ex_slice_name").set_value("reviews").run()
    at.button(key="ex_slice_save").click().run()
    assert not at.exception, at.exception
    (saved,) = at.session_state["slices"]
    assert saved.name == "reviews" and saved.segments == REVIEWS
    assert saved.description == "domain is 'user_review'"  # the filters that narrowed, not the untouched ones

    analysis = app("pages/analysis.py", para, ["bleu"], slices=(saved,), an_section="Slices").run(timeout=120)
    assert not analysis.exception, analysis.exception
    frame = analysis.dataframe[0].value
    row = frame[(frame["system"] == "NLLB_Greedy") & (frame["slice"] == "reviews")].iloc[0]
    hyps = [para.systems["NLLB_Greedy"][i] for i in REVIEWS]
    refs = [[r[i] for i in REVIEWS] for r in para.refs]
    assert row["segments"] == 38 and rel_close(row["score"], BLEU().corpus_score(hyps, refs).score)


def test_a_slice_name_in_use_is_refused_unless_replaced(para, meta):
    first = Slice("slice 1", "made by hand", (0, 1))
    at = app("app.py", para, ["bleu"], analysis_metadata=meta, slices=(first,)).run()
    at.switch_page("pages/explorer.py").run()
    assert at.text_input(key="ex_slice_name").value == "slice 2"  # pre-filled with a name no slice has
    at.multiselect(key="ex_meta:domain").set_value(["news"]).run()
    at.button(key="ex_slice_save").click().run()
    assert [s.name for s in at.session_state["slices"]] == ["slice 1", "slice 2"]
    assert at.text_input(key="ex_slice_name").value == "slice 3"  # the next save cannot replace this one

    at.text_input(key="ex_slice_name").set_value("slice 1").run()
    assert at.button(key="ex_slice_save").disabled
    assert any("A slice named slice 1 exists (2 segments; made by hand)" in w for w in _shown(at))
    assert [s.segments for s in at.session_state["slices"]][0] == (0, 1)
    at.button(key="ex_slice_replace").click().run()
    assert not at.exception, at.exception
    replaced = at.session_state["slices"]
    assert [s.name for s in replaced] == ["slice 1", "slice 2"] and replaced[0].segments == tuple(range(42))
    assert [shown(m.value) for m in at.success] == ["Replaced slice slice 1 (42 segments)."]


def test_a_name_taken_at_the_click_is_refused(para):
    at = app("app.py", para, ["bleu"]).run()
    at.switch_page("pages/explorer.py").run()
    at.session_state["slices"] = (Slice("mine", "made by hand", (3,)),)
    at.text_input(key="ex_slice_name").set_value("mine")  # typed and clicked in one go: the button still showed
    at.button(key="ex_slice_save").click().run()
    assert not at.exception, at.exception
    assert at.session_state["slices"] == (Slice("mine", "made by hand", (3,)),)
    assert "a slice named 'mine' exists; choose another name" in [shown(e.value) for e in at.error]


def test_the_analysis_form_refuses_a_name_in_use(para):
    kept = Slice("s", "made by hand", (0,))
    at = app("pages/analysis.py", para, ["bleu"], slices=(kept,), an_section="Slices").run(timeout=120)
    at.text_input(key="an_slice_name").set_value("s")
    at.text_input(key="an_slice_ranges").set_value("1-5").run(timeout=120)
    at.button(key="an_slice_save").click().run(timeout=120)
    assert not at.exception, at.exception
    assert at.session_state["slices"] == (kept,)
    assert "a slice named 's' exists; choose another name" in [shown(e.value) for e in at.error]


def test_the_save_form_stays_open_while_the_filters_change(para, meta):
    at = app("app.py", para, ["bleu"], analysis_metadata=meta).run()
    at.switch_page("pages/explorer.py").run()
    (form,) = [e for e in at.expander if e.label.startswith("Save the filtered segments")]
    assert not form.proto.expanded
    at.session_state["ex_slice_open"] = True  # the user opens it
    at.run()
    for change in (
        lambda: at.multiselect(key="ex_meta:domain").set_value(["news"]),
        lambda: at.text_input(key="ex_text").set_value("the"),
    ):
        change()
        at.run()
        assert not at.exception, at.exception
        (form,) = [e for e in at.expander if e.label.startswith("Save the filtered segments")]
        assert form.proto.expanded
    (said,) = [shown(c.value) for c in at.caption if "Filters: text contains 'the'" in shown(c.value)]
    kept = len(at.dataframe[0].value)
    assert said == f"{kept} segments. Filters: text contains 'the'; domain is 'news'" and 0 < kept <= 42


def _shown(at) -> list[str]:
    return [shown(body) for body in markdown_bodies(at)]


def test_the_app_numbers_segments_as_the_cli_text_and_the_download_say(para, capsys):
    """The Analysis page's disagreement rows are numbered as `scorelens analyze --format table` numbers its
    lines and as the download's ``line`` field; the download's ``segment`` is the 0-based index one below."""
    state = {"an_section": "Metric disagreement", "an_dis_a": "GPT4-5shot", "an_dis_b": "NLLB_Greedy"}
    at = app("pages/analysis.py", para, ["chrf", "ter"], **state)
    at, files = with_downloads(at)
    shown_numbers = list(at.dataframe[0].value.index)
    downloaded = json.loads(files["scorelens-disagreements.json"])["disagreements"]
    assert shown_numbers == [d["line"] for d in downloaded] == [d["segment"] + 1 for d in downloaded]

    refs = [str(FOLDER / "ref.A.txt"), str(FOLDER / "ref.B.txt")]
    systems = [str(FOLDER / "sys" / f"{name}.txt") for name in ("GPT4-5shot", "NLLB_Greedy")]
    args = ["analyze", "--refs", *refs, "--systems", *systems, "--metrics", "chrf,ter", "--buckets", "none"]
    assert main([*args, "--disagreements", "GPT4-5shot,NLLB_Greedy", "--format", "table"]) == 0
    text = capsys.readouterr().out.splitlines()
    start = text.index(next(t for t in text if t.startswith("Segments where metrics disagree"))) + 2
    cli_numbers = [int(line.split()[0]) for line in text[start : text.index("", start)]]
    assert cli_numbers == shown_numbers


def test_a_slice_is_described_by_the_filters_that_narrowed_it(para, meta):
    at = app("app.py", para, ["bleu"], analysis_metadata=meta).run()
    at.switch_page("pages/explorer.py").run()
    low, high = at.slider(key="ex_len").value
    at.slider(key="ex_len").set_value((low, 40)).run()
    at.multiselect(key="ex_meta:domain").set_value(["news", "user_review"]).run()
    at.button(key="ex_slice_save").click().run()
    (saved,) = at.session_state["slices"]
    lengths = at.dataframe[0].value["ref words"]
    assert saved.segments == tuple(int(i) - 1 for i in lengths.index) and lengths.max() <= 40 < high
    assert saved.description == f"reference length {low}–40 words; domain is 'news' or 'user_review'"


def test_a_prefilled_name_taken_since_is_renewed_but_a_typed_one_is_kept(para):
    at = app("app.py", para, ["bleu"]).run()
    at.switch_page("pages/explorer.py").run()
    assert at.text_input(key="ex_slice_name").value == "slice 1"
    at.session_state["slices"] = (Slice("slice 1", "from a workspace", (0,)),)  # e.g. a workspace loaded since
    at.run()
    assert at.text_input(key="ex_slice_name").value == "slice 2"
    at.text_input(key="ex_slice_name").set_value("mine").run()
    at.session_state["slices"] = (*at.session_state["slices"], Slice("mine", "by hand", (1,)))
    at.run()
    assert at.text_input(key="ex_slice_name").value == "mine"  # the user's own: warned about, never changed
    assert at.button(key="ex_slice_save").disabled and at.button(key="ex_slice_replace")
