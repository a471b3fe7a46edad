"""The command line contract: JSON shape, errors that name files, options reaching the metric."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import DATA, rel_close, slice_corpus
from sacrebleu.metrics import BLEU as SacreBLEU

from metrics.cli.main import main
from metrics.core.registry import SPECS

DEEN = DATA / "wmt22-de-en"
REFS = [str(DEEN / "ref.A.txt"), str(DEEN / "ref.B.txt")]
SYSTEMS = [str(DEEN / "sys" / "LT22.txt"), str(DEEN / "sys" / "Online-B.txt")]


def test_json_output_matches_sacrebleu(capsys):
    code = main(
        [
            "score",
            "--refs",
            *REFS,
            "--systems",
            *SYSTEMS,
            "--metrics",
            "bleu,chrf++",
            "--segments",
            "--format",
            "json",
            "--set",
            "bleu.lowercase=true",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["signatures"]["bleu"] == "nrefs:2|case:lc|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert [s["name"] for s in out["systems"]] == ["LT22", "Online-B"]
    corpus = slice_corpus("wmt22-de-en")
    expected = SacreBLEU(lowercase=True).corpus_score(corpus.systems["LT22"], corpus.refs).score
    assert rel_close(out["systems"][0]["scores"]["bleu"], expected)
    assert len(out["systems"][1]["segments"]["chrf++"]) == 400


def test_mismatched_files_name_each_file_and_count(tmp_path, capsys):
    short = tmp_path / "short.txt"
    short.write_text("one line\n")
    code = main(["score", "--refs", REFS[0], "--systems", str(short)])
    err = capsys.readouterr().err
    assert code == 2 and "short.txt: 1 lines" in err and "ref.A.txt: 400 lines" in err


def test_unknown_metric_and_option_are_refused(capsys):
    assert main(["score", "--refs", REFS[0], "--systems", SYSTEMS[0], "--metrics", "bleu,blue"]) == 2
    assert "unknown metric(s) blue" in capsys.readouterr().err
    assert main(["score", "--refs", REFS[0], "--systems", SYSTEMS[0], "--set", "bleu.tokenise=13a"]) == 2
    assert "valid options" in capsys.readouterr().err


def test_csv_and_table_formats(capsys):
    main(["score", "--refs", *REFS, "--systems", *SYSTEMS, "--format", "csv"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "metric,metric_name,higher_is_better,system,score,mean,ci_lo,ci_hi,half_width,signature"
    assert lines[1].startswith("bleu,BLEU,true,LT22,") and lines[1].endswith(
        ",,,,nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    )
    main(["score", "--refs", *REFS, "--systems", *SYSTEMS])
    assert "chrF2" in capsys.readouterr().out


def test_console_script_runs():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "metrics.cli.main",
            "score",
            "--refs",
            REFS[0],
            "--systems",
            SYSTEMS[0],
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["systems"][0]["name"] == "LT22"


def test_family_options_reach_only_the_metrics_that_take_them(capsys):
    from metrics.core.registry import create_many

    built = create_many(["rouge1", "rougeW"], {"rouge": {"stemmer": "true", "weight": "1.5"}})
    assert built["rouge1"].config.stemmer and built["rougeW"].config.stemmer
    assert built["rougeW"].config.weight == 1.5
    assert (
        main(["score", "--refs", REFS[0], "--systems", SYSTEMS[0], "--metrics", "rouge1", "--set", "rouge.weight=2"])
        == 2
    )
    assert "unknown option(s) weight for rouge" in capsys.readouterr().err


def test_metrics_lists_every_option_with_label_default_values_and_help(capsys, monkeypatch):
    import metrics.core.config

    monkeypatch.setattr(metrics.core.config, "_module_found", lambda module: module != "MeCab")
    assert main(["metrics"]) == 0
    out = capsys.readouterr().out
    assert "    bleu.max_ngram_order=4  Max n-gram order N — integer in [1, 9]\n" in out
    assert "        BLEU-N: the geometric mean runs over orders 1..N.\n" in out
    assert "    cider.sigma=6.0  σ of the length penalty — number > 0\n" in out
    assert "    rouge.skip_distance=4  Skip distance — integer ≥ -1, or none\n" in out
    assert "ja-mecab (Japanese, MeCab) [not installed: needs MeCab (pip install 'scorelens[ja]')]" in out
    chrf_pp = out.split("chrf++ ")[1].split("\nrouge1 ")[0]
    assert "fixed by this id: word_order=2" in chrf_pp and "chrf.word_order=" not in chrf_pp
    blocks = [line for line in out.splitlines() if not line.startswith(" ")]
    assert [b.split()[0] for b in blocks] == list(SPECS)


def test_a_bare_carriage_return_in_a_reference_scores_as_sacrebleu_reads_it(tmp_path, capsys):
    """sacrebleu's regression script (test.sh, "control character" test) expects a reference with a bare CR inside
    a line to score as the same line without it; the CLI reads it, says so, and agrees with sacrebleu's own file
    reading on every metric that splits words on whitespace."""
    from sacrebleu.utils import smart_open

    hyp = tmp_path / "hyp.txt"
    hyp.write_text("Hello! How are you doing today?\n")
    buggy, okay = tmp_path / "buggy.txt", tmp_path / "okay.txt"
    buggy.write_bytes(b"Hello! How are you \r doing today?")
    okay.write_text("Hello! How are you doing today?\n")
    word_metrics = "bleu,chrf,ter,wer,meteor,rouge1"

    def scores(ref):
        assert (
            main(["score", "--refs", str(ref), "--systems", str(hyp), "--metrics", word_metrics, "--format", "json"])
            == 0
        )
        out = capsys.readouterr()
        return json.loads(out.out)["systems"][0]["scores"], out.err

    with_cr, told = scores(buggy)
    assert with_cr == scores(okay)[0]
    assert "bare carriage return" in told
    with smart_open(str(buggy)) as f:
        theirs = SacreBLEU().corpus_score([hyp.read_text().rstrip("\n")], [[line.rstrip("\n") for line in f]])
    assert with_cr["bleu"] == theirs.score > 99.99
