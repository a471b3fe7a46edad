"""CometKiwi through the source plumbing: on data without references it gets each segment's source on every
engine and front end (the library, the command line, the dask engine's partitions) with the same numbers, and
COMET-22, which reads references, is refused by name without them. A seeded kiwi-shaped checkpoint
(:mod:`tests.support.comet_checkpoints`); needs the neural extra."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.neural

pytest.importorskip("torch")
pytest.importorskip("transformers")

from metrics.cli.main import main  # noqa: E402
from metrics.core.base import MissingInput, system_stats  # noqa: E402
from metrics.core.registry import create  # noqa: E402
from metrics.evaluate import evaluate  # noqa: E402
from metrics.io.inputs import read_segments  # noqa: E402
from tests.support import comet_checkpoints as cc  # noqa: E402
from tests.support.paths import DATA  # noqa: E402

HEEN = DATA / "wmt23-he-en"
SEGMENTS = 24


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("comet")
    shapes = {shape.name: shape for shape in cc.SHAPES}
    return {name: cc.build(shapes[name], root / name) for name in ("kiwi", "regression")}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Two systems' first segments and their source, and the same as files."""
    root = tmp_path_factory.mktemp("texts")
    source = list(read_segments(HEEN / "src.txt").texts)[:SEGMENTS]
    names = sorted(p.stem for p in (HEEN / "sys").glob("*.txt"))[:2]
    systems = {name: list(read_segments(HEEN / "sys" / f"{name}.txt").texts)[:SEGMENTS] for name in names}
    for name, texts in {**systems, "src": source}.items():
        (root / f"{name}.txt").write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    return systems, source, root


def _kiwi(folder):
    return create("cometkiwi", {"model": str(folder), "batch_size": 7})


def test_cometkiwi_scores_sources_and_outputs_without_references(folders, corpus):
    systems, source, _ = corpus
    found = evaluate(systems, [], {"cometkiwi": _kiwi(folders["kiwi"])}, source=source)
    for name, hyps in systems.items():
        direct = system_stats(_kiwi(folders["kiwi"]), name, hyps, [], source=source)
        assert found.system(name).stats["cometkiwi"].rows.tobytes() == direct.rows.tobytes()
    shifted = evaluate(systems, [], {"cometkiwi": _kiwi(folders["kiwi"])}, source=source[1:] + source[:1])
    first = next(iter(systems))
    assert shifted.system(first).scores["cometkiwi"] != found.system(first).scores["cometkiwi"]  # the source counts
    assert not found.signatures["cometkiwi"].startswith("nrefs")
    with pytest.raises(MissingInput, match="CometKiwi needs the source"):
        evaluate(systems, [], {"cometkiwi": _kiwi(folders["kiwi"])})
    comet = create("comet", {"model": str(folders["regression"])})
    with pytest.raises(MissingInput, match="COMET needs the references"):
        evaluate(systems, [], {"comet": comet}, source=source)


def test_the_command_line_scores_cometkiwi_with_source_and_no_references(folders, corpus, capsys):
    systems, source, root = corpus
    files = [str(root / f"{name}.txt") for name in systems]
    kiwi = ["-m", "cometkiwi", "--set", f"cometkiwi.model={folders['kiwi']}", "--format", "json"]
    assert main(["score", "-i", *files, "-s", str(root / "src.txt"), *kiwi]) == 0
    scores = {s["name"]: s["scores"]["cometkiwi"] for s in json.loads(capsys.readouterr().out)["systems"]}
    local = evaluate(systems, [], {"cometkiwi": _kiwi(folders["kiwi"])}, source=source)
    assert scores == pytest.approx({r.name: r.scores["cometkiwi"] for r in local.systems}, abs=1e-6)
    assert main(["score", "-i", *files, *kiwi]) == 2
    assert "CometKiwi needs the source: give --source FILE (-s)" in capsys.readouterr().err


@pytest.mark.dask
def test_the_dask_engine_gives_the_local_cometkiwi_scores(folders, corpus):
    from metrics.distributed.engine import evaluate_source
    from metrics.distributed.sources import InMemory

    systems, source, _ = corpus
    local = evaluate(systems, [], {"cometkiwi": _kiwi(folders["kiwi"])}, source=source)
    dist = evaluate_source(
        InMemory(systems, [], source), {"cometkiwi": _kiwi(folders["kiwi"])}, workers=2, partition_size=9
    )
    for ours, theirs in zip(local.systems, dist.evaluation.systems, strict=True):
        assert ours.segment_scores["cometkiwi"] == pytest.approx(theirs.segment_scores["cometkiwi"], abs=1e-6)
        assert ours.scores["cometkiwi"] == pytest.approx(theirs.scores["cometkiwi"], abs=1e-6)
