"""The app on data without references (a source and system outputs): it loads from an upload or a bundled example,
metrics that need references are shown as unavailable with the reason rather than as errors, and the Overview,
Explorer, Segment and Analysis pages work with metrics that read none — external scores, and a metric that reads
the source (the test stand-in for CometKiwi, :mod:`tests.support.source_metric`)."""

from __future__ import annotations

import json

import pytest

from dashboard import intake, workspace
from dashboard.dataset import Dataset
from dashboard.samples import load_sample
from dashboard.workspace import Settings
from metrics.families.external.scores import ExternalScores
from metrics.io.inputs import InputError, Segments
from tests.support.source_metric import register
from tests.support.ui import ANALYSIS_SECTIONS, app, markdown_bodies, setting_key, shown, small_dataset

METRICS = ["length-ratio", "judge", "bleu"]


@pytest.fixture(autouse=True)
def _length_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


def reference_free() -> Dataset:
    """small_dataset's systems and source, no references, and a judge's external scores."""
    small = small_dataset()
    values = {name: tuple(float(len(t)) for t in texts) for name, texts in small.systems.items()}
    lines = {name: tuple(range(1, len(small) + 1)) for name in small.systems}
    judge = ExternalScores("judge", "judge.tsv", values, lines)
    return Dataset("no refs", small.systems, (), (), small.source, external={"judge": judge})


def _ratio(hyps: tuple[str, ...], source: tuple[str, ...]) -> float:
    out, src = sum(map(len, hyps)), sum(map(len, source))
    return 100.0 * min(out, src) / max(out, src)


def _run(page: str, **state: object):
    at = app(page, reference_free(), METRICS, **state).run(timeout=120)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]  # unavailable is not an error
    return at


def _unavailable(at) -> str:
    notes = [shown(i.value) for i in at.info if "Not available on this data" in shown(i.value)]
    assert len(notes) == 1, [shown(i.value) for i in at.info]
    return notes[0]


def test_overview_scores_what_reads_no_references_and_names_what_cannot_run():
    at = _run("pages/overview.py")
    assert "BLEU (needs the references)" in _unavailable(at)
    data = reference_free()
    assert any("3 systems, 4 segments, no references and a source" in shown(m.value) for m in at.markdown)
    table = " ".join(shown(m) for m in markdown_bodies(at)) + " ".join(str(d.value) for d in at.dataframe)
    assert f"{_ratio(data.systems['alpha'], data.source):.2f}" in table
    assert "BLEU" not in " ".join(str(d.value.columns.tolist()) for d in at.dataframe)


def test_the_metric_box_marks_what_needs_references_and_still_offers_it():
    at = _run("pages/overview.py")
    box = at.multiselect(key=setting_key(at, "metrics_box"))
    labels = {option: box.format_func(option) for option in ("bleu", "length-ratio", "length-ratio-refs", "judge")}
    assert labels["bleu"].endswith(" — needs the references")
    assert labels["length-ratio-refs"].endswith(" — needs the references")
    assert "needs" not in labels["length-ratio"] and "needs" not in labels["judge"]
    assert any("cannot run on this data" in shown(c.value) for c in at.sidebar.caption)


def test_a_source_reading_metric_on_data_without_a_source_is_unavailable_too():
    data = reference_free()
    at = app("pages/overview.py", Dataset("no source", data.systems, (), (), None, external=data.external), METRICS)
    at.run(timeout=120)
    assert not at.exception and not at.error
    assert "Length ratio (needs the source)" in _unavailable(at)


def test_explorer_lists_sources_and_filters_by_source_length():
    at = _run("pages/explorer.py")
    frame = next(d.value for d in at.dataframe if "source" in d.value.columns)
    assert "reference" not in frame.columns
    assert list(frame["source"]) == list(small_dataset().source)
    assert list(frame["src words"]) == [2, 2, 2, 2]
    bodies = [b.proto.body for b in at.get("html")]
    assert any("<b>Src</b> die Katze" in b for b in bodies)


def test_segment_view_shows_the_source_reading_evidence_and_no_reference_box():
    at = _run("pages/segment.py", segment=2)
    data = reference_free()
    assert "Reference" not in [s.label for s in at.selectbox]
    notes = [shown(c.value) for c in at.caption]
    assert any("No references are loaded" in n for n in notes)
    outputs = [
        f"{len(texts[2]):g} output characters against {len(data.source[2]):g} source characters"
        for texts in data.systems.values()
    ]
    assert all(any(o in n for n in notes) for o in outputs), notes


@pytest.mark.parametrize("section", ANALYSIS_SECTIONS)
def test_every_analysis_section_works_or_says_what_it_needs(section):
    at = _run("pages/analysis.py", an_section=section)
    if section in ("Words by frequency", "N-grams A vs B"):
        assert any("none are loaded: load references on the Data page" in shown(i.value) for i in at.info)
    if section == "Buckets":
        options = at.selectbox(key="an_by").options
        assert "Reference length" not in options and "Source length" in options


def test_the_bundled_example_without_references_loads_from_the_data_page():
    at = app("pages/data.py", small_dataset(), ["bleu"]).run()
    at.selectbox(key="sample_choice").set_value("mt-qe")
    at.button(key="load_sample").click().run(timeout=120)
    assert not at.exception
    data = at.session_state["dataset"]
    assert data.refs == () and data.source == load_sample("mt").source and len(data.systems) == 5
    assert any("references: none" in shown(m.value) for m in at.markdown)
    assert "bleu" not in at.session_state["metric_ids"]


def test_an_upload_of_a_source_and_systems_starts_new_data_without_references():
    at = app("pages/data.py", small_dataset(), ["bleu"]).run()
    at.file_uploader(key="up_systems").set_value([("x.txt", b"a b\nc d\ne f\n", "text/plain")])
    at.file_uploader(key="up_source").set_value([("src.txt", b"1 2\n3 4\n5 6\n", "text/plain")])
    at.run()
    assert at.button(key="load_files").disabled  # added to the loaded data, whose 4 segments they do not fit
    at.checkbox(key="up_reference_free").check().run()
    assert not at.button(key="load_files").disabled
    at.button(key="load_files").click().run()
    data = at.session_state["dataset"]
    assert (data.refs, list(data.systems), data.source) == ((), ["x"], ("1 2", "3 4", "5 6"))


def test_intake_checks_new_data_without_references_against_its_first_system():
    a, b = Segments("a", ("x", "y"), source="a.txt"), Segments("b", ("x",), source="b.txt")
    with pytest.raises(InputError, match="b.txt"):
        intake.assemble([], [a, b])
    fresh = intake.assemble([], [a], Segments("src", ("s", "t")))
    assert (fresh.refs, len(fresh), fresh.source) == ((), 2, ("s", "t"))
    assert fresh.fingerprint() != intake.assemble([], [a], Segments("src", ("s", "u"))).fingerprint()
    with pytest.raises(InputError, match="at least one system"):
        Dataset("t", {}, (), ())
    assert len(reference_free()) == 4


def test_a_workspace_without_references_round_trips():
    data = reference_free()
    text = workspace.dumps(data, Settings(("length-ratio", "judge"), {}, {}, (), None))
    loaded, settings = workspace.loads(text, "ws.json")
    assert (loaded.refs, loaded.source, loaded.fingerprint()) == ((), data.source, data.fingerprint())
    assert settings.metrics == ("length-ratio", "judge")
    document = json.loads(text)
    with pytest.raises(InputError, match="'systems' must be a non-empty list"):
        workspace.loads(json.dumps({**document, "systems": []}), "ws.json")


def test_the_teach_page_opens_on_data_without_references():
    at = _run("pages/teach.py")
    assert any(n.label == "Number of references" for n in at.number_input)
