"""``scorelens score`` statistics flags end to end: JSON/CSV/table output, sacrebleu numbers, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from metrics.cli.main import main
from metrics.cli.stats import resolve_seed
from metrics.families.bleu.metric import BLEU
from metrics.families.chrf.metric import CHRF
from metrics.reports.results import MetricInfo, Results, SystemScores, to_csv
from metrics.stats.correlation import Correlation
from metrics.stats.significance import paired_test
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA, ROOT

WMT = DATA / "wmt22-de-en"
COCO = DATA / "coco"
REFS = [str(WMT / "ref.A.txt")]
SYSTEMS = [str(WMT / "sys" / f"{n}.txt") for n in ("LT22", "PROMT", "Online-B")]


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys, *args: str) -> dict:
    code, out, err = _run(capsys, *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_paired_bs_json_equals_the_api_and_sacrebleu(capsys):
    doc = _json(capsys, "--refs", *REFS, "--systems", *SYSTEMS[:2], "--metrics", "bleu,chrf", "--paired-bs")
    corpus = slice_corpus("wmt22-de-en")
    metrics = {"bleu": BLEU(), "chrf": CHRF()}
    for metric_id, metric in metrics.items():
        assert doc["signatures"][metric_id].startswith("nrefs:1|bs:1000|seed:12345|")
        stats = {n: metric.stats(corpus.systems[n], [corpus.refs[0]]) for n in ("LT22", "PROMT")}
        report = paired_test(metric, stats)
        for entry in doc["systems"]:
            interval = report.intervals[entry["name"]]
            assert entry["scores"][metric_id] == interval.score
            assert entry["intervals"][metric_id] == {
                "score": interval.score,
                "mean": interval.mean,
                "ci": [interval.lo, interval.hi],
                "half_width": interval.half_width,
            }
        pair = next(p for p in doc["pairs"] if p["metric"] == metric_id)
        assert pair == {
            "metric": metric_id,
            "baseline": "LT22",
            "system": "PROMT",
            "method": "bs",
            "p_value": report.pairs[0].p_value,
            "p_corrected": None,
            "diff": report.pairs[0].diff,
            "diff_ci": list(report.pairs[0].diff_ci),
            "identical": False,
        }
    # and the chrF numbers are sacrebleu's (float32 half-width included)
    theirs = SacreCHRF().corpus_score(corpus.systems["PROMT"], [corpus.refs[0]], n_bootstrap=1000)
    assert rel_close(doc["systems"][1]["intervals"]["chrf"]["half_width"], float(theirs._ci))
    assert doc["pairs"][0]["p_value"] == pytest.approx(1 / 1001)
    assert doc["statistics"] == {
        "seed": 12345,
        "n_bootstrap": 1000,
        "n_permutations": None,
        "arithmetic": "sacrebleu",
        "method": "bs",
        "baseline": "LT22",
        "all_pairs": False,
        "alpha": None,
        "correction": None,
        "human": None,
        "rouge_confidence": None,
    }


def test_confidence_json_is_sacrebleus_confidence(capsys):
    doc = _json(capsys, "--refs", *REFS, "--systems", SYSTEMS[0], "--metrics", "chrf", "--confidence")
    corpus = slice_corpus("wmt22-de-en")
    theirs = SacreCHRF().corpus_score(corpus.systems["LT22"], [corpus.refs[0]], n_bootstrap=1000)
    mine = doc["systems"][0]["intervals"]["chrf"]
    assert rel_close(mine["mean"], float(theirs._mean)) and rel_close(mine["half_width"], float(theirs._ci))
    assert "pairs" not in doc


def test_all_pairs_with_randomization_and_baseline_choice(capsys):
    doc = _json(
        capsys,
        *("--refs", *REFS, "--systems", *SYSTEMS, "--metrics", "bleu"),
        *("--paired-ar", "--all-pairs", "--n-permutations", "300", "--seed", "3"),
    )
    assert len(doc["pairs"]) == 3 and all(p["method"] == "ar" and "p_corrected" in p for p in doc["pairs"])
    assert doc["signatures"]["bleu"].startswith("nrefs:1|ar:300|seed:3|")
    assert [g for group in doc["groups"]["bleu"] for g in group][-1] == "LT22"
    assert isinstance(doc["systems"][0]["scores"]["bleu"], float) and "intervals" not in doc["systems"][0]
    args = ["--refs", *REFS, "--systems", *SYSTEMS, "--metrics", "chrf", "--paired-bs", "--baseline", "PROMT"]
    doc = _json(capsys, *args)
    assert {p["baseline"] for p in doc["pairs"]} == {"PROMT"} and len(doc["pairs"]) == 2
    plain = _json(capsys, *args, "--stats-arithmetic", "float64")
    exact, approx = doc["systems"][0]["intervals"]["chrf"], plain["systems"][0]["intervals"]["chrf"]
    assert exact["score"] == approx["score"] and exact["mean"] != approx["mean"]
    assert approx["mean"] == pytest.approx(exact["mean"], rel=1e-6)


def test_human_correlations(capsys):
    refs = [str(COCO / f"ref.{k}.txt") for k in range(4)]
    systems = sorted(str(p) for p in (COCO / "sys").iterdir())
    args = ["--refs", *refs, "--systems", *systems, "--metrics", "bleu"]
    args += ["--human", str(COCO / "human_scores.jsonl"), "--human-ids", str(COCO / "image_ids.txt")]
    doc = _json(capsys, *args, "--n-bootstrap", "100")
    levels = {(c["level"], c["method"]) for c in doc["human"]}
    assert levels == {(lv, m) for lv in ("segment", "system") for m in ("pearson", "spearman", "kendall")}
    segment = next(c for c in doc["human"] if c["level"] == "segment" and c["method"] == "pearson")
    assert segment["n"] == 2500 and segment["ci"][0] < segment["value"] < segment["ci"][1]
    assert doc["statistics"]["human"] == str(COCO / "human_scores.jsonl")
    results = Results(
        (MetricInfo("bleu", "BLEU", "nrefs:1|x", True, "nrefs:1|x"),),
        (SystemScores("a", {"bleu": 1.5}),),
        correlations=(Correlation("bleu", "segment", "kendall", 0.1, 0.0, float("nan"), 9, 10),),
    )
    human = to_csv(results).split("\n\n")[1]
    assert human == "metric,level,method,value,ci_lo,ci_hi,n,signature\nbleu,segment,kendall,0.1,0.0,,9,nrefs:1|x\n"


def test_table_and_csv_sections(capsys):
    args = ["--refs", *REFS, "--systems", *SYSTEMS, "--metrics", "bleu", "--paired-bs", "--all-pairs"]
    code, out, _ = _run(capsys, *args, "--n-bootstrap", "200")
    assert code == 0
    assert "95% bootstrap intervals" in out and "p_holm" in out and "groups (best first" in out
    code, out, _ = _run(capsys, *args, "--n-bootstrap", "200", "--format", "csv")
    assert code == 0
    assert "metric,baseline,system,method,p_value,p_corrected,diff,diff_ci_lo,diff_ci_hi,identical,signature" in out
    assert "metric,group,system,signature" in out
    assert out.startswith("metric,metric_name,higher_is_better,system,score,mean,ci_lo,ci_hi,half_width,signature\n")


def test_seed_comes_from_sacrebleu_environment(monkeypatch, capsys):
    assert resolve_seed(None, {}) == 12345
    assert resolve_seed(None, {"SACREBLEU_SEED": "42"}) == 42
    assert resolve_seed(5, {"SACREBLEU_SEED": "42"}) == 5
    with pytest.raises(ValueError, match="unseeded"):
        resolve_seed(None, {"SACREBLEU_SEED": "None"})
    monkeypatch.setenv("SACREBLEU_SEED", "42")
    doc = _json(capsys, "--refs", *REFS, "--systems", SYSTEMS[0], "--metrics", "bleu", "--confidence")
    assert doc["statistics"]["seed"] == 42 and "|seed:42|" in doc["signatures"]["bleu"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--systems", SYSTEMS[0], "--paired-bs"], "at least two systems"),
        (["--systems", *SYSTEMS[:2], "--paired-bs", "--baseline", "nobody"], "not one of the systems"),
        (["--systems", *SYSTEMS[:2], "--baseline", "LT22"], "needs --paired-bs"),
        (["--systems", *SYSTEMS[:2], "--confidence", "--n-bootstrap", "0"], "n-bootstrap"),
        (["--systems", *SYSTEMS[:2], "--human-ids", "x.txt"], "needs --human"),
        (["--systems", *SYSTEMS[:2], "--human", str(COCO / "human_scores.jsonl")], "line number"),
        (["--systems", *SYSTEMS[:2], "--all-pairs", "--alpha", "2"], "alpha"),
    ],
)
def test_errors_exit_2(capsys, args, message):
    code, _, err = _run(capsys, "--refs", *REFS, "--metrics", "bleu", *args)
    assert code == 2 and message in err


def test_subprocess_end_to_end():
    result = subprocess.run(
        [sys.executable, "-m", "metrics.cli.main", "score", "--refs", *REFS, "--systems", *SYSTEMS[:2]]
        + ["--metrics", "chrf", "--paired-bs", "--n-bootstrap", "100", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    doc = json.loads(result.stdout)
    assert doc["pairs"][0]["metric"] == "chrf" and type(doc["systems"][1]["intervals"]["chrf"]["mean"]) is float
