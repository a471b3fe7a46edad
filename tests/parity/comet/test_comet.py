"""COMET and CometKiwi equal unbabel-comet 2.2.7's ``predict`` on seeded checkpoints of every estimator shape.

The checkpoints are built here (``tests/support/comet_checkpoints.py``, no unbabel-comet); the golden values are what
unbabel-comet's own classes gave on the same weights (``scripts/build_comet_golden.py``, run in the oracle's venv):
segment and system scores to 1e-6 on 40 WMT23 he-en segments of four systems plus hand cases (an empty output,
outputs past the encoder's 512 positions, non-Latin text), scored here in batches of another size than the
oracle's; error spans identical (offsets, severity, unbabel-comet's text; confidence to 1e-6). Needs the neural
extra."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.neural

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from metrics.core.base import MissingInput, explain_segment, system_stats  # noqa: E402
from metrics.core.models import ModelUnavailable  # noqa: E402
from metrics.core.registry import create  # noqa: E402
from metrics.core.spans import Severity  # noqa: E402
from metrics.families.comet.explanation import CometExplanation, Estimator  # noqa: E402
from tests.support import comet_checkpoints as cc  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "data"
GOLDEN = json.loads((DATA / "comet" / "golden.json").read_text(encoding="utf-8"))
BATCH = 5  # not the oracle's 16: scores must not depend on how segments are batched


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("comet")
    return {shape.name: cc.build(shape, root / shape.name) for shape in cc.SHAPES}


def _lines(name):
    return [line.rstrip("\n") for line in (DATA / "wmt23-he-en" / name).open(encoding="utf-8")]


@pytest.fixture(scope="module")
def corpus():
    """System → its segments (src, mt, ref, ref.B), as the golden script read them."""
    src, ref_a, ref_b = _lines("src.txt"), _lines("ref.A.txt"), _lines("ref.B.txt")
    found = {
        name: {"src": src, "mt": _lines(f"sys/{name}.txt"), "ref": ref_a, "ref.B": ref_b}
        for name in GOLDEN["systems"]
        if name != "hand"
    }
    hand = GOLDEN["hand"]
    found["hand"] = {**hand, "ref.B": hand["ref"]}
    return found


RUNS = [(name, run) for name, shape in GOLDEN["shapes"].items() for run in shape["runs"]]


def _metric(folder, run, **options):
    if run == "none":
        return create("cometkiwi", {"model": str(folder), "batch_size": BATCH, **options})
    return create("comet", {"model": str(folder), "batch_size": BATCH, **options})


def _refs(segments, run):
    return [] if run == "none" else [segments["ref" if run == "A" else "ref.B"]]


@pytest.mark.parametrize(("shape", "run"), RUNS)
def test_segment_and_system_scores_equal_unbabel_comet(folders, corpus, shape, run):
    metric = _metric(folders[shape], run)
    worst = 0.0
    for system, segments in corpus.items():
        expected = GOLDEN["shapes"][shape]["runs"][run][system]
        stats = system_stats(metric, system, segments["mt"], _refs(segments, run), source=segments["src"])
        worst = max(worst, float(np.abs(metric.segment_scores(stats) - expected["scores"]).max()))
        assert metric.corpus_score(stats) == pytest.approx(expected["system_score"], abs=1e-6)
    assert worst <= 1e-6


@pytest.mark.parametrize(("shape", "run"), [(n, r) for n, r in RUNS if GOLDEN["shapes"][n]["runs"][r]["hand"]["spans"]])
def test_error_spans_equal_unbabel_comet(folders, corpus, shape, run):
    """Every span of every segment (the batch path), and the explanation of each segment that has spans."""
    metric = _metric(folders[shape], run)
    spans_seen = 0
    for system, segments in corpus.items():
        expected = GOLDEN["shapes"][shape]["runs"][run][system]
        refs = None if run == "none" else segments["ref"]
        results = metric.model.unified(segments["mt"], segments["src"], refs, BATCH)
        for i, (result, gold) in enumerate(zip(results, expected["spans"], strict=True)):
            assert [(s.text, s.start, s.end, s.severity) for s in result.spans] == [
                (g["text"], g["start"], g["end"], g["severity"]) for g in gold
            ], f"{system} segment {i + 1}"
            assert [s.confidence for s in result.spans] == pytest.approx([g["confidence"] for g in gold], abs=1e-6)
            spans_seen += len(gold)
            if gold and i % 7 == 0:
                ex = explain_segment(metric, system, i, segments["mt"][i], [] if refs is None else [refs[i]],
                                     source=segments["src"][i])  # fmt: skip
                assert isinstance(ex, CometExplanation)
                assert ex.score == pytest.approx(expected["scores"][i], abs=1e-6)
                assert ex.span_texts == tuple(g["text"] for g in gold)
                for span, g in zip(ex.spans, gold, strict=True):
                    assert (span.start, span.end, span.severity) == (g["start"], g["end"], Severity(g["severity"]))
                    assert span.text == segments["mt"][i][g["start"] : g["end"]]
                    assert span.origin == folders[shape].name
    assert spans_seen >= 20  # the seeded tagger must tag enough for this test to mean something


@pytest.mark.parametrize("shape", [n for n, s in GOLDEN["shapes"].items() if "A" in s["runs"]])
def test_parts_equal_unbabel_comet_metadata(folders, corpus, shape):
    """The three inputs' scores (and xCOMET's MQM score) the explanation shows are predict's metadata."""
    expected = GOLDEN["shapes"][shape]["runs"]["A"]["GPT4-5shot"]
    if not expected["parts"]:
        pytest.skip("a regression model has no parts")
    metric = _metric(folders[shape], "A")
    segments = corpus["GPT4-5shot"]
    for i in (0, 11, 27):
        ex = metric.explain_source(segments["mt"][i], segments["src"][i], [segments["ref"][i]])
        parts = dict(ex.parts)
        for name in ("src", "ref", "unified", "mqm"):
            if f"{name}_scores" in expected["parts"]:
                assert parts[name] == pytest.approx(expected["parts"][f"{name}_scores"][i], abs=1e-6)


def test_several_references_follow_the_rule(folders, corpus):
    """first: the run against reference A; mean and max: of the runs against A and B."""
    runs = GOLDEN["shapes"]["regression"]["runs"]
    segments = corpus["NLLB_Greedy"]
    a, b = np.array(runs["A"]["NLLB_Greedy"]["scores"]), np.array(runs["B"]["NLLB_Greedy"]["scores"])
    refs = [segments["ref"], segments["ref.B"]]
    for rule, expected in (("first", a), ("mean", (a + b) / 2), ("max", np.maximum(a, b))):
        metric = _metric(folders["regression"], "A", references=rule)
        stats = system_stats(metric, "NLLB_Greedy", segments["mt"], refs, source=segments["src"])
        assert np.abs(stats.rows[:, 0] - expected).max() <= 1e-6
        assert rule in metric.signature()
    ex = _metric(folders["regression"], "A", references="max").explain_source(
        segments["mt"][3], segments["src"][3], [segments["ref"][3], segments["ref.B"][3]]
    )
    assert ex.score == pytest.approx(max(a[3], b[3]), abs=1e-6)
    assert ex.best_ref == int(b[3] > a[3])


def test_derivation_is_the_scoring_path(folders, corpus):
    """derive() shows the pooled vectors, the features built from them and the regressor's layers, and its score
    is the segment's."""
    metric = _metric(folders["regression"], "A")
    segments = corpus["ONLINE-A"]
    d = metric.derive(segments["mt"][5], segments["src"][5], segments["ref"][5])
    assert d.score == pytest.approx(GOLDEN["shapes"]["regression"]["runs"]["A"]["ONLINE-A"]["scores"][5], abs=1e-6)
    h, s, r = (p.embedding for p in d.sentences)
    assert [p.role for p in d.sentences] == ["hypothesis", "source", "reference"]
    blocks = np.split(d.features, 6)
    for block, value in zip(blocks, (h, r, h * r, np.abs(h - r), h * s, np.abs(h - s)), strict=True):
        np.testing.assert_allclose(block, value, atol=1e-6)
    assert d.feature_names == ("h", "r", "h⊙r", "|h−r|", "h⊙s", "|h−s|")
    assert [layer.shape for layer in d.layers] == [(64,), (32,), (1,)]
    assert float(d.layers[-1][0]) == pytest.approx(d.score)
    assert sum(d.layer_weights) == pytest.approx(1.0) and len(d.layer_weights) == cc.MINILM_LAYERS
    tokens = d.sentences[0].tokens
    located = [t for t in tokens if t.located]
    assert located and all(segments["mt"][5][t.start : t.end].lower() == t.text.removeprefix("##") for t in located)


def test_each_unique_sentence_is_encoded_once_per_model(folders, corpus):
    """Sources and references shared by every system are pooled once: a second system adds only its outputs."""
    metric = _metric(folders["regression-sparse"], "A")
    model = metric.model
    model.pooled.clear()
    calls = []
    original = model._pool_batch
    model._pool_batch = lambda texts: calls.append(len(texts)) or original(texts)
    try:
        first, second = corpus["GPT4-5shot"], corpus["ONLINE-A"]
        system_stats(metric, "GPT4-5shot", first["mt"], [first["ref"]], source=first["src"])
        done = sum(calls)
        assert done == len(set(first["mt"]) | set(first["src"]) | set(first["ref"]))
        system_stats(metric, "ONLINE-A", second["mt"], [second["ref"]], source=second["src"])
        assert sum(calls) - done == len(set(second["mt"]) - set(first["mt"]) - set(first["src"]) - set(first["ref"]))
    finally:
        del model._pool_batch


def test_truncation_is_noted(folders, corpus):
    hand = corpus["hand"]
    metric = _metric(folders["regression"], "A")
    stats = system_stats(metric, "hand", hand["mt"], [hand["ref"]], source=hand["src"])
    assert any("cut" in note.kind for note in stats.notes)
    ex = metric.explain_source(hand["mt"][1], hand["src"][1], [hand["ref"][1]])
    assert ex.truncated and ex.estimator is Estimator.REGRESSION


def test_needs_source_model_and_the_right_checkpoint(folders, corpus):
    segments = corpus["GPT4-5shot"]
    with pytest.raises(MissingInput):
        system_stats(_metric(folders["regression"], "A"), "x", segments["mt"], [segments["ref"]])
    with pytest.raises(ModelUnavailable, match="Unbabel/wmt22-comet-da"):
        create("comet").explain_source("a", "b", ["c"])
    with pytest.raises(ValueError, match="cometkiwi"):
        _metric(folders["kiwi"], "A").explain_source("a", "b", ["c"])
    with pytest.raises(ValueError, match="comet metric"):
        _metric(folders["regression"], "none").explain_source("a", "b", [])
    kiwi = _metric(folders["kiwi"], "none")
    assert not kiwi.traits.reads_references and kiwi.traits.in_process
    assert create("comet").traits.reads_references


def test_precision_is_an_option_and_marks_the_signature(folders, corpus):
    """bf16 on the CPU runs the same code in another dtype: close to fp32, never equal, and signed as such."""
    segments = corpus["ZengHuiMT"]
    fp32 = _metric(folders["regression"], "A", device="cpu")
    bf16 = _metric(folders["regression"], "A", device="cpu", precision="bf16")
    assert "prec:fp32" in fp32.signature() and "prec:bf16" in bf16.signature() and "dev:" not in fp32.signature()
    stats = system_stats(bf16, "ZengHuiMT", segments["mt"][:8], [segments["ref"][:8]], source=segments["src"][:8])
    expected = np.array(GOLDEN["shapes"]["regression"]["runs"]["A"]["ZengHuiMT"]["scores"][:8])
    assert 0 < np.abs(stats.rows[:, 0] - expected).max() < 0.05
