"""Plain-text summaries in the app: the "ROUGE-Lsum equals ROUGE-L" warning names the sentence split, and choosing
it in the ROUGE options changes the score and the signature and ends the warning."""

from __future__ import annotations

import pytest

from dashboard.dataset import Dataset
from metrics.families.rouge.metric import RougeLsum
from tests.support.corpora import slice_corpus
from tests.support.ui import app, setting_key, shown

N = 20  # summaries: enough for the score to move, quick to run


def _plain_summaries() -> Dataset:
    """CNN/DailyMail summaries as a .txt upload gives them: each one line, its sentences joined by spaces."""
    corpus = slice_corpus("cnndm")

    def flat(texts: list[str]) -> tuple[str, ...]:
        return tuple(text.replace("\n", " ") for text in texts[:N])

    return Dataset(
        title="cnndm as text",
        systems={name: flat(hyps) for name, hyps in list(corpus.systems.items())[:2]},
        refs=(flat(corpus.refs[0]),),
        ref_names=("reference",),
        default_metrics=("rougeLsum",),
    )


def _baseline_score(at) -> float:  # type: ignore[no-untyped-def]
    return float(at.dataframe[0].value.loc["baseline", "ROUGE-Lsum"])


def test_the_lsum_warning_points_to_the_split_option_which_changes_score_and_signature():
    data = _plain_summaries()
    at = app("pages/overview.py", data, ["rougeLsum"]).run()
    assert not at.exception, at.exception
    warnings = " ".join(shown(w.value) for w in at.warning)
    assert "equals ROUGE-L" in warnings and "Sentence split option to rules" in warnings
    signatures = " ".join(c.value for c in at.code)
    assert "split:newlines" in signatures
    assert _baseline_score(at) == pytest.approx(RougeLsum().score(data.systems["baseline"], data.refs), abs=1e-12)
    box = at.selectbox(key=setting_key(at, "opt:rouge:split"))
    assert box.options == ["newlines (your own lines)", "rules (rules-v1) within each line"]
    box.set_value("rules").run()
    assert not at.exception, at.exception
    assert "split:rules-v1" in " ".join(c.value for c in at.code)
    split = RougeLsum(split="rules").score(data.systems["baseline"], data.refs)
    assert _baseline_score(at) == pytest.approx(split, abs=1e-12) and split > 0.26  # from 0.219 (= ROUGE-L)
    assert "equals ROUGE-L" not in " ".join(shown(w.value) for w in at.warning)
    assert at.session_state["metric_options"] == {"rouge": {"split": "rules"}}
