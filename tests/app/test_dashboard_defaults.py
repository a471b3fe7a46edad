"""Real uploads get defaults from their data, visibly: metrics by task, options by the references' language, enough
resamples for the tied groups to separate; one warning per kind; the user's choices always win."""

from __future__ import annotations

from dashboard.dataset import Dataset
from tests.support.paths import DATA
from tests.support.ui import app, choose_metrics, setting_key, shown, small_dataset

ZH = DATA / "wmt22-en-zh"
N = 30  # segments uploaded: enough to detect and score, quick to run


def _lines(path, n: int = N) -> bytes:
    return "".join(line + "\n" for line in path.read_text(encoding="utf-8").split("\n")[:n]).encode()


def _upload(at, refs, systems):
    at.switch_page("pages/data.py").run()
    uploaders = {u.key.split(":")[0]: u for u in at.file_uploader}  # a load renews their keys (up_refs:1, …)
    uploaders["up_refs"].set_value([(name, data, "text/plain") for name, data in refs])
    uploaders["up_systems"].set_value([(name, data, "text/plain") for name, data in systems])
    at.run()
    at.button(key="load_files").click().run()
    assert not at.exception, at.exception


def _chinese(at):
    refs = [(name, _lines(ZH / name)) for name in ("ref.A.txt", "ref.B.txt")]
    systems = [(f"{name}.txt", _lines(ZH / "sys" / f"{name}.txt")) for name in ("Online-B", "Lan-Bridge")]
    _upload(at, refs, systems)


def _texts(at) -> str:
    return " ".join(shown(x.value) for x in [*at.info, *at.caption, *at.warning, *at.markdown])


def test_uploaded_summaries_get_rouge_and_say_why():
    at = app("app.py", small_dataset(), ["bleu", "chrf"]).run()
    cnndm = DATA / "cnndm"
    system = sorted((cnndm / "sys").glob("*.sents.jsonl"))[0]
    refs = [("reference.sents.jsonl", _lines(cnndm / "reference.sents.jsonl", 20))]
    _upload(at, refs, [(system.name, _lines(system, 20))])
    assert at.session_state["metric_ids"] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert "Metrics chosen from the data — 1 reference per segment, " in _texts(at)
    at.switch_page("pages/overview.py").run()
    assert not at.exception, at.exception
    assert "the outputs' lengths do not follow the references' (r = " in _texts(at)
    assert "read as summaries, so ROUGE-1/2/L/Lsum" in _texts(at)
    choose_metrics(at, ["rouge1"]).run()  # the user's choice: no more claim about it
    assert "Metrics chosen from the data" not in _texts(at)


def test_chinese_references_get_sacrebleus_choice_stated_in_signature_and_screen():
    at = app("app.py", small_dataset(), ["bleu"]).run()
    _chinese(at)
    assert at.session_state["metric_ids"] == ["bleu", "chrf", "ter"]
    assert at.session_state["metric_options"] == {
        "bleu": {"tokenize": "zh"},
        "ter": {"normalized": True, "asian_support": True},
    }
    at.switch_page("pages/overview.py").run()
    assert not at.exception, at.exception
    info = " ".join(shown(i.value) for i in at.info)
    assert "References look Chinese (9" in info and "bleu.tokenize=zh (sacrebleu's choice for -l xx-zh)" in info
    assert "ter.normalized=true, ter.asian_support=true (TER splits CJK characters" in info
    signatures = " ".join(c.value for c in at.code)
    assert "tok:zh" in signatures and "norm:yes|punct:yes|asian:yes" in signatures
    # the user overrides the tokenizer in the sidebar: it holds, and the line no longer claims it
    at.selectbox(key=setting_key(at, "opt:bleu:tokenize")).set_value("13a").run()
    assert "tok:13a" in " ".join(c.value for c in at.code)
    info = " ".join(shown(i.value) for i in at.info)
    assert "bleu.tokenize" not in info and "ter.normalized=true" in info
    # BLEU alone, its tokenizer set otherwise: the line says what is not in use, not that BLEU has no option for it
    choose_metrics(at, ["bleu"]).run()
    info = " ".join(shown(i.value) for i in at.info)
    assert "not in use for the chosen metrics: bleu.tokenize=zh." in info and "no option for it" not in info
    choose_metrics(at, ["bleu", "chrf", "ter"]).run()
    # English references next: what the language set is taken back, the user's choice stays his
    at.selectbox(key=setting_key(at, "opt:bleu:tokenize")).set_value("intl").run()
    refs = [("ref.txt", b"the cat sat on the mat .\n" * N)]
    _upload(at, refs, [("a.txt", b"the cat sat .\n" * N)])
    assert at.session_state["metric_options"] == {"bleu": {"tokenize": "intl"}}
    assert "References look" not in _texts(at)


def test_rouge_on_chinese_warns_once_for_all_systems_naming_the_app_option():
    at = app("app.py", small_dataset(), ["bleu"]).run()
    _chinese(at)
    at.switch_page("pages/overview.py").run()
    choose_metrics(at, ["rouge1", "rouge2", "rougeL"]).run()
    assert not at.exception, at.exception
    warnings = [shown(w.value) for w in at.warning]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(
        "60 of 60 references (100%) and 60 of 60 system outputs have letters ROUGE-1/2/L/Lsum's tokenizer drops ("
    )
    assert warnings[0].endswith(
        'choose Tokenizer "unicode (letters of any script)" under "rouge options" in the sidebar.'
    )
    assert "--set" not in warnings[0] and "Online-B" not in warnings[0]


def test_the_task_is_stated_on_the_data_page_before_anything_is_computed(monkeypatch):
    """A paragraph-level MT upload is read as translation, with the reason; one click makes it summarization, and
    the metrics change without the old ones being computed."""
    from dashboard import state

    scored: list[str] = []

    def counting(systems, refs, metrics, *args, **kwargs):
        scored.extend(metrics)
        return evaluate(systems, refs, metrics, *args, **kwargs)

    evaluate = state.evaluate
    monkeypatch.setattr(state, "evaluate", counting)
    at = app("app.py", small_dataset(), ["bleu"]).run()
    para = DATA / "wmt23-he-en-para-src"
    refs = [(name, _lines(para / name, 60)) for name in ("ref.A.txt", "ref.B.txt")]
    systems = [(p.name, _lines(p, 60)) for p in sorted((para / "sys").glob("*.txt"))]
    scored.clear()  # the app opened on the overview, which scored the data loaded before
    _upload(at, refs, systems)
    assert at.session_state["metric_ids"] == ["bleu", "chrf", "ter"]
    (task,) = at.radio
    assert task.label == "Task (sets the default metrics)" and task.value.name == "TRANSLATION"
    assert "the outputs' lengths follow the references' (r = 0.9" in _texts(at)
    task.set_value(next(t for t in _tasks() if t.name == "SUMMARIZATION")).run()
    assert not at.exception, at.exception
    assert at.session_state["metric_ids"] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert at.multiselect(key=setting_key(at, "metrics_box")).value == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert "Metrics chosen for the stated task — summaries, as stated, so ROUGE-1/2/L/Lsum" in _texts(at)
    assert "Detected: translation — 2 references per segment" in _texts(at)
    at.radio[0].set_value(next(t for t in _tasks() if t.name == "TRANSLATION")).run()
    assert at.session_state["metric_ids"] == ["bleu", "chrf", "ter"]
    assert scored == []  # the Data page scored nothing: neither choice was computed
    at.switch_page("pages/overview.py").run()
    assert not at.exception, at.exception
    assert sorted(set(scored)) == ["bleu", "chrf", "ter"]  # the overview computes the settled choice only


def _tasks():
    from metrics.core.family import Task

    return list(Task)


def test_the_explorer_counts_characters_of_chinese_references():
    at = app("app.py", small_dataset(), ["bleu"]).run()
    _chinese(at)
    at.switch_page("pages/explorer.py").run()
    assert not at.exception, at.exception
    frame = at.dataframe[0].value
    first = (ZH / "ref.A.txt").read_text(encoding="utf-8").split("\n")[0]
    assert "ref characters" in frame.columns and frame["ref characters"].iloc[0] == len(first.replace(" ", ""))


def _fifteen() -> Dataset:
    """15 systems of 8 segments: two byte-identical copies, one far worse than the rest."""
    refs = tuple(f"the quick brown fox {k} jumps over the lazy dog near the river bank" for k in range(8))
    systems = {
        f"s{j:02d}": tuple(f"the quick brown fox {k} jumps over the lazy cat {j}" for k in range(8)) for j in range(12)
    }
    systems["copy A"] = systems["copy B"] = tuple(f"the quick brown fox {k} jumps over a dog" for k in range(8))
    systems["poor"] = tuple(f"zebra {k}" for k in range(8))
    return Dataset("fifteen", systems, (refs,), ("ref",))


def test_fifteen_systems_take_enough_resamples_and_copies_stay_tied():
    at = app("app.py", _fifteen(), ["chrf"], baseline="copy A").run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert table.loc["copy B", "chrF2 p"] == "1.0000" and float(table.loc["poor", "chrF2 p"]) < 0.001
    box = at.selectbox(key=setting_key(at, "resamples_box"))
    assert box.value is None and "auto (21,000 for 15 systems)" in box.options[0]
    assert any("21,000 resamples" in shown(c.value) for c in at.caption)
    groups = " ".join(shown(m.value) for m in at.markdown if "chrF2:" in shown(m.value))
    assert groups.endswith("> {poor}") and "copy A, copy B" in groups
    box.set_value(1000).run()  # sacrebleu's count: Holm over 105 pairs can reject nothing
    assert any("smallest reachable corrected p-value is 0.105" in shown(w.value) for w in at.warning)
    groups = " ".join(shown(m.value) for m in at.markdown if "chrF2:" in shown(m.value))
    assert ">" not in groups


def test_captions_get_no_human_agreement_estimate_from_the_translation_fits():
    """COCO captions read as captioning: BLEU is among their metrics, but mt-thresholds' fits come from WMT
    translation pairs, so neither the Overview nor the Analysis page estimates human agreement for them."""
    at = app("app.py", small_dataset(), ["bleu"]).run()
    coco = DATA / "coco"
    refs = [(f"ref.{k}.txt", _lines(coco / f"ref.{k}.txt", 120)) for k in range(4)]
    systems = [(p.name, _lines(p, 120)) for p in sorted((coco / "sys").glob("*.txt"))]
    _upload(at, refs, systems)
    assert at.radio[0].value.name == "CAPTIONING" and "bleu" in at.session_state["metric_ids"]
    at.switch_page("pages/overview.py").run()
    assert not at.exception, at.exception
    assert not [c for c in at.dataframe[0].value.columns if "agr." in c]
    assert "agr.: no estimate — mt-thresholds' fits come from WMT translation system pairs, and this data is read as " \
        "captioning" in _texts(at)  # fmt: skip
    at.session_state["an_section"] = "Trust in differences"
    at.switch_page("pages/analysis.py").run()
    assert not at.exception, at.exception
    assert "No estimate: mt-thresholds' fits come from WMT translation system pairs" in _texts(at)
