"""Intake: files become a dataset with a message naming the file and line for every problem; a bad file never
replaces what is loaded; names are editable; the workspace round-trips through one JSON file."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import intake, workspace
from dashboard.dataset import Dataset
from dashboard.options import family_fields, family_values
from metrics.io.inputs import MAX_FILE_BYTES, InputError
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
)

REF = b"the cat sat\na dog ran\nhello world\n"
SYS_A = b"the cat sat\na dog ran fast\nhello\n"
SYS_B = b"a cat\nthe dog\nworld\n"

# ------------------------------------------------------------------------------------------ pure intake


def test_parse_upload_reports_file_and_line():
    bad = intake.parse_upload("sys.txt", b"ok\n\xff\xfe broken\n")
    assert not bad.ok and bad.error.line == 2
    assert "sys.txt, line 2" in str(bad.error) and "UTF-8" in str(bad.error)
    binary = intake.parse_upload("model.bin", b"abc\x00def")
    assert "binary" in str(binary.error)
    assert "empty" in str(intake.parse_upload("empty.txt", b"").error)


def test_upload_names_undo_the_browsers_form_encoding_of_quotes():
    class Upload:
        name = "my %22best%22 run %0A 100%25.txt"

    assert intake.upload_name(Upload()) == 'my "best" run %0A 100%25.txt'


def test_crlf_and_bom_are_handled_and_said():
    parsed = intake.parse_upload("win.txt", b"\xef\xbb\xbfa\r\nb\r\n")
    assert parsed.segments.texts == ("a", "b")
    assert any("byte-order mark" in n for n in parsed.segments.notes)
    assert any("CRLF" in n for n in parsed.segments.notes)


def test_too_large_files_are_refused_before_parsing_naming_file_size_limit_and_the_command_line(monkeypatch):
    monkeypatch.setattr(intake, "MAX_UPLOAD_BYTES", 3 * 2**20)
    monkeypatch.setattr(intake, "MAX_FILE_BYTES", 5 * 2**20)
    parsed = intake.parse_upload("my run.txt", b"x\n" * (2**21 + 1))
    assert str(parsed.error) == (
        "my run.txt: the file has 4.0 MB (4,194,306 bytes), more than the dashboard's upload limit of 3 MB; "
        "the command line reads it: `scorelens score -r REFERENCES -i 'my run.txt'`"
    )
    huge = str(intake.too_large("huge.txt", 6 * 2**20))
    assert huge.endswith("limit of 3 MB; the command line reads files up to 5 MB; split it into parts")
    with pytest.raises(InputError, match="human.jsonl: the file has 4.0 MB"):
        intake.parse_human_upload("human.jsonl", b"x" * 4 * 2**20, small_dataset())


def test_the_servers_upload_limit_is_the_dashboards():
    """Streamlit's browser widget refuses a file over server.maxUploadSize by itself, so a file the app would refuse
    never reaches the server (where its bytes would stay for the session); the command line reads larger ones."""
    config = (ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8")  # tomllib is Python 3.11+
    limit = re.search(r"^maxUploadSize = (\d+)$", config, re.MULTILINE)
    assert limit is not None and int(limit.group(1)) * 2**20 == intake.MAX_UPLOAD_BYTES < MAX_FILE_BYTES


def test_an_unreadable_reference_holds_the_systems_back_without_a_misleading_count(monkeypatch):
    """A reference over the limit, and a system of another length than the loaded references: the page says what
    is wrong with the reference, and not that the system's count differs from references it was not meant for."""
    at = app("pages/data.py", small_dataset(), ["bleu"]).run()
    uploaders = {u.key: u for u in at.file_uploader}
    big = b"a reference line\n" * (intake.MAX_UPLOAD_BYTES // 17 + 1)
    uploaders["up_refs"].set_value([("ref.txt", big, "text/plain")])
    uploaders["up_systems"].set_value([("sys.txt", b"a b\n" * 7, "text/plain")])
    at.run()
    assert not at.exception, at.exception
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("ref.txt: the file has 100.0 MB") and "upload limit" in errors[0]
    assert any("A reference file could not be read" in shown(w.value) for w in at.warning)
    assert at.button(key="load_files").disabled


def test_table_columns_default_and_choice():
    data = b"id\ttext\n1\thello\n2\tworld\n"
    parsed = intake.parse_upload("out.tsv", data)
    assert parsed.columns == ("id", "text") and parsed.segments.texts == ("hello", "world")
    assert intake.parse_upload("out.tsv", data, column="id").segments.texts == ("1", "2")


def test_mismatched_counts_name_each_file_and_first_missing_line():
    ref = intake.parse_upload("ref.txt", REF).segments
    short = intake.parse_upload("short.txt", b"a\nb\n").segments
    long = intake.parse_upload("long.txt", b"a\nb\nc\nd\n").segments
    problems = intake.assemble_problems([ref], [short, long])
    assert [str(p) for p in problems] == [
        "short.txt, line 3: the file ends after 2 segments but ref.txt has 3; segments 3–3 are missing",
        "long.txt, line 4: has 4 segments but ref.txt has only 3; line 4 onwards has no counterpart",
    ]
    with pytest.raises(InputError):
        intake.assemble([ref], [short])


def test_assemble_adds_systems_to_a_base_and_dedupes_names():
    base = small_dataset()
    extra = intake.parse_upload("alpha.txt", "\n".join(base.systems["beta"]).encode()).segments
    grown = intake.assemble([], [extra], base=base)
    assert list(grown.systems) == ["alpha", "beta", "gamma", "alpha (2)"]
    assert grown.refs == base.refs and list(base.systems) == ["alpha", "beta", "gamma"]


def test_dataset_edits_return_new_datasets():
    data = small_dataset()
    renamed = data.renamed("alpha", "α")
    assert list(renamed.systems) == ["α", "beta", "gamma"] and "alpha" in data.systems
    assert renamed.system_hash("α") == data.system_hash("alpha")  # content hash survives the rename
    assert renamed.system_id("α") == data.system_id("alpha") == "s1" and renamed.system_name("s1") == "α"
    grown = data.without("beta").with_systems({"beta": data.systems["beta"], "copy": data.systems["gamma"]})
    assert list(grown.systems) == ["alpha", "gamma", "beta", "copy"]
    assert grown.system_ids == ("s1", "s3", "s4", "s5")  # a live id is never given to another system
    assert grown.system_name("s2") is None
    with pytest.raises(InputError, match="already called"):
        data.renamed("alpha", "beta")
    with pytest.raises(InputError, match="empty"):
        data.renamed("alpha", "  ")


def test_workspace_round_trip_and_strict_loading():
    data = small_dataset()
    settings = workspace.Settings(("bleu", "ter"), {"bleu": {"lowercase": True}}, {"baseline": "beta", "segment": 2})
    loaded, loaded_settings = workspace.loads(workspace.dumps(data, settings))
    assert loaded.systems == data.systems and loaded.refs == data.refs and loaded.source == data.source
    assert loaded_settings == settings
    document = json.loads(workspace.dumps(data, settings))
    document["systems"][0]["segments"].pop()
    with pytest.raises(InputError, match="has 3 segments"):
        workspace.loads(json.dumps(document), "ws.json")
    with pytest.raises(InputError, match="ws.json, line 1"):
        workspace.loads("{not json", "ws.json")
    with pytest.raises(InputError, match="not a ScoreLens workspace"):
        workspace.loads("{}", "ws.json")


def test_option_fields_come_from_the_config_metadata():
    fields = family_fields(["bleu", "chrf", "chrf++"])
    bleu = {f.name: f for f in fields["bleu"]}
    assert bleu["tokenize"].kind == "choice" and "intl" in bleu["tokenize"].choices
    assert (
        bleu["tokenize"].option.label == "Tokenizer"
        and bleu["tokenize"].option.choice_label("13a") == "13a (WMT default)"
    )
    assert bleu["lowercase"].kind == "bool" and bleu["smooth_value"].optional
    chrf_fields = {f.name: f for f in fields["chrf"]}
    assert chrf_fields["word_order"].only == ("chrf",)  # chrF++'s id fixes it: the field is chrF's alone
    assert family_fields(["chrf++"]).get("chrf", []) and "word_order" not in {
        f.name for f in family_fields(["chrf++"])["chrf"]
    }
    values = {f.name: f.default for f in fields["bleu"]} | {"lowercase": True, "smooth_value": None}
    assert family_values(fields["bleu"], values, {}, ["bleu"]) == {"lowercase": True}
    assert family_values(fields["bleu"], values | {"smooth_value": 0.2}, {"lowercase": True}, ["bleu"]) == {
        "lowercase": True,
        "smooth_value": 0.2,
    }
    # a stored option no chosen metric takes (ROUGE-W's, with ROUGE-1 alone) is kept, one a field shows follows it
    rouge = family_fields(["rouge1"])["rouge"]
    stored = {"weight": 1.5, "stemmer": True}
    assert family_values(rouge, {f.name: f.default for f in rouge}, stored, ["rouge1"]) == {"weight": 1.5}
    # one only a chosen id that fixes it could take (chrF's word_order beside chrF++ alone) waits for chrF
    chrf = family_fields(["chrf++"])["chrf"]
    assert family_values(chrf, {f.name: f.default for f in chrf}, {"word_order": 1}, ["chrf++"]) == {"word_order": 1}


def test_a_family_offers_the_choices_all_its_chosen_metrics_take():
    only_perl = {f.name: f for f in family_fields(["rougeW"])["rouge"]}
    assert only_perl["tokenizer"].choices == ("default", "unicode", "whitespace")
    both = {f.name: f for f in family_fields(["rouge1", "rougeW"])["rouge"]}
    assert both["tokenizer"].choices == ("default", "unicode")  # rouge-score has no whitespace tokenizer
    assert list(both) == ["stemmer", "tokenizer", "multi_ref", "alpha", "weight"]  # n is fixed by ROUGE-1's id
    assert both["stemmer"].only == () and both["stemmer"].shown == both["stemmer"].option
    assert both["weight"].only == ("rougeW",) and both["weight"].shown.label == "WLCS weight w (only ROUGE-W-1.2)"
    lsum = {f.name: f for f in family_fields(["rouge1", "rougeLsum"])["rouge"]}["split"]
    assert lsum.only == ("rougeLsum",) and lsum.shown.label == "Sentence split (only ROUGE-Lsum)"
    assert lsum.choices == ("newlines", "rules") and "rules-v1" in lsum.shown.help


def test_a_choice_that_cannot_run_here_is_not_offered_and_says_why(monkeypatch):
    import metrics.core.config

    monkeypatch.setattr(metrics.core.config, "_module_found", lambda module: module != "MeCab")
    tokenize = {f.name: f for f in family_fields(["bleu"])["bleu"]}["tokenize"]
    assert "ja-mecab" not in tokenize.choices and "zh" in tokenize.choices
    assert tokenize.unavailable == ("ja-mecab needs MeCab (pip install 'scorelens[ja]')",)
    monkeypatch.setattr(metrics.core.config, "_module_found", lambda module: True)
    tokenize = {f.name: f for f in family_fields(["bleu"])["bleu"]}["tokenize"]
    assert "ja-mecab" in tokenize.choices and tokenize.unavailable == ()


# -------------------------------------------------------------------------------------------- the page


def _uploaded(at, key, files):
    at.file_uploader(key=key).set_value([(name, content, "text/plain") for name, content in files])


def test_upload_page_loads_good_files_and_reports_bad_ones():
    at = app("pages/data.py", small_dataset(), ["bleu"]).run()
    assert not at.exception
    _uploaded(at, "up_refs", [("ref.txt", REF)])
    _uploaded(at, "up_systems", [("a.txt", SYS_A), ("b.csv", b"id,text\n1,x\n2,y\n3,z\n"), ("bad.txt", b"x\n\xff\n")])
    at.run()
    errors = [shown(e.value) for e in at.error]
    assert any("bad.txt, line 2" in e and "not valid UTF-8 (UTF-16 is read when" in e for e in errors), errors
    assert at.selectbox(key="column:sys:b.csv").value == "text"
    at.button(key="load_files").click().run()
    data = at.session_state["dataset"]
    assert list(data.systems) == ["a", "b"] and data.refs == (("the cat sat", "a dog ran", "hello world"),)
    assert data.systems["b"] == ("x", "y", "z")


def test_a_bad_upload_never_replaces_the_loaded_data():
    before = small_dataset()
    at = app("pages/data.py", before, ["bleu"]).run()
    _uploaded(at, "up_refs", [("ref.txt", REF)])
    _uploaded(at, "up_systems", [("short.txt", b"only one line\n")])
    at.run()
    assert any("short.txt, line 2" in shown(e.value) for e in at.error)
    assert at.button(key="load_files").disabled
    assert at.session_state["dataset"] is before


def test_systems_without_references_are_added_and_crlf_is_reported():
    at = app("pages/data.py", small_dataset(), ["bleu"]).run()
    _uploaded(at, "up_systems", [("delta.txt", b"a\r\nb\r\nc\r\nd\r\n")])
    at.run()
    assert "converted Windows (CRLF) line endings" in shown(" ".join(m.value for m in at.markdown))
    assert "✓ delta.txt: 4 segments" in shown(" ".join(m.value for m in at.markdown))
    at.button(key="load_files").click().run()
    assert list(at.session_state["dataset"].systems) == ["alpha", "beta", "gamma", "delta"]
    assert any("delta.txt: converted Windows (CRLF)" in shown(i.value) for i in at.info)


def test_rename_and_remove_systems():
    data = small_dataset()
    at = app("pages/data.py", data, ["bleu"]).run()
    at.text_input(key=f"rename:{data.system_id('alpha')}").set_value("Alpha 2").run()
    assert list(at.session_state["dataset"].systems) == ["Alpha 2", "beta", "gamma"]
    assert at.session_state["baseline"] == "Alpha 2"
    at.text_input(key=f"rename:{data.system_id('beta')}").set_value("gamma").run()
    assert any("another system is already called 'gamma'" in shown(e.value) for e in at.error)
    at.button(key=f"remove:{data.system_id('gamma')}").click().run()
    assert list(at.session_state["dataset"].systems) == ["Alpha 2", "beta"]
    assert at.session_state["dataset"].system_ids == ("s1", "s2")


def test_identical_outputs_stay_two_systems_through_upload_rename_and_every_page():
    """A re-run or a copied baseline gives two byte-identical files: each keeps its own id, so the Data page's
    widgets never collide, renaming one leaves the other alone, and every page shows both."""
    from dashboard import navigation

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["dataset"] = small_dataset()
    at.session_state["metric_ids"] = ["bleu", "chrf"]
    at.switch_page("pages/data.py").run()
    _uploaded(at, "up_refs", [("ref.txt", REF)])
    _uploaded(at, "up_systems", [("a.txt", SYS_A), ("a copy.txt", SYS_A), ("b.txt", b"x\ny\nz\n")])
    at.run()
    at.button(key="load_files").click().run()
    assert not at.exception, at.exception
    data = at.session_state["dataset"]
    assert list(data.systems) == ["a", "a copy", "b"] and data.system_ids == ("s1", "s2", "s3")
    assert data.system_hash("a") == data.system_hash("a copy")
    assert [t.value for t in at.text_input if t.key.startswith("rename:")] == ["a", "a copy", "b"]
    assert [u.key for u in at.file_uploader][:2] == ["up_refs", "up_systems"]  # the loading tabs are there

    at.text_input(key="rename:s2").set_value("rerun").run()
    assert not at.exception, at.exception
    assert list(at.session_state["dataset"].systems) == ["a", "rerun", "b"]
    assert [t.value for t in at.text_input if t.key.startswith("rename:")] == ["a", "rerun", "b"]

    for spec in navigation.PAGES:
        at.switch_page(str(spec.file)).run()
        assert not at.exception, (spec.file, at.exception)
    at.switch_page("pages/overview.py").run()
    table = at.dataframe[0].value
    assert list(table.index) == ["a", "rerun", "b"]
    assert table.loc["a", "BLEU"] == table.loc["rerun", "BLEU"]
    at.switch_page("pages/segment.py").run()
    assert list(at.dataframe[0].value.index) == ["a", "rerun", "b"]

    at.switch_page("pages/data.py").run()
    at.button(key="remove:s1").click().run()
    assert not at.exception, at.exception
    assert list(at.session_state["dataset"].systems) == ["rerun", "b"]
    assert at.session_state["dataset"].system_ids == ("s2", "s3")


def test_paste_and_sample_and_workspace_round_trip():
    at = app("pages/data.py", small_dataset(), ["bleu"]).run()
    at.text_area(key="paste_ref").set_value("one\ntwo\n")
    at.text_input(key="paste_name").set_value("mine")
    at.text_area(key="paste_sys").set_value("one\n2\n")
    at.button(key="load_paste").click().run()
    assert at.session_state["dataset"].systems == {"mine": ("one", "2")}

    at.selectbox(key="sample_choice").set_value("caption")
    at.button(key="load_sample").click().run()
    assert len(at.session_state["dataset"]) == 200 and "cider" in at.session_state["metric_ids"]

    saved = workspace.dumps(small_dataset(), workspace.Settings(("chrf",), {}, {"baseline": "beta", "segment": 3}))
    at.file_uploader(key="up_workspace").set_value(("ws.json", saved.encode(), "application/json"))
    at.run()
    at.button(key="load_workspace").click().run()
    assert list(at.session_state["dataset"].systems) == ["alpha", "beta", "gamma"]
    assert at.session_state["metric_ids"] == ["chrf"] and at.session_state["baseline"] == "beta"
    assert at.session_state["segment"] == 3
    download = at.get("download_button")[0]
    assert download.proto.label == "Download workspace"


def test_data_page_escapes_hostile_names():
    at = app("pages/data.py", hostile_dataset(), ["bleu"]).run()
    assert not at.exception
    for body in markdown_bodies(at):
        assert_escaped_markdown(body)
    assert any(SCRIPT in shown(body) for body in markdown_bodies(at))  # shown literally
    assert IMG not in " ".join(markdown_bodies(at))


def test_dataset_rejects_inconsistent_streams():
    with pytest.raises(InputError, match="has 1 segments"):
        Dataset("t", {"a": ("x",)}, (("x", "y"),), ("ref",))


def test_names_keep_inner_dots():
    ref = intake.parse_upload("ref.A.txt", REF).segments
    system = intake.parse_upload("model.v2.sents.jsonl", b'"a"\n"b"\n"c"\n').segments
    data = intake.assemble([ref], [system])
    assert data.ref_names == ("ref.A",) and list(data.systems) == ["model.v2"]


def test_loaded_files_are_not_offered_again_and_files_chosen_meanwhile_are_kept():
    """The uploaders keep their keys (a new key would empty them, dropping what a user chose while the server was
    busy): files already loaded are known by their ids and left out; a file chosen after them is offered alone."""
    at = app("pages/data.py", small_dataset(), ["bleu"]).run()
    _uploaded(at, "up_systems", [("delta.txt", b"a\nb\nc\nd\n")])
    at.run()
    at.button(key="load_files").click().run()
    assert list(at.session_state["dataset"].systems) == ["alpha", "beta", "gamma", "delta"]
    assert [u.key for u in at.file_uploader][:2] == ["up_refs", "up_systems"]
    assert not any(b.key == "load_files" for b in at.button)  # nothing left to load
    assert any("The files above are loaded" in shown(c.value) for c in at.caption)
    at.run()  # a rerun (any widget) never loads the same file twice
    assert list(at.session_state["dataset"].systems) == ["alpha", "beta", "gamma", "delta"]
    assert not any("delta.txt" in shown(m.value) for m in at.markdown)  # loaded: not listed again
    _uploaded(at, "up_systems", [("eps.txt", b"e\nf\ng\nh\n")])  # (AppTest replaces the box's files)
    at.run()
    at.button(key="load_files").click().run()
    assert list(at.session_state["dataset"].systems) == ["alpha", "beta", "gamma", "delta", "eps"]


def test_references_and_systems_chosen_in_quick_succession_all_count():
    """The reference and the systems reach the server in one rerun or in two (a browser sends the systems before the
    reference's run has ended): either way every file is listed and loaded."""
    for together in (True, False):
        at = app("pages/data.py", small_dataset(), ["bleu"]).run()
        _uploaded(at, "up_refs", [("ref.txt", REF)])
        if not together:
            at.run()
        _uploaded(at, "up_systems", [("a.txt", SYS_A), ("b.txt", SYS_B)])
        at.run()
        listed = shown(" ".join(m.value for m in at.markdown))
        assert all(f"✓ {name}: 3 segments" in listed for name in ("ref.txt", "a.txt", "b.txt")), listed
        at.button(key="load_files").click().run()
        data = at.session_state["dataset"]
        assert list(data.systems) == ["a", "b"] and data.ref_names == ("ref",)
