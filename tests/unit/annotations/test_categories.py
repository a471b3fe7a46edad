"""Errors by category and severity on the WMT21 TED MQM slices: counts against a direct count of the TSV, rates,
bootstrap intervals against sacrebleu's draws, Holm against a hand computation, buckets."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from metrics.analysis.buckets import by_category
from metrics.analysis.units import CJK_CHARACTERS
from metrics.annotations.categories import (
    ALL,
    EVERY_ERROR,
    Cell,
    Rate,
    all_category_rows,
    category_buckets,
    category_levels,
    category_table,
    category_tables,
    compare_categories,
    word_unit,
)
from metrics.annotations.model import AnnotatedError, Annotations, Rating, Scheme
from metrics.core.spans import Severity
from metrics.stats.resampling import bootstrap_indices
from metrics.stats.significance import resamples_for
from tests.support.mqm_slice import DATA, lines, load


def _direct_counts(pair: str) -> tuple[Counter[tuple[str, str, str | None]], Counter[str]]:
    """(system, category level, severity or None) → errors, and system → rated segments, read straight off the
    TSV rows (one rater per segment in these files)."""
    rows = [line.split("\t") for line in lines(DATA / pair / "mqm.tsv")]
    header = rows[0]
    col = {name: header.index(name) for name in ("system", "seg_id", "category", "severity")}
    counts: Counter[tuple[str, str, str | None]] = Counter()
    rated: dict[str, set[str]] = {}
    for row in rows[1:]:
        system, severity, category = row[col["system"]], row[col["severity"]], row[col["category"]]
        rated.setdefault(system, set()).add(row[col["seg_id"]])
        if "no-error" in (severity.lower(), category.lower()):
            continue
        parts = category.split("/")
        for level in [ALL] + ["/".join(parts[: k + 1]) for k in range(len(parts))]:
            counts[(system, level, severity.lower())] += 1
            counts[(system, level, None)] += 1
    return counts, Counter({s: len(v) for s, v in rated.items()})


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_counts_equal_a_direct_count_of_the_tsv(pair: str) -> None:
    annotations, outputs, _, _ = load(pair)
    rows = all_category_rows(annotations, outputs)
    expected, rated = _direct_counts(pair)
    assert expected[("Nemo" if pair == "en-de" else "SMU", ALL, None)] > 10
    for system, r in rows.items():
        assert int(r.rated.sum()) == rated[system]
        for cell in r.cells:
            key = (system, cell.category, cell.severity.value if cell.severity else None)
            assert r.counts(cell).sum() == expected[key], (system, cell)
    seen = {(s, c, v) for s, r in rows.items() for cell in r.cells for (c, v) in [(cell.category, cell.severity)]}
    assert {(s, c, Severity(v) if v else None) for (s, c, v) in expected} <= seen


def test_rates_per_segment_and_per_100_words() -> None:
    annotations, outputs, _, _ = load("en-de")
    rows = all_category_rows(annotations, outputs)
    assert rows["Nemo"].unit == "whitespace words"
    table = category_table(rows["Nemo"], n_samples=200)
    assert table is not None
    rated = np.flatnonzero(annotations.rated("Nemo"))
    words = sum(len(outputs["Nemo"][i].split()) for i in rated)
    errors = sum(len(annotations.errors("Nemo", int(i))) for i in rated)
    estimate = table.estimate(EVERY_ERROR)
    assert table.words == words and table.n_rated == len(rated)
    assert estimate.errors == errors
    assert estimate.per_segment.score == pytest.approx(errors / len(rated), abs=1e-12)
    assert estimate.per_100_words.score == pytest.approx(100 * errors / words, abs=1e-12)


def test_interval_is_the_bootstrap_of_sacrebleus_draws() -> None:
    annotations, outputs, _, _ = load("en-de")
    rows = all_category_rows(annotations, outputs)["Online-W"]
    cell = Cell("Accuracy", None)
    table = category_table(rows, n_samples=400, seed=7)
    assert table is not None
    rated = rows.rows[rows.rated]
    counts = rated[:, 2 + rows.cells.index(cell)]
    index = bootstrap_indices(len(rated), 400, 7)
    samples = np.sort(counts[index].sum(axis=1) / len(rated))
    interval = table.estimate(cell).per_segment
    assert (interval.lo, interval.hi) == (samples[10], samples[400 - 10 - 1])
    assert interval.mean == pytest.approx(samples.mean(), abs=1e-12)
    per_words = np.sort(100 * counts[index].sum(axis=1) / rated[index, 1].sum(axis=1))
    assert table.estimate(cell).per_100_words.lo == pytest.approx(per_words[10], abs=1e-12)


def test_holm_equals_a_hand_computation() -> None:
    annotations, outputs, _, _ = load("en-de")
    rows = all_category_rows(annotations, outputs)
    found = compare_categories(rows["Facebook-AI"], rows["Nemo"], n_samples=2000)
    assert len(found) > 5
    p = [d.p_value for d in found]
    order = sorted(range(len(p)), key=lambda k: p[k])
    m, running, hand = len(p), 0.0, [0.0] * len(p)
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[k]))
        hand[k] = running
    assert [d.p_corrected for d in found] == pytest.approx(hand, abs=1e-15)
    everything = next(d for d in found if d.cell == EVERY_ERROR)
    direct = [len(annotations.errors(s, i)) for s in ("Facebook-AI", "Nemo") for i in range(annotations.n_segments)]
    n = annotations.n_segments
    assert everything.difference == pytest.approx((sum(direct[n:]) - sum(direct[:n])) / n, abs=1e-12)
    assert everything.system_rate - everything.baseline_rate == pytest.approx(everything.difference, abs=1e-12)
    untested = {c for c in rows["Nemo"].cells} - {d.cell for d in found}
    for cell in untested:  # a cell neither system has an error in is not a test (and costs Holm nothing)
        assert rows["Nemo"].counts(cell).sum() == rows["Facebook-AI"].counts(cell).sum() == 0


def test_resamples_default_to_enough_for_the_correction() -> None:
    annotations, outputs, _, _ = load("en-de")
    rows = all_category_rows(annotations, outputs)
    found = compare_categories(rows["Facebook-AI"], rows["Nemo"], Rate.PER_100_WORDS)
    n_samples = found[0].n_samples
    assert n_samples == resamples_for(len(found)) and n_samples > 1000
    # the smallest corrected p-value a test can reach, m / (n + 1), lies well below α
    assert len(found) / (n_samples + 1) <= 0.05 / 10


def test_buckets_pool_the_rows_of_their_segments() -> None:
    annotations, outputs, _, _ = load("en-de")
    rows = all_category_rows(annotations, outputs)
    talks = [row.split("\t")[1] for row in lines(DATA / "en-de" / "meta.tsv")[1:]]
    bucketing = by_category("meta:doc_id", "talk", talks)
    buckets = category_buckets(bucketing, rows, n_samples=100)
    assert {b.label for b in buckets} == set(talks)
    total = sum(b.tables["UEdin"].estimate(EVERY_ERROR).errors for b in buckets)
    assert total == category_tables(rows, n_samples=100)["UEdin"].estimate(EVERY_ERROR).errors
    first = buckets[0]
    segments = np.array(first.segments["UEdin"])
    alone = category_table(rows["UEdin"], segments, n_samples=100)
    assert first.tables["UEdin"] == alone
    inside = compare_categories(rows["UEdin"], rows["Nemo"], n_samples=1000, segments=segments)
    assert all(d.n_segments == len(segments) for d in inside)


def test_category_levels_and_cjk_words() -> None:
    assert category_levels("Accuracy/Mistranslation") == ("Accuracy", "Accuracy/Mistranslation")
    assert category_levels(" Fluency / Punctuation ") == ("Fluency", "Fluency/Punctuation")
    assert category_levels(None) == category_levels("") == ("(none)",)
    outputs = {"a": ["我们今天去 Paris 了。", "好"], "b": ["他们 OK", "是的"]}
    assert word_unit(list(outputs.values())) is CJK_CHARACTERS
    error = AnnotatedError(Severity.MAJOR, "Accuracy", None, 2, reason="not marked")
    rating = Rating("r1", (error,), 2)
    annotations = Annotations(
        Scheme.MQM, 2, {"a": ((rating, Rating("r2", (), 3)), ()), "b": ((), (Rating("r1", (), 4),))}
    )
    rows = all_category_rows(annotations, outputs)
    # 我们今天去 = 5, Paris = 1, 了 = 1, 。 = 1: CJK characters one word each, other runs by whitespace
    assert rows["a"].rows[0, 1] == 8 and rows["a"].rows[1, 1] == 0  # segment 2 of a is not rated
    # two raters, one error between them: the segment's count is the mean over raters
    assert rows["a"].counts(Cell("Accuracy", Severity.MAJOR))[0] == 0.5
    table = category_table(rows["b"], n_samples=10)
    assert table is not None and table.n_rated == 1 and table.words == 2
    assert math.isclose(table.estimate(EVERY_ERROR).per_100_words.score, 0.0)


def test_identical_counts_are_not_a_difference() -> None:
    error = AnnotatedError(Severity.MINOR, "Other", None, 2, reason="not marked")
    other = AnnotatedError(Severity.MAJOR, "Accuracy", None, 2, reason="not marked")
    n = 40
    rows_a = tuple((Rating("r", (error,) if i == 3 else (other,) * (i % 3 == 0), 2),) for i in range(n))
    rows_b = tuple((Rating("r", (error,) if i == 3 else (), 2),) for i in range(n))
    annotations = Annotations(Scheme.MQM, n, {"a": rows_a, "b": rows_b})
    outputs = {"a": [f"w{i} x" for i in range(n)], "b": [f"w{i} x y" for i in range(n)]}
    rows = all_category_rows(annotations, outputs)
    found = {d.cell: d for d in compare_categories(rows["a"], rows["b"], n_samples=1000)}
    same = found[Cell("Other", Severity.MINOR)]
    # one minor Other error each, on the same segment: per segment the systems are identical (words differ)
    assert same.identical and same.difference == 0 and same.p_corrected == 1.0
    assert not found[Cell("Accuracy")].identical and found[Cell("Accuracy")].difference < 0
    per_words = {d.cell: d for d in compare_categories(rows["a"], rows["b"], Rate.PER_100_WORDS, n_samples=1000)}
    assert not per_words[Cell("Other", Severity.MINOR)].identical
