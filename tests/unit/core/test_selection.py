"""One Selection turns options into metrics for the command line, the app, workspaces and Teach: an option reaches
the chosen members that take it, errors name the option, and the cache key follows the config, however it was
spelled."""

from __future__ import annotations

import re
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from metrics.cli.common import build_metrics
from metrics.cli.main import build_parser
from metrics.core.selection import OptionError, Selection, metric_key, taken
from tests.support.ui import app, choose_metrics, setting_key, shown, small_dataset


def _keys(selection: Selection) -> dict[str, str]:
    return {metric_id: metric_key(metric_id, metric) for metric_id, metric in selection.build().items()}


def test_an_option_reaches_the_chosen_members_whose_config_has_it():
    chosen = Selection.from_set(["rouge1", "rougeW", "bleu"], ["rouge.stemmer=true", "rouge.weight=1.5"])
    assert chosen.metric_ids == ("rouge1", "rougeW", "bleu") and chosen.families == ("rouge", "bleu")
    assert chosen.options_for("rouge1") == {"stemmer": True}
    assert chosen.options_for("rougeW") == {"stemmer": True, "weight": 1.5}
    built = chosen.build()
    assert list(built) == ["rouge1", "rougeW", "bleu"]
    assert built["rouge1"].config.stemmer and not hasattr(built["rouge1"].config, "weight")
    assert built["rougeW"].config.stemmer and built["rougeW"].config.weight == 1.5
    assert built["rouge1"].config.n == 1  # the id's preset stays


def test_the_options_are_typed_and_frozen():
    chosen = Selection(("bleu",), {"bleu": {"lowercase": "yes", "max_ngram_order": "3"}})
    assert dict(chosen.options["bleu"]) == {"lowercase": True, "max_ngram_order": 3}
    with pytest.raises(TypeError):
        chosen.options["bleu"]["lowercase"] = False
    same = Selection(("bleu",), {"bleu": {"max_ngram_order": 3, "lowercase": True}})
    assert same == chosen and hash(same) == hash(chosen) and len({chosen, same}) == 1
    given = {"bleu": {"lowercase": True}}
    Selection(("bleu",), given)
    assert given == {"bleu": {"lowercase": True}}  # the caller's mapping is not touched


@pytest.mark.parametrize(
    ("ids", "pairs", "message"),
    [
        (
            ["rouge1"],
            ["rouge.weight=2"],
            "rouge.weight: no chosen rouge metric (rouge1) takes this option; valid options: stemmer, tokenizer",
        ),  # fmt: skip
        (["bleu"], ["rouge.stemmer=true"], "rouge.stemmer: no rouge metric is chosen (chosen: bleu)"),
        (["rougeW"], ["rouge.weight=0"], "rouge.weight: 0.0 is outside (0.0, inf]"),
        (["bleu"], ["bleu.tokenize=moses"], "bleu.tokenize: 'moses' is not one of 13a"),
        (["bleu"], ["bleu.max_ngram_order=four"], "bleu.max_ngram_order: 'four' is not an integer"),
        (
            ["rouge1", "rougeW"],
            ["rouge.tokenizer=whitespace"],
            "rouge.tokenizer: 'whitespace' is not one of default, unicode",
        ),
        (["bleu"], ["bleu.tokenize"], "expected FAMILY.OPTION=VALUE"),
        (["bleu"], ["blue.tokenize=intl"], "unknown metric family 'blue'"),
        (["blue"], [], "unknown metric 'blue'"),
    ],
)
def test_errors_name_the_option(ids: list[str], pairs: list[str], message: str):
    with pytest.raises(ValueError, match=re.escape(message)):
        Selection.from_set(ids, pairs)


def test_a_check_across_options_names_the_family_and_metric():
    with pytest.raises(OptionError, match="perplexity options for perplexity: ") as caught:
        Selection(("perplexity",), {"perplexity": {"model": "kneser-ney", "order": 1}})
    assert caught.value.family == "perplexity"


def test_strings_and_typed_values_give_one_cache_key_and_other_options_another():
    spelled = Selection.from_set(
        ["bleu", "bleu-nltk", "rougeS"],
        ["bleu.lowercase=true", "bleu.max_ngram_order=3", "bleu-nltk.weights=0.4,0.3,0.2,0.1", "rouge.skip_distance=9"],
    )
    typed = Selection(
        ("bleu", "bleu-nltk", "rougeS"),
        {"bleu": {"lowercase": True, "max_ngram_order": 3}, "bleu-nltk": {"weights": (0.4, 0.3, 0.2, 0.1)},
         "rouge": {"skip_distance": 9}},
    )  # fmt: skip
    assert spelled == typed and _keys(spelled) == _keys(typed)
    assert {m: metric.config for m, metric in spelled.build().items()} == {
        m: metric.config for m, metric in typed.build().items()
    }
    other = Selection(("bleu", "bleu-nltk", "rougeS"), {"bleu": {"lowercase": True, "max_ngram_order": 2}})
    keys, other_keys = _keys(typed), _keys(other)
    assert all(keys[m] != other_keys[m] for m in keys)
    assert _keys(Selection(("bleu",))).keys() == {"bleu"}
    assert _keys(Selection(("bleu",)))["bleu"].startswith(f"bleu|{Selection(('bleu',)).metric('bleu').signature()}|")
    # the same config under two ids is two keys (chrF++ is chrF with word_order=2)
    both = _keys(Selection(("chrf", "chrf++"), {"chrf": {"word_order": 2}}))
    assert both["chrf"] != both["chrf++"] and both["chrf"].split("|", 1)[1] == both["chrf++"].split("|", 1)[1]


def test_two_files_of_one_name_and_content_are_two_keys(tmp_path):
    """The signature names a training file by name and content; the key tells two folders apart all the same."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "lm.txt").write_text("the cat sat\n")
    one, two = (Selection(("perplexity",), {"perplexity": {"corpus": str(tmp_path / f / "lm.txt")}}) for f in "ab")
    assert one.metric("perplexity").signature() == two.metric("perplexity").signature()
    assert _keys(one) != _keys(two)


def test_taken_keeps_what_reaches_a_chosen_metric():
    stored = {"rouge": {"weight": 1.5, "stemmer": True}, "bleu": {"lowercase": True}}
    assert taken(["rouge1"], stored) == {"rouge": {"stemmer": True}}
    assert taken(["rougeW", "bleu"], stored) == stored
    assert taken(["chrf"], stored) == {}


# ------------------------------------------------------------------------------------- command line and app


def _app_metrics() -> None:
    """The app's metrics for the preset metric choice and options, as (class, config, signature) per id."""
    import streamlit as st

    from dashboard import state

    built, errors = state.metrics_for(state.dataset(), state.metric_ids())
    st.session_state["built"] = {m: (type(x).__name__, x.config, x.signature()) for m, x in built.items()}
    st.session_state["errors"] = errors


def test_the_command_line_and_the_app_build_the_same_metrics():
    ids = ["bleu", "chrf++", "rouge1", "rougeW"]
    args = build_parser().parse_args(
        ["score", "-r", "r.txt", "-i", "s.txt", "-l", "none", "-m", *ids]
        + ["--set", "bleu.lowercase=true", "--set", "chrf.beta=3", "--set", "rouge.weight=1.5"]
    )
    cli = {m: (type(x).__name__, x.config, x.signature()) for m, x in build_metrics(args, [["a b c"]]).items()}
    at = AppTest.from_function(_app_metrics, default_timeout=60)
    at.session_state["dataset"] = small_dataset()
    at.session_state["metric_ids"] = ids
    widgets: dict[str, Any] = {"bleu": {"lowercase": True}, "chrf": {"beta": 3}, "rouge": {"weight": 1.5}}
    at.session_state["metric_options"] = widgets
    at.run()
    assert not at.exception and at.session_state["errors"] == []
    assert at.session_state["built"] == cli
    assert cli["rougeW"][1].weight == 1.5 and cli["chrf++"][1].word_order == 2 and cli["chrf++"][1].beta == 3


def test_the_sidebar_shows_keeps_and_applies_an_option_only_one_chosen_member_takes():
    at = app("app.py", small_dataset(), ["rouge1", "rougeW"]).run()
    assert not at.exception, at.exception
    weight = at.number_input(key=setting_key(at, "opt:rouge:weight"))
    assert weight.label == "WLCS weight w (only ROUGE-W-1.2)"
    assert at.checkbox(key=setting_key(at, "opt:rouge:stemmer")).label == "Stemming"  # both take it: no note
    weight.set_value(1.5).run()
    assert not at.exception and not at.error
    assert at.session_state["metric_options"] == {"rouge": {"weight": 1.5}}
    signatures = [c.value for c in at.code]
    assert any("type:rougeW-1.5|" in s for s in signatures)  # it reached ROUGE-W …
    assert any("type:rouge1|" in s for s in signatures)  # … and ROUGE-1, which has no weight, still scores
    # ROUGE-W left out: its weight is no longer shown but kept, and comes back with it
    choose_metrics(at, ["rouge1"]).run()
    assert not at.exception and not at.error
    assert at.session_state["metric_options"] == {"rouge": {"weight": 1.5}}
    assert not [w for w in at.number_input if w.key.startswith("opt:rouge:weight")]
    at.checkbox(key=setting_key(at, "opt:rouge:stemmer")).check().run()
    assert at.session_state["metric_options"] == {"rouge": {"weight": 1.5, "stemmer": True}}
    choose_metrics(at, ["rouge1", "rougeW"]).run()
    assert not at.exception and not at.error
    assert at.number_input(key=setting_key(at, "opt:rouge:weight")).value == 1.5
    assert any("type:rougeW-1.5|tok:default|stem:yes" in c.value for c in at.code)


def test_a_workspace_keeps_an_option_one_chosen_member_takes_and_notes_one_none_takes():
    from dashboard import workspace

    options = {"rouge": {"weight": "1.5", "stemmer": True, "bogus": 1}, "bleu": {"max_ngram_order": 12}}
    saved = workspace.dumps(small_dataset(), workspace.Settings(("rouge1", "rougeW", "bleu"), options))
    at = app("app.py", small_dataset(), ["bleu"]).run()
    at.switch_page("pages/data.py").run()
    at.file_uploader(key="up_workspace").set_value(("ws.json", saved.encode(), "application/json"))
    at.run()
    at.button(key="load_workspace").click().run()
    assert not at.exception, at.exception
    assert at.session_state["metric_ids"] == ["rouge1", "rougeW", "bleu"]
    assert at.session_state["metric_options"] == {"rouge": {"weight": 1.5, "stemmer": True}}  # as the sidebar shows it
    notes = at.session_state["intake_notes"]
    assert any(n.startswith("options for bleu not applied: bleu.max_ngram_order: ") for n in notes), notes
    assert "options for rouge not applied: no rouge metric takes bogus" in notes  # dropped, not kept for later
    at.switch_page("pages/overview.py").run()
    assert not at.exception and not at.error
    assert any("type:rougeW-1.5|tok:default|stem:yes" in c.value for c in at.code)


def test_a_stored_choice_a_newly_chosen_member_refuses_is_reset_visibly():
    at = app("app.py", small_dataset(), ["rougeW"]).run()
    at.selectbox(key=setting_key(at, "opt:rouge:tokenizer")).set_value("whitespace").run()
    assert at.session_state["metric_options"] == {"rouge": {"tokenizer": "whitespace"}}
    choose_metrics(at, ["rouge1", "rougeW"]).run()
    assert not at.exception, at.exception
    warnings = [shown(w.value) for w in at.sidebar.warning]
    assert warnings == ["Not offered for the chosen metrics, back to the default: rouge.tokenizer=whitespace"]
    assert at.session_state["metric_options"] == {}
    assert at.selectbox(key=setting_key(at, "opt:rouge:tokenizer")).value == "default"


def test_stored_options_the_chosen_metrics_refuse_leave_their_family_out_with_the_error():
    refused = {"perplexity": {"model": "kneser-ney", "order": 1}}
    at = app("app.py", small_dataset(), ["bleu", "perplexity"], metric_options=refused).run()
    assert not at.exception, at.exception
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(
        "Left out — Perplexity (n-gram / causal LM): perplexity options "
    ), errors
    assert list(at.dataframe[0].value.columns[:1]) == ["BLEU"]


def test_an_id_that_fixes_an_option_keeps_it():
    """chrF++ is chrF with word_order=2: chrf.word_order reaches chrF, never chrF++, and alone it is an error that
    names the id that fixes it."""
    both = Selection(("chrf", "chrf++"), {"chrf": {"word_order": 1}}).build()
    assert both["chrf"].config.word_order == 1 and both["chrf++"].config.word_order == 2
    with pytest.raises(OptionError, match=r"chrf\.word_order: .*chrf\+\+ fixes word_order=2"):
        Selection(("chrf++",), {"chrf": {"word_order": 1}})
    with pytest.raises(OptionError, match=r"chrf\.word_order: .*chrf\+\+ fixes word_order=2"):
        Selection.from_set(("chrf++",), ["chrf.word_order=0"])
