"""``scorelens analyze``: the JSON contract, CSV and text output, and the bad inputs the issue lists."""

from __future__ import annotations

import json

from sacrebleu.metrics import BLEU as SacreBLEU

from metrics.cli.main import main
from metrics.io.metadata import parse_metadata
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA

DEEN = DATA / "wmt22-de-en"
REFS = [str(DEEN / "ref.A.txt"), str(DEEN / "ref.B.txt")]
SYSTEMS = [str(DEEN / "sys" / f"{n}.txt") for n in ("LT22", "Online-B", "PROMT")]
BASE = ["analyze", "--refs", *REFS, "--systems", *SYSTEMS, "--n-bootstrap", "100"]
LIGHT = ["analyze", "--refs", REFS[0], "--systems", *SYSTEMS[:2], "--metrics", "bleu", "--n-bootstrap", "100"]


def _domains(tmp_path, rows: int = 400, suffix: str = ".tsv"):
    path = tmp_path / f"meta{suffix}"
    lines = ["doc\tdomain", *(f"d{i // 50}\t{'news' if i % 3 else 'talk'}" for i in range(rows))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_json_contract(tmp_path, capsys):
    meta = _domains(tmp_path)
    args = [*BASE, "--metrics", "bleu,chrf", "--buckets", "ref-length,length-diff,score:chrf", "--meta", str(meta)]
    args += ["--bucket-by", "domain", "--documents", "doc", "--ngrams", "LT22,PROMT", "--baseline", "PROMT"]
    args += ["--seed", "7", "--format", "json", "--disagreements", "LT22,PROMT", "--word-accuracy"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"signatures", "buckets", "ngrams", "agreement"} <= set(out)
    assert out["signatures"]["bleu"].startswith("nrefs:2|bs:100|seed:7|")
    corpus = slice_corpus("wmt22-de-en")
    kinds = {b["by"] for b in out["buckets"]}
    assert kinds == {"ref-length", "length-diff", "score:chrf", "meta:domain"}
    talk = next(b for b in out["buckets"] if b["by"] == "meta:domain" and b["label"] == "talk")
    assert talk["segments"] == list(range(0, 400, 3)) and talk["system"] is None
    lines = talk["segments"]
    for name in ("LT22", "Online-B", "PROMT"):
        entry = talk["scores"][name]["bleu"]
        hyps = [corpus.systems[name][i] for i in lines]
        refs = [[s[i] for i in lines] for s in corpus.refs]
        assert rel_close(entry["score"], SacreBLEU().corpus_score(hyps, refs).score)
        assert entry["ci"][0] <= entry["score"] <= entry["ci"][1]
        assert (entry["p_value"] is None) == (name == "PROMT")
    per_system = next(b for b in out["buckets"] if b["by"] == "length-diff")
    assert list(per_system["scores"]) == [per_system["system"]]
    gram = out["ngrams"][0]
    assert set(gram) >= {"a", "b", "n", "ngram", "matches", "segments"} and set(gram["matches"]) == {"LT22", "PROMT"}
    assert len(gram["ngram"].split()) == gram["n"]
    for record in out["agreement"]:
        assert set(record) >= {"metric", "a", "b", "delta", "human_agreement"}
        assert 0 < record["human_agreement"] < 1
    assert len(out["agreement"]) == 2 * 3
    assert {d["document"] for d in out["documents"]} == {f"d{k}" for k in range(8)}
    assert out["word_accuracy"] and out["disagreements"] and out["analysis"]["baseline"] == "PROMT"


def test_csv_writes_one_file_per_table_and_table_is_readable(tmp_path, capsys):
    folder = tmp_path / "out"
    assert main([*BASE, "--format", "csv", "--output-dir", str(folder), "--ngrams", "LT22,PROMT"]) == 0
    written = capsys.readouterr().out.split()
    assert {p.rsplit("/", 1)[-1] for p in written} >= {"buckets.csv", "ngrams.csv", "agreement.csv"}
    header = (folder / "buckets.csv").read_text().splitlines()[0]
    assert header.endswith(",signature") and "ci_lo" in header
    assert main([*LIGHT, "--format", "table"]) == 0
    text = capsys.readouterr().out
    assert "Buckets:" in text and "human agreement" in text and "bleu: nrefs:1|bs:100" in text


def test_bad_inputs_get_clear_messages(tmp_path, capsys):
    short = _domains(tmp_path, rows=399)
    assert main([*LIGHT, "--meta", str(short), "--bucket-by", "domain"]) == 2
    err = capsys.readouterr().err
    assert "meta.tsv" in err and "399 rows" in err and "400 segments" in err
    meta = _domains(tmp_path)
    assert main([*LIGHT, "--meta", str(meta), "--bucket-by", "genre"]) == 2
    assert "no column 'genre'" in capsys.readouterr().err
    assert main([*LIGHT, "--ngrams", "LT22,LT22"]) == 2
    assert "compared with itself" in capsys.readouterr().err
    assert main([*LIGHT, "--buckets", "ref-length", "--edges", "ref-length=60:70:80"]) == 0
    out = capsys.readouterr()
    assert "no segments in bucket(s)" in out.out
    assert main([*LIGHT, "--buckets", "score"]) == 2
    assert "score:METRIC" in capsys.readouterr().err
    assert main([*LIGHT, "--format", "csv"]) == 2
    assert "--output-dir" in capsys.readouterr().err


def test_metadata_files_name_the_line():
    bad = b'{"doc": "a", "domain": "x"}\n{"doc": "b"}\n'
    try:
        parse_metadata(bad, "meta.jsonl", 2)
    except ValueError as err:
        assert "meta.jsonl, line 2" in str(err) and "missing domain" in str(err)
    else:
        raise AssertionError("a missing field must be refused")
    found = parse_metadata(b'{"doc": 1, "domain": null}\n{"doc": 2, "domain": "talk"}\n', "m.jsonl", 2)
    assert found.column("doc") == ("1", "2") and found.column("domain") == ("", "talk")
    try:
        parse_metadata(b"a,b\n1\n", "m.csv", 1)
    except ValueError as err:
        assert "m.csv, line 2" in str(err)
    else:
        raise AssertionError("a short row must be refused")


def test_agreement_on_chinese_needs_the_chinese_tokenizer(capsys):
    """On en-zh, BLEU with tok:13a counts runs of Han characters as words: no estimate; with -l auto's zh, one."""
    zh = DATA / "wmt22-en-zh"
    args = ["analyze", "--refs", str(zh / "ref.A.txt"), "--systems", *map(str, sorted((zh / "sys").glob("*.txt"))[:2])]
    args += ["--metrics", "bleu,chrf", "--n-bootstrap", "100", "--format", "json"]
    assert main([*args, "--set", "bleu.tokenize=13a"]) == 0
    assert {r["metric"] for r in json.loads(capsys.readouterr().out)["agreement"]} == {"chrf"}
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert "tok:zh" in out["signatures"]["bleu"]
    assert {r["metric"] for r in out["agreement"]} == {"bleu", "chrf"}


def test_a_stated_captioning_task_gets_no_agreement_estimates(capsys):
    """mt-thresholds' fits come from WMT translation pairs: with --task captioning (or summarization) the analysis
    has no estimate and says why; with --task translation BLEU gets one."""
    coco = DATA / "coco"
    refs = [str(coco / f"ref.{k}.txt") for k in range(4)]
    systems = [str(p) for p in sorted((coco / "sys").glob("*.txt"))[:2]]
    args = ["analyze", "--refs", *refs, "--systems", *systems, "-m", "bleu", "--n-bootstrap", "100", "--format", "json"]
    assert main([*args, "--task", "captioning"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "agreement" not in out
    assert any("--task says captioning" in n["message"] for n in out["notes"])
    assert main([*args, "--task", "translation"]) == 0
    assert {r["metric"] for r in json.loads(capsys.readouterr().out)["agreement"]} == {"bleu"}
