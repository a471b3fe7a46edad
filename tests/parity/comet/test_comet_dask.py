"""COMET on the dask engine: two workers score partitions of a seeded checkpoint's corpus with the local engine's
numbers, each worker loading the model once for all its partitions; the metric pickles without its loaded model.
Needs the neural extra and Dask.

"The local engine's numbers" up to float32 rounding: a sentence's pooled embedding depends in its last bits on the
sentences padded into its batch, and a partition batches other sentences together than the whole corpus. On this
checkpoint the local engine's own rows move by up to 1.2e-7 between batch sizes 4, 5, 16 and 1 (measured on these
segments); the partitions stay within :data:`TOLERANCE`, the parity target, as any batch size does."""

from __future__ import annotations

import logging
import pickle
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
distributed = pytest.importorskip("distributed")

from metrics.core.base import system_stats  # noqa: E402
from metrics.core.registry import create  # noqa: E402
from metrics.distributed.engine import evaluate_source  # noqa: E402
from metrics.distributed.sources import InMemory  # noqa: E402
from metrics.evaluate import evaluate  # noqa: E402
from tests.support import comet_checkpoints as cc  # noqa: E402
from tests.support.paths import DATA  # noqa: E402

DEEN = DATA / "wmt22-de-en"
SYSTEMS = ("Lan-Bridge", "Online-B")
N = 24
TOLERANCE = 1e-6  # the parity target; the batch size alone moves rows by up to 1.2e-7 (module docstring)


def _lines(name: str) -> list[str]:
    return (DEEN / name).read_text(encoding="utf-8").split("\n")[:N]


def _loaded_models() -> int:
    from metrics.families.comet import model

    return len(model._models)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("comet")
    return {name: cc.build(cc.BY_NAME[name], root / name) for name in ("regression", "kiwi")}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL
    ) as cluster:
        yield cluster.scheduler_address


@pytest.mark.neural
@pytest.mark.dask
def test_partitions_on_two_workers_give_the_local_numbers_with_one_model_each(folders, scheduler, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    systems = {name: _lines(f"sys/{name}.txt") for name in SYSTEMS}
    refs, source = [_lines("ref.A.txt")], _lines("src.txt")
    metrics = {
        "comet": create("comet", {"model": str(folders["regression"]), "batch_size": 4}),
        "cometkiwi": create("cometkiwi", {"model": str(folders["kiwi"]), "batch_size": 4}),
    }
    assert all(m.traits.partitionable for m in metrics.values())
    local = evaluate(systems, refs, metrics, source=source)
    scored = evaluate_source(InMemory(systems, refs, source), metrics, scheduler=scheduler, partition_size=5)
    for ours, theirs in zip(scored.evaluation.systems, local.systems, strict=True):
        for metric_id in metrics:
            np.testing.assert_allclose(ours.stats[metric_id].rows, theirs.stats[metric_id].rows, rtol=0, atol=TOLERANCE)
            assert ours.scores[metric_id] == pytest.approx(theirs.scores[metric_id], abs=TOLERANCE)
    assert scored.evaluation.signatures == local.signatures
    with distributed.Client(scheduler) as client:
        loaded = client.run(_loaded_models)
    # 5 partitions of each system went to the workers; each loaded each checkpoint at most once
    assert len(loaded) == 2 and all(count <= 2 for count in loaded.values()) and sum(loaded.values()) >= 2


@pytest.mark.neural
def test_a_loaded_metric_pickles_as_its_options(folders, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    metric = create("comet", {"model": str(folders["regression"]), "batch_size": 3})
    hyps, refs, source = _lines("sys/LT22.txt")[:4], [_lines("ref.A.txt")[:4]], _lines("src.txt")[:4]
    before = system_stats(metric, "LT22", hyps, refs, source=source)
    assert metric._model is not None
    copy = pickle.loads(pickle.dumps(metric))
    assert type(copy) is type(metric) and copy.config == metric.config and copy._model is None
    after = system_stats(copy, "LT22", hyps, refs, source=source)
    np.testing.assert_array_equal(before.rows, after.rows)  # the same process: the same loaded model, cached texts
