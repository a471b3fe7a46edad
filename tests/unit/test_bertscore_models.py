"""Which model BERTScore runs: a name or folder as given, or — with the model option empty — bert-score's default for
the target language (read from the references) when the hub may be reached, and the packaged MiniLM offline. The hub
is never reached: ``model_folder`` is replaced by a stand-in that says what it was asked."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.neural
pytest.importorskip("torch")
bert_score_utils = pytest.importorskip("bert_score.utils")

from metrics.core.models import ModelUnavailable  # noqa: E402
from metrics.core.registry import create  # noqa: E402
from metrics.families.bertscore import encoder as module  # noqa: E402
from metrics.families.bertscore.encoder import choose_model, default_model_path, reference_language  # noqa: E402

MINILM = default_model_path()
ENGLISH = [["The cat sat on the mat and it was happy.", "This is what they have been waiting for."]]
CHINESE = [["猫坐在垫子上。", "这是他们一直在等待的。"]]
GERMAN = [["Die Katze saß auf der Matte.", "Das ist, worauf sie gewartet haben."]]
JAPANESE = [["猫はマットの上に座った。", "これは彼らが待っていたものです。"]]


@pytest.fixture
def online(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The hub reachable (offline mode off) and every hub model found, as the MiniLM folder; the names asked for."""
    from huggingface_hub import constants

    asked: list[str] = []

    def found(name: str) -> Path:
        asked.append(name)
        return MINILM

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(module, "model_folder", found)
    return asked


def test_the_target_language_is_read_from_the_references():
    assert reference_language(ENGLISH) == "en"
    assert reference_language(CHINESE) == "zh"
    assert reference_language(GERMAN) == "other"
    assert reference_language(JAPANESE) == "other"  # bert-score has no Japanese model: multilingual


def test_offline_the_default_is_the_packaged_minilm_and_says_so():
    choice = choose_model("", "en")
    assert (choice.name, choice.folder, choice.layers) == ("all-MiniLM-L6-v2", MINILM, None)
    assert choice.note is not None
    assert "offline (HF_HUB_OFFLINE)" in choice.note and "bert-score's default for en, roberta-large" in choice.note


def test_online_the_default_is_bert_scores_for_the_language_at_its_layer(online):
    assert [(c.name, c.layers) for c in (choose_model("", lang) for lang in ("en", "zh", "other"))] == [
        ("roberta-large", 17),
        ("bert-base-chinese", 8),
        ("bert-base-multilingual-cased", 9),
    ]
    assert online == ["roberta-large", "bert-base-chinese", "bert-base-multilingual-cased"]
    assert "other" not in bert_score_utils.lang2model  # looked up without adding a key to bert-score's table


def test_a_default_that_cannot_be_had_falls_back_to_minilm_with_the_reason(monkeypatch):
    from huggingface_hub import constants

    def unreachable(name: str) -> Path:
        raise ModelUnavailable(f"model {name!r}: the Hugging Face hub cannot be reached")

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(module, "model_folder", unreachable)
    choice = choose_model("", "zh")
    assert choice.name == "all-MiniLM-L6-v2" and choice.note is not None
    assert "bert-base-chinese" in choice.note and "cannot be reached" in choice.note


def test_a_named_model_is_used_at_bert_scores_layer_for_it(online):
    choice = choose_model("roberta-large", "zh")  # a model given by name: the language plays no part
    assert (choice.name, choice.layers) == ("roberta-large", 17)
    local = choose_model(str(MINILM), "en")
    assert (local.name, local.layers, local.note) == ("model", None, None)  # a folder is named by its last part


def test_the_metric_picks_the_default_by_the_references_it_scores(online):
    metric = create("bertscore")
    assert metric.signature().startswith("model:auto|layers:auto|idf:no|")  # an app's cache key, before any data
    assert online == []  # and nothing was looked up or downloaded to say so
    metric.prepare(CHINESE)
    assert metric.model_choice.name == "bert-base-chinese"
    assert metric.signature().startswith("model:bert-base-chinese|layers:8|")
    metric.prepare(ENGLISH)
    assert metric.model_choice.name == "roberta-large"
    fixed = create("bertscore", {"lang": "zh"})
    fixed.prepare(ENGLISH)
    assert fixed.model_choice.name == "bert-base-chinese"


def test_offline_the_note_reaches_the_statistics_unless_minilm_is_chosen_by_name():
    hyps, refs = ["The cat sat."], [["The cat sat on the mat."]]
    stats = create("bertscore", {"device": "cpu"}).stats(hyps, refs)
    assert any("model all-MiniLM-L6-v2: offline (HF_HUB_OFFLINE)" in str(note) for note in stats.notes)
    named = create("bertscore", {"device": "cpu", "model": "all-MiniLM-L6-v2"})
    assert named.model_choice == choose_model("all-MiniLM-L6-v2", "zh")
    assert named.stats(hyps, refs).notes == () and named.stats(hyps, refs).rows.tolist() == stats.rows.tolist()
    assert named.signature() == create("bertscore", {"device": "cpu"}).signature()
