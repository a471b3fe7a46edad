"""WMT's 2023 MQM TSV form on real rows (generalMT2023 zh-en, three ratings per segment): ``globalSegId`` names the
segment, ``HOTW-test`` attention checks mark a rating without an error, and raters' copies of an output differ
from the loaded text by a final space. Scores equal mt-metrics-eval's converter recomputed here from the TSV."""

from __future__ import annotations

import csv
from collections import defaultdict

import numpy as np

from metrics.annotations.collect import LoadedTexts
from metrics.annotations.model import Rating
from metrics.annotations.mqm import segment_mqm
from metrics.annotations.wmt import read_mqm_tsv
from tests.unit.annotations.support import DATA, lines
from tests.unit.annotations.test_mqm_readers import wmt_weight

FOLDER = DATA / "wmt23-zh-en"
SYSTEMS = ("GPT4-5shot", "IOL_Research", "NLLB_Greedy")


def texts() -> LoadedTexts:
    return LoadedTexts(
        {name: lines(FOLDER / "sys" / f"{name}.txt") for name in SYSTEMS},
        lines(FOLDER / "src.txt"),
        segment_ids=lines(FOLDER / "ids.txt"),
    )


def converter_scores() -> dict[tuple[str, str], float]:
    """mt-metrics-eval's score_mqm: an unknown severity (HOTW-test) weighs 0 but its rater counts."""
    per_rater: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    with (FOLDER / "mqm.tsv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            per_rater[row["system"], row["globalSegId"]][row["rater"]] += wmt_weight(row["severity"], row["category"])
    return {key: -sum(r.values()) / len(r) for key, r in per_rater.items()}


def test_scores_equal_the_converter_and_checks_are_counted():
    annotations = read_mqm_tsv(FOLDER / "mqm.tsv", texts())
    expected = converter_scores()
    ids = lines(FOLDER / "ids.txt")
    for system in SYSTEMS:
        ours = np.array([segment_mqm(r) for r in annotations.ratings[system]])
        assert np.abs(ours - np.array([expected[system, i] for i in ids])).max() <= 1e-12
        assert all(len(r) == 3 for r in annotations.ratings[system])  # three raters per segment
    assert annotations.checks == 5
    assert "5 attention-check records (HOTW-test)" in annotations.summary()


def test_spans_index_the_loaded_text_even_where_a_rater_added_a_final_space():
    loaded = texts()
    annotations = read_mqm_tsv(FOLDER / "mqm.tsv", loaded)
    marked = 0
    for system in SYSTEMS:
        for segment in range(4):
            for span in annotations.spans(system, segment):
                text = loaded.systems[system][segment] if span.side.value == "target" else loaded.source[segment]  # type: ignore[index]
                assert span.text == text[span.start : span.end]
                assert span.end <= len(text)
                marked += 1
    assert marked == annotations.n_errors - annotations.n_unlocated
    # IOL_Research, segment 15: the span "…wounds.\" " ends in a space the output does not have
    ends = [s for s in annotations.spans("IOL_Research", 2) if s.text.endswith('wounds."')]
    assert ends and all(s.end == len(loaded.systems["IOL_Research"][2]) for s in ends)


def test_an_error_free_segment_scores_zero_not_minus_zero():
    ratings = (Rating("rater1", (), 2), Rating("rater2", (), 3))
    assert str(segment_mqm(ratings)) == "0.0"
