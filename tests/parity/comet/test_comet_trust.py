"""A COMET metric in the statistics like any other, on a seeded checkpoint: intervals, paired tests, tied groups,
buckets and human correlation equal those of the same segment scores loaded as external scores; the human-agreement
estimate takes mt-thresholds' fit only for a released model (read ×100: COMET scores are on 0–1) and says why a
seeded checkpoint gets none, on the command line too. Needs the neural extra."""

from __future__ import annotations

import json
import shutil

import mt_thresholds
import numpy as np
import pytest

pytestmark = pytest.mark.neural

pytest.importorskip("torch")
pytest.importorskip("transformers")

from metrics.analysis.agreement import agreements, fit_for, no_fit_reason  # noqa: E402
from metrics.analysis.agreement import all_pairs as pairs_of  # noqa: E402
from metrics.analysis.buckets import BucketKind, by_values  # noqa: E402
from metrics.analysis.scoring import BucketSettings, bucket_scores  # noqa: E402
from metrics.cli.main import main  # noqa: E402
from metrics.core.family import FitSource  # noqa: E402
from metrics.core.registry import create  # noqa: E402
from metrics.evaluate import evaluate  # noqa: E402
from metrics.families.external import External, parse_external  # noqa: E402
from metrics.stats.correlation import correlate  # noqa: E402
from metrics.stats.human import HumanScores  # noqa: E402
from metrics.stats.significance import all_pairs  # noqa: E402
from tests.support import comet_checkpoints as cc  # noqa: E402
from tests.support.paths import DATA  # noqa: E402

DEEN = DATA / "wmt22-de-en"
SYSTEMS = ("JDExploreAcademy", "LT22", "PROMT")
N = 40


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _lines(path):
    return path.read_text(encoding="utf-8").split("\n")[:N]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    return cc.build(cc.BY_NAME["regression"], tmp_path_factory.mktemp("comet") / "seeded-regression")


@pytest.fixture(scope="module")
def corpus():
    return (
        {name: _lines(DEEN / "sys" / f"{name}.txt") for name in SYSTEMS},
        _lines(DEEN / "ref.A.txt"),
        _lines(DEEN / "src.txt"),
    )


@pytest.fixture(scope="module")
def scored(seeded, corpus):
    systems, ref, src = corpus
    comet = create("comet", {"model": str(seeded), "batch_size": 7})
    evaluation = evaluate(systems, [ref], {"comet": comet}, source=src)
    segment = {r.name: r.stats["comet"] for r in evaluation.systems}
    values = {name: stats.rows[:, 0].tolist() for name, stats in segment.items()}
    rows = [{"system": s, "segment": i, "score": v} for s, vs in values.items() for i, v in enumerate(vs)]
    data = "\n".join(json.dumps(r) for r in rows).encode() + b"\n"
    twin = External(parse_external(data, "twin.jsonl", "twin", list(systems), N, fit="none"))
    twin_stats = {r.name: r.stats["twin"] for r in evaluate(systems, [ref], {"twin": twin}).systems}
    return comet, evaluation, segment, twin, twin_stats


def test_rows_are_the_scores_and_the_corpus_score_their_mean(scored):
    _, evaluation, segment, _, twin_stats = scored
    for name, stats in segment.items():
        assert stats.columns == ("score",) and stats.rows.shape == (N, 1)
        np.testing.assert_array_equal(stats.rows, twin_stats[name].rows)
        assert evaluation.system(name).scores["comet"] == pytest.approx(float(stats.rows.mean()), abs=1e-15)
    assert len({float(s.rows.std()) for s in segment.values()}) == len(SYSTEMS)  # three different outputs


def test_intervals_paired_tests_groups_and_correlation_as_for_any_metric(scored):
    comet, _, segment, twin, twin_stats = scored
    ours, theirs = all_pairs(comet, segment, n_samples=300, seed=7), all_pairs(twin, twin_stats, n_samples=300, seed=7)
    assert ours.intervals == theirs.intervals and ours.groups == theirs.groups
    assert [(p.p_value, p.diff, p.diff_ci) for p in ours.pairs] == [
        (p.p_value, p.diff, p.diff_ci) for p in theirs.pairs
    ]
    assert all(i.lo < i.score < i.hi for i in ours.intervals.values())
    rng = np.random.default_rng(3)
    human = HumanScores({n: rng.normal(size=N) for n in SYSTEMS}, "h")
    assert correlate(comet, segment, human, 200, 5, label="x") == correlate(twin, twin_stats, human, 200, 5, label="x")


def test_buckets_as_for_any_metric(scored, corpus):
    comet, _, segment, twin, twin_stats = scored
    _, ref, _ = corpus
    lengths = np.array([len(r.split()) for r in ref], dtype=np.float64)
    bucketing = by_values(BucketKind.REF_LENGTH, "ref-length", "reference length", lengths, (10, 20))
    settings = BucketSettings(n_bootstrap=200)
    ours, _ = bucket_scores(bucketing, {"m": comet}, {n: {"m": s} for n, s in segment.items()}, settings=settings)
    theirs, _ = bucket_scores(bucketing, {"m": twin}, {n: {"m": s} for n, s in twin_stats.items()}, settings=settings)
    assert ours == theirs and len(ours) == 3


def test_a_seeded_checkpoint_gets_no_fit_and_says_why(scored, seeded, tmp_path):
    comet = scored[0]
    assert fit_for("comet", comet) is None
    assert "'seeded-regression' is none of them" in no_fit_reason(comet)
    named = tmp_path / "wmt22-comet-da"  # the released model's name on a MiniLM checkpoint
    shutil.copytree(seeded, named)
    impostor = create("comet", {"model": str(named)})
    assert fit_for("comet", impostor) is None
    assert "declares a regression_metric on" in no_fit_reason(impostor)
    assert "not the released regression_metric on 'xlm-roberta-large'" in no_fit_reason(impostor)


def test_a_released_model_reads_its_fit_on_points(scored, tmp_path):
    """The fit is decided from the name and hparams.yaml alone (the weights are not read), and differences of
    COMET's 0–1 scores go ×100 into COMET-22's curve."""
    _, evaluation, _, _, _ = scored
    released = tmp_path / "models--Unbabel--wmt22-comet-da" / "snapshots" / "0123abc"
    released.mkdir(parents=True)
    (released / "hparams.yaml").write_text(
        "class_identifier: regression_metric\nencoder_model: XLM-RoBERTa\npretrained_model: xlm-roberta-large\n"
    )
    metric = create("comet", {"model": str(released)})
    fit = fit_for("comet", metric)
    assert fit is not None and (fit.name, fit.scale, fit.source) == ("comet22", 100.0, FitSource.MODEL)
    assert no_fit_reason(metric) == ""
    scores = {r.name: dict(r.scores) for r in evaluation.systems}
    found = agreements({"comet": metric}, scores, pairs_of(list(SYSTEMS)))
    assert len(found) == 3
    for g in found:
        delta = scores[g.a]["comet"] - scores[g.b]["comet"]
        assert g.delta == delta and g.fit == "comet22"
        assert g.human_agreement == mt_thresholds.accuracy(abs(delta) * 100, "comet22") / 100


def test_analyze_buckets_a_comet_metric_and_notes_why_no_estimate(seeded, tmp_path, capsys):
    files = {}
    for name in ("src.txt", "ref.A.txt", *(f"sys/{s}.txt" for s in SYSTEMS[:2])):
        files[name] = tmp_path / name
        files[name].parent.mkdir(exist_ok=True)
        files[name].write_text("\n".join(_lines(DEEN / name)[:12]) + "\n", encoding="utf-8")
    systems = [str(files[f"sys/{s}.txt"]) for s in SYSTEMS[:2]]
    args = ["analyze", "--refs", str(files["ref.A.txt"]), "--systems", *systems, "--source", str(files["src.txt"])]
    args += ["--metrics", "comet", "--set", f"comet.model={seeded}", "--buckets", "ref-length", "--n-bootstrap", "50"]
    assert main([*args, "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["buckets"] and all(set(b["scores"]) == set(SYSTEMS[:2]) for b in found["buckets"])
    assert all("comet" in scores for b in found["buckets"] for scores in b["scores"].values())
    assert not found.get("agreement")
    notes = [n["message"] for n in found["notes"]]
    assert any(n.startswith("no human-agreement estimate for comet: mt-thresholds fitted the released") for n in notes)
