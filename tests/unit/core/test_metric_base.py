"""The Metric base: stats() is the one template every family runs (checks, rows hook, corpus-notes hook), traits
are one record, and the system-scored and cost-estimated opt-ins are dispatched by type."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np
import pytest

from metrics.core.base import (
    Metric,
    Progress,
    Rows,
    StatsNote,
    expected_seconds,
    explain_segment,
    system_stats,
)
from metrics.core.config import check_options
from metrics.core.explanation import Explanation
from metrics.core.registry import SPECS, create
from metrics.core.traits import Traits
from metrics.families.external import External, parse_external
from metrics.kernels import kernel, processors


@dataclass(frozen=True)
class _WordsConfig:
    def __post_init__(self) -> None:
        check_options(self)


class _Words(Metric[_WordsConfig, Explanation]):
    """Words per hypothesis, with a note found while counting (an empty hypothesis) and one about the corpus."""

    id: ClassVar[str] = "words"
    aggregate: ClassVar[Literal["sum"]] = "sum"
    Config: ClassVar[type] = _WordsConfig
    explanation_type: ClassVar[type[Explanation]] = Explanation

    @property
    def name(self) -> str:
        return "Words"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("words",)

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> list[float]:
        return [float(len(hyp.split()))]

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., 0]

    def signature(self) -> str:
        return "words"

    def _explain(self, hyp: str, refs: Sequence[str]) -> Explanation:
        row = (float(len(hyp.split())),)
        return Explanation(score=row[0], row=row)

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        rows = super()._rows(hyps, refs, progress)
        empty = [i + 1 for i, hyp in enumerate(hyps) if not hyp.split()]
        return Rows(rows.matrix, (StatsNote("empty hypothesis", str(empty)),) if empty else ())

    def _corpus_notes(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], rows: np.ndarray
    ) -> tuple[StatsNote, ...]:
        return (StatsNote("words counted", f"{int(rows.sum())}"),)


def test_no_family_overrides_the_stats_template() -> None:
    classes = {SPECS[m].cls for m in SPECS} | {External}
    assert len(classes) > 15
    assert [c.__name__ for c in classes if c.stats is not Metric.stats] == []


def test_template_checks_then_joins_the_rows_notes_and_the_corpus_notes() -> None:
    heard: list[int] = []
    stats = _Words().stats(["a b", "", "c d e"], [["x", "y", "z"]], heard.append)
    assert stats.metric == "words" and stats.rows[:, 0].tolist() == [2.0, 0.0, 3.0]
    assert heard == [1, 2, 3]
    assert [str(n) for n in stats.notes] == ["empty hypothesis ([2])", "words counted (5)"]
    with pytest.raises(ValueError, match="words: reference stream 1 has 1 segments but there are 2 hypotheses"):
        _Words().stats(["a", "b"], [["x"]])


def test_a_family_extends_the_corpus_notes_of_its_base() -> None:
    """ROUGE-Lsum adds its newline note to its base's (none: the tokenizer's dropped letters are a caveat said once
    for all systems, :mod:`metrics.core.caveats`, not a note of each system's statistics)."""
    notes = create("rougeLsum").stats(["中文 abc"], [["中文 abd"]]).notes
    assert [n.kind[:28] for n in notes] == ["no hypothesis or reference c"]
    assert create("rougeL").stats(["中文 abc"], [["中文 abd"]]).notes == ()


def test_rouge_n_stats_are_labelled_by_the_registered_id() -> None:
    metric = create("rouge2")
    assert metric.id == "rouge2" and metric.stats(["a b c"], [["a b d"]]).metric == "rouge2"
    with pytest.raises(TypeError, match="^rouge2: hypotheses must be a sequence"):
        metric.stats("a b c", [["a b d"]])


def test_traits_depend_on_the_config_where_the_family_says() -> None:
    assert create("bleu").traits == Traits(reads_references=True, in_process=False, partitionable=True)
    assert create("perplexity").traits == Traits(reads_references=True, in_process=False, partitionable=False)
    on_file = create("perplexity", {"corpus": "tests/data/wmt22-de-en/ref.A.txt"}).traits
    assert on_file == Traits(reads_references=False, in_process=False, partitionable=True)
    threaded = kernel("rouge") is not None and processors() > 1
    assert create("rouge1").traits.in_process is threaded
    assert create("rouge1", {"tokenizer": "unicode"}).traits.in_process is False


def test_computed_metrics_fall_back_to_stats_and_explain() -> None:
    metric = create("bleu")
    hyps, refs = ["the cat sat", "a dog"], [["the cat sat down", "a dog ran"]]
    assert np.array_equal(system_stats(metric, "any", hyps, refs).rows, metric.stats(hyps, refs).rows)
    assert explain_segment(metric, "any", 1, hyps[1], [refs[0][1]]) == metric.explain(hyps[1], [refs[0][1]])


def test_external_scores_are_looked_up_by_system() -> None:
    data = b'{"system": "a", "segment": 0, "score": 0.25}\n{"system": "a", "segment": 1, "score": 0.75}\n'
    metric = External(parse_external(data, "scores.jsonl", "ext", ["a"], 2))
    assert metric.traits == Traits(reads_references=False, in_process=False, partitionable=False)
    stats = system_stats(metric, "a", ["x", "y"], [["r", "s"]])
    assert stats.rows[:, 0].tolist() == [0.25, 0.75] and metric.corpus_score(stats) == 0.5
    assert explain_segment(metric, "a", 1, "y", ["s"]).score == 0.75
    with pytest.raises(ValueError, match="external scores belong to named systems"):
        metric.stats([], [[]])


def test_only_cost_estimated_metrics_estimate() -> None:
    hyps, refs = ["a b c d"] * 3, [["a b d c"] * 3]
    assert expected_seconds(create("bleu"), hyps, refs) is None
    seconds = expected_seconds(create("ter"), hyps, refs)
    assert seconds is not None and 0 < seconds < 1


def test_segment_signatures_follow_the_full_corpus_signature():
    """A metric scoring segments as its corpus has one signature; BLEU's segments (effective order, as
    sacrebleu.sentence_bleu) keep every leading field of the full signature and change only what they use."""
    from metrics.core.evaluation import segment_signature_of
    from metrics.evaluate import evaluate

    hyps, refs = ["hello world", "the cat sat on the mat"], [["hello world", "the cat sat on a mat"]]
    evaluation = evaluate({"a": hyps}, refs, {"bleu": create("bleu"), "chrf": create("chrf")})
    assert evaluation.segment_signatures == {
        "bleu": "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0",
        "chrf": evaluation.signatures["chrf"],
    }
    assert evaluation.signatures["bleu"] == "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert evaluation.system("a").segment_scores["bleu"][0] == pytest.approx(100.0, rel=1e-9)
    assert segment_signature_of(create("bleu"), "nrefs:2|bs:1000|seed:1|" + create("bleu").signature()) == (
        "nrefs:2|bs:1000|seed:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0"
    )
    with pytest.raises(ValueError, match="not a full signature"):
        segment_signature_of(create("bleu"), "nrefs:1|case:lc|eff:no")
