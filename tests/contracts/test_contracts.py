"""The contract every registered metric keeps: its explanation of a real segment is an instance of its declared
``explanation_type`` (an :class:`~metrics.core.explanation.Explanation` subclass) that adds up to the segment's
statistics row and score, a view is registered for that type and draws it, and a lesson or an explicit "no lesson"
declaration is registered for it. A metric added without them fails here."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from metrics.core.explanation import Explanation
from metrics.core.extras import NEURAL
from metrics.core.registry import SPECS, create
from rendering.evidence import explanation_parts, has_view, order_labels
from rendering.lessons import build_lesson
from rendering.teach import NoLesson, lesson_for
from tests.support.corpora import slice_corpus

SEGMENTS = 6  # the statistics cover the first segments of each slice (CIDEr-D's document frequencies need several)
CASES = [("wmt22-de-en", 3), ("cnndm", 2)]  # two references; several sentences per text


def _ids() -> list:
    """Every registered id; those needing the neural extra run under ``-m neural``."""
    return [pytest.param(m, marks=pytest.mark.neural) if NEURAL in SPECS[m].requires else m for m in SPECS]


@pytest.fixture(scope="module")
def slices() -> dict[str, tuple[list[str], list[list[str]]]]:
    found = {}
    for name, _ in CASES:
        corpus = slice_corpus(name)
        hyps = next(iter(corpus.systems.values()))[:SEGMENTS]
        found[name] = hyps, [stream[:SEGMENTS] for stream in corpus.refs]
    return found


@pytest.mark.parametrize("metric_id", _ids())
@pytest.mark.parametrize(("corpus", "index"), CASES)
def test_explanation_adds_up_to_the_segment_statistics(metric_id, corpus, index, slices):
    spec = SPECS[metric_id]
    if not spec.available():
        pytest.skip(f"{metric_id} needs {', '.join(r.module for r in spec.requires)}")
    explanation_type = spec.cls.explanation_type
    assert issubclass(explanation_type, Explanation) and explanation_type is not Explanation
    hyps, refs = slices[corpus]
    metric = create(metric_id)
    stats = metric.stats(hyps, refs)
    segment_refs = [stream[index] for stream in refs]
    explanation = metric.explain(hyps[index], segment_refs)
    assert isinstance(explanation, explanation_type)
    assert explanation.row == tuple(stats.rows[index])
    assert explanation.score == metric.segment_scores(stats)[index]
    assert explanation.best_ref is None or 0 <= explanation.best_ref < len(segment_refs)
    assert all(isinstance(note, str) and note for note in explanation.notes)


@pytest.mark.parametrize("metric_id", _ids())
def test_a_view_and_a_lesson_or_its_absence_are_registered(metric_id, slices):
    spec = SPECS[metric_id]
    if not spec.available():
        pytest.skip(f"{metric_id} needs {', '.join(r.module for r in spec.requires)}")
    explanation_type = spec.cls.explanation_type
    assert has_view(explanation_type), f"{metric_id}: no evidence view for {explanation_type.__name__}"
    found = lesson_for(explanation_type)
    assert found is not None, f"{metric_id}: neither a lesson nor a no-lesson declaration for {explanation_type}"

    hyps, refs = slices["wmt22-de-en"]
    metric = create(metric_id)
    metric.stats(hyps, refs)  # binds CIDEr-D's corpus
    segment_refs = [stream[0] for stream in refs]
    explanation = metric.explain(hyps[0], segment_refs)
    for order in range(1, len(order_labels(explanation)) + 1):
        for reference in (None, *range(len(segment_refs))):
            parts = explanation_parts(explanation, hyps[0], segment_refs, order=order, reference=reference)
            assert parts and all(part.payload is not None for part in parts)
    if isinstance(found, NoLesson):
        assert found.reason and "\n" not in found.reason
    else:
        lesson = build_lesson(metric, hyps[0], segment_refs)
        assert lesson.score == explanation.score and lesson.steps


def test_an_explanation_type_without_registrations_is_found_out():
    @dataclass(frozen=True, kw_only=True)
    class Unregistered(Explanation):
        pass

    assert not has_view(Unregistered) and lesson_for(Unregistered) is None
    with pytest.raises(LookupError, match="no evidence view"):
        explanation_parts(Unregistered(score=0.0, row=(0.0,)), "a", ["a"])


class _Stop(Exception):
    pass


@pytest.mark.parametrize("metric_id", list(SPECS))
def test_statistics_report_progress_by_segments_and_stop_when_told(metric_id, slices):
    """A front end hears how many segments are done (never fewer than before, all of them at the end), the rows are
    those computed without it, and an exception raised from it (the app's Stop) ends the work there."""
    spec = SPECS[metric_id]
    if not spec.available():
        pytest.skip(f"{metric_id} needs {', '.join(r.module for r in spec.requires)}")
    hyps, refs = slices["wmt22-de-en"]
    heard: list[int] = []
    stats = create(metric_id).stats(hyps, refs, heard.append)
    assert heard and heard[-1] == len(hyps) and heard == sorted(heard) and all(0 <= n <= len(hyps) for n in heard)
    assert (stats.rows == create(metric_id).stats(hyps, refs).rows).all()

    def stop(done: int) -> None:
        raise _Stop(done)

    with pytest.raises(_Stop):
        create(metric_id).stats(hyps, refs, stop)
