"""The COMET estimators on torch and transformers, computing what unbabel-comet 2.2.7's ``predict`` computes.

A checkpoint (:mod:`metrics.families.comet.checkpoint`) names its estimator by ``class_identifier`` and its encoder
by ``encoder_model`` and ``pretrained_model``. The encoder is built from that model's configuration through the
transformers Auto classes, and its weights, like every other weight, come from the checkpoint's ``encoder.model.*``
entries (unbabel-comet's ``load_pretrained_weights=False`` path), so no encoder weights are downloaded.

* **regression_metric** (COMET-22): each of source, output and reference is encoded alone; the encoder's layers are
  mixed (``LayerwiseAttention``: softmax or sparsemax weights times ``gamma``, each layer normalised over the
  unpadded tokens first when ``layer_norm``), pooled into one vector per sentence (avg, max, cls or the encoder's own
  sentence vector), and the feed-forward regressor reads ``[h; r; h⊙r; |h−r|; h⊙s; |h−s|]``. A sentence's pooled
  vector depends on that sentence alone, so each unique sentence is encoded once per model and kept
  (:attr:`CometModel.pooled`): the sources and references shared by every system cost one encoding, where
  unbabel-comet encodes them again for each system.
* **unified_metric** (CometKiwi, UniTE-style models): the output is joined to the source and/or reference into one
  sequence (``concat_sequences``: special tokens between segments, the whole cut at the encoder's maximum when the
  segments overflow it), the ``[CLS]`` vector of the mixed layers is regressed; with a source and a reference three
  sequences (output+source, output+reference, output+source+reference) are scored and averaged. With
  ``word_level_training`` each output subword is tagged (``hidden2tag`` on ``word_layer``; the three inputs'
  probabilities weighted 0.1667, 0.3333, 0.5) and the tags decoded into error spans (:func:`decode_spans`).
* **xcomet_metric** (xCOMET): unified with tags ``minor``, ``major``, ``critical``; the score is
  ``0.12·min(src,1) + 0.33·min(ref,1) + 0.33·min(unified,1) + 0.22·MQM`` with ``MQM = (25 − min(25, Σ 1·minor +
  5·major + 10·critical)) / 25`` from the decoded spans; without a reference ``0.78·min(src,1) + 0.22·MQM``.

Inference runs in eval mode (no dropout: the layer mix's dropout applies only in training) under
``torch.inference_mode``, on the device and in the precision of a :class:`~metrics.core.devices.Placement` (the CPU
in float32 is what the parity tests hold to unbabel-comet); scores come back to the CPU as float64.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from metrics.core.cache import BoundedCache
from metrics.core.devices import Placement
from metrics.core.models import Layout, model_folder
from metrics.core.tokens import Token
from metrics.families.comet.checkpoint import Checkpoint, read_checkpoint
from metrics.families.comet.explanation import Estimator

CACHE_LIMIT = 100_000  # pooled sentence vectors per model: 400 MB at XLM-R large's 1,024 floats
INPUT_WEIGHTS_SPANS = (0.1667, 0.3333, 0.5)  # unified/xCOMET: tag probabilities of [mt;src], [mt;ref], [mt;src;ref]
XCOMET_SCORE_WEIGHTS = (0.12, 0.33, 0.33, 0.22)  # xCOMET: [mt;src], [mt;ref], [mt;src;ref] scores, then MQM
MQM_WEIGHTS = {"minor": 1, "major": 5, "critical": 10}
MQM_CAP = 25

Progress = Callable[[int], None]


@dataclass(frozen=True)
class EncoderKind:
    """What unbabel-comet's encoder class of an ``encoder_model`` name does: whether its transformers model keeps
    the pooler (``add_pooling_layer``), how many tokens separate two segments, whether it passes token type ids,
    and the tokenizer it loads when not the model's own (MiniLM: ``xlm-roberta-base``'s)."""

    pooler: bool
    separator: int
    token_types: bool
    tokenizer: str | None = None


ENCODERS = {
    "BERT": EncoderKind(pooler=False, separator=1, token_types=True),
    "XLM-RoBERTa": EncoderKind(pooler=False, separator=2, token_types=False),
    "XLM-RoBERTa-XL": EncoderKind(pooler=False, separator=2, token_types=False),
    "MiniLM": EncoderKind(pooler=True, separator=2, token_types=False, tokenizer="xlm-roberta-base"),
    "RemBERT": EncoderKind(pooler=True, separator=1, token_types=True),
}

# Each estimator class's defaults for the hyper-parameters read here: a checkpoint that lacks one gets the default,
# as Lightning's load_from_checkpoint gives the class's __init__ only the values the checkpoint has.
DEFAULTS: Mapping[Estimator, Mapping[str, Any]] = {
    Estimator.REGRESSION: {
        "pool": "avg", "layer": "mix", "layer_transformation": "softmax", "layer_norm": True,
        "hidden_sizes": [3072, 1024], "activations": "Tanh", "final_activation": None,
    },
    Estimator.UNIFIED: {
        "sent_layer": "mix", "layer_transformation": "sparsemax", "layer_norm": True, "word_layer": 24,
        "hidden_sizes": [3072, 1024], "activations": "Tanh", "final_activation": None,
        "input_segments": ["mt", "src", "ref"], "word_level_training": False, "error_labels": ["minor", "major"],
    },
    Estimator.XCOMET: {
        "sent_layer": "mix", "layer_transformation": "sparsemax", "layer_norm": False, "word_layer": 36,
        "hidden_sizes": [2560, 1280], "activations": "Tanh", "final_activation": None,
    },
}  # fmt: skip


@dataclass(frozen=True)
class Settings:
    """The hyper-parameters of a checkpoint that inference reads, with the estimator's defaults filled in."""

    estimator: Estimator
    encoder_model: str
    pretrained_model: str
    layer: str | int  # "mix" or a layer index (regression's ``layer``, unified's ``sent_layer``)
    layer_transformation: str
    layer_norm: bool
    pool: str
    hidden_sizes: tuple[int, ...]
    activations: str
    final_activation: str | None
    input_segments: tuple[str, ...]
    word_level: bool
    word_layer: int
    labels: tuple[str, ...]  # "O", then "I-<severity>" per error label

    @staticmethod
    def of(checkpoint: Checkpoint) -> Settings:
        try:
            estimator = Estimator(checkpoint.class_identifier)
        except ValueError:
            raise ValueError(
                f"COMET checkpoint {checkpoint.path}: class_identifier {checkpoint.class_identifier!r} is not one "
                f"ScoreLens computes ({', '.join(e.value for e in Estimator)})"
            ) from None
        h = {**DEFAULTS[estimator], **checkpoint.hparams}
        for key in ("encoder_model", "pretrained_model"):
            if key not in h:
                raise ValueError(f"COMET checkpoint {checkpoint.path}: its hyper-parameters lack {key}")
        if h["encoder_model"] not in ENCODERS:
            raise ValueError(f"COMET checkpoint {checkpoint.path}: encoder_model {h['encoder_model']!r} is not one "
                             f"of {', '.join(ENCODERS)}")  # fmt: skip
        xcomet = estimator is Estimator.XCOMET
        errors = ("minor", "major", "critical") if xcomet else tuple(h.get("error_labels", ()))
        return Settings(
            estimator=estimator,
            encoder_model=str(h["encoder_model"]),
            pretrained_model=str(h["pretrained_model"]),
            layer=h["layer"] if estimator is Estimator.REGRESSION else h["sent_layer"],
            layer_transformation=str(h["layer_transformation"]),
            layer_norm=bool(h["layer_norm"]),
            pool=str(h.get("pool", "avg")),
            hidden_sizes=tuple(int(x) for x in h["hidden_sizes"]),
            activations=str(h["activations"]),
            final_activation=h["final_activation"],
            # xCOMET always reads all three (its __init__ sets them); its word-level head always exists.
            input_segments=("mt", "src", "ref") if xcomet else tuple(h.get("input_segments", ())),
            word_level=xcomet or bool(h.get("word_level_training", False)),
            word_layer=int(h.get("word_layer", 0)),
            labels=("O", *(f"I-{label}" for label in errors)),
        )

    @property
    def reads_source(self) -> bool:
        return self.estimator is Estimator.REGRESSION or "src" in self.input_segments

    @property
    def reads_references(self) -> bool:
        return self.estimator is Estimator.REGRESSION or "ref" in self.input_segments


@dataclass(frozen=True)
class Pooled:
    """One sentence as the regression estimator pooled it: subword ids, tokens located in the text, the pooled
    vector (float32 tensor) and whether the sentence was cut at the encoder's maximum."""

    ids: tuple[int, ...]
    tokens: tuple[Token, ...]
    vector: Any  # torch.Tensor
    truncated: bool


@dataclass(frozen=True)
class SpanFound:
    """One error span as unbabel-comet's ``decode`` returns it: ``text`` is the tokenizer's decoding of its
    subwords, ``start``/``end`` character offsets into the output, ``confidence`` the mean probability of the
    tagged label over its subwords."""

    text: str
    start: int
    end: int
    severity: str
    confidence: float


@dataclass(frozen=True)
class UnifiedResult:
    """A unified or xCOMET estimator's output for one segment: the score, the parts it mixes (name, value), the
    error spans and whether an input was cut at the encoder's maximum."""

    score: float
    parts: tuple[tuple[str, float], ...]
    spans: tuple[SpanFound, ...]
    truncated: bool


@dataclass(frozen=True)
class Estimate:
    """The regression estimator on a batch: scores, and (when asked) the feature vectors and each feed-forward
    layer's output."""

    scores: Any  # torch.Tensor (batch,)
    features: Any  # torch.Tensor (batch, 6·hidden)
    layers: tuple[Any, ...]


class CometModel:
    """A loaded COMET checkpoint: encoder, tokenizer, layer mix and heads, with a cache of pooled sentences."""

    def __init__(self, path: Path, place: Placement) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import torch
        import transformers
        from transformers import AutoConfig, AutoModel, AutoTokenizer

        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()
        self.torch = torch
        self.device, self.dtype = place.device, place.dtype
        checkpoint = read_checkpoint(path)
        self.path = checkpoint.path
        self.settings = Settings.of(checkpoint)
        kind = ENCODERS[self.settings.encoder_model]
        self.kind = kind
        folder = model_folder(self.settings.pretrained_model, Layout.CONFIG)
        tokenizer_folder = model_folder(kind.tokenizer, Layout.CONFIG) if kind.tokenizer else folder
        self.tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_folder), use_fast=True)
        if not self.tokenizer.is_fast:
            raise ValueError(f"{tokenizer_folder}: COMET needs a fast tokenizer (tokenizer.json) for its offsets")
        config = AutoConfig.from_pretrained(str(folder))
        config.output_hidden_states = True
        self.max_positions = int(config.max_position_embeddings) - 2  # unbabel-comet's Encoder.max_positions
        weights = checkpoint.state_dict
        encoder = AutoModel.from_config(config, add_pooling_layer=kind.pooler)
        _load(encoder, _under(weights, "encoder.model."), "encoder.model.", checkpoint.path)
        self.encoder = encoder.to(device=self.device, dtype=self.dtype).eval()
        self.num_layers = int(config.num_hidden_layers) + 1
        self.hidden = int(config.hidden_size)
        s = self.settings
        if s.layer == "mix":
            self.mix_weights = torch.cat(
                [_tensor(weights, f"layerwise_attention.scalar_parameters.{i}", path) for i in range(self.num_layers)]
            ).to(device=self.device, dtype=self.dtype)
            self.gamma = _tensor(weights, "layerwise_attention.gamma", path).to(device=self.device, dtype=self.dtype)
        elif not (isinstance(s.layer, int) and 0 <= s.layer < self.num_layers):
            raise ValueError(f"COMET checkpoint {path}: invalid model layer {s.layer!r}")
        in_dim = self.hidden * 6 if s.estimator is Estimator.REGRESSION else self.hidden
        self.estimator = _feed_forward(torch, in_dim, s).eval()
        _load(self.estimator, _under(weights, "estimator.ff."), "estimator.ff.", checkpoint.path)
        self.estimator.to(device=self.device, dtype=self.dtype)
        self.hidden2tag: Any = None
        if s.word_level:
            if not 0 <= s.word_layer < self.num_layers:
                raise ValueError(f"COMET checkpoint {path}: invalid model word layer {s.word_layer}")
            self.hidden2tag = torch.nn.Linear(self.hidden, len(s.labels)).eval()
            _load(self.hidden2tag, _under(weights, "hidden2tag."), "hidden2tag.", checkpoint.path)
            self.hidden2tag.to(device=self.device, dtype=self.dtype)
        self.pooled: BoundedCache[str, Pooled] = BoundedCache(CACHE_LIMIT)
        self.lock = threading.Lock()

    # ------------------------------------------------------------------------------------------------ tokens

    @property
    def max_tokens(self) -> int:
        """The most subwords of one segment, special tokens included (unbabel-comet's ``max_positions - 2``)."""
        return self.max_positions - 2

    def ids(self, text: str) -> tuple[list[int], list[tuple[int, int]], bool]:
        """A segment as unbabel-comet's ``prepare_sample`` tokenizes it: ids cut at :attr:`max_tokens`, each
        token's character offsets, and whether it was cut."""
        found = self.tokenizer(text, truncation=True, max_length=self.max_tokens, return_offsets_mapping=True)
        ids = list(found["input_ids"])
        whole = len(self.tokenizer(text)["input_ids"]) if len(ids) >= self.max_tokens else len(ids)
        return ids, [tuple(o) for o in found["offset_mapping"]], whole > len(ids)

    def tokens(self, ids: Sequence[int], offsets: Sequence[tuple[int, int]]) -> tuple[Token, ...]:
        specials = set(self.tokenizer.all_special_ids)
        pieces = self.tokenizer.convert_ids_to_tokens(list(ids))
        return tuple(
            Token(piece, None, None) if i in specials or start == end else Token(piece, start, end)
            for piece, i, (start, end) in zip(pieces, ids, offsets, strict=True)
        )

    # ------------------------------------------------------------------------------------------------ encoder

    def _layers(self, ids: Any, mask: Any, token_types: Any) -> tuple[Any, ...]:
        kwargs = (
            {"token_type_ids": token_types.to(self.device)} if self.kind.token_types and token_types is not None else {}
        )
        out = self.encoder(
            input_ids=ids.to(self.device), attention_mask=mask.to(self.device), output_hidden_states=True, **kwargs
        )
        return tuple(out.hidden_states)

    def layer_weights(self) -> Any:
        """The normalised layer weights of the mix (softmax, or sparsemax as entmax computes it)."""
        if self.settings.layer_transformation == "sparsemax":
            return _sparsemax(self.torch, self.mix_weights)
        return self.torch.softmax(self.mix_weights, dim=0)

    def _mixed(self, layers: Sequence[Any], mask: Any) -> Any:
        """unbabel-comet's ``LayerwiseAttention.forward`` in eval mode, or the one chosen layer."""
        torch = self.torch
        if self.settings.layer != "mix":
            return layers[int(self.settings.layer)]
        weights = torch.split(self.layer_weights(), split_size_or_sections=1)
        if not self.settings.layer_norm:
            return self.gamma * sum(w * t for w, t in zip(weights, layers, strict=True))
        mask_float = mask.float()
        broadcast = mask_float.unsqueeze(-1)
        batch, _, dim = layers[0].size()
        count = mask_float.sum(1) * dim

        def normalised(tensor: Any) -> Any:
            masked = tensor * broadcast
            mean = (masked.view(batch, -1).sum(1) / count).view(batch, 1, 1)
            variance = (((masked - mean) * broadcast) ** 2).view(batch, -1).sum(1) / count
            return (tensor - mean) / torch.sqrt(variance + 1e-12).view(batch, 1, 1)

        return self.gamma * sum(w * normalised(t) for w, t in zip(weights, layers, strict=True))

    # ------------------------------------------------------------------------------------------------ regression

    def pool(self, texts: Sequence[str], batch_size: int) -> list[Pooled]:
        """The pooled vector of every text, encoding those not cached yet in batches of ``batch_size`` sorted by
        length (each unique text once)."""
        with self.lock:
            missing = sorted({t for t in texts if t not in self.pooled}, key=len)
            for start in range(0, len(missing), batch_size):
                for text, pooled in zip(missing[start : start + batch_size],
                                        self._pool_batch(missing[start : start + batch_size]), strict=True):  # fmt: skip
                    self.pooled[text] = pooled
            return [self.pooled[t] if t in self.pooled else self._pool_batch([t])[0] for t in texts]

    def _pool_batch(self, texts: Sequence[str]) -> list[Pooled]:
        torch = self.torch
        encoded = [self.ids(t) for t in texts]
        pad = self.tokenizer.pad_token_id
        longest = max(len(ids) for ids, _, _ in encoded)
        ids = torch.full((len(texts), longest), pad, dtype=torch.long)
        mask = torch.zeros((len(texts), longest), dtype=torch.long)
        for k, (row, _, _) in enumerate(encoded):
            ids[k, : len(row)] = torch.tensor(row, dtype=torch.long)
            mask[k, : len(row)] = 1
        ids, mask = ids.to(self.device), mask.to(self.device)
        with torch.inference_mode():
            layers = self._layers(ids, mask, None)
            embeddings = self._mixed(layers, mask)
            vectors = self._sentence(ids, mask, embeddings, layers)
        return [
            Pooled(tuple(row), self.tokens(row, offsets), vectors[k].clone(), cut)
            for k, (row, offsets, cut) in enumerate(encoded)
        ]

    def _sentence(self, ids: Any, mask: Any, embeddings: Any, layers: Sequence[Any]) -> Any:
        """unbabel-comet's pooling of ``compute_sentence_embedding``: padding found by the pad id, as there."""
        pool = self.settings.pool
        padding = ids.eq(self.tokenizer.pad_token_id).unsqueeze(-1)
        if pool == "avg":
            summed = embeddings.float().masked_fill(padding, 0.0).type_as(embeddings).sum(1)
            return summed / mask.unsqueeze(-1).expand(embeddings.size()).float().sum(1)
        if pool == "max":
            return embeddings.float().masked_fill(padding, float("-inf")).type_as(embeddings).max(dim=1)[0]
        if pool == "cls":
            return embeddings[:, 0, :]
        if pool == "default":
            if self.kind.pooler:
                return self.encoder.pooler(layers[-1])
            if self.settings.encoder_model == "BERT":
                raise ValueError(f"COMET checkpoint {self.path}: pool 'default' needs a pooler, which BERT lacks here")
            return layers[-1][:, 0, :]
        raise ValueError(f"COMET checkpoint {self.path}: invalid pooling technique {pool!r}")

    def estimate(self, hyp: Any, src: Any, ref: Any, *, keep: bool = False) -> Estimate:
        """The regressor on pooled vectors (rows of ``hyp``, ``src``, ``ref``); ``keep``: also each layer's output."""
        torch = self.torch
        features = torch.cat((hyp, ref, hyp * ref, torch.abs(hyp - ref), hyp * src, torch.abs(hyp - src)), dim=1)
        # The layer norm's float32 mask promotes a bf16/fp16 mix to float32: the regressor takes its own dtype.
        features = features.to(self.dtype)
        with torch.inference_mode():
            if not keep:
                return Estimate(self.estimator(features).view(-1), features, ())
            outputs, x = [], features
            last = len(self.estimator) - 1
            for index, module in enumerate(self.estimator):
                x = module(x)
                if index < last and not isinstance(module, torch.nn.Dropout | torch.nn.Linear):
                    outputs.append(x)  # a hidden layer's output, after its activation
            return Estimate(x.view(-1), features, (*outputs, x))

    def regression_scores(
        self, hyps: Sequence[str], sources: Sequence[str], refs: Sequence[str], batch_size: int
    ) -> np.ndarray:
        """COMET-22's score of every (output, source, reference) triple."""
        pooled = dict(zip(unique := list(dict.fromkeys([*hyps, *sources, *refs])), self.pool(unique, batch_size),
                          strict=True))  # fmt: skip
        torch = self.torch
        scores = np.empty(len(hyps), dtype=np.float64)
        for start in range(0, len(hyps), batch_size):
            part = slice(start, start + batch_size)
            stack = [torch.stack([pooled[t].vector for t in side[part]]) for side in (hyps, sources, refs)]
            scores[part] = self.estimate(*stack).scores.float().cpu().numpy()
        return scores

    # ------------------------------------------------------------------------------------------------ unified

    def _concat(self, segments: Sequence[list[int]]) -> list[int]:
        """unbabel-comet's ``concat_sequences`` for one sample: the segments (each with its special tokens) joined
        by the tokenizer's pair template (``build_inputs_with_special_tokens``, which transformers 5 dropped: ``[CLS]
        a [SEP] b [SEP]`` for BERT and RemBERT, ``<s> a </s></s> b </s>`` for XLM-R), cut at ``max_positions`` when
        they overflow it."""
        cls, sep = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id
        sequence = segments[0]
        for other in segments[1:]:
            sequence = [cls, *sequence[1:-1], *[sep] * self.kind.separator, *other[1:-1], sep]
        special = 1 + len(segments) * self.kind.separator
        if sum(len(s) - 2 for s in segments) > self.max_positions - special:
            sequence = sequence[: self.max_positions]
        return sequence

    def _unified_forward(self, rows: Sequence[list[int]], mt_lengths: Sequence[int]) -> tuple[Any, Any]:
        """Scores and tag logits of a batch of joined sequences."""
        torch = self.torch
        longest = max(len(r) for r in rows)
        ids = torch.full((len(rows), longest), self.tokenizer.pad_token_id, dtype=torch.long)
        for k, row in enumerate(rows):
            ids[k, : len(row)] = torch.tensor(row, dtype=torch.long)
        lengths = torch.tensor([len(r) for r in rows], dtype=torch.long)
        mask = (torch.arange(longest)[None, :] < lengths[:, None]).to(self.device)
        types = None
        if self.kind.token_types:
            types = torch.ones((len(rows), longest), dtype=torch.int)
            for k, n in enumerate(mt_lengths):
                types[k, :n] = 0
        layers = self._layers(ids, mask, types)
        sentence = self._mixed(layers, mask)[:, 0, :].to(self.dtype)
        scores = self.estimator(sentence).view(-1)
        logits = self.hidden2tag(layers[self.settings.word_layer]) if self.hidden2tag is not None else None
        return scores, logits

    def unified(
        self,
        hyps: Sequence[str],
        sources: Sequence[str] | None,
        refs: Sequence[str] | None,
        batch_size: int,
        progress: Progress | None = None,
    ) -> list[UnifiedResult]:
        """The unified or xCOMET estimator on every segment, with the inputs its ``input_segments`` read (a
        ``None`` side is not given)."""
        s = self.settings
        src = sources if sources is not None and "src" in s.input_segments else None
        ref = refs if refs is not None and "ref" in s.input_segments else None
        order = sorted(
            range(len(hyps)), key=lambda i: sum(len(side[i]) for side in (hyps, src, ref) if side is not None)
        )
        results: list[UnifiedResult | None] = [None] * len(hyps)
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            found = self._unified_batch(
                [hyps[i] for i in batch],
                None if src is None else [src[i] for i in batch],
                None if ref is None else [ref[i] for i in batch],
            )
            for i, result in zip(batch, found, strict=True):
                results[i] = result
            if progress is not None:
                progress(min(start + batch_size, len(order)))
        return [r for r in results if r is not None]

    def _unified_batch(
        self, hyps: Sequence[str], sources: Sequence[str] | None, refs: Sequence[str] | None
    ) -> list[UnifiedResult]:
        torch = self.torch
        mts = [self.ids(h) for h in hyps]
        sides = [[self.ids(t) for t in side] for side in (sources, refs) if side is not None]
        # With both sides: [mt;src], [mt;ref], [mt;src;ref]; else the one joined sequence.
        inputs = [(0,), (1,), (0, 1)] if len(sides) == 2 else [tuple(range(len(sides)))]
        truncated = [
            mts[k][2] or any(side[k][2] for side in sides) or self._overflows([mts[k][0], *(s[k][0] for s in sides)])
            for k in range(len(hyps))
        ]
        mt_lengths = [len(ids) for ids, _, _ in mts]
        with torch.inference_mode():
            outputs = []
            for which in inputs:
                rows = [self._concat([mts[k][0], *(sides[j][k][0] for j in which)]) for k in range(len(hyps))]
                outputs.append(self._unified_forward(rows, mt_lengths))
            spans: list[tuple[SpanFound, ...]] = [()] * len(hyps)
            if self.settings.word_level:
                seq_len = max(mt_lengths)
                probs = [torch.softmax(logits, dim=2)[:, :seq_len, :] for _, logits in outputs]
                if len(outputs) == 3:
                    weights = torch.tensor(INPUT_WEIGHTS_SPANS)
                    mixed = torch.sum(torch.stack([p * w for w, p in zip(weights, probs, strict=True)]), dim=0)
                else:
                    mixed = probs[0]
                spans = [
                    decode_spans(mixed[k], mts[k][0], mts[k][1], self.settings.labels, self._decode)
                    for k in range(len(hyps))
                ]
            return self._scores(outputs, spans, truncated)

    def _decode(self, ids: list[int]) -> str:
        return str(self.tokenizer.decode(ids))

    def _overflows(self, segments: Sequence[list[int]]) -> bool:
        special = 1 + len(segments) * self.kind.separator
        return len(segments) > 1 and sum(len(s) - 2 for s in segments) > self.max_positions - special

    def _scores(
        self, outputs: Sequence[tuple[Any, Any]], spans: Sequence[tuple[SpanFound, ...]], truncated: Sequence[bool]
    ) -> list[UnifiedResult]:
        """Each segment's score from the inputs' scores (and, for xCOMET, the MQM score of its spans)."""
        torch = self.torch
        raw = [scores for scores, _ in outputs]
        names = ("src", "ref", "unified") if len(raw) == 3 else ("src",)
        if self.settings.estimator is not Estimator.XCOMET:
            final = torch.stack(raw, dim=0).mean(dim=0) if len(raw) == 3 else raw[0]
            parts: list[tuple[tuple[str, float], ...]] = [
                tuple((n, float(r[k])) for n, r in zip(names, raw, strict=True)) if len(raw) == 3 else ()
                for k in range(len(spans))
            ]
        else:
            mqm = mqm_scores(spans)
            clamped = [torch.where(r > 1.0, 1.0, r) for r in raw]
            if len(raw) == 3:
                regression = torch.stack(
                    [c * w for c, w in zip(clamped, XCOMET_SCORE_WEIGHTS[:3], strict=True)], dim=0
                ).sum(dim=0)
            else:
                regression = clamped[0] * sum(XCOMET_SCORE_WEIGHTS[:3])
            final = regression + mqm.to(regression.device) * XCOMET_SCORE_WEIGHTS[3]
            parts = [
                (*((n, float(r[k])) for n, r in zip(names, raw if len(raw) == 3 else clamped, strict=True)),
                 ("mqm", float(mqm[k])))
                for k in range(len(spans))
            ]  # fmt: skip
        return [UnifiedResult(float(final[k]), parts[k], spans[k], truncated[k]) for k in range(len(spans))]


def decode_spans(
    probs: Any,
    ids: Sequence[int],
    offsets: Sequence[tuple[int, int]],
    labels: Sequence[str],
    decode: Callable[[list[int]], str],
) -> tuple[SpanFound, ...]:
    """unbabel-comet's ``UnifiedMetric.decode`` for one output: each subword takes its most probable label (the
    arg-max; no decoding threshold); a run of subwords tagged ``I-*`` is one span, with the first subword's
    severity, the offsets from its first subword's start to its last one's end, and the mean probability of the
    chosen labels as confidence. Reproduced as there: a span still open when the output's subwords end (its last
    subword is the closing special token, so a span that reaches it) is dropped, and a span that begins on the
    opening special token starts at 0 and its text includes that token's decoding."""
    found: list[SpanFound] = []
    open_span: dict[str, Any] | None = None
    for k in range(len(offsets)):
        probability, label_value = probs[k].topk(1)
        label = labels[int(label_value[0])]
        if label.startswith("I") and open_span is None:
            open_span = {"tokens": [ids[k]], "severity": label.split("-")[1], "offset": list(offsets[k]),
                         "confidence": [probability]}  # fmt: skip
        elif label.startswith("I") and open_span is not None:
            open_span["tokens"].append(ids[k])
            open_span["confidence"].append(probability)
            open_span["offset"][1] = offsets[k][1]
        elif label == "O" and open_span is not None:
            found.append(_span(open_span, decode))
            open_span = None
    return tuple(found)


def _span(span: Mapping[str, Any], decode: Callable[[list[int]], str]) -> SpanFound:
    import torch

    confidence = torch.concat(span["confidence"]).mean().item()
    start, end = span["offset"]
    return SpanFound(decode(list(span["tokens"])), int(start), int(end), str(span["severity"]), float(confidence))


def mqm_scores(spans: Sequence[Sequence[SpanFound]]) -> Any:
    """xCOMET's ``_compute_mqm_from_spans``: 1 per minor, 5 per major, 10 per critical error, capped at 25, as
    ``(25 − penalty) / 25``."""
    import torch

    penalties = [min(sum(MQM_WEIGHTS.get(s.severity, 0) for s in sentence), MQM_CAP) for sentence in spans]
    return (torch.tensor(penalties) * -1 + MQM_CAP) / MQM_CAP


def _sparsemax(torch: Any, x: Any) -> Any:
    """entmax 1.3's ``sparsemax`` over dimension 0, with its operations in its order (the golden values match it)."""
    x = x - x.max(dim=0, keepdim=True)[0]
    ordered, _ = torch.sort(x, dim=0, descending=True)
    cumsum = ordered.cumsum(0) - 1
    rhos = torch.arange(1, x.size(0) + 1, dtype=x.dtype)
    support = (rhos * ordered > cumsum).sum(dim=0).unsqueeze(0)
    tau = cumsum.gather(0, support - 1)
    tau /= support.to(x.dtype)
    return torch.clamp(x - tau, min=0)


def _feed_forward(torch: Any, in_dim: int, s: Settings) -> Any:
    """unbabel-comet's ``FeedForward.ff``: Linear, activation, Dropout per hidden size, then Linear to one output and
    the final activation if any (module indices match its ``estimator.ff.*`` weight names)."""

    def activation(name: str) -> Any:
        found = getattr(torch.nn, name.title(), None)
        if found is None:
            raise ValueError(f"{name} is not a valid activation function (unbabel-comet reads torch.nn.{name.title()})")
        return found()

    sizes = [in_dim, *s.hidden_sizes]
    modules: list[Any] = []
    for a, b in zip(sizes, sizes[1:], strict=False):
        # Dropout is the identity in eval mode; it is kept so that module indices match the weight names.
        modules += [torch.nn.Linear(a, b), activation(s.activations), torch.nn.Dropout(0.0)]
    modules.append(torch.nn.Linear(sizes[-1], 1))
    if s.final_activation is not None:
        modules.append(activation(str(s.final_activation)))
    return torch.nn.Sequential(*modules)


def _under(weights: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    return {k[len(prefix) :]: v for k, v in weights.items() if k.startswith(prefix)}


def _tensor(weights: Mapping[str, Any], name: str, path: Path) -> Any:
    if name not in weights:
        raise ValueError(f"COMET checkpoint {path}: no weight {name}")
    return weights[name].reshape(-1)


def _load(module: Any, weights: Mapping[str, Any], prefix: str, path: Path) -> None:
    """Load ``weights`` into ``module`` as unbabel-comet does (``strict=False``: extra entries are ignored), but
    refuse a checkpoint that lacks a parameter (it would be left at random initial values)."""
    result = module.load_state_dict(dict(weights), strict=False)
    missing = [k for k in result.missing_keys if k in dict(module.named_parameters())]
    if missing:
        shown = ", ".join(prefix + k for k in missing[:5]) + (" …" if len(missing) > 5 else "")
        raise ValueError(f"COMET checkpoint {path}: lacks {len(missing)} weight(s) of the model: {shown}")


_models: dict[str, CometModel] = {}
_models_lock = threading.Lock()


def load_model(path: Path, place: Placement) -> CometModel:
    """One loaded model per checkpoint path, device and precision in the process, so its cache of pooled sentences
    is shared."""
    key = f"{path.resolve()}|{place.device}|{place.dtype}"
    with _models_lock:
        if key not in _models:
            _models[key] = CometModel(path, place)
        return _models[key]
