"""The command line contract: JSON shape, errors that name files, options reaching the metric."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from metrics.cli.main import main
from metrics.core.registry import SPECS
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA

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
    main(["score", "--refs", *REFS, "--systems", *SYSTEMS, "--format", "csv", "-m", "bleu", "chrf"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "metric,metric_name,higher_is_better,system,score,mean,ci_lo,ci_hi,half_width,signature"
    assert lines[1].startswith("bleu,BLEU,true,LT22,") and lines[1].endswith(
        ",,,,nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    )
    main(["score", "--refs", *REFS, "--systems", *SYSTEMS, "-m", "chrf"])
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


# What a run imports only when asked for: statistics, external scores, BERTScore, the analyses, Parquet, worker
# processes, the Dask engine's logging, and the default metrics' choice (-m given).
NOT_IMPORTED = (
    "metrics.stats.significance",
    "metrics.stats.correlation",
    "metrics.stats.rouge_bootstrap",
    "metrics.stats.human",
    "metrics.families.external.metric",
    "metrics.families.external.scores",
    "metrics.families.bertscore.metric",
    "metrics.analysis.ngrams",
    "metrics.io.parquet",
    "metrics.core.defaults",
    "multiprocessing",
    "logging",
    "hashlib",
    "statistics",
    "regex",  # BLEU and ROUGE's default tokenizers need no Unicode properties, nor does European text's script
)


def test_a_plain_score_run_imports_only_what_it_uses():
    run = (
        "import contextlib, io, json, sys\n"
        "from metrics.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = main(sys.argv[1:])\n"
        "print(json.dumps({'code': code, 'output': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
    )
    args = ["score", "-r", REFS[0], "-i", *SYSTEMS, "-m", "bleu", "rouge1", "--format", "json", "--segments"]
    result = subprocess.run([sys.executable, "-c", run, *args, "--jobs", "1"], capture_output=True, text=True)
    found = json.loads(result.stdout)
    assert found["code"] == 0, result.stderr
    assert [s["name"] for s in json.loads(found["output"])["systems"]] == ["LT22", "Online-B"]
    assert "metrics.families.rouge.metric" in found["modules"]  # the run did import what it scored with
    assert [name for name in NOT_IMPORTED if name in found["modules"]] == []


def test_family_options_reach_only_the_metrics_that_take_them(capsys):
    from metrics.core.selection import Selection

    built = Selection.from_set(["rouge1", "rougeW"], ["rouge.stemmer=true", "rouge.weight=1.5"]).build()
    assert built["rouge1"].config.stemmer and built["rougeW"].config.stemmer
    assert built["rougeW"].config.weight == 1.5
    assert (
        main(["score", "--refs", REFS[0], "--systems", SYSTEMS[0], "--metrics", "rouge1", "--set", "rouge.weight=2"])
        == 2
    )
    assert "rouge.weight: no chosen rouge metric (rouge1) takes this option; valid options: stemmer, tokenizer" in (
        capsys.readouterr().err
    )


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


# ------------------------------------------------------------------------------------------ habits of sacrebleu users

ZH = DATA / "wmt22-en-zh"
ZH_REFS = [str(ZH / "ref.A.txt"), str(ZH / "ref.B.txt")]
ZH_SYSTEM = str(ZH / "sys" / "Online-B.txt")


def test_short_flags_score_only_and_space_separated_metrics(capsys):
    assert main(["score", "-r", *REFS, "-i", *SYSTEMS, "-m", "bleu", "chrf", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert main(["score", "-r", *REFS, "-i", *SYSTEMS, "-m", "bleu,chrf", "-b"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{s['scores']['bleu']:.4f}\t{s['scores']['chrf']:.4f}" for s in doc["systems"]]
    assert main(["score", "-r", *REFS, "-i", SYSTEMS[0], "-m", "bleu", "--score-only"]) == 0
    assert capsys.readouterr().out == f"{doc['systems'][0]['scores']['bleu']:.4f}\n"
    assert main(["score", "-r", *REFS, "-i", SYSTEMS[0], "-m", "bleu", "-b", "--format", "json", "--confidence"]) == 2
    assert "-b/--score-only prints only the scores; leave out --format, statistics flags" in capsys.readouterr().err


def test_a_dash_reads_a_system_from_standard_input(capsys, monkeypatch):
    import io

    with open(SYSTEMS[0], "rb") as handle:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(handle.read())))
    assert main(["score", "-r", *REFS, "-i", "-", SYSTEMS[1], "-m", "bleu", "--format", "json"]) == 0
    from_stdin = json.loads(capsys.readouterr().out)
    assert main(["score", "-r", *REFS, "-i", *SYSTEMS, "-m", "bleu", "--format", "json"]) == 0
    from_files = json.loads(capsys.readouterr().out)
    assert from_stdin["systems"][0]["name"] == "stdin"
    assert from_stdin["systems"][0]["scores"] == from_files["systems"][0]["scores"]
    assert main(["score", "-r", "-", "-i", "-", "-m", "bleu"]) == 2
    assert "- (standard input) can be read only once" in capsys.readouterr().err


def test_a_piped_system_through_the_console_script():
    with open(SYSTEMS[0], "rb") as handle:
        data = handle.read()
    result = subprocess.run(
        [sys.executable, "-m", "metrics.cli.main", "score", "-r", *REFS, "-i", "-", "-m", "bleu", "-b"],
        input=data,
        capture_output=True,
        check=True,
    )
    expected = SacreBLEU().corpus_score(slice_corpus("wmt22-de-en").systems["LT22"], slice_corpus("wmt22-de-en").refs)
    assert result.stdout.decode() == f"{expected.score:.4f}\n"
    assert b"\r" not in result.stderr  # no progress bar into a pipe


def test_the_console_script_exits_with_mains_code():
    missing = subprocess.run(
        [sys.executable, "-m", "metrics.cli.main", "score", "-r", "no-such.txt", "-i", SYSTEMS[0], "-m", "bleu"],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "no-such.txt: cannot read file" in missing.stderr


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0 and capsys.readouterr().out == "scorelens 0.1.0\n"


def test_every_csv_row_of_numbers_carries_its_signature(capsys):
    main(["score", "-r", *REFS, "-i", *SYSTEMS, "-m", "bleu,chrf", "--segments", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    signatures = document["signatures"]
    segment_signatures = {m: info["segment_signature"] for m, info in document["metrics"].items()}
    main(["score", "-r", *REFS, "-i", *SYSTEMS, "-m", "bleu,chrf", "--segments", "--format", "csv"])
    import csv
    import io

    tables = [list(csv.DictReader(io.StringIO(block))) for block in capsys.readouterr().out.split("\n\n")]
    scores, segments = tables
    assert len(scores) == 4 and len(segments) == 2 * 2 * 400
    assert all(row["signature"] == signatures[row["metric"]] for row in scores)
    assert all(row["signature"] == segment_signatures[row["metric"]] for row in segments)
    # BLEU's segment scores are sacrebleu.sentence_bleu's (eff:yes); chrF scores segments as its corpus
    assert segment_signatures["bleu"] == signatures["bleu"].replace("|eff:no|", "|eff:yes|")
    assert segment_signatures["chrf"] == signatures["chrf"]
    assert signatures["chrf"].startswith("nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0")


def test_metrics_are_chosen_from_the_data_when_not_given(capsys):
    cnndm = DATA / "cnndm"
    refs = str(cnndm / "reference.sents.jsonl")
    system = str(sorted((cnndm / "sys").glob("*.sents.jsonl"))[0])
    assert main(["score", "-r", refs, "-i", system, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert list(json.loads(out)["signatures"]) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert "metrics chosen from the data: rouge1, rouge2, rougeL, rougeLsum (1 reference per segment," in err
    assert "the outputs' lengths do not follow the references' (r = 0." in err and "read as summaries" in err
    assert "--task or -m chooses others" in err


def test_a_paragraph_translation_set_gets_mt_metrics_and_task_overrides(capsys):
    para = DATA / "wmt23-he-en-para-src"
    refs = [str(para / "ref.A.txt"), str(para / "ref.B.txt")]
    systems = [str(p) for p in sorted((para / "sys").glob("*.txt"))]
    assert main(["score", "-r", *refs, "-i", *systems, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert list(json.loads(out)["signatures"]) == ["bleu", "chrf", "ter"]
    assert "the outputs' lengths follow the references' (r = 0.9" in err
    assert main(["score", "-r", *refs, "-i", *systems, "--task", "captioning", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert list(json.loads(out)["signatures"]) == ["cider", "bleu", "meteor"]
    assert "(captions, as stated, so CIDEr-D, BLEU and METEOR); -m chooses others" in err


def test_chinese_references_get_sacrebleus_tokenizer_unless_the_user_set_one(capsys):
    assert main(["score", "-r", *ZH_REFS, "-i", ZH_SYSTEM, "-m", "bleu,chrf", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["signatures"]["bleu"] == "nrefs:2|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0"
    corpus = slice_corpus("wmt22-en-zh")
    expected = SacreBLEU(trg_lang="zh").corpus_score(corpus.systems["Online-B"], corpus.refs).score
    assert rel_close(doc["systems"][0]["scores"]["bleu"], expected)
    assert "scorelens: note: references look Chinese (92% of the letters are Han characters): bleu.tokenize=zh" in err
    assert "ter." not in err  # TER was not chosen
    assert main(["score", "-r", *ZH_REFS, "-i", ZH_SYSTEM, "-m", "bleu", "--set", "bleu.tokenize=13a", "-b"]) == 0
    out, err = capsys.readouterr()
    assert "references look" not in err and float(out) < expected - 10  # the user's 13a stands
    assert main(["score", "-r", *ZH_REFS, "-i", ZH_SYSTEM, "-m", "bleu", "-l", "none", "--format", "json"]) == 0
    assert "tok:13a" in json.loads(capsys.readouterr().out)["signatures"]["bleu"]
    assert main(["score", "-r", *REFS, "-i", SYSTEMS[0], "-m", "bleu", "ter", "-l", "en-zh", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    signatures = json.loads(out)["signatures"]
    assert "tok:zh" in signatures["bleu"] and "norm:yes|punct:yes|asian:yes" in signatures["ter"]
    assert "language zh: bleu.tokenize=zh" in err
    assert main(["score", "-r", *ZH_REFS, "-i", ZH_SYSTEM, "-m", "bleu", "-l", "zh-en", "--format", "json"]) == 0
    assert "tok:13a" in json.loads(capsys.readouterr().out)["signatures"]["bleu"]  # English target: nothing to set
    with pytest.raises(SystemExit):
        main(["score", "-r", *REFS, "-i", SYSTEMS[0], "-l", "klingon"])
    assert "expected auto, none, a language code (zh) or a pair (en-zh)" in capsys.readouterr().err


def test_all_pairs_take_enough_resamples_and_say_so(capsys):
    three = [*SYSTEMS, str(DEEN / "sys" / "PROMT.txt")]
    args = ["score", "-r", *REFS, "-i", *three, "-m", "chrf", "--paired-bs", "--all-pairs", "--format", "json"]
    assert main([*args, "--alpha", "0.01"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["statistics"]["n_bootstrap"] == 3000 and "nrefs:2|bs:3000|" in doc["signatures"]["chrf"]
    assert "3000 bootstrap resamples for 3 Holm-corrected comparison(s) at α = 0.01" in err
    assert main([*args, "--n-bootstrap", "500"]) == 0
    assert json.loads(capsys.readouterr().out)["statistics"]["n_bootstrap"] == 500
    paired = ["score", "-r", *REFS, "-i", *three, "-m", "chrf", "--paired-bs", "--format", "json"]
    with pytest.raises(SystemExit):
        main([*paired, "--n-bootstrap", "lots"])
    assert "'lots' is neither a whole number nor auto" in capsys.readouterr().err
