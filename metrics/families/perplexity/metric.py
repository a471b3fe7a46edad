"""Perplexity: how surprising a text is to a language model — exp of the mean negative log-likelihood per token.

Two kinds of model:

* an interpolated n-gram model (Witten–Bell or Kneser–Ney, :mod:`metrics.families.perplexity.ngram`) trained with nltk 3.10.4
  on the loaded references (every reference sentence of the corpus bound by :meth:`Perplexity.prepare`) or on a
  corpus file (one sentence per line). Texts are split on whitespace; words seen fewer than ``unk_cutoff`` times in
  training become ``<UNK>`` — with a cutoff of 1 (or a training text with no word rare enough to make ``<UNK>``)
  an unseen word has probability 0 and the perplexity is ∞, as in nltk. A
  segment's perplexity equals ``lm.perplexity(ngrams(pad_both_ends(words, n=order), order))`` of nltk's model;
* a causal language model from a local Hugging Face folder or a hub id (the neural extra,
  :mod:`metrics.families.perplexity.causal`), on the ``device`` and in the ``precision`` asked for.

Rows are ``(nll, tokens)``: the summed surprisal in nats and the number of predicted tokens. They add up, so the
corpus perplexity is ``exp(Σ nll / Σ tokens)`` — every token weighs the same, as when a model is evaluated on a
test set — and bootstrap resamples rows like BLEU's. Lower is better.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from metrics.core.base import (
    Metric,
    Progress,
    Rows,
    StatsNote,
    each_segment,
    segment_refs,
    segments_text,
)
from metrics.core.config import Resource, check_options, option
from metrics.core.devices import DEVICE_HELP, PRECISION_HELP, PrecisionName, parse_device, placement
from metrics.core.explanation import Explanation
from metrics.core.extras import NEURAL
from metrics.core.models import is_hub_id
from metrics.core.tokens import Token, locate
from metrics.core.traits import Traits
from metrics.core.upload import Upload
from metrics.families.perplexity.causal import CausalLM, Scored, causal_lm
from metrics.families.perplexity.ngram import EOS, NgramModel, Smoothing
from metrics.io.inputs import InputError, parse_segments, read_segments

Model = Literal["witten-bell", "kneser-ney", "causal"]
VERSION = "scorelens-0.1.0"


@dataclass(frozen=True)
class PerplexityConfig:
    model: Model = option(
        "witten-bell",
        label="Language model",
        help="An interpolated n-gram model trained with nltk (Witten–Bell or Kneser–Ney), or a causal LM from a "
        "local folder (needs the neural extra).",
        choice_labels={"witten-bell": "n-gram, Witten–Bell", "kneser-ney": "n-gram, Kneser–Ney", "causal": "causal LM"},
        needs={"causal": NEURAL},
    )
    order: int = option(
        3, label="n-gram order", help="Words of context + 1 (Kneser–Ney needs at least 2).", low=1, high=6, step=1
    )
    unk_cutoff: int = option(
        2,
        label="Unknown-word cutoff",
        help="Training words seen fewer times become <UNK>, so unseen words get a probability; 1 keeps every word "
        "and gives an unseen word probability 0 (perplexity ∞).",
        low=1,
        high=100,
        step=1,
    )
    discount: float = option(
        0.1,
        label="Kneser–Ney discount",
        help="nltk's KneserNeyInterpolated discount (0.1).",
        low=0.0,
        high=1.0,
        step=0.05,
    )
    corpus: str | Upload = option(
        "",
        label="Training corpus file",
        help="A text file, one sentence per line, to train the n-gram model on; empty: the loaded references.",
        choice_labels={"": "the loaded references"},
        resource=Resource.FILE,
    )
    causal_model: str = option(
        "",
        label="Causal LM",
        help="A local Hugging Face causal LM folder or a hub id (gpt2, owner/name: from the Hugging Face cache, else "
        "downloaded there), with model: causal. No default.",
        choice_labels={"": "none"},
        resource=Resource.MODEL,
    )
    batch_size: int = option(
        1,
        label="Batch size",
        help="With model: causal. Texts run at once, sorted by length and padded on the right; 1: each alone, so no "
        "other text changes its numbers. Larger is faster on a GPU; numbers may then differ in the kernels' rounding "
        "(the signature names the batch size).",
        low=1,
        high=1024,
        step=1,
    )
    device: str = option("auto", label="Device", help=f"With model: causal. {DEVICE_HELP}", resource=Resource.DEVICE)
    precision: PrecisionName = option(
        "fp32", label="Precision", help=f"With model: causal. {PRECISION_HELP}", setup=True
    )

    def __post_init__(self) -> None:
        check_options(self)
        parse_device(self.device)
        if self.model == "kneser-ney" and self.order < 2:
            raise ValueError("option 'order': Kneser–Ney needs order ≥ 2 (nltk divides by zero at order 1)")


@dataclass(frozen=True, kw_only=True)
class PerplexityExplanation(Explanation):
    """Every predicted token of one text with its probability and surprisal (nats): ``tokens`` hold the words as
    written (offsets into the text) followed by the end marker(s), ``seen`` the word each was scored as (``<UNK>``
    for an unknown word). ``row = (Σ surprisal, len(tokens))``; the score is exp of their ratio."""

    tokens: tuple[Token, ...]
    seen: tuple[str, ...]
    probabilities: tuple[float, ...]
    surprisals: tuple[float, ...]
    model: str


class Perplexity(Metric[PerplexityConfig, PerplexityExplanation]):
    """Perplexity of each system's outputs under an n-gram model of the references (or a corpus file) or a causal LM."""

    id = "perplexity"
    aggregate = "sum"
    Config = PerplexityConfig
    explanation_type = PerplexityExplanation
    higher_is_better = False

    def __init__(self, config: PerplexityConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._ngram: NgramModel | None = None
        self._trained_on: tuple[tuple[str | None, ...], ...] | str | Upload | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return "Perplexity"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("nll", "tokens")

    @property
    def traits(self) -> Traits:
        """A model trained on the references reads them and needs all of them, so partitions cannot be scored
        apart; a corpus file or a causal LM is the same anywhere. A causal LM runs torch's threads; an n-gram model
        is plain Python and may be forked."""
        trains_on_refs = self.config.model != "causal" and not self.config.corpus
        return Traits(
            reads_references=trains_on_refs,
            in_process=self.config.model == "causal",
            partitionable=not trains_on_refs,
        )

    def prepare(self, refs: Sequence[Sequence[str | None]]) -> None:
        """Train the n-gram model on the references (unless it trains on a corpus file or is a causal LM)."""
        if self.config.model == "causal":
            return
        key: tuple[tuple[str | None, ...], ...] | str | Upload = (
            self.config.corpus if self.config.corpus else tuple(tuple(stream) for stream in refs)
        )
        with self._lock:
            if key == self._trained_on:
                return
            if isinstance(self.config.corpus, Upload):
                sentences = list(parse_segments(self.config.corpus.data, self.config.corpus.name).texts)
            elif self.config.corpus:
                sentences = list(read_segments(self.config.corpus).texts)
            else:
                sentences = [r for i in range(len(refs[0]) if refs else 0) for r in segment_refs(refs, i)]
            smoothing: Smoothing = "kneser-ney" if self.config.model == "kneser-ney" else "witten-bell"
            self._ngram = NgramModel(
                (s.split() for s in sentences),
                self.config.order,
                smoothing,
                self.config.unk_cutoff,
                self.config.discount,
            )
            self._trained_on = key

    def _causal(self) -> CausalLM:
        return causal_lm(self.config.causal_model, placement(self.config.device, self.config.precision))

    def _bound(self) -> NgramModel:
        if self._ngram is None:
            raise ValueError(
                "perplexity: the n-gram model trains on the reference corpus; call prepare(refs) or stats()"
            )
        return self._ngram

    def _explain(self, hyp: str, refs: Sequence[str]) -> PerplexityExplanation:
        del refs  # the model, not the segment's references, scores the text
        scored = self._causal().score(hyp, self.config.batch_size) if self.config.model == "causal" else None
        return self._explained(hyp, scored)

    def _explained(self, hyp: str, scored: Scored | None) -> PerplexityExplanation:
        """The evidence of ``hyp``: under the causal LM as ``scored`` there, else under the n-gram model."""
        if scored is not None:
            lm = self._causal()
            tokens, seen = scored.tokens, tuple(t.text for t in scored.tokens)
            probabilities, surprisals = scored.probabilities, scored.surprisals
            notes = (
                (f"longer than the model's {lm.window} tokens: scored in windows of {lm.window}",)
                if scored.windowed
                else ()
            )
        else:
            ngram = self._bound()
            words = hyp.split()
            events = ngram.events(words)
            ends = len(events) - len(words)
            tokens = (*locate(hyp, words), *(Token(EOS, None, None) for _ in range(ends)))
            seen = tuple(e.word for e in events)
            probabilities = tuple(e.probability for e in events)
            surprisals = tuple(e.surprisal for e in events)
            notes = ()
        nll = sum(surprisals)
        row = (float(nll), float(len(surprisals)))
        if math.isinf(nll):
            notes = (
                *notes,
                "a token has probability 0 under the model (a word never counted in training, not even as <UNK>): "
                "perplexity ∞",
            )
        return PerplexityExplanation(
            score=float(self.score_pooled(np.array(row))),
            row=row,
            notes=notes,
            tokens=tuple(tokens),
            seen=seen,
            probabilities=tuple(probabilities),
            surprisals=tuple(surprisals),
            model=self._model_label(),
        )

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        return np.array(self._explain(hyp, refs).row, dtype=np.float64)

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        """Train on the references (see :meth:`prepare`), then score every hypothesis; what its explanation notes
        (windows, probability 0) becomes a note naming the segments."""
        self.prepare(refs)
        if self.config.model == "causal":
            scored = self._causal().score_all(hyps, self.config.batch_size, progress)
            explained = [self._explained(hyp, s) for hyp, s in zip(hyps, scored, strict=True)]
        else:
            explained = [self._explained(hyp, None) for _, hyp, _ in each_segment(hyps, refs, progress)]
        rows = np.array([e.row for e in explained], dtype=np.float64).reshape(len(hyps), 2)
        by_kind: dict[str, list[int]] = {}
        for i, e in enumerate(explained):
            for kind in e.notes:
                by_kind.setdefault(kind, []).append(i + 1)
        return Rows(rows, tuple(StatsNote(kind, segments_text(numbers)) for kind, numbers in by_kind.items()))

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        pooled = np.asarray(pooled, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return np.exp(pooled[..., 0] / pooled[..., 1])

    def _model_label(self) -> str:
        if self.config.model == "causal":
            return f"causal LM {self._causal_name()}"
        source = f"corpus file {self._corpus_name()}" if self.config.corpus else "the references"
        return f"{self.config.order}-gram {self.config.model} (unk cutoff {self.config.unk_cutoff}) trained on {source}"

    def _causal_name(self) -> str:
        """A hub id as given, a folder by its name."""
        name = self.config.causal_model
        return name if is_hub_id(name) else Path(name).name

    def _corpus_name(self) -> str:
        corpus = self.config.corpus
        return Path(corpus.name if isinstance(corpus, Upload) else corpus).name

    def signature(self) -> str:
        if self.config.model == "causal":
            where = placement(self.config.device, self.config.precision).signature
            batch = "" if self.config.batch_size == 1 else f"|batch:{self.config.batch_size}"
            return f"lm:causal|model:{self._causal_name()}|tok:model|eos:yes|{where}{batch}|version:{VERSION}"
        smoothing = "wb" if self.config.model == "witten-bell" else f"kn-d{self.config.discount:g}"
        train = "refs"
        if isinstance(self.config.corpus, Upload):
            train = f"file:{self._corpus_name()}:sha256:{self.config.corpus.digest[:12]}"
        elif self.config.corpus:
            try:
                digest = hashlib.sha256(Path(self.config.corpus).read_bytes()).hexdigest()[:12]
            except OSError as err:
                raise InputError(self.config.corpus, f"cannot read file ({err.strerror or err})") from None
            train = f"file:{self._corpus_name()}:sha256:{digest}"
        return (
            f"lm:{smoothing}|order:{self.config.order}|unk:{self.config.unk_cutoff}|train:{train}|tok:split"
            f"|ref:nltk-3.10.4|version:{VERSION}"
        )
