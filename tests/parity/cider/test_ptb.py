"""PTB tokenization and CIDEr-D as the COCO caption evaluation computes them (pycocoevalcap 1.2 ``COCOEvalCap``).

Golden values: ``tests/data/ptb/golden.json.gz``, written by ``scripts/build_ptb_golden.py`` with Stanford CoreNLP
3.4.1's Java ``PTBTokenizer`` (through pycocoevalcap) on the COCO captions of ``tests/data/coco``, hard cases and
English news and talk sentences. Where ``java`` and pycocoevalcap's jar are installed, one test runs Java live.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from metrics import create
from metrics.core.ptb import PUNCTUATIONS, ptb_tokenize, ptb_tokenize_lines
from metrics.families.cider.metric import CiderD, caption_tokens
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA

GOLDEN = json.loads(gzip.decompress((DATA / "ptb" / "golden.json.gz").read_bytes()))
STREAMS = GOLDEN["streams"]


@pytest.fixture(scope="module")
def coco():
    return slice_corpus("coco")


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_tokens_equal_java_on_every_golden_line(name: str) -> None:
    stream = STREAMS[name]
    ours = ptb_tokenize_lines(stream["lines"])
    raw = [" ".join(t.text for t in line.raw) for line in ours]
    bad = [i for i, (a, b) in enumerate(zip(raw, stream["java"], strict=True)) if a != b]
    assert not bad, f"{len(bad)} lines differ, first {bad[0]}: {raw[bad[0]]!r} vs {stream['java'][bad[0]]!r}"
    assert [line.text for line in ours] == stream["pycocoevalcap"]


def test_golden_streams_cover_the_hard_cases() -> None:
    # The golden set must exercise what makes PTB differ from split(): a wrong tokenizer fails these lines.
    java = " ".join(STREAMS["hard_cases"]["java"]).split(" ")
    for token in ("-lrb-", "``", "''", "n't", "'s", "u.s.", "...", "--", "#", "cents", "1/2", "can", "gon", "'t"):
        assert token in java, token
    assert "3\u00a01/2" in java  # a fraction keeps its space, as U+00A0
    assert sum(len(s["lines"]) for s in STREAMS.values()) > 5000


def test_offsets_point_into_the_caption() -> None:
    for caption in STREAMS["hard_cases"]["lines"]:
        line = ptb_tokenize(caption)
        ends = [t.end for t in line.raw if t.end is not None]
        assert ends == sorted(ends)
        for token in line.raw:
            assert token.start is not None and token.end is not None
            piece = caption[token.start : token.end]
            if piece.lower() == token.text:
                continue
            # rewritten tokens cover the text they stand for: quotes, brackets, dashes, currency, n't
            assert token.text in {"``", "''", "`", "'", "--", "...", "#", "$", "cents", "."} or any(
                c in piece for c in "(){}[]’‘“”\u00ad½¼£€¢&\u2013\u2014 "
            ), (caption, token, piece)


def test_caption_specifics() -> None:
    line = ptb_tokenize('A man (wearing a hat) says "hello" to the U.S. president\'s dog.')
    assert line.text == "a man -lrb- wearing a hat -rrb- says hello to the u.s. president 's dog"
    assert [(t.text, t.start, t.end) for t in line.raw[2:4]] == [("-lrb-", 6, 7), ("wearing", 7, 14)]
    # the next caption decides whether a single letter keeps its period, as in pycocoevalcap's file
    first, _ = ptb_tokenize_lines(["a sign with the letter B.", "A man rides"])
    alone = ptb_tokenize("a sign with the letter B.")
    assert first.text == "a sign with the letter b" and alone.text == "a sign with the letter b."
    assert set(PUNCTUATIONS) >= {".", ",", "``", "''", "-LRB-"} and "-lrb-" not in PUNCTUATIONS
    # Java would end the line at \r (shifting every later caption in pycocoevalcap); a caption keeps its place here
    assert [line.text for line in ptb_tokenize_lines(["a\rb c", "d\u2028e", "x\u0085"])] == ["a b c", "d e", "x"]


@pytest.mark.parametrize("system", sorted(GOLDEN["cider"]))
def test_cider_ptb_equals_coco_eval_cap(coco, system: str) -> None:
    metric = CiderD()
    stats = metric.stats(coco.systems[system], coco.refs)
    expected = GOLDEN["cider"][system]
    assert rel_close(metric.corpus_score(stats), expected["score"])
    ours = metric.segment_scores(stats)
    bad = [i for i, (a, b) in enumerate(zip(ours, expected["scores"], strict=True)) if not rel_close(a, b)]
    assert not bad, f"{len(bad)} images differ, first {bad[0]}: {ours[bad[0]]} vs {expected['scores'][bad[0]]}"
    raw = CiderD(tokenize="split")
    assert rel_close(raw.corpus_score(raw.stats(coco.systems[system], coco.refs)), GOLDEN["cider_raw"][system])


def test_issue_numbers(coco) -> None:
    # issue 26: raw text gave Up-Down 0.8752 and VinVL-large 1.1110; COCOEvalCap reports 1.1072 and 1.4181.
    metric = create("cider")
    for system, ptb, raw in (("Up-Down", 1.1072, 0.8752), ("VinVL-large", 1.4181, 1.1110)):
        assert round(metric.corpus_score(metric.stats(coco.systems[system], coco.refs)), 4) == ptb
        split = CiderD(tokenize="split")
        assert round(split.corpus_score(split.stats(coco.systems[system], coco.refs)), 4) == raw


def test_explanation_tokens_are_ptb_words(coco) -> None:
    metric = CiderD()
    hyps = coco.systems["Up-Down"]
    rows = metric.segment_scores(metric.stats(hyps, coco.refs))
    for i in (0, 41, 499):
        refs = [stream[i] for stream in coco.refs]
        ex = metric.explain(hyps[i], refs)
        assert ex.score == rows[i]
        assert [t.text for t in ex.tokens] == ptb_tokenize(hyps[i]).text.split()
        assert ex.tokens == caption_tokens([hyps[i]], "ptb")[0]
        assert all(hyps[i][t.start : t.end].lower() == t.text for t in ex.tokens if t.start is not None)


def _jar() -> Path | None:
    try:
        from pycocoevalcap.tokenizer import ptbtokenizer
    except ImportError:
        return None
    jar = Path(ptbtokenizer.__file__).parent / ptbtokenizer.STANFORD_CORENLP_3_4_1_JAR
    return jar if jar.exists() else None


@pytest.mark.skipif(shutil.which("java") is None or _jar() is None, reason="needs java and pycocoevalcap's jar")
def test_live_java(tmp_path: Path) -> None:
    lines = [
        *STREAMS["hard_cases"]["lines"],
        "Dr. Who's T.A.R.D.I.S. (a 1960s 'police box') isn't  small... is it?",
        "Prices: £1.5m, ¥200, €3½ — “cheap”, she said.",
        "the letter X.",
        "The end",
        "Über-cool naïve café’s 2-for-1 deal w/ 100% C++ & F# coders :-)",
    ]
    path = tmp_path / "captions.txt"
    path.write_bytes("\n".join(lines).encode())
    cmd = ["java", "-cp", str(_jar()), "edu.stanford.nlp.process.PTBTokenizer", "-preserveLines", "-lowerCase"]
    out = subprocess.run([*cmd, str(path)], capture_output=True, check=True, timeout=120).stdout.decode()
    java = [line.rstrip() for line in out.split("\n")[: len(lines)]]
    ours = [" ".join(t.text for t in line.raw) for line in ptb_tokenize_lines(lines)]
    assert ours == java
