"""The results schema: JSON and CSV carry exactly the evaluation's numbers, every row its signature, NumPy float32
and NaN never break a writer, and statistics about other data are refused."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.core.base import StatsNote
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.reports.results import (
    SCHEMA_VERSION,
    MetricInfo,
    Note,
    NoteGroup,
    Results,
    Statistics,
    StatisticsSettings,
    SystemScores,
    best_systems,
    build_results,
    display_names,
    json_document,
    json_text,
    note_groups,
    tables,
    to_csv,
    to_json,
)
from metrics.stats.correlation import Correlation
from metrics.stats.significance import Interval, all_pairs
from tests.support.corpora import slice_corpus

SYSTEMS = ("LT22", "PROMT", "Online-B")


@pytest.fixture(scope="module")
def evaluation():
    corpus = slice_corpus("wmt22-de-en")
    systems = {name: corpus.systems[name][:120] for name in SYSTEMS}
    refs = [ref[:120] for ref in corpus.refs]
    return evaluate(systems, refs, {"bleu": create("bleu"), "chrf": create("chrf"), "ter": create("ter")})


@pytest.fixture(scope="module")
def statistics(evaluation):
    reports = {
        m: all_pairs(metric, {s.name: s.stats[m] for s in evaluation.systems}, n_samples=200, seed=7)
        for m, metric in evaluation.metrics.items()
    }
    return Statistics(
        StatisticsSettings(7, 200, method="bs", all_pairs=True, alpha=0.05),
        intervals={m: {k: v for k, v in r.intervals.items() if v is not None} for m, r in reports.items()},
        pairs={m: r.pairs for m, r in reports.items()},
        groups={m: r.groups or () for m, r in reports.items()},
    )


def _strict_json(text: str) -> dict:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def _csv_tables(text: str) -> list[list[dict[str, str]]]:
    return [list(csv.DictReader(io.StringIO(block))) for block in text.split("\n\n")]


def test_json_round_trip_equals_the_evaluation(evaluation):
    doc = _strict_json(to_json(build_results(evaluation, segments=True)))
    assert doc["schema_version"] == SCHEMA_VERSION == 1
    assert doc["signatures"] == dict(evaluation.signatures)
    assert doc["metrics"]["ter"] == {
        "name": "TER",
        "signature": evaluation.signatures["ter"],
        "segment_signature": evaluation.signatures["ter"],  # TER scores segments as its corpus
        "higher_is_better": False,
    }
    bleu = doc["metrics"]["bleu"]  # segment BLEU is sacrebleu.sentence_bleu's: effective order on
    assert bleu["signature"] == evaluation.signatures["bleu"] and "|eff:no|" in bleu["signature"]
    assert bleu["segment_signature"] == evaluation.signatures["bleu"].replace("|eff:no|", "|eff:yes|")
    assert [s["name"] for s in doc["systems"]] == list(SYSTEMS)
    for entry, result in zip(doc["systems"], evaluation.systems, strict=True):
        assert entry["scores"] == {m: float(v) for m, v in result.scores.items()}
        assert entry["segments"] == {m: [float(x) for x in v] for m, v in result.segment_scores.items()}
        assert "intervals" not in entry
    assert "pairs" not in doc and "statistics" not in doc and doc["notes"] == []
    assert "segments" not in _strict_json(to_json(build_results(evaluation)))["systems"][0]


def test_csv_round_trip_equals_the_evaluation_and_every_row_is_signed(evaluation):
    scores, segments = _csv_tables(to_csv(build_results(evaluation, segments=True)))
    assert len(scores) == 3 * 3 and len(segments) == 3 * 3 * 120
    for row in scores:
        assert float(row["score"]) == evaluation.system(row["system"]).scores[row["metric"]]
        assert row["signature"] == evaluation.signatures[row["metric"]]
        assert row["higher_is_better"] == ("false" if row["metric"] == "ter" else "true")
        assert row["ci_lo"] == row["mean"] == ""
    assert [r["segment"] for r in segments[:3]] == ["0", "1", "2"]  # 0-based, as positions in the JSON lists
    assert [r["line"] for r in segments[:3]] == ["1", "2", "3"]  # 1-based, as the app and editors number lines
    for row in segments:
        value = evaluation.system(row["system"]).segment_scores[row["metric"]][int(row["segment"])]
        assert float(row["score"]) == float(value)
        assert row["signature"] == evaluation.segment_signatures[row["metric"]]


def test_statistics_in_json_and_csv(evaluation, statistics):
    results = build_results(evaluation, statistics)
    doc = _strict_json(to_json(results))
    assert doc["signatures"]["chrf"].startswith("nrefs:2|bs:200|seed:7|case:mixed|")
    assert doc["metrics"]["chrf"]["signature"] == doc["signatures"]["chrf"]
    interval = statistics.intervals["ter"]["PROMT"]
    assert doc["systems"][1]["intervals"]["ter"] == {
        "score": interval.score,
        "mean": interval.mean,
        "ci": [interval.lo, interval.hi],
        "half_width": interval.half_width,
    }
    assert doc["systems"][1]["scores"]["ter"] == interval.score
    pair = statistics.pairs["bleu"][2]
    assert pair.metric == "BLEU"  # all_pairs labels records by display name; the schema keys them by id
    assert doc["pairs"][2] == {
        "metric": "bleu",
        "baseline": pair.baseline,
        "system": pair.system,
        "method": "bs",
        "p_value": pair.p_value,
        "p_corrected": pair.p_corrected,
        "diff": pair.diff,
        "diff_ci": list(pair.diff_ci),
        "identical": False,
    }
    assert len(doc["pairs"]) == 3 * 3
    assert doc["groups"] == {m: [list(g) for g in groups] for m, groups in statistics.groups.items()}
    assert doc["statistics"]["correction"] == "holm" and doc["statistics"]["seed"] == 7
    scores, comparisons, groups = _csv_tables(to_csv(results))
    row = next(r for r in scores if (r["metric"], r["system"]) == ("ter", "PROMT"))
    assert (float(row["ci_lo"]), float(row["ci_hi"]), float(row["mean"])) == (interval.lo, interval.hi, interval.mean)
    assert [float(comparisons[2][k]) for k in ("p_value", "p_corrected", "diff")] == [
        pair.p_value,
        pair.p_corrected,
        pair.diff,
    ]
    assert {r["signature"] for r in comparisons + groups + scores} == set(doc["signatures"].values())
    assert all(r["signature"] == doc["signatures"][r["metric"]] for r in comparisons + groups + scores)
    first_group = [r["system"] for r in groups if r["metric"] == "bleu" and r["group"] == "1"]
    assert first_group == list(statistics.groups["bleu"][0])


def test_float32_and_nan_serialize_cleanly(evaluation):
    first = evaluation.systems[0]
    odd = replace(
        first,
        scores={**first.scores, "bleu": np.float32(33.7), "chrf": float("nan"), "ter": np.float32("inf")},
        segment_scores={**first.segment_scores, "chrf": np.array([np.nan, 1.5], dtype=np.float32)},
    )
    broken = replace(evaluation, systems=(odd,))
    interval = Interval(float("nan"), np.float32(1.25), float("nan"), 2.0, np.float32(0.5), 10)
    stats = Statistics(
        StatisticsSettings(1, 10, human="h.jsonl"),
        intervals={"chrf": {first.name: interval}},
        correlations={"bleu": (Correlation("BLEU", "system", "pearson", float("nan"), np.float32(0.5), 1.0, 2, 10),)},
    )
    results = build_results(broken, stats, segments=True)
    doc = _strict_json(to_json(results))
    assert doc["systems"][0]["scores"] == {"bleu": float(np.float32(33.7)), "chrf": None, "ter": None}
    assert doc["systems"][0]["segments"]["chrf"] == [None, 1.5]
    assert doc["systems"][0]["intervals"]["chrf"] == {"score": None, "mean": 1.25, "ci": [None, 2.0], "half_width": 0.5}
    human = {"metric": "bleu", "level": "system", "method": "pearson", "value": None, "ci": [0.5, 1.0], "n": 2}
    assert doc["human"] == [human]
    scores, segments, human_rows = _csv_tables(to_csv(results))
    by_metric = {r["metric"]: r for r in scores}
    assert by_metric["bleu"]["score"] == repr(float(np.float32(33.7)))
    assert by_metric["chrf"]["score"] == by_metric["chrf"]["ci_lo"] == by_metric["ter"]["score"] == ""
    assert by_metric["chrf"]["mean"] == "1.25"
    assert [r["score"] for r in segments if r["metric"] == "chrf"] == ["", "1.5"]
    assert human_rows[0]["value"] == "" and human_rows[0]["ci_lo"] == "0.5"
    assert human_rows[0]["signature"].startswith("nrefs:2|bs:10|seed:1|")


def _json_types(value: Any) -> Any:
    """The JSON types the schema promises (module docstring), for json.dumps, the reference of the layout."""
    if isinstance(value, Mapping):
        return {str(k): _json_types(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_types(v) for v in value]
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    return value


def _dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(_json_types(document), indent=1, ensure_ascii=False, allow_nan=False) + "\n"


ODD_FLOATS = [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e-300, 5e-324, 1e16, 0.1 + 0.2, 1 / 3, -2.5]
FLOATS = st.one_of(st.sampled_from(ODD_FLOATS), st.floats(), st.integers(0, 6).map(lambda k: k / 6))
SCALARS = st.one_of(
    FLOATS,
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.text(max_size=6),
    st.sampled_from(['é \u2028 \x00 " \\ \ud800 😀', np.float32(0.1), np.float64(-0.0), np.int64(-3), np.bool_(True)]),
)
LONG_FLOATS = st.lists(FLOATS, min_size=60, max_size=140)  # around the length written at once
DOCUMENTS = st.recursive(
    st.one_of(
        SCALARS, LONG_FLOATS, LONG_FLOATS.map(tuple), st.lists(st.one_of(FLOATS, st.integers(0, 3)), min_size=64)
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(0, 3), st.just("1")), inner, max_size=4),
    ),
    max_leaves=12,
).map(lambda value: {"root": value, "more": [value, {"x": value}]})


@settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(DOCUMENTS)
def test_the_json_text_is_json_dumps_of_the_documents_json_types_byte_for_byte(document):
    assert json_text(document) == _dumps(document)


def test_long_runs_of_floats_keep_signed_zeros_and_write_non_finite_values_as_null():
    scores = [0.0, -0.0, 0.5, float("nan"), float("inf"), 0.5, -0.0] * 20
    text = json_text({"a": scores, "b": [scores[::-1], tuple(scores)], "c": {"d": np.array(scores).tolist()}})
    assert text == _dumps({"a": scores, "b": [scores[::-1], scores], "c": {"d": scores}})
    assert json.loads(text)["a"][:7] == [0.0, -0.0, 0.5, None, None, 0.5, -0.0]
    assert [math.copysign(1, x) for x in json.loads(text)["a"][:2]] == [1, -1]


def test_the_results_json_is_json_dumps_of_its_document(evaluation, statistics):
    for results in (build_results(evaluation, statistics, segments=True), build_results(evaluation)):
        assert to_json(results) == _dumps(json_document(results))


def test_notes_come_once_per_metric_and_kind_listing_systems_and_details(evaluation):
    details = {SYSTEMS[0]: "2 segment(s) (4, 9)", SYSTEMS[1]: "1 segment(s) (7)"}
    noted = tuple(
        replace(
            s,
            stats={
                **s.stats,
                "ter": replace(s.stats["ter"], notes=(StatsNote("search bound applied", details.get(s.name, "")),)),
            },
        )
        for s in evaluation.systems
    )
    results = build_results(replace(evaluation, systems=noted), notes=[Note("ref.A.txt: removed a byte-order mark")])
    assert results.notes == (
        Note("ref.A.txt: removed a byte-order mark"),
        Note("search bound applied", "ter", SYSTEMS, details),
    )
    assert _strict_json(to_json(results))["notes"][1] == {
        "metric": "ter",
        "systems": list(SYSTEMS),
        "message": "search bound applied",
        "details": details,
    }
    notes = next(t for t in tables(results) if t.name == "notes")
    assert notes.rows[0] == (None, None, "ref.A.txt: removed a byte-order mark", "") and len(notes.rows) == 4
    assert notes.rows[1] == ("ter", SYSTEMS[0], "search bound applied", "2 segment(s) (4, 9)")


def test_a_warning_of_several_metrics_and_systems_is_one_group():
    """On en-zh the rouge-score tokenizer warning of ROUGE-1/2/L on 13 systems was 39 boxes; it is one group."""
    systems = tuple(f"sys{k}" for k in range(13))
    kind = "the rouge-score (default) tokenizer deletes non-ASCII letters and digits"
    notes = [Note("ref.A.txt: converted Windows (CRLF) line endings")]
    notes += [
        Note(kind, m, systems, {s: f"{k} of 200 hypotheses" for k, s in enumerate(systems)})
        for m in ("rouge1", "rouge2", "rougeL")
    ]
    notes += [Note("budget", "ter", systems[:2])]
    groups = note_groups(notes)
    assert len(groups) == 2
    assert groups[0] == NoteGroup(
        kind, ("rouge1", "rouge2", "rougeL"), systems, {s: (f"{k} of 200 hypotheses",) for k, s in enumerate(systems)}
    )
    assert groups[1] == NoteGroup("budget", ("ter",), systems[:2], {})


def test_statistics_about_other_data_are_refused(evaluation, statistics):
    renamed = replace(evaluation, systems=tuple(replace(s, name=s.name.lower()) for s in evaluation.systems))
    with pytest.raises(ValueError, match="system 'LT22'"):
        build_results(renamed, statistics)
    with pytest.raises(ValueError, match="metric 'meteor'"):
        build_results(evaluation, replace(statistics, groups={"meteor": ()}))
    with pytest.raises(ValueError, match="n_permutations"):
        StatisticsSettings(1, 10, method="ar")
    with pytest.raises(ValueError, match="alpha"):
        StatisticsSettings(1, 10, method="bs", all_pairs=True)


def test_signature_fields_follow_sacrebleu():
    assert StatisticsSettings(3, 100, method="ar", n_permutations=50).signature_fields(True) == "ar:50|seed:3"
    assert StatisticsSettings(3, 100, method="bs").signature_fields(False) == "bs:100|seed:3"
    assert StatisticsSettings(3, 100).signature_fields(True) == "bs:100|seed:3"
    assert StatisticsSettings(3, 100, human="h").signature_fields(False) == ""


def test_display_names_and_best_systems():
    assert display_names({"a": "BLEU", "b": "BLEU", "c": "TER"}) == {"a": "BLEU [a]", "b": "BLEU [b]", "c": "TER"}
    assert best_systems({"x": 1.0, "y": float("nan"), "z": 1.0}, True) == ["x", "z"]
    assert best_systems({"x": 1.0, "y": 0.5}, False) == ["y"]
    assert best_systems({"y": float("nan")}, True) == []
    systems = (SystemScores("a", {"ter": 2.0}), SystemScores("b", {"ter": 1.0}))
    assert Results((MetricInfo("ter", "TER", "s", False, "s"),), systems).best("ter") == ("b",)
