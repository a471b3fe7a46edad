"""The MQM TSV and span JSON Lines readers on real WMT21 TED data: scores equal WMT's definition recomputed here
from the TSV and Google's published segment scores; every span is the characters the TSV marks."""

from __future__ import annotations

import csv
import math
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from metrics.annotations.collect import LoadedTexts
from metrics.annotations.model import Scheme
from metrics.annotations.mqm import MqmWeights, segment_mqm
from metrics.annotations.read import read_annotations
from metrics.annotations.spans_jsonl import read_spans_jsonl, span_records, write_spans_jsonl
from metrics.annotations.wmt import read_mqm_tsv
from metrics.core.spans import Severity, Side
from tests.unit.annotations.support import DATA, SHARED, lines, loaded

PAIRS = ("en-de", "zh-en")


def wmt_weight(severity: str, category: str) -> float:
    """mt-metrics-eval's converters/score_mqm.py weights, written out: the most specific of
    Major:5 Minor:1 Neutral:0 Major/Non-translation!:25 Minor/Fluency/Punctuation:0.1, else 0."""
    table = {"major": 5.0, "minor": 1.0, "neutral": 0.0, "major/non-translation!": 25.0,
             "minor/fluency/punctuation": 0.1}  # fmt: skip
    items = [severity.lower(), *category.lower().split("/")]
    while items:
        if "/".join(items) in table:
            return table["/".join(items)]
        items.pop()
    return 0.0


def wmt_segment_scores(tsv: Path) -> dict[tuple[str, str], float]:
    """(system, seg_id) → WMT's MQM: per rater the sum of weights, the mean over raters, negated."""
    per_rater: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    with tsv.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            per_rater[row["system"], row["seg_id"]][row["rater"]] += wmt_weight(row["severity"], row["category"])
    return {key: -sum(r.values()) / len(r) for key, r in per_rater.items()}


@pytest.mark.parametrize("pair", PAIRS)
def test_mqm_scores_equal_wmt_definition_and_googles(pair: str):
    folder = DATA / pair
    texts = loaded(folder)
    annotations = read_mqm_tsv(folder / "mqm.tsv", texts)
    expected = wmt_segment_scores(folder / "mqm.tsv")
    names = {v: k for k, v in texts.aliases.items()}
    ids = list(texts.segment_ids or ())
    google = {}
    for line in (folder / "avg_seg_scores.tsv").read_text(encoding="utf-8").split("\n")[1:]:
        if line:
            system, score, seg_id = line.split()
            google[system.replace("ref-A", "ref").replace("ref-B", "refB"), seg_id] = float(score)
    assert set(annotations.systems) == set(texts.systems)
    for system in annotations.systems:
        name = names.get(system, system)
        ours = np.array([segment_mqm(r) for r in annotations.ratings[system]])
        assert annotations.rated(system).all()
        theirs = np.array([expected[name, i] for i in ids])
        assert np.abs(ours - theirs).max() <= 1e-9
        assert np.abs(ours - np.array([google[name, i] for i in ids])).max() <= 5e-7  # Google prints 6 decimals
        assert abs(ours.mean() - theirs.mean()) <= 1e-9


@pytest.mark.skipif(not SHARED.is_dir(), reason="needs ../shared/data/wmt21-ted")
@pytest.mark.parametrize("pair", PAIRS)
def test_full_sets_equal_the_published_system_scores(pair: str):
    folder = SHARED / pair
    annotations = read_annotations(folder / "raw" / f"mqm_ted_{pair.replace('-', '')}.tsv", loaded_shared(folder))
    with (folder / "human" / "mqm.sys.tsv").open(encoding="utf-8") as f:
        published = {row["system"]: float(row["score"]) for row in csv.DictReader(f, delimiter="\t")}
    names = {"ref.A": "ref", "ref.B": "refB"}
    ours = {
        names.get(s, s): float(np.mean([segment_mqm(r) for r in annotations.ratings[s]])) for s in annotations.systems
    }
    assert ours.keys() == published.keys()
    assert max(abs(ours[s] - published[s]) for s in ours) <= 1e-9
    assert annotations.n_unlocated == 1


def loaded_shared(folder: Path) -> LoadedTexts:
    with (folder / "human" / "systems.tsv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    with (folder / "meta.tsv").open(encoding="utf-8") as f:
        ids = [row["seg_id"] for row in csv.DictReader(f, delimiter="\t")]
    return LoadedTexts(
        {Path(r["text"]).stem: lines(folder / r["text"]) for r in rows},
        lines(folder / "src.txt"),
        {r["system"]: Path(r["text"]).stem for r in rows},
        ids,
    )


MARKED = re.compile(r"<v>(.*?)</v>")


@pytest.mark.parametrize("pair", PAIRS)
def test_every_span_is_the_marked_characters_of_the_loaded_text(pair: str):
    folder = DATA / pair
    texts = loaded(folder)
    annotations = read_mqm_tsv(folder / "mqm.tsv", texts)
    rows = (folder / "mqm.tsv").read_text(encoding="utf-8").split("\n")
    located = 0
    for system in annotations.systems:
        for segment, ratings in enumerate(annotations.ratings[system]):
            for error in (e for r in ratings for e in r.errors):
                fields = rows[error.line - 1].split("\t")
                if error.span is None:
                    assert "<v>" in fields[6] and "</v>" not in fields[6]
                    continue
                span = error.span
                loaded_text = (
                    (texts.source or [])[segment] if span.side is Side.SOURCE else texts.systems[system][segment]
                )
                marked = MARKED.search(fields[5] if span.side is Side.SOURCE else fields[6])
                assert marked is not None and span.text == marked.group(1) == loaded_text[span.start : span.end]
                assert span.severity is Severity(fields[8].lower()) and span.category == fields[7]
                assert span.origin == fields[4]
                located += 1
    error_rows = sum(1 for r in rows[1:] if r and r.split("\t")[7] != "No-error")
    assert located + annotations.n_unlocated == annotations.n_errors == error_rows
    assert any(s.side is Side.SOURCE for sys in annotations.systems for seg in range(annotations.n_segments)
               for s in annotations.spans(sys, seg))  # fmt: skip


def test_unlocated_error_is_kept_and_counts_in_mqm():
    texts = loaded(DATA / "en-de")
    annotations = read_mqm_tsv(DATA / "en-de" / "mqm.tsv", texts)
    segment = list(texts.segment_ids or ()).index("475")  # metricsystem1, line 6444 of the raw TSV
    (rating,) = annotations.ratings["metricsystem1"][segment]
    unlocated = [e for e in rating.errors if e.span is None]
    assert len(unlocated) == 1 and unlocated[0].reason.startswith("<v> without </v>")
    assert unlocated[0].severity is Severity.MINOR and unlocated[0].category == "Fluency/Punctuation"
    assert segment_mqm((rating,)) == -sum(MqmWeights().weight(e.severity, e.category) for e in rating.errors)
    assert annotations.n_unlocated == 1


@pytest.mark.parametrize("pair", PAIRS)
def test_shared_span_file_reads_as_the_tsv_errors(pair: str):
    """The shared set's mqm.spans.jsonl (one line per error row) in ScoreLens's span format is the TSV's errors."""
    folder = DATA / pair
    texts = loaded(folder)
    from_tsv = read_mqm_tsv(folder / "mqm.tsv", texts)
    from_jsonl = read_spans_jsonl(folder / "mqm.spans.jsonl", texts)
    assert from_jsonl.scheme is Scheme.SPANS
    for system in texts.systems:
        for segment in range(texts.n_segments):
            assert from_jsonl.spans(system, segment) == from_tsv.spans(system, segment)
            ours = [(e.severity, e.category, e.reason) for e in from_jsonl.errors(system, segment)]
            assert ours == [(e.severity, e.category, e.reason) for e in from_tsv.errors(system, segment)]
    # Segments without errors have no line in that file: rated only where the TSV found an error.
    assert from_jsonl.kept < from_tsv.kept


@pytest.mark.parametrize("pair", PAIRS)
def test_written_span_file_reads_back_the_same_annotations(pair: str, tmp_path: Path):
    folder = DATA / pair
    texts = loaded(folder)
    original = read_mqm_tsv(folder / "mqm.tsv", texts)
    path = tmp_path / "spans.jsonl"
    assert write_spans_jsonl(original, path) == original.n_errors + sum(
        not r.errors for rows in original.ratings.values() for s in rows for r in s
    )
    again = read_spans_jsonl(path, LoadedTexts(texts.systems, texts.source))  # names as loaded: no map needed
    for system in texts.systems:
        for segment in range(texts.n_segments):
            a, b = original.ratings[system][segment], again.ratings[system][segment]
            assert [(r.rater, r.score, [(e.severity, e.category, e.span, e.comment, e.reason) for e in r.errors])
                    for r in a] == [(r.rater, r.score, [(e.severity, e.category, e.span, e.comment, e.reason)
                                                        for e in r.errors]) for r in b]  # fmt: skip
    assert next(span_records(original))["system"] in texts.systems


def test_reader_does_not_change_its_inputs():
    texts = loaded(DATA / "en-de")
    before = {s: list(t) for s, t in texts.systems.items()}, list(texts.source or ()), dict(texts.aliases)
    read_mqm_tsv(DATA / "en-de" / "mqm.tsv", texts)
    assert ({s: list(t) for s, t in texts.systems.items()}, list(texts.source or ()), dict(texts.aliases)) == before


def test_weights_follow_wmt_and_are_editable():
    w = MqmWeights()
    assert w.weight(Severity.MAJOR, "Accuracy/Mistranslation") == 5
    assert w.weight(Severity.MINOR, "Fluency/Punctuation") == 0.1
    assert w.weight(Severity.MINOR, "fluency/punctuation/quotes") == 0.1
    assert w.weight(Severity.MAJOR, "Fluency/Punctuation") == 5
    assert w.weight(Severity.MAJOR, "Non-translation!") == 25
    assert w.weight(Severity.MINOR, "Non-translation!") == 1
    assert w.weight(Severity.NEUTRAL, "Style/Awkward") == 0
    assert w.weight(Severity.CRITICAL, None) == 10
    edited = MqmWeights.parse("major=10, minor-punctuation=0")
    assert (edited.major, edited.minor_punctuation, edited.minor) == (10, 0, 1)
    assert MqmWeights.parse(w.signature()) == w and edited.signature() != w.signature()
    for bad in ("major", "grave=3", "major=x", "major=-1", "major=nan"):
        with pytest.raises(ValueError, match="MQM weight"):
            MqmWeights.parse(bad)
    assert math.isnan(segment_mqm(()))
