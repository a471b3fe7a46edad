"""COMET and CometKiwi as ScoreLens metrics: unbabel-comet 2.2.7's ``predict`` computed on torch and transformers.

Equivalent reference call: ``comet.load_from_checkpoint(<folder>/checkpoints/model.ckpt).predict(samples,
batch_size=16, gpus=0)`` with ``samples[i] = {"src": sources[i], "mt": hyps[i], "ref": refs[0][i]}`` (``comet``) or
without ``ref`` (``cometkiwi``); a segment's row is its ``scores[i]``, the corpus score their mean (predict's
``system_score``). The model is any unbabel-comet checkpoint — a folder with ``hparams.yaml`` and
``checkpoints/model.ckpt``, or a hub id such as ``Unbabel/wmt22-comet-da`` — loaded weights only
(:mod:`metrics.families.comet.checkpoint`) and run by :mod:`metrics.families.comet.model`, on the CPU in float32.

Both metrics read each segment's source (:class:`~metrics.core.base.ReadsSource`): :func:`metrics.core.base.system_stats`
gives it; without one they raise :class:`~metrics.core.base.MissingInput`. ``comet`` also reads the references and
needs a checkpoint that does (COMET-22, a unified model with ``ref`` in its inputs, xCOMET); ``cometkiwi`` reads none
and needs a checkpoint that reads the source (CometKiwi, or a unified or xCOMET model, which then runs as unbabel-comet
runs it without references). unbabel-comet scores one reference per sample; with several, ``references`` says which
rule applies: ``first`` (a one-reference run on the first stream), ``mean`` or ``max`` of the scores against each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np

from metrics.core.base import (
    DeclaresFit,
    Metric,
    MissingInput,
    Progress,
    ReadsSource,
    Rows,
    SegmentStats,
    StatsNote,
    check_corpus,
)
from metrics.core.config import Resource, check_options, option
from metrics.core.devices import (
    DEVICE_HELP,
    PRECISION_HELP,
    DeviceKind,
    Placement,
    PrecisionName,
    parse_device,
    placement,
)
from metrics.core.family import Fit
from metrics.core.models import is_hub_id
from metrics.core.spans import ErrorSpan, Severity
from metrics.core.traits import Traits
from metrics.families.comet.checkpoint import checkpoint_folder
from metrics.families.comet.explanation import CometDerivation, CometExplanation, Estimator, PooledSentence
from metrics.families.comet.model import CometModel, UnifiedResult, load_model
from metrics.families.comet.released import checkpoint_fit

ReferenceRule = Literal["first", "mean", "max"]
COLUMNS = ("score",)
VERSION = "scorelens-0.1.0"
FEATURE_NAMES = ("h", "r", "h⊙r", "|h−r|", "h⊙s", "|h−s|")
MODEL_HELP = (
    "An unbabel-comet checkpoint: a folder with hparams.yaml and checkpoints/model.ckpt, or a hub id fetched into "
    "the Hugging Face cache when a network is there"
)


def _model_option(example: str) -> str:
    return option(
        "",
        label="Model",
        help=f"{MODEL_HELP} (e.g. {example}). Required: ScoreLens ships no COMET model.",
        choice_labels={"": "none given (required)"},
        resource=Resource.MODEL,
    )


def _batch_option() -> int:
    return option(
        16,
        label="Batch size",
        help="Segments run through the model at once (unbabel-comet predict's 16); scores do not depend on it "
        "beyond float rounding.",
        low=1,
        high=4096,
        step=1,
    )


@dataclass(frozen=True)
class CometConfig:
    model: str = _model_option("Unbabel/wmt22-comet-da, Apache-2.0")
    references: ReferenceRule = option(
        "first",
        label="Several references",
        help="unbabel-comet scores against one reference: first uses the first stream (a one-reference COMET run); "
        "mean and max score against each reference and take the mean or the maximum.",
        choice_labels={"first": "first reference", "mean": "mean over references", "max": "best reference"},
    )
    batch_size: int = _batch_option()
    device: str = option("auto", label="Device", help=DEVICE_HELP, resource=Resource.DEVICE)
    precision: PrecisionName = option("fp32", label="Precision", help=PRECISION_HELP, setup=True)

    def __post_init__(self) -> None:
        check_options(self)
        parse_device(self.device)


@dataclass(frozen=True)
class CometKiwiConfig:
    model: str = _model_option("Unbabel/wmt22-cometkiwi-da, CC BY-NC-SA 4.0, gated")
    batch_size: int = _batch_option()
    device: str = option("auto", label="Device", help=DEVICE_HELP, resource=Resource.DEVICE)
    precision: PrecisionName = option("fp32", label="Precision", help=PRECISION_HELP, setup=True)

    def __post_init__(self) -> None:
        check_options(self)
        parse_device(self.device)


class _Comet(Metric, ReadsSource, DeclaresFit):
    """What ``comet`` and ``cometkiwi`` share: the model, the source path, rows ``(score,)`` averaged over segments,
    and the human-agreement fit of the released model the checkpoint is, if it is one
    (:mod:`metrics.families.comet.released`)."""

    aggregate = "mean"
    explanation_type = CometExplanation
    uses_references: bool

    def __init__(self, config: object = None, **options: object) -> None:
        super().__init__(config, **options)
        self._model: CometModel | None = None

    def __reduce__(self) -> tuple[type, tuple[object]]:
        """Pickled as its class and options: the loaded model (torch modules, a lock) stays behind, and a process
        that unpickles it loads its own, once per checkpoint (:func:`~metrics.families.comet.model.load_model`)."""
        return (type(self), (self.config,))

    @property
    def columns(self) -> tuple[str, ...]:
        return COLUMNS

    @property
    def traits(self) -> Traits:
        """In process: torch runs threads of its own and the model keeps its cache of pooled sentences. A segment's
        score depends on its own texts alone (up to float rounding of the batch it is padded in), so it partitions.
        On a CUDA device, the dask engine sends its partitions to the workers that declare a GPU."""
        on_cuda = parse_device(self.config.device).kind is DeviceKind.CUDA
        return Traits(reads_references=self.uses_references, in_process=True, gpu=on_cuda)

    @property
    def model(self) -> CometModel:
        if self._model is None:
            model = load_model(checkpoint_folder(self.config.model), self.placement)
            self._check_model(model)
            self._model = model
        return self._model

    @property
    def placement(self) -> Placement:
        return placement(self.config.device, self.config.precision)

    def _check_model(self, model: CometModel) -> None:
        """Refuse a checkpoint that cannot run as this metric."""

    def agreement_fit(self) -> Fit | None:
        return checkpoint_fit(self.config.model).fit

    def fit_reason(self) -> str:
        return checkpoint_fit(self.config.model).reason

    def model_name(self) -> str:
        """The model as the user named it: a hub id, or a folder's name."""
        name = self.config.model
        return name if not name or is_hub_id(name) else Path(name).expanduser().name

    # The text-only paths of Metric: a COMET score needs the source.
    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        raise MissingInput(self.name, "source")

    def _explain(self, hyp: str, refs: Sequence[str]) -> CometExplanation:
        raise MissingInput(self.name, "source")

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        raise MissingInput(self.name, "source")

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., 0]

    def _check_sources(self, hyps: Sequence[str], sources: Sequence[str]) -> None:
        if isinstance(sources, str) or len(sources) != len(hyps):
            raise ValueError(f"{self.id}: the source has {len(sources)} segments but there are {len(hyps)} outputs")
        for i, text in enumerate(sources):
            if not isinstance(text, str):
                raise TypeError(f"{self.id}: source segment {i + 1} is {type(text).__name__}, not str")

    def _stats(self, rows: np.ndarray, truncated: bool) -> SegmentStats:
        notes = (StatsNote(self._truncation_note()),) if truncated else ()
        return SegmentStats(self.id, self.columns, rows.reshape(-1, 1), self.aggregate, notes)

    def _truncation_note(self) -> str:
        return f"a segment longer than the encoder's {self.model.max_tokens} subwords was cut there, as unbabel-comet cuts it"

    def _unified_explanation(
        self, hyp: str, source: str, reference: str | None, found: UnifiedResult, notes: Sequence[str] = ()
    ) -> CometExplanation:
        origin = self.model_name()
        spans = tuple(
            ErrorSpan(
                s.start, s.end, hyp[s.start : s.end], Severity(s.severity), origin=origin, confidence=s.confidence
            )
            for s in found.spans
        )
        truncated = (self._truncation_note(),) if found.truncated else ()
        return CometExplanation(
            score=found.score,
            row=(found.score,),
            notes=(*notes, *truncated),
            best_ref=None if reference is None else 0,
            model=origin,
            estimator=self.model.settings.estimator,
            hypothesis=hyp,
            source=source,
            reference=reference,
            spans=spans,
            span_texts=tuple(s.text for s in found.spans),
            parts=found.parts,
            truncated=found.truncated,
        )

    def _signature(self, extra: str) -> str:
        """The model, the references rule and the precision (and the device where it is not the CPU: see
        :mod:`metrics.core.devices`)."""
        return (
            f"model:{self.model_name() or 'none'}{extra}|{self.placement.signature}|ref:unbabel-comet-2.2.7"
            f"|version:{VERSION}"
        )


class COMET(_Comet):
    """A reference-based COMET-family score per segment (COMET-22, xCOMET, a unified model reading references)."""

    id = "comet"
    Config = CometConfig
    uses_references = True

    @property
    def name(self) -> str:
        return "COMET"

    def _check_model(self, model: CometModel) -> None:
        if not model.settings.reads_references:
            raise ValueError(
                f"comet: {self.model_name()} reads no references (input segments "
                f"{', '.join(model.settings.input_segments)}): score it with the reference-free cometkiwi metric"
            )

    def source_stats(
        self,
        hyps: Sequence[str],
        sources: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        """Each segment's score against its references under the ``references`` rule."""
        check_corpus(hyps, refs, self.id)
        self._check_sources(hyps, sources)
        per_segment = [self._references([stream[i] for stream in refs], i) for i in range(len(hyps))]
        pairs = [(i, r) for i, rs in enumerate(per_segment) for r in rs]
        model = self.model
        pair_hyps = [hyps[i] for i, _ in pairs]
        pair_sources = [sources[i] for i, _ in pairs]
        pair_refs = [r for _, r in pairs]
        if model.settings.estimator is Estimator.REGRESSION:
            scores = model.regression_scores(pair_hyps, pair_sources, pair_refs, self.config.batch_size)
            unique = list(dict.fromkeys([*pair_hyps, *pair_sources, *pair_refs]))
            truncated = any(p.truncated for p in model.pool(unique, self.config.batch_size))  # cached: no new work
        else:
            results = model.unified(pair_hyps, pair_sources, pair_refs, self.config.batch_size)
            scores = np.array([r.score for r in results], dtype=np.float64)
            truncated = any(r.truncated for r in results)
        rows, k = np.empty(len(hyps), dtype=np.float64), 0
        for i, rs in enumerate(per_segment):
            rows[i] = self._combine(scores[k : k + len(rs)])
            k += len(rs)
        if progress is not None:
            progress(len(hyps))
        return self._stats(rows, truncated)

    def _references(self, found: Sequence[str | None], index: int) -> list[str]:
        """The references of one segment that the ``references`` rule reads."""
        present = [r for r in found if r is not None]
        if not present:
            raise MissingInput(self.name, f"references (segment {index + 1} has none)")
        return present[:1] if self.config.references == "first" else present

    def _combine(self, scores: np.ndarray) -> float:
        rule = self.config.references
        return float(scores[0] if rule == "first" else scores.mean() if rule == "mean" else scores.max())

    def explain_source(self, hyp: str, source: str, refs: Sequence[str]) -> CometExplanation:
        """The triple the model saw and its score; for a model with word-level tags, the error spans; with several
        references read (``mean``, ``max``), the reference shown is the best one and a note gives each score."""
        refs = self._references(list(refs), 0)
        model = self.model
        if model.settings.estimator is Estimator.REGRESSION:
            scores = np.array([self.derive(hyp, source, r).score for r in refs], dtype=np.float64)
            truncated = any(p.truncated for p in model.pool([hyp, source, *refs], self.config.batch_size))
            found = [UnifiedResult(float(score), (), (), truncated) for score in scores]
        else:
            found = model.unified([hyp] * len(refs), [source] * len(refs), list(refs), self.config.batch_size)
            scores = np.array([f.score for f in found], dtype=np.float64)
        best = int(np.argmax(scores)) if self.config.references == "max" else 0
        notes = []
        if len(refs) > 1:
            listed = ", ".join(f"{s:.4f}" for s in scores)
            notes.append(
                f"scored against each of {len(refs)} references ({listed}); the row is their {self.config.references}"
            )
        score = self._combine(scores)
        explanation = self._unified_explanation(hyp, source, refs[best], found[best], notes)
        return _with_score(explanation, score, best if self.config.references != "mean" else None)

    def derive(self, hyp: str, source: str, reference: str) -> CometDerivation:
        """The regression estimator's computation on one triple (COMET-22): the pooled sentence vectors, the layer
        mix, the feature vector and each feed-forward layer's output, from the code that scores it."""
        model = self.model
        if model.settings.estimator is not Estimator.REGRESSION:
            raise ValueError(f"comet: {self.model_name()} is a {model.settings.estimator.value}, not the regression "
                             "estimator whose computation a derivation shows")  # fmt: skip
        torch = model.torch
        pooled = model.pool([hyp, source, reference], self.config.batch_size)
        estimate = model.estimate(*(p.vector.unsqueeze(0) for p in pooled), keep=True)
        if model.settings.layer == "mix":
            weights, gamma = tuple(float(w) for w in model.layer_weights()), float(model.gamma)
        else:
            weights = tuple(1.0 if i == model.settings.layer else 0.0 for i in range(model.num_layers))
            gamma = 1.0
        with torch.inference_mode():
            sentences = tuple(
                PooledSentence(role, text, p.tokens, p.vector.float().cpu().numpy().copy())
                for role, text, p in zip(("hypothesis", "source", "reference"), (hyp, source, reference), pooled,
                                         strict=True)
            )  # fmt: skip
        return CometDerivation(
            sentences=sentences,
            layer_weights=weights,
            gamma=gamma,
            feature_names=FEATURE_NAMES,
            features=estimate.features[0].float().cpu().numpy().copy(),
            layers=tuple(layer[0].float().cpu().numpy().copy() for layer in estimate.layers),
            score=float(estimate.scores[0]),
        )

    def signature(self) -> str:
        return self._signature(f"|refs:{self.config.references}")


class CometKiwi(_Comet):
    """A reference-free COMET-family score per segment (CometKiwi; a unified or xCOMET model without references)."""

    id = "cometkiwi"
    Config = CometKiwiConfig
    uses_references = False

    @property
    def name(self) -> str:
        return "CometKiwi"

    def _check_model(self, model: CometModel) -> None:
        if not model.settings.reads_source or model.settings.estimator is Estimator.REGRESSION:
            raise ValueError(
                f"cometkiwi: {self.model_name()} needs references ({model.settings.estimator.value}): score it with "
                "the comet metric"
            )

    def source_stats(
        self,
        hyps: Sequence[str],
        sources: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        """Each segment's score from its output and source alone; ``refs`` is not read (it may be empty)."""
        if isinstance(hyps, str):
            raise TypeError(f"{self.id}: outputs must be a sequence of strings, not one string")
        self._check_sources(hyps, sources)
        results = self.model.unified(list(hyps), list(sources), None, self.config.batch_size, progress)
        rows = np.array([r.score for r in results], dtype=np.float64)
        return self._stats(rows, any(r.truncated for r in results))

    def explain_source(self, hyp: str, source: str, refs: Sequence[str]) -> CometExplanation:
        """The pair the model saw, its score and, for a model with word-level tags, the error spans."""
        found = self.model.unified([hyp], [source], None, self.config.batch_size)[0]
        return self._unified_explanation(hyp, source, None, found)

    def signature(self) -> str:
        return self._signature("|refs:none")


def _with_score(explanation: CometExplanation, score: float, best: int | None) -> CometExplanation:
    return replace(explanation, score=score, row=(score,), best_ref=best)
