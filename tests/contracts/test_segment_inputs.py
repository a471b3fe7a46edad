"""The single-segment paths (``segment_row``, ``explain``, ``sentence_score``) refuse what sacrebleu and nltk refuse,
for every registered metric: a bare string as the references (whose characters would each be scored as a
reference) and a hypothesis that is not a string, with a ``TypeError`` naming the argument."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER

from metrics.core.registry import SPECS, create
from tests.support.text_only import skip_if_reads_source

HYP = "the cat sat on the mat"
REF = "the cat is on the mat"
ENTRY_POINTS = ("segment_row", "explain", "sentence_score")
AVAILABLE = [m for m, spec in SPECS.items() if spec.available()]


def _call(metric_id: str, entry: str, hyp: object, refs: object) -> object:
    metric = create(metric_id)
    # CIDEr-D weighs n-grams by a bound corpus and perplexity's model trains on it; the others ignore it
    metric.prepare([[REF, "a dog on a mat", "the mat"]])
    return getattr(metric, entry)(hyp, refs)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("metric_id", AVAILABLE)
def test_a_bare_string_as_references_is_refused(metric_id, entry):
    with pytest.raises(TypeError, match=r"refs must be a sequence of reference strings, not one string"):
        _call(metric_id, entry, HYP, REF)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("metric_id", AVAILABLE)
@pytest.mark.parametrize("hyp", [None, HYP.split(), b"the cat"], ids=["None", "token-list", "bytes"])
def test_a_hypothesis_that_is_not_a_string_is_a_type_error_naming_it(metric_id, entry, hyp):
    with pytest.raises(TypeError, match=rf"hypothesis \(hyp\) must be a string, not {type(hyp).__name__}"):
        _call(metric_id, entry, hyp, [REF])


@pytest.mark.parametrize("metric_id", AVAILABLE)
@pytest.mark.parametrize("refs", [[REF, None], [REF, REF.split()]], ids=["None", "token-list"])
def test_a_reference_that_is_not_a_string_is_named_by_its_index(metric_id, refs):
    with pytest.raises(TypeError, match=r"refs\[1\] must be a string"):
        _call(metric_id, "explain", HYP, refs)


@pytest.mark.parametrize("metric_id", AVAILABLE)
def test_no_reference_is_a_value_error(metric_id):
    skip_if_reads_source(metric_id)  # cometkiwi reads none: what it lacks here is the source (MissingInput)
    with pytest.raises(ValueError, match="at least one reference"):
        _call(metric_id, "sentence_score", HYP, [])


@pytest.mark.parametrize("metric_id", AVAILABLE)
def test_a_tuple_of_references_scores_as_the_list_and_is_left_alone(metric_id):
    skip_if_reads_source(metric_id)
    refs = [REF, "a cat was on a mat"]
    kept = list(refs)
    assert _call(metric_id, "sentence_score", HYP, tuple(refs)) == _call(metric_id, "sentence_score", HYP, refs)
    assert refs == kept


@pytest.mark.parametrize(
    ("ours", "theirs"), [("bleu", SacreBLEU), ("chrf", SacreCHRF), ("ter", SacreTER)], ids=["bleu", "chrf", "ter"]
)
@pytest.mark.parametrize(
    ("hyp", "refs"),
    [(HYP, REF), (None, [REF]), (HYP.split(), [REF]), (HYP, [REF.split()])],
    ids=["bare-string-refs", "None-hyp", "token-list-hyp", "token-list-ref"],
)
def test_refused_where_sacrebleu_refuses(ours, theirs, hyp, refs):
    with pytest.raises(TypeError):
        theirs().sentence_score(hyp, refs)
    for entry in ENTRY_POINTS:
        with pytest.raises(TypeError):
            _call(ours, entry, hyp, refs)


def test_meteor_refuses_where_nltk_refuses():
    """nltk's meteor_score takes token lists and raises a TypeError for a bare string reference or hypothesis;
    ScoreLens's METEOR takes strings, so the same mistake is a bare string where a list of references belongs."""
    from nltk.translate.meteor_score import meteor_score

    with pytest.raises(TypeError, match="pre-tokenized reference"):
        meteor_score(REF, HYP.split())
    with pytest.raises(TypeError, match="pre-tokenized hypothesis"):
        meteor_score([REF.split()], HYP)
    for entry in ENTRY_POINTS:
        with pytest.raises(TypeError, match="not one string"):
            _call("meteor", entry, HYP, REF)


def test_nltk_bleu_scores_a_bare_string_as_characters_which_scorelens_refuses():
    """nltk's sentence_bleu does not check: a bare string's characters become the references and the score is 0
    here. ScoreLens's nltk BLEU refuses it, as its sacrebleu BLEU does."""
    from nltk.translate.bleu_score import sentence_bleu

    assert sentence_bleu(REF, HYP.split()) == 0
    with pytest.raises(TypeError, match="not one string"):
        _call("bleu-nltk", "sentence_score", HYP, REF)
