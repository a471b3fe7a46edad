"""ESA in WMT24's form (hand-made file over real en-de lines): scores, spans, 'missing' and 'undecided' kept."""

from __future__ import annotations

import math

from metrics.annotations.esa import segment_esa
from metrics.annotations.model import Scheme
from metrics.annotations.read import guess_scheme, read_annotations
from metrics.core.spans import Severity
from tests.unit.annotations.support import DATA, loaded


def test_esa_file_reads_scores_and_spans():
    texts = loaded(DATA / "en-de", ids=False)
    annotations = read_annotations(DATA / "esa.jsonl", texts)
    assert annotations.scheme is Scheme.ESA and annotations.kept == 6 and annotations.raters == ("esa1", "esa2")
    fb = annotations.ratings["Facebook-AI"]
    assert [r.score for r in fb[0]] == [78.0, 85.0] and segment_esa(fb[0]) == 81.5
    assert segment_esa(fb[1]) == 100.0 and math.isnan(segment_esa(fb[2]))
    (span,) = annotations.spans("Facebook-AI", 0)
    assert span.text == "in Betracht zu ziehen" == texts.systems["Facebook-AI"][0][span.start : span.end]
    nemo = annotations.errors("Nemo", 0)
    assert [e.severity for e in nemo] == [Severity.MAJOR, Severity.MINOR]
    assert nemo[1].span is None and "missing" in nemo[1].reason
    assert annotations.errors("Nemo", 2)[0].severity is Severity.NEUTRAL  # 'undecided'
    assert annotations.rated("ref.A").tolist()[:3] == [False, False, True]  # rated as system 'ref' (the map)
    assert annotations.n_unlocated == 1


def test_scheme_follows_the_file():
    assert guess_scheme("x.tsv", "") is Scheme.MQM
    assert guess_scheme("x.jsonl", '{"esa_score": 3}\n') is Scheme.ESA
    assert guess_scheme("x.jsonl", '{"system": "a"}\n') is Scheme.SPANS
