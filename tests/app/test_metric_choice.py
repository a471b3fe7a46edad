"""Changing the metric choice costs what it adds: a metric added is scored (and resampled) alone, one removed or
chosen again is a lookup, several chosen at once cost one run, and a rerun hashes no text."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import dashboard.dataset
import dashboard.state
from dashboard.dataset import Dataset
from metrics.stats import significance
from tests.support.ui import app, choose_metrics, setting_key, shown, small_dataset


def _fresh_data() -> Dataset:
    """The small dataset with outputs no other test scores: the process-wide stores hold none of its results."""
    base = small_dataset()
    systems = {name: tuple(f"{text} metric-choice" for text in texts) for name, texts in base.systems.items()}
    return replace(base, systems=systems)


class Calls:
    """What the pipeline computed: (metric id, system) per scoring, the metric per bootstrap, the texts hashed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.scored: list[tuple[str, str]] = []
        self.resampled: list[str] = []
        self.hashed = 0
        evaluate, all_pairs, stream_hash = (
            dashboard.state.evaluate,
            significance.all_pairs,
            dashboard.dataset.stream_hash,
        )

        def scoring(systems: Any, refs: Any, metrics: Any, **kwargs: Any) -> Any:
            self.scored += [(metric_id, name) for metric_id in metrics for name in systems]
            return evaluate(systems, refs, metrics, **kwargs)

        def resampling(metric: Any, *args: Any, **kwargs: Any) -> Any:
            self.resampled.append(metric.name)
            return all_pairs(metric, *args, **kwargs)

        def hashing(texts: Any) -> str:
            self.hashed += 1
            return stream_hash(texts)

        monkeypatch.setattr(dashboard.state, "evaluate", scoring)
        monkeypatch.setattr(significance, "all_pairs", resampling)
        monkeypatch.setattr(dashboard.dataset, "stream_hash", hashing)

    def take(self) -> tuple[set[tuple[str, str]], list[str], int]:
        found = (set(self.scored), sorted(self.resampled), self.hashed)
        self.scored, self.resampled, self.hashed = [], [], 0
        return found


def _columns(at: Any) -> list[str]:
    return list(at.dataframe[0].value.columns)


def test_adding_a_metric_computes_only_it_and_removing_one_computes_nothing(monkeypatch):
    systems = ("alpha", "beta", "gamma")
    at = app("app.py", _fresh_data(), ["bleu"], overview_details=[])
    calls = Calls(monkeypatch)
    at.run()
    assert not at.exception, at.exception
    assert calls.take()[:2] == ({("bleu", s) for s in systems}, ["BLEU"])

    choose_metrics(at, ["bleu", "chrf"]).run()  # added: chrF alone is scored and resampled, BLEU is looked up
    assert not at.exception, at.exception
    assert calls.take() == ({("chrf", s) for s in systems}, ["chrF2"], 0)
    assert _columns(at) == ["BLEU", "chrF2"]

    choose_metrics(at, ["chrf"]).run()  # removed: nothing computed, nothing hashed
    assert calls.take() == (set(), [], 0)
    assert _columns(at) == ["chrF2"] and at.session_state["metric_ids"] == ["chrf"]

    # Several chosen in the box: nothing happens until they are applied (a rerun meanwhile keeps the choice
    # applied), then one run scores only TER (BLEU's results were kept when it was removed).
    at.multiselect(key=setting_key(at, "metrics_box")).set_value(["chrf", "bleu", "ter"]).run()
    assert calls.take() == (set(), [], 0)
    assert _columns(at) == ["chrF2"] and at.session_state["metric_ids"] == ["chrf"]
    choose_metrics(at, ["chrf", "bleu", "ter"]).run()
    assert not at.exception, at.exception
    assert calls.take() == ({("ter", s) for s in systems}, ["TER"], 0)
    assert _columns(at) == ["chrF2", "BLEU", "TER"]


def test_an_empty_choice_keeps_the_metrics_and_puts_them_back_in_the_box(monkeypatch):
    at = app("app.py", _fresh_data(), ["bleu", "chrf"]).run()
    calls = Calls(monkeypatch)
    choose_metrics(at, []).run()
    assert not at.exception, at.exception
    assert calls.take() == (set(), [], 0)
    assert at.session_state["metric_ids"] == ["bleu", "chrf"]
    assert at.multiselect(key=setting_key(at, "metrics_box")).value == ["bleu", "chrf"]
    assert "Choose at least one metric; the previous choice is kept." in [shown(c.value) for c in at.sidebar.caption]
    at.run()  # said once
    assert "Choose at least one metric" not in " ".join(c.value for c in at.sidebar.caption)


def test_a_dataset_hashes_its_texts_once(monkeypatch):
    data = _fresh_data()
    calls = Calls(monkeypatch)
    first = (data.refs_hash, [data.system_hash(name) for name in data.systems])
    assert calls.take()[2] == 1 + len(data.systems)
    assert (data.refs_hash, [data.system_hash(name) for name in data.systems]) == first
    assert calls.take()[2] == 0
    renamed = data.renamed("alpha", "alpha 2")  # a new dataset, the same texts: the same hashes
    assert renamed.system_hash("alpha 2") == first[1][0] and renamed.refs_hash == first[0]
