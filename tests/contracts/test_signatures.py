"""A signature says what was computed: two option sets whose corpus scores differ on real data never share a
signature, nor two whose segment scores differ a segment signature, segment scores are the single-sentence path's numbers under the same options, and a work bound
(which changes scores only on inputs beyond it) marks the signature whenever it is not the default."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from metrics.core.config import Option, config_options
from metrics.core.registry import SPECS, create
from tests.support.corpora import slice_corpus
from tests.support.text_only import skip_if_reads_source

SEGMENTS = 12
AVAILABLE = [m for m, spec in SPECS.items() if spec.available()]
# Options that only matter under another setting are changed under that setting too.
BASES: dict[str, list[dict[str, Any]]] = {
    "bleu": [{}, {"smooth": "floor"}, {"smooth": "add-k"}],
    "bleu-nltk": [{}, {"smoothing": 1}, {"smoothing": 4}, {"smoothing": 6}, {"smoothing": 7}],
}


@pytest.fixture(scope="module")
def corpus() -> tuple[list[list[str]], list[list[str]]]:
    data = slice_corpus("wmt22-de-en")
    systems = [list(hyps[:SEGMENTS]) for hyps in list(data.systems.values())[:2]]
    return systems, [list(stream[:SEGMENTS]) for stream in data.refs]


def _other_value(option: Option) -> Any:
    """A valid value other than the default: the other boolean, another choice, or one step away."""
    default, info = option.default, option.info
    if option.kind == "bool":
        return not default
    if option.kind == "choice":
        return next(c for c in option.offered() if c != default)
    if option.kind == "text":
        pytest.skip(f"{option.name} is free text (a file or folder): no valid other value to try here")
    if option.kind == "floats":
        return (0.4, 0.3, 0.2, 0.1)  # nltk BLEU's weights, one per order of the default 4
    if default is None:
        return 1000
    step = info.step or 0.1
    up = default + step
    return up if info.high is None or up <= info.high else default - step


def _numbers(metric_id: str, options: dict[str, Any], corpus) -> tuple[np.ndarray, np.ndarray, str, str]:
    """Corpus scores, segment scores, and the signature of each."""
    systems, refs = corpus
    metric = create(metric_id, options)
    corpus_scores, segment_scores = [], []
    for hyps in systems:
        stats = metric.stats(hyps, refs)
        corpus_scores.append(metric.corpus_score(stats))
        segment_scores += list(metric.segment_scores(stats))
    return np.array(corpus_scores), np.array(segment_scores), metric.signature(), metric.segment_signature()


def _cases() -> list[tuple[str, dict[str, Any], str]]:
    cases = []
    for metric_id in AVAILABLE:
        spec = SPECS[metric_id]
        for base in BASES.get(metric_id, [{}]):
            for option in config_options(spec.cls.Config):
                if option.name not in spec.preset and option.name not in base and not option.info.work_bound:
                    cases.append((metric_id, base, option.name))
    return cases


@pytest.mark.parametrize(("metric_id", "base", "name"), _cases())
def test_options_that_change_a_number_change_the_signature(metric_id, base, name, corpus):
    option = next(o for o in config_options(SPECS[metric_id].cls.Config) if o.name == name)
    try:
        changed = {**base, name: _other_value(option)}
        theirs = _numbers(metric_id, changed, corpus)
    except ValueError as err:
        pytest.skip(f"{metric_id}: {name} has no other valid value here ({err})")
    ours = _numbers(metric_id, base, corpus)
    for k, what in enumerate(("corpus", "segment")):
        if not np.array_equal(ours[k], theirs[k], equal_nan=True):
            assert ours[2 + k] != theirs[2 + k], f"{metric_id}: {name} changes {what} scores but not their signature"


@pytest.mark.parametrize("metric_id", AVAILABLE)
def test_a_work_bound_other_than_the_default_marks_the_signature(metric_id):
    spec = SPECS[metric_id]
    default = create(metric_id).signature()
    for option in config_options(spec.cls.Config):
        if option.info.work_bound:
            for value in (option.default + 1, option.default * 10, *((None,) if option.optional else ())):
                assert create(metric_id, {option.name: value}).signature() != default, (metric_id, value)


@pytest.mark.parametrize("metric_id", AVAILABLE)
def test_segment_scores_are_the_single_sentence_scores_under_the_same_options(metric_id, corpus):
    skip_if_reads_source(metric_id)
    systems, refs = corpus
    for base in BASES.get(metric_id, [{}]):
        metric = create(metric_id, base)
        stats = metric.stats(systems[0], refs)  # binds CIDEr-D's corpus for the single-segment calls
        singles = [metric.sentence_score(h, [r[i] for r in refs]) for i, h in enumerate(systems[0])]
        np.testing.assert_array_equal(metric.segment_scores(stats), singles, err_msg=f"{metric_id} {base}")
