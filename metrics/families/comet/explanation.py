"""What a COMET-family model saw and computed for one segment: the explanation every COMET view and lesson reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from metrics.core.explanation import Explanation
from metrics.core.spans import ErrorSpan
from metrics.core.tokens import Token


class Estimator(str, Enum):
    """unbabel-comet's model classes, by the ``class_identifier`` of a checkpoint's ``hparams.yaml``."""

    REGRESSION = "regression_metric"  # COMET-22 (wmt22-comet-da): pooled sentence embeddings → feed-forward
    UNIFIED = "unified_metric"  # CometKiwi (wmt22/23-cometkiwi-da): one joint encoding of the input segments
    XCOMET = "xcomet_metric"  # xCOMET-XL/XXL: unified, with word-level error tags mixed into the score


@dataclass(frozen=True, kw_only=True)
class CometExplanation(Explanation):
    """One segment under a COMET-family model: the triple it saw (``reference`` is ``None`` for a reference-free
    model), the model, and for a model with word-level tags the error spans on the output (offsets into
    ``hypothesis``) and the parts its score mixes (``parts``: xCOMET's ``src``, ``ref``, ``unified`` and ``mqm``
    scores, in that order; empty otherwise). ``span_texts``: unbabel-comet's text of each span (its tokenizer's
    decoding of the span's subwords, as ``predict`` returns it: lowercased by an uncased model, ``[CLS]`` included
    when a span starts on it), beside each span's own ``text``, the output's characters ``[start, end)``.
    ``truncated``: an input was cut at the encoder's maximum length."""

    model: str
    estimator: Estimator
    hypothesis: str
    source: str
    reference: str | None
    spans: tuple[ErrorSpan, ...] = ()
    span_texts: tuple[str, ...] = ()
    parts: tuple[tuple[str, float], ...] = ()
    truncated: bool = False


@dataclass(frozen=True)
class PooledSentence:
    """One input sentence as the regression estimator pooled it: its subword tokens (with offsets into the text;
    special tokens have none) and the pooled sentence embedding (float32)."""

    role: str  # "hypothesis", "source" or "reference"
    text: str
    tokens: tuple[Token, ...]
    embedding: np.ndarray = field(compare=False)


@dataclass(frozen=True)
class CometDerivation:
    """The regression estimator's computation on one triple, from the path that scores it (the Teach lesson's
    numbers): the three pooled embeddings (hypothesis, source, reference), the layer mix (``layer_weights``: the
    softmax- or sparsemax-normalised weight of each encoder layer, embeddings first; the mix is ``gamma`` times their
    weighted sum; one weight 1 and ``gamma`` 1 for a model that reads one layer), the feature vector
    ``[h; r; h⊙r; |h−r|; h⊙s; |h−s|]`` (``feature_names`` say which block is which), each feed-forward layer's
    output (the hidden layers after their activation, then the output layer's), and the score."""

    sentences: tuple[PooledSentence, ...]
    layer_weights: tuple[float, ...]
    gamma: float
    feature_names: tuple[str, ...]
    features: np.ndarray = field(compare=False)
    layers: tuple[np.ndarray, ...] = field(compare=False)
    score: float = 0.0
