"""Human error annotations in the app (issue 28): the Data page reads MQM TSV / span files against the loaded texts
(errors name the file and line; a bad file never replaces what is loaded), the dataset and the workspace keep them
through renames and removals, the Segment view draws the raters' spans (escaped), MQM becomes a metric of the
Overview, the Explorer filters by error and saves slices, and the Analysis page counts errors by category.

Expected values are recomputed here from the bundled TSV (assets/samples/wmt21-ted-en-de/mqm.tsv) by hand, not by
the readers under test."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest

from dashboard import annotation_io, workspace
from dashboard.dataset import Dataset
from dashboard.samples import SAMPLES, load_sample
from metrics.analysis.slices import Slice
from metrics.annotations.model import Scheme
from metrics.core.spans import ErrorSpan, Severity, Side
from metrics.io.inputs import InputError
from metrics.io.metadata import Metadata
from rendering.annotations import human_parts
from tests.support.ui import (
    ROOT,
    SCRIPT,
    app,
    assert_escaped_markdown,
    assert_safe_html,
    hostile_dataset,
    html_bodies,
    markdown_bodies,
    shown,
    small_dataset,
    with_downloads,
)

TSV = SAMPLES["mqm"].path / "mqm.tsv"
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"


def _rows() -> list[dict[str, str]]:
    lines = TSV.read_text(encoding="utf-8").rstrip("\n").split("\n")
    names = lines[0].split("\t")
    return [dict(zip(names, line.split("\t"), strict=True)) for line in lines[1:]]


def _weight(row: dict[str, str]) -> float:
    """WMT's MQM weight of one TSV row, written out independently of metrics.annotations.mqm."""
    severity, category = row["severity"].lower(), row["category"].lower()
    if severity == "no-error" or category == "no-error":
        return 0.0
    if severity == "major":
        return 25.0 if category.startswith("non-translation") else 5.0
    if severity == "minor":
        return 0.1 if category.startswith("fluency/punctuation") else 1.0
    return 0.0


def _mqm_by_hand() -> dict[str, float]:
    """System MQM: per (system, segment, rater) the sum of weights, mean over raters, negated, mean over segments."""
    per_rater: dict[tuple[str, str, str], float] = defaultdict(float)
    for row in _rows():
        per_rater[(row["system"], row["seg_id"], row["rater"])] += _weight(row)
    per_segment: dict[tuple[str, str], list[float]] = defaultdict(list)
    for (system, seg, _), total in per_rater.items():
        per_segment[(system, seg)].append(-total)
    by_system: dict[str, list[float]] = defaultdict(list)
    for (system, _), values in per_segment.items():
        by_system[system].append(float(np.mean(values)))
    return {system: float(np.mean(values)) for system, values in by_system.items()}


def _small_tsv(*rows: str) -> bytes:
    return "\n".join([HEADER, *rows]).encode()


# --------------------------------------------------------------------------------------------------- reading


def test_upload_locates_spans_and_names_file_and_line_of_every_problem():
    data = small_dataset()
    good = _small_tsv(
        "alpha\td\t1\t2\tr1\tein Hund\ta dog ran in <v>a</v> park .\tAccuracy/Mistranslation\tMajor\t",
        "beta\td\t1\t2\tr1\tein Hund\tthe dog runs in the park today .\tNo-error\tNo-error\t",
    )
    marked = annotation_io.parse_annotation_upload("m.tsv", good, Scheme.MQM, data)
    assert marked.kept == 2 and marked.n_errors == 1
    (span,) = marked.spans("alpha", 1)
    assert data.systems["alpha"][1][span.start : span.end] == "a" and (span.start, span.end) == (13, 14)
    assert span.origin == "r1" and span.category == "Accuracy/Mistranslation"
    with pytest.raises(InputError, match=r"^m\.tsv, line 2: unknown system 'zeta'"):
        annotation_io.parse_annotation_upload(
            "m.tsv", _small_tsv("zeta\td\t1\t2\tr1\ts\tt\tOther\tMinor\t"), Scheme.MQM, data
        )
    changed = _small_tsv("alpha\td\t1\t2\tr1\tein Hund\ta cat ran in <v>a</v> park .\tOther\tMinor\t")
    with pytest.raises(InputError, match=r"^m\.tsv, line 2: the target of system 'alpha', segment 1 does not match"):
        annotation_io.parse_annotation_upload("m.tsv", changed, Scheme.MQM, data)
    with pytest.raises(InputError, match=r"^m\.tsv, line 2: .*out of range"):
        annotation_io.parse_annotation_upload(
            "m.tsv", _small_tsv("alpha\td\t1\t9\tr1\ts\tt\tOther\tMinor\t"), Scheme.MQM, data
        )
    spans = json.dumps({"system": "alpha", "segment": 0, "rater": "r", "start": 0, "end": 3, "severity": "fatal"})
    with pytest.raises(InputError, match=r"^s\.jsonl, line 1: .*severity"):
        annotation_io.parse_annotation_upload("s.jsonl", spans.encode(), Scheme.SPANS, data)
    assert annotation_io.guessed_scheme("s.jsonl", spans.encode()) is Scheme.SPANS
    assert annotation_io.guessed_scheme("m.tsv", good) is Scheme.MQM


def test_bundled_sample_keeps_every_rating_of_its_tsv():
    data = load_sample("mqm")
    marked = data.annotations["mqm"]
    rows = _rows()
    ratings = {(r["system"], r["seg_id"], r["rater"]) for r in rows}
    errors = [r for r in rows if r["severity"] != "No-error"]
    assert marked.kept == len(ratings) == 500 and marked.n_errors == len(errors) == 357
    assert marked.n_unlocated == 0 and "mqm" in (data.default_metrics or ())
    for row in errors[:60]:  # each marked text is exactly the characters its offsets cover in the loaded output
        side = "source" if "<v>" in row["source"] else "target"
        marked_text = row[side].split("<v>")[1].split("</v>")[0]
        spans = marked.spans(row["system"], int(row["seg_id"]) - 1)
        assert any(s.text == marked_text and s.side.value == side and s.origin == row["rater"] for s in spans)
    assert "CC BY-NC-ND" in (SAMPLES["mqm"].path / "PROVENANCE.md").read_text(encoding="utf-8")


def test_renames_and_removals_keep_annotations_consistent():
    data = load_sample("mqm")
    renamed = data.renamed("Nemo", "N")
    assert "N" in renamed.annotations["mqm"].ratings and "Nemo" not in renamed.annotations["mqm"].ratings
    assert renamed.annotations["mqm"].ratings["N"] == data.annotations["mqm"].ratings["Nemo"]
    assert renamed.fingerprint() != data.fingerprint()
    fewer = renamed.without("N")
    assert fewer.annotations["mqm"].systems == tuple(s for s in data.systems if s != "Nemo")
    assert data.without_annotations("mqm").fingerprint() != data.fingerprint()
    with pytest.raises(InputError, match=r"mqm\.tsv: rates system\(s\) 'Facebook-AI', .* which are not loaded"):
        small_dataset().with_annotations("mqm", data.annotations["mqm"])
    short = Dataset("short", {s: t[:4] for s, t in data.systems.items()}, (data.refs[0][:4],), ("ref",))
    with pytest.raises(InputError, match="rates 100 segments, the data has 4"):
        short.with_annotations("mqm", data.annotations["mqm"])


def test_workspace_keeps_annotations_and_weights_and_checks_their_spans():
    data = load_sample("mqm")
    text = workspace.dumps(data, workspace.Settings(("mqm",), mqm_weights="major=4"))
    loaded, settings = workspace.loads(text)
    assert settings.mqm_weights == "major=4" and loaded.fingerprint() == data.fingerprint()
    before, after = data.annotations["mqm"], loaded.annotations["mqm"]
    assert after.scheme is Scheme.MQM and after.source == before.source
    assert all(before.spans(s, i) == after.spans(s, i) for s in before.systems for i in range(len(data)))
    document = json.loads(text)
    record = next(r for r in document["annotations"][0]["records"] if "text" in r)
    record["text"] = "not the loaded text"
    with pytest.raises(InputError, match=r"annotations\[1\]\.records, line \d+:"):
        workspace.loads(json.dumps(document))
    document = json.loads(text)
    document["settings"]["mqm_weights"] = "major=x"
    with pytest.raises(InputError, match="settings.mqm_weights"):
        workspace.loads(json.dumps(document))


# ------------------------------------------------------------------------------------------------------ pages


def test_data_page_reports_a_bad_file_keeps_the_data_and_attaches_a_good_one():
    before = small_dataset()
    at = app("pages/data.py", before, ["bleu"]).run()
    bad = _small_tsv("alpha\td\t1\t2\tr1\tein Hund\ta dog ran in <v>a</v> park .\tOther\tSevere\t")
    at.file_uploader(key="up_annotations").set_value(("rated.tsv", bad, "text/tab-separated-values")).run()
    assert any(shown(e.value).startswith("rated.tsv, line 2:") for e in at.error), [e.value for e in at.error]
    assert not any(b.key == "load_annotations" for b in at.button)
    assert at.session_state["dataset"] is before

    good = _small_tsv(
        "alpha\td\t1\t2\tr1\tein Hund\ta dog ran in <v>a</v> park .\tAccuracy/Mistranslation\tMajor\t",
        "gamma\td\t1\t1\tr2\tdie Katze\tcat <v>mat</v>\tFluency/Grammar\tMinor\t",
    )
    at.file_uploader(key="up_annotations").set_value(("rated.tsv", good, "text/tab-separated-values")).run()
    assert any("2 ratings by 2 raters" in shown(m) for m in markdown_bodies(at))
    at.button(key="load_annotations").click().run()
    loaded: Dataset = at.session_state["dataset"]
    assert loaded.annotations["mqm"].kept == 2 and loaded.systems == before.systems
    assert at.session_state["metric_ids"][0] == "mqm"
    assert any("Loaded **mqm**" in m and "2 ratings" in m for m in markdown_bodies(at))


def test_segment_view_draws_each_raters_spans_escaped_beside_the_metric_evidence():
    data = load_sample("mqm")
    at = app("pages/segment.py", data, ["chrf", "mqm"], segment=0).run()
    assert not at.exception, at.exception
    bodies = [assert_safe_html(b) and b for b in html_bodies(at)]
    marked = [b for b in bodies if "sl-err" in b]
    # segment 1: Facebook-AI (rater1: minor Terminology), Nemo (rater4: minor Mistranslation) among the rated
    assert any('title="rater1: minor · Terminology/Inappropriate for context"' in b for b in marked)
    assert any('title="rater4: minor · Accuracy/Mistranslation"' in b for b in marked)
    assert sum(shown(c.value) == "Human error spans on this output" for c in at.caption) == len(data.systems)

    # the MQM score's own evidence: each rater's errors with their weights, from the TSV's lines
    at = app("pages/segment.py", data, ["mqm"], segment=0).run()
    tables = [d.value for d in at.dataframe if "rater" in d.value.columns]
    first = tables[0]  # Facebook-AI, TSV line 2
    assert first.loc[0, ["rater", "text", "weight", "file line"]].tolist() == [
        "rater1",
        "in Betracht zu ziehen",
        1.0,
        2,
    ]

    hostile = hostile_dataset()
    system = next(iter(hostile.systems))
    text = hostile.systems[system][0]
    start = text.index(SCRIPT)
    record = {"system": system, "segment": 0, "rater": f"r {SCRIPT}", "start": start, "end": start + len(SCRIPT),
              "severity": "major", "category": f"Accuracy {SCRIPT}"}  # fmt: skip
    marked_hostile = annotation_io.parse_annotation_upload(
        "h.jsonl", json.dumps(record).encode(), Scheme.SPANS, hostile
    )
    at = app("pages/segment.py", hostile.with_annotations("spans", marked_hostile), ["bleu"]).run()
    assert not at.exception, at.exception
    drawn = [assert_safe_html(b) for b in html_bodies(at) if "sl-err" in b]
    assert drawn and all(SCRIPT not in b for b in html_bodies(at))
    for body in markdown_bodies(at):
        assert_escaped_markdown(body)


def test_overview_scores_mqm_as_wmt_defines_it_with_the_rated_count():
    data = load_sample("mqm")
    at = app("pages/overview.py", data, ["mqm", "chrf"]).run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    expected = _mqm_by_hand()
    for system, value in expected.items():
        assert table.loc[system, "MQM"] == pytest.approx(value, abs=1e-9)
    said = "mqm: 500 ratings by 4 raters of 500 segments of 5 systems; 357 errors, 0 of them not located; every "
    assert f"{said}system rated on all 100 segments." in [shown(c.value) for c in at.caption]

    # Nemo's first 10 segments unrated: its score is the mean over the other 90, and the count says so
    marked = data.annotations["mqm"]
    ratings = {**marked.ratings, "Nemo": ((),) * 10 + marked.ratings["Nemo"][10:]}
    partial = data.with_annotations("mqm", replace(marked, ratings=MappingProxyType(ratings)))
    at = app("pages/overview.py", partial, ["mqm"]).run()
    assert not at.exception, at.exception
    per_segment: dict[str, list[float]] = defaultdict(list)
    for row in _rows():
        if row["system"] == "Nemo" and int(row["seg_id"]) > 10:
            per_segment[row["seg_id"]].append(-_weight(row))
    assert at.dataframe[0].value.loc["Nemo", "MQM"] == pytest.approx(np.mean([sum(v) for v in per_segment.values()]))
    assert any("Nemo 90 of 100" in shown(c.value) for c in at.caption)


def test_explorer_filters_by_error_and_score_and_saves_the_slice():
    data = load_sample("mqm")
    at = app("pages/explorer.py", data, ["mqm", "chrf"]).run()
    at.selectbox(key="ex_err_system").set_value("Nemo").run()
    at.selectbox(key="ex_err_category").set_value("Accuracy/Mistranslation").run()
    at.multiselect(key="ex_err_severity").set_value(["major"]).run()
    expected = sorted(
        {int(r["seg_id"]) - 1 for r in _rows()
         if r["system"] == "Nemo" and r["category"] == "Accuracy/Mistranslation" and r["severity"] == "Major"}
    )  # fmt: skip
    assert any(shown(c.value).startswith(f"{len(expected)} of 100 segments") for c in at.caption)
    at.selectbox(key="ex_score_sys").set_value("Nemo").run()
    at.selectbox(key="ex_score_metric").set_value("chrf").run()
    at.slider(key="ex_score_range:Nemo · chrF2").set_value((60.0, 100.0)).run()
    assert at.session_state["dataset"] is data  # filters never change the data
    at.text_input(key="ex_slice_name").set_value("major mistranslations").run()
    at.button(key="ex_slice_save").click().run()
    (piece,) = at.session_state["slices"]
    assert set(piece.segments) <= set(expected) and piece.segments
    assert {c.metric for c in piece.selected_by} == {"mqm", "chrf"}
    assert "Nemo has at least one major Accuracy/Mistranslation error (mqm)" in piece.description


def test_analysis_counts_errors_by_category_as_the_tsv_does():
    data = load_sample("mqm")
    at = app("pages/analysis.py", data, ["mqm", "chrf"]).run()
    at.segmented_control(key=at.segmented_control[0].key).set_value("Human errors").run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    errors = [r for r in _rows() if r["severity"] != "No-error"]
    for system in data.systems:  # one rater per segment here: the rate is errors / rated segments
        count = sum(r["system"] == system for r in errors)
        assert table.loc["All · any", system].startswith(f"{count / 100:.2f} [")
        major = sum(
            r["system"] == system and r["category"].startswith("Accuracy") and r["severity"] == "Major" for r in errors
        )
        assert table.loc["Accuracy · major", system].startswith(f"{major / 100:.2f} [")
    compared = at.dataframe[1].value
    assert (compared["p (Holm)"] >= compared["p"] - 1e-12).all() and len(compared)
    agreement = at.dataframe[2].value
    assert set(agreement["system"]) == set(data.systems) and set(agreement["metric"]) == {"chrF2"}
    assert not any(b.label == "Download JSON" for b in at.get("download_button"))  # made when asked for
    at.toggle(key="an_he_downloads").set_value(True)
    at, files = with_downloads(at)
    document = json.loads(files["scorelens-human-errors.json"])
    every = {r["system"]: r for r in document["categories"] if r["category"] == "All" and r["severity"] == "any"}
    for system in data.systems:
        assert every[system]["per_segment"] == pytest.approx(sum(r["system"] == system for r in errors) / 100)
    assert {r["system"] for r in document["category_differences"]} == set(data.systems) - {"Facebook-AI"}


def test_analysis_without_annotations_says_where_to_load_them():
    at = app("pages/analysis.py", small_dataset(), ["bleu"]).run()
    at.segmented_control(key=at.segmented_control[0].key).set_value("Human errors").run()
    assert not at.exception, at.exception
    assert any("Error annotations" in shown(i.value) for i in at.info)


def test_esa_file_with_unloaded_systems_left_out_becomes_the_esa_metric():
    """tests/data/mqm/esa.jsonl (WMT24's ESA form over the first lines of the en-de set) also rates ``ref``, which
    the bundled sample does not load: refused unless the user asks to leave such records out, then counted."""
    data = load_sample("mqm")
    content = (ROOT / "tests" / "data" / "mqm" / "esa.jsonl").read_bytes()
    records = [json.loads(line) for line in content.decode().splitlines() if line.strip()]
    at = app("pages/data.py", data, ["chrf"]).run()
    at.file_uploader(key="up_annotations").set_value(("esa.jsonl", content, "application/json")).run()
    assert at.radio(key="annotation_format").value is Scheme.ESA
    assert any(shown(e.value).startswith("esa.jsonl, line 6: unknown system 'ref'") for e in at.error)
    at.checkbox(key="annotation_skip").check().run()
    assert any("skipped 1 records of systems not loaded (ref)" in shown(m) for m in markdown_bodies(at))
    at.text_input(key="annotation_name").set_value("esa").run()
    at.button(key="load_annotations").click().run()
    loaded: Dataset = at.session_state["dataset"]
    assert loaded.annotations["esa"].scheme is Scheme.ESA and loaded.annotations["esa"].skipped == (("ref", 1),)
    again, _ = workspace.loads(workspace.dumps(loaded, workspace.Settings()))
    assert again.annotations["esa"].summary() == loaded.annotations["esa"].summary()

    overview = app("pages/overview.py", loaded, ["esa"]).run()
    assert not overview.exception, overview.exception
    table = overview.dataframe[0].value
    for system in ("Facebook-AI", "Nemo"):  # the mean over rated segments of the mean over annotators
        by_line: dict[int, list[float]] = defaultdict(list)
        for r in records:
            if r["system"] == system:
                by_line[r["line_id"]].append(float(r["esa_score"]))
        assert table.loc[system, "ESA"] == pytest.approx(np.mean([np.mean(v) for v in by_line.values()]), abs=1e-9)
    assert any(
        "Facebook-AI 2 of 100" in shown(c.value) and "UEdin 0 of 100" in shown(c.value) for c in overview.caption
    )


def test_human_and_learned_spans_share_one_line_per_origin():
    """An xCOMET span and two raters' spans of one output: one text, a line per origin in the legend (raters
    first), the omission on the source, every origin in the tooltips."""
    output, source = "Das ist ein Test .", "This is a small test ."
    human = (
        ErrorSpan(8, 11, "ein", Severity.MAJOR, origin="rater1", category="Accuracy/Mistranslation"),
        ErrorSpan(8, 16, "ein Test", Severity.MINOR, origin="rater2", category="Style/Awkward"),
        ErrorSpan(10, 15, "small", Severity.MAJOR, Side.SOURCE, origin="rater2", category="Accuracy/Omission"),
    )
    learned = (ErrorSpan(12, 16, "Test", Severity.CRITICAL, origin="xCOMET-XL", confidence=0.8),)
    parts = human_parts(output, source, human, learned, raters=("rater1", "rater2"), summary="mqm: MQM -11")
    source_html, output_html = (p.payload for p in parts if p.kind == "html")
    assert assert_safe_html(source_html) == source and assert_safe_html(output_html).startswith(output)
    assert "1. rater1, 2. rater2, 3. xCOMET-XL" in output_html
    assert 'title="rater2: major · Accuracy/Omission"' in source_html
    assert (
        "xCOMET-XL: critical · confidence 0.800" in output_html
        and "rater1: major · Accuracy/Mistranslation" in output_html
    )
    assert parts[-1].payload == "mqm: MQM -11"


def test_analysis_tables_on_a_slice_and_a_metadata_bucket_count_only_their_segments():
    data = load_sample("mqm")
    half = ("first half",) * 50 + ("second half",) * 50
    meta = Metadata("halves.tsv", ("part",), {"part": half})
    piece = Slice("odd", "odd segments", tuple(range(1, 100, 2)))
    at = app("pages/analysis.py", data, ["mqm"], analysis_metadata=meta, slices=(piece,)).run()
    at.segmented_control(key=at.segmented_control[0].key).set_value("Human errors").run()
    assert at.selectbox(key="an_he_on").options == [
        "(all segments)",
        "slice: odd",
        "part = first half",
        "part = second half",
    ]
    errors = [r for r in _rows() if r["severity"] != "No-error"]
    for choice, wanted in (("slice: odd", set(range(1, 100, 2))), ("part = second half", set(range(50, 100)))):
        at.selectbox(key="an_he_on").set_value(choice).run()
        assert not at.exception, at.exception
        table = at.dataframe[0].value
        for system in data.systems:
            count = sum(r["system"] == system and int(r["seg_id"]) - 1 in wanted for r in errors)
            assert table.loc["All · any", system].startswith(f"{count / len(wanted):.2f} [")
            assert table.loc["rated segments", system] == str(len(wanted))
