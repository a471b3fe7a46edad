"""Nothing a browser sends may name a server path (issue 25, item 1).

Every option of every metric offered here that is free text or names a server resource (a file, a model folder) is
driven from the browser's side — the sidebar widget's state, the session's options, a workspace file, the Teach
page's what-ifs — with hostile values: ``/etc/passwd``, ``/dev/zero``, a file holding a secret line, a folder that
looks like a model. An audit hook records every file the process opens or lists meanwhile, and every metric config
built is recorded: none names a hostile value. The options come from the registry, so a path option added later is
covered without touching this file.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import keys, server_config, workspace
from dashboard.server_config import (
    DEVICES_ENV,
    ENV,
    MAX_FILE_OPTION_BYTES,
    browser_selection,
    check_browser_options,
    refusal,
)
from metrics.core.config import Option, Resource, config_options
from metrics.core.registry import SPECS, available_metrics, create, metric_class
from metrics.core.selection import OptionError
from metrics.core.upload import Upload
from rendering import lessons, teach
from tests.support.paths import ROOT
from tests.support.ui import app, small_dataset

SECRET = "root-secret: hunter2"


def _free_text() -> list[tuple[str, str, Option]]:
    """(a metric that takes it, family, option) for every free-text or resource option of the metrics offered here,
    one per family and name."""
    found: dict[tuple[str, str], tuple[str, str, Option]] = {}
    for metric_id in available_metrics():
        family = SPECS[metric_id].family
        for option in config_options(metric_class(metric_id).Config):
            if option.name in SPECS[metric_id].preset:
                continue
            if option.kind == "text" or option.info.resource is not None:
                found.setdefault((family, option.name), (metric_id, family, option))
    return list(found.values())


OPTIONS = _free_text()
IDS = [f"{family}.{option.name}" for _, family, option in OPTIONS]


# ----------------------------------------------------------------------------------------------- what is watched

_opened: list[str] | None = None  # the paths opened or listed while a test records; None: not recording
_WATCHED = {"open", "os.listdir", "os.scandir", "os.chdir", "shutil.copyfile", "os.truncate"}


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _opened is not None and event in _WATCHED and args and isinstance(args[0], (str, bytes, os.PathLike)):
        _opened.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # an audit hook cannot be removed: it records only inside `recording`


@pytest.fixture
def hostile(tmp_path: Path) -> list[str]:
    """Values a browser might send to read the server's files: system files, a file with a secret line, a folder
    that looks like a model (it has a config.json, so only a refusal keeps a loader out of it)."""
    secret = tmp_path / "secret.txt"
    secret.write_text(f"{SECRET}\nthe cat sat on the mat\n", encoding="utf-8")
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    return ["/etc/passwd", "/dev/zero", str(secret), str(folder)]


@pytest.fixture
def configs(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every config built of a metric that has a free-text option, while the test runs."""
    built: list[object] = []
    for cls in {metric_class(metric_id).Config for metric_id, _, _ in OPTIONS}:
        original = cls.__post_init__

        def record(self: object, _original: Any = original) -> None:
            built.append(self)
            _original(self)

        monkeypatch.setattr(cls, "__post_init__", record)
    return built


@pytest.fixture
def recording() -> Iterator[list[str]]:
    global _opened
    _opened = []
    try:
        yield _opened
    finally:
        _opened = None


def assert_untouched(opened: list[str], configs: list[object], hostile: list[str]) -> None:
    """No hostile path was opened or listed (nor anything inside a hostile folder), and no config holds one."""
    real = {os.path.realpath(p) for p in hostile}
    for path in opened:
        resolved = os.path.realpath(path)
        assert not any(resolved == h or resolved.startswith(h + os.sep) for h in real), f"opened {path}"
    for config in configs:
        values = [getattr(config, f.name) for f in dataclasses.fields(config)]  # type: ignore[arg-type]
        assert not any(isinstance(v, str) and v in hostile for v in values), config


# -------------------------------------------------------------------------------------------- the registry's part


def test_the_free_text_options_are_the_resources_and_none_is_offered_as_text():
    names = set(IDS)
    assert {"perplexity.corpus", "perplexity.causal_model"} <= names
    assert ("bertscore.model" in names) == ("bertscore" in available_metrics())
    for _, _, option in OPTIONS:
        assert option.info.resource is not None, f"{option.name}: free text from a browser must name its resource"
    for metric_id in lessons.lesson_status()[0]:
        assert all(c.option.info.resource is None for c in teach.controls(metric_id)), metric_id


@pytest.mark.parametrize(("metric_id", "family", "option"), OPTIONS, ids=IDS)
def test_the_server_refuses_every_hostile_value_before_a_selection_is_built(metric_id, family, option, hostile):
    for value in hostile:
        assert refusal(family, option.name, value) is not None
        with pytest.raises(OptionError, match=rf"^{family}\.{option.name}: "):
            browser_selection((metric_id,), {family: {option.name: value}})
        with pytest.raises(OptionError) as refused:
            check_browser_options({family: {option.name: value}})
        assert value not in str(refused.value)  # the message names the option, and repeats no server path
    assert refusal(family, option.name, option.default) is None


# ------------------------------------------------------------------------------------------------ from a browser


# Every option at once, one run per hostile value: a family's options all hold it, every metric that takes one is
# chosen. The per-option messages are checked above without a page.
METRIC_IDS = list(dict.fromkeys(metric_id for metric_id, _, _ in OPTIONS))


def _all_at(value: str) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for _, family, option in OPTIONS:
        found.setdefault(family, {})[option.name] = value
    return found


def _held(at: AppTest, hostile: list[str]) -> list[str]:
    """The hostile values the session's options still hold."""
    stored = at.session_state.get("metric_options", {})
    return [
        f"{f}.{n}" for f, values in stored.items() for n, v in values.items() if isinstance(v, str) and v in hostile
    ]


def test_sidebar_widget_state_and_session_options_never_reach_a_file(hostile, configs, recording):
    for value in hostile:
        at = app("pages/data.py", small_dataset(), METRIC_IDS)
        for _, family, option in OPTIONS:
            at.session_state[f"opt:{family}:{option.name}"] = value  # the widget's state, as a browser sends it
        at.run()
        assert _held(at, hostile) == []
        # the session's options, as a tampered or an old session would hold them
        at = app("pages/data.py", small_dataset(), METRIC_IDS, metric_options=_all_at(value)).run()
        assert not at.exception, at.exception
        assert _held(at, hostile) == []
        assert [t.key for t in at.sidebar.text_input if (t.key or "").startswith("opt:")] == [], "offered as text"
    assert_untouched(recording, configs, hostile)


def _build(metric_ids: list[str], options: dict[str, dict[str, str]]) -> None:
    """An app script that builds the chosen metrics from the session's options as every scored page does."""
    import streamlit as st

    from dashboard import state
    from tests.support.ui import small_dataset

    st.session_state["dataset"] = small_dataset()
    st.session_state["metric_ids"] = metric_ids
    st.session_state["metric_options"] = options
    built, errors = state.metrics_for(state.dataset(), metric_ids)
    st.write(sorted(built))
    st.text("\n".join(errors))


def test_the_point_that_builds_metrics_refuses_what_the_session_holds(hostile, configs, recording):
    """``dashboard.state.metrics_for`` (every scored page) checks the session's options itself, not trusting the
    sidebar to have cleaned them: each family's metrics are left out, the error names its option."""
    for value in hostile:
        at = AppTest.from_function(_build, args=(METRIC_IDS, _all_at(value)), default_timeout=60).run()
        assert not at.exception, at.exception
        assert json.loads(at.json[0].value) == []
        for family in _all_at(value):
            assert re.search(rf"\b{family}\.\w+: ", at.text[0].value), at.text[0].value
    assert_untouched(recording, configs, hostile)


def test_a_workspace_naming_a_server_path_is_refused_with_the_option_named(hostile, configs, recording):
    # a valid option of each family stays: only the refused values are left out
    extra: dict[str, dict[str, Any]] = {}
    for metric_id, family, _ in OPTIONS:
        others = [o for o in config_options(metric_class(metric_id).Config) if o.kind == "int" and o.default]
        extra.setdefault(family, {others[0].name: others[0].default + 1})
    for value in hostile:
        options = {family: {**values, **extra[family]} for family, values in _all_at(value).items()}
        document = workspace.dumps(small_dataset(), workspace.Settings(tuple(METRIC_IDS), options)).encode()
        at = app("pages/data.py", small_dataset(), ["bleu"]).run()
        at.file_uploader(key="up_workspace").set_value(("ws.json", document, "application/json")).run()
        at.button(key="load_workspace").click().run()
        assert not at.exception, at.exception
        notes = " ".join(at.session_state[keys.DATA_NOTES.name])
        for name in IDS:
            assert f"{name}: " in notes, notes
        assert at.session_state["metric_options"] == extra
    assert_untouched(recording, configs, hostile)


@pytest.mark.neural  # BERTScore's lesson loads its bundled model
def test_teach_what_ifs_take_no_resource_even_from_the_session(hostile, configs, recording):
    with_lesson = [(m, f, o) for m, f, o in OPTIONS if m in lessons.lesson_status()[0]]
    if not with_lesson:
        pytest.skip("no metric with a resource option has a lesson here")
    for value in hostile:
        for metric_id, _, option in with_lesson:
            at = AppTest.from_file(str(ROOT / "pages" / "teach.py"), default_timeout=120)
            at.session_state[keys.TEACH_METRIC.name] = metric_id
            at.session_state[keys.TEACH_OPTION.at(f"{metric_id}_{option.name}").name] = value
            at.run()
            assert not at.exception, at.exception
    assert_untouched(recording, configs, hostile)


def test_the_watch_sees_what_the_library_reads_which_still_takes_paths(hostile, recording):
    """The command line and the library keep their paths: the same watch sees them read the file."""
    secret = hostile[2]
    metric = create("perplexity", {"corpus": secret})
    assert f"train:file:{Path(secret).name}:sha256:" in metric.signature()
    metric.prepare([["the cat"]])
    assert os.path.realpath(secret) in {os.path.realpath(p) for p in recording}


# ------------------------------------------------------------------------------------- what a browser may choose


def test_the_sidebar_offers_models_from_the_servers_list_by_name(tmp_path, monkeypatch):
    listed = tmp_path / "models.json"
    listed.write_text(json.dumps({"bertscore.model": {"MiniLM copy": str(tmp_path / "minilm")}}), encoding="utf-8")
    monkeypatch.setenv(ENV, str(listed))
    server_config.server_config.cache_clear()
    try:
        at = app("pages/data.py", small_dataset(), ["bertscore"]).run()
        box = at.sidebar.selectbox(key="opt:bertscore:model")
        default = "bert-score's default for the language (all-MiniLM-L6-v2 offline)"
        assert box.options == [default, "all-MiniLM-L6-v2 (bundled)", "MiniLM copy"]  # names, never the folder
        box.set_value(str(tmp_path / "minilm")).run()
        assert at.session_state["metric_options"] == {"bertscore": {"model": str(tmp_path / "minilm")}}
    finally:
        server_config.server_config.cache_clear()


def test_devices_are_the_servers_to_offer(monkeypatch):
    """``auto`` (the default) and what SCORELENS_DEVICES lists (``cpu`` when unset); any other device is refused
    before a metric is built, and a wrong list leaves the default."""
    for listed, offered in ((None, ["auto", "cpu"]), ("cpu, cuda:1,cpu", ["auto", "cpu", "cuda:1"])):
        if listed is None:
            monkeypatch.delenv(DEVICES_ENV, raising=False)
        else:
            monkeypatch.setenv(DEVICES_ENV, listed)
        server_config.server_config.cache_clear()
        try:
            at = app("pages/data.py", small_dataset(), ["perplexity"]).run()
            assert at.sidebar.selectbox(key="opt:perplexity:device").options == offered
            assert refusal("perplexity", "device", "cuda:0") is not None
            assert all(refusal("perplexity", "device", d) is None for d in offered)
        finally:
            server_config.server_config.cache_clear()
    monkeypatch.setenv(DEVICES_ENV, "cpu,gpu")
    try:
        assert server_config.server_config().devices == ("cpu",)
    finally:
        server_config.server_config.cache_clear()


def test_a_bad_server_list_offers_the_defaults_and_shows_no_server_path(tmp_path, monkeypatch):
    listed = tmp_path / "models.json"
    listed.write_text(json.dumps({"perplexity.corpus": {"x": "/etc/passwd"}}), encoding="utf-8")
    monkeypatch.setenv(ENV, str(listed))
    server_config.server_config.cache_clear()
    try:
        found = server_config.server_config()
        assert found.models == {} and "'perplexity.corpus' is not a model option" in (found.error or "")
        at = app("pages/data.py", small_dataset(), ["bertscore"]).run()
        shown = " ".join(e.value for e in at.sidebar.error)
        assert ENV in shown and str(tmp_path) not in shown
    finally:
        server_config.server_config.cache_clear()


def test_the_training_corpus_comes_as_an_upload_and_trains_the_model(configs, recording):
    at = app("pages/data.py", small_dataset(), ["perplexity"]).run()
    assert not [t for t in at.sidebar.text_input if (t.key or "").startswith("opt:perplexity")]
    corpus = b"the cat sat on the mat .\nhello world\n"
    uploader = at.sidebar.file_uploader(key="opt:perplexity:corpus")
    uploader.set_value(("lm.txt", corpus, "text/plain")).run()
    assert not at.exception, at.exception
    stored = at.session_state["metric_options"]["perplexity"]["corpus"]
    assert stored == Upload("lm.txt", corpus)
    at.switch_page("overview.py").run()
    assert not at.exception, at.exception
    trained = [c for c in configs if getattr(c, "corpus", None) == stored]
    assert trained, "the upload reached the metric's config"
    assert not [p for p in recording if p.endswith("lm.txt")]  # the name is a label, never a path


def test_a_training_corpus_over_the_limit_is_refused():
    big = Upload("big.txt", b"x\n" * (MAX_FILE_OPTION_BYTES // 2 + 1))
    assert "more than" in (refusal("perplexity", "corpus", big) or "")
    assert refusal("perplexity", "corpus", Upload("ok.txt", b"a b\n")) is None


def test_an_uploaded_corpus_goes_with_the_workspace_as_data():
    upload = Upload("lm.txt", b"the cat\nsat\n")
    settings = workspace.Settings(("perplexity",), {"perplexity": {"corpus": upload}})
    _, loaded = workspace.loads(workspace.dumps(small_dataset(), settings))
    assert loaded.options["perplexity"]["corpus"] == upload
    assert loaded.options["perplexity"]["corpus"].data == upload.data
    declared = {o.name: o.info.resource for o in config_options(metric_class("perplexity").Config)}
    assert declared["corpus"] is Resource.FILE and declared["causal_model"] is Resource.MODEL
