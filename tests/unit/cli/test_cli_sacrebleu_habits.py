"""sacrebleu users' habits on the command line: positional references, the system on standard input when no ``-i``
is given, ``-w`` for decimals and ``-tok`` for BLEU's tokenizer — each giving sacrebleu's own numbers — and BLEU's
segment scores with their own signature in every segment output."""

from __future__ import annotations

import csv
import io
import json

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

from metrics.cli.main import main
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA
from tests.support.terminal import Terminal

DEEN = DATA / "wmt22-de-en"
REFS = [str(DEEN / "ref.A.txt"), str(DEEN / "ref.B.txt")]
SYSTEM = str(DEEN / "sys" / "LT22.txt")
HEEN = DATA / "wmt23-he-en-short"


def _pipe(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    with open(path, "rb") as handle:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(handle.read())))


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_positional_references_as_sacrebleu_refs(capsys):
    positional = _json(capsys, ["score", *REFS, "-i", SYSTEM, "-m", "bleu", "--format", "json"])
    flagged = _json(capsys, ["score", "-r", *REFS, "-i", SYSTEM, "-m", "bleu", "--format", "json"])
    assert positional == flagged
    corpus = slice_corpus("wmt22-de-en")
    expected = SacreBLEU().corpus_score(corpus.systems["LT22"], corpus.refs).score
    assert rel_close(positional["systems"][0]["scores"]["bleu"], expected)
    assert positional["signatures"]["bleu"].startswith("nrefs:2|")
    assert main(["score", REFS[0], "-r", REFS[1], "-i", SYSTEM]) == 2
    assert "references given twice" in capsys.readouterr().err


def test_analyze_takes_positional_references_too(capsys):
    out = _json(capsys, ["analyze", *REFS, "-i", SYSTEM, "-m", "bleu", "--buckets", "none", "--format", "json"])
    assert out["signatures"]["bleu"].startswith("nrefs:2|")


def test_without_i_the_system_is_read_from_standard_input(monkeypatch, capsys):
    _pipe(monkeypatch, SYSTEM)
    piped = _json(capsys, ["score", *REFS, "-m", "bleu", "--format", "json"])
    from_file = _json(capsys, ["score", *REFS, "-i", SYSTEM, "-m", "bleu", "--format", "json"])
    assert piped["systems"][0]["name"] == "stdin"
    assert piped["systems"][0]["scores"] == from_file["systems"][0]["scores"]


def test_without_i_on_a_terminal_the_error_says_how_to_give_a_system(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", Terminal())
    assert main(["score", *REFS, "-m", "bleu"]) == 2
    err = capsys.readouterr().err
    assert "no system output given" in err and "-i FILE" in err and "-i -" in err
    assert main(["score", "-i", SYSTEM]) == 2
    assert "give the reference files, as REFS" in capsys.readouterr().err
    assert main(["analyze", "-i", SYSTEM]) == 2  # analyze has no --table to offer
    err = capsys.readouterr().err
    assert "give the reference files, as REFS" in err and "--table" not in err


@pytest.mark.parametrize("width", [0, 1, 2, 6])
def test_width_sets_the_decimals_as_sacrebleu_w(capsys, width):
    corpus = slice_corpus("wmt22-de-en")
    expected = SacreBLEU().corpus_score(corpus.systems["LT22"], corpus.refs).score
    assert main(["score", *REFS, "-i", SYSTEM, "-m", "bleu", "-b", "-w", str(width)]) == 0
    assert capsys.readouterr().out == f"{expected:.{width}f}\n"
    assert main(["score", *REFS, "-i", SYSTEM, "-m", "bleu", "--width", str(width)]) == 0
    assert f"  {expected:.{width}f}\n" in capsys.readouterr().out


def test_width_defaults_to_four_decimals_and_refuses_nonsense(capsys):
    assert main(["score", *REFS, "-i", SYSTEM, "-m", "bleu", "-b"]) == 0
    assert len(capsys.readouterr().out.strip().split(".")[1]) == 4
    for bad in ("-1", "18", "two"):
        with pytest.raises(SystemExit):
            main(["score", *REFS, "-i", SYSTEM, "-w", bad])
        assert "-w/--width" in capsys.readouterr().err


@pytest.mark.parametrize("tokenizer", ["intl", "char", "none"])
def test_tok_sets_bleus_tokenizer_as_sacrebleu_tok(capsys, tokenizer):
    corpus = slice_corpus("wmt22-de-en")
    out = _json(capsys, ["score", *REFS, "-i", SYSTEM, "-m", "bleu", "-tok", tokenizer, "--format", "json"])
    same = _json(capsys, ["score", *REFS, "-i", SYSTEM, "-m", "bleu", "--set", f"bleu.tokenize={tokenizer}", "--format", "json"])  # fmt: skip
    assert out == same
    theirs = SacreBLEU(tokenize=tokenizer)
    expected = theirs.corpus_score(corpus.systems["LT22"], corpus.refs)
    assert rel_close(out["systems"][0]["scores"]["bleu"], expected.score)
    assert out["signatures"]["bleu"] == theirs.get_signature().format()


def test_tok_is_refused_with_a_conflicting_set_or_an_unknown_tokenizer(capsys):
    assert main(["score", *REFS, "-i", SYSTEM, "-m", "bleu", "-tok", "intl", "--set", "bleu.tokenize=13a"]) == 2
    assert "both set BLEU's tokenizer" in capsys.readouterr().err
    assert main(["score", *REFS, "-i", SYSTEM, "-m", "bleu", "--tokenize", "moses"]) == 2
    assert "'moses' is not one of 13a" in capsys.readouterr().err


def test_tok_beats_the_language_choice_as_sacrebleu_tok_beats_l(capsys):
    zh = DATA / "wmt22-en-zh"
    refs = [str(zh / "ref.A.txt")]
    out = _json(capsys, ["score", *refs, "-i", str(zh / "sys" / "Online-B.txt"), "-m", "bleu", "-tok", "char", "--format", "json"])  # fmt: skip
    assert "|tok:char|" in out["signatures"]["bleu"]


def test_segment_outputs_carry_sentence_bleu_scores_and_their_signature(capsys, tmp_path):
    """Segment BLEU in JSON, CSV and the segment files is sacrebleu.sentence_bleu, signed eff:yes; the corpus score
    keeps sacrebleu's BLEU default, eff:no."""
    refs = [str(HEEN / "ref.A.txt"), str(HEEN / "ref.B.txt")]
    system = str(HEEN / "sys" / "ONLINE-B.txt")
    out = _json(capsys, ["score", *refs, "-i", system, "-m", "bleu", "--segments", "--format", "json"])
    info = out["metrics"]["bleu"]
    assert info["signature"] == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert info["segment_signature"] == "nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0"
    corpus = slice_corpus("wmt23-he-en-short")
    hyps = corpus.systems["ONLINE-B"]
    segments = out["systems"][0]["segments"]["bleu"]
    for i, hyp in enumerate(hyps):
        assert rel_close(segments[i], sacrebleu.sentence_bleu(hyp, [r[i] for r in corpus.refs]).score), i
    assert hyps[6] == "Well done" and rel_close(segments[6], 100.0)  # equals reference A, two tokens

    assert main(["score", *refs, "-i", system, "-m", "bleu", "--segments", "--format", "csv"]) == 0
    text = capsys.readouterr().out
    rows = list(csv.reader(io.StringIO(text[text.index("metric,system,segment,line,score,signature") :])))
    assert {row[5] for row in rows[1 : 1 + len(hyps)]} == {info["segment_signature"]}

    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    assert main(["score", *refs, "-i", system, "-m", "bleu", "--output-dir", str(tmp_path), "--segment-format", "parquet"]) == 0  # fmt: skip
    metadata = pq.read_schema(tmp_path / "ONLINE-B.segments.parquet").metadata
    assert json.loads(metadata[b"scorelens.signatures"]) == {"bleu": info["segment_signature"]}
