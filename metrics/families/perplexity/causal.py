"""Token surprisal under a causal language model — a local Hugging Face folder or a hub id (the neural extra).

A text's tokens ``t₁…t_k`` (the model's tokenizer, no special tokens) are scored as the model generates them: the
input is ``BOS t₁ … t_k`` and the targets ``t₁ … t_k EOS``, so every token — and the end of the text — is predicted
from everything before it, and an empty text still has one event (EOS), as an n-gram model predicts ``</s>``.
A text longer than the model's context is scored in consecutive windows of that length, each seeing only its own
window; the statistics then carry a note.

By default (``batch_size`` 1) each text is a forward pass of its own, so no other text changes its numbers. With a
larger ``batch_size`` the texts that fit the context go ``batch_size`` at a time, sorted by length and padded on the
right; under causal attention no real token sees the padding, so the numbers are the same up to the rounding of the
kernels that batched shapes may choose (bitwise the same for a tiny GPT-2 on the CPU here; on a GPU,
``scripts/gpu_check.py`` measures it), and the signature names the batch size. The model runs where its
:class:`~metrics.core.devices.Placement` says; its logits are taken to float32 before the log-softmax and the
surprisals come back to the CPU as Python floats.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from metrics.core.cache import BoundedCache
from metrics.core.devices import Placement
from metrics.core.models import model_folder
from metrics.core.tokens import Token


@dataclass(frozen=True)
class Scored:
    """A text under the model: its tokens (with offsets; the final EOS has none), each one's probability and
    surprisal in nats, and whether it needed more than one window."""

    tokens: tuple[Token, ...]
    probabilities: tuple[float, ...]
    surprisals: tuple[float, ...]
    windowed: bool


class CausalLM:
    """A causal LM and its tokenizer loaded from a local folder, on the device and in the dtype of ``placement``."""

    def __init__(self, path: Path, placement: Placement) -> None:
        import torch
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer

        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()
        self.torch = torch
        self.path = path
        self.placement = placement
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True)
        self.model = model.eval().to(device=placement.device, dtype=placement.dtype)
        eos: int | None = self.tokenizer.eos_token_id
        bos: int | None = self.tokenizer.bos_token_id if self.tokenizer.bos_token_id is not None else eos
        if bos is None or eos is None:
            raise ValueError(f"causal model {path.name}: its tokenizer has no BOS/EOS token to start and end a text")
        self.bos, self.eos = int(bos), int(eos)
        config = self.model.config
        window = getattr(config, "n_positions", None) or getattr(config, "max_position_embeddings", None)
        self.window: int = window if isinstance(window, int) else 1024
        # By (batch size, text): a batch of several texts may round differently from a text alone (module docstring).
        self.cache: BoundedCache[tuple[int, str], Scored] = BoundedCache(50_000)
        self.lock = threading.Lock()

    def score(self, text: str, batch_size: int = 1) -> Scored:
        """``text`` scored: as it was in a batch of ``batch_size`` if it was, else alone."""
        with self.lock:
            return self.cache.get_or_make((batch_size, text), lambda: self._alone(self._prepare(text)))

    def score_all(
        self, texts: Sequence[str], batch_size: int, progress: Callable[[int], None] | None = None
    ) -> list[Scored]:
        """Every text scored, those not cached ``batch_size`` at a time in batches sorted by length (a text longer
        than the model's context alone, in windows); ``progress`` hears how many texts are done."""
        with self.lock:
            found = {t: self.cache[(batch_size, t)] for t in texts if (batch_size, t) in self.cache}
            prepared = [self._prepare(t) for t in dict.fromkeys(texts) if t not in found]
            short = sorted((p for p in prepared if len(p.targets) <= self.window), key=lambda p: -len(p.targets))
            for p in prepared:
                if len(p.targets) > self.window:
                    found[p.text] = self._alone(p)
            for start in range(0, len(short), batch_size):
                batch = short[start : start + batch_size]
                found.update(zip((p.text for p in batch), self._batch(batch), strict=True))
                if progress is not None:
                    progress(min(len(found), len(texts)))
            if progress is not None:
                progress(len(texts))
            for p in prepared:
                self.cache[(batch_size, p.text)] = found[p.text]
            return [found[t] for t in texts]

    def _prepare(self, text: str) -> Prepared:
        encoded = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        ids = list(encoded["input_ids"])
        pieces = self.tokenizer.convert_ids_to_tokens(ids)
        tokens = [
            Token(p, s, e) if e > s else Token(p, None, None)
            for p, (s, e) in zip(pieces, encoded["offset_mapping"], strict=True)
        ]
        tokens.append(Token(self.tokenizer.eos_token, None, None))
        return Prepared(text, tuple(tokens), (self.bos, *ids), (*ids, self.eos))

    def _alone(self, text: Prepared) -> Scored:
        """One text in forward passes of its own, a window at a time."""
        torch = self.torch
        logprobs: list[float] = []
        device = self.placement.device
        with torch.no_grad():
            for start in range(0, len(text.targets), self.window):
                window = torch.tensor([text.inputs[start : start + self.window]], device=device)
                logits = self.model(window).logits[0].float()
                chosen = torch.log_softmax(logits, dim=-1).gather(
                    1, torch.tensor(text.targets[start : start + self.window], device=device)[:, None]
                )
                logprobs += chosen[:, 0].cpu().tolist()
        return _scored(text, logprobs, len(text.targets) > self.window)

    def _batch(self, texts: Sequence[Prepared]) -> list[Scored]:
        """Texts that fit the context in one forward pass, padded on the right: under causal attention a text's
        tokens never see the padding after them."""
        if len(texts) == 1:
            return [self._alone(texts[0])]
        torch = self.torch
        device = self.placement.device
        longest = max(len(t.inputs) for t in texts)
        inputs = torch.full((len(texts), longest), self.eos, dtype=torch.long)
        mask = torch.zeros((len(texts), longest), dtype=torch.long)
        for k, text in enumerate(texts):
            inputs[k, : len(text.inputs)] = torch.tensor(text.inputs, dtype=torch.long)
            mask[k, : len(text.inputs)] = 1
        with torch.no_grad():
            logits = self.model(inputs.to(device), attention_mask=mask.to(device)).logits
            out = []
            for k, text in enumerate(texts):  # a text at a time: the batch's float32 log-probabilities could be GBs
                logprobs = torch.log_softmax(logits[k, : len(text.targets)].float(), dim=-1)
                targets = torch.tensor(text.targets, device=device)[:, None]
                out.append(_scored(text, logprobs.gather(1, targets)[:, 0].cpu().tolist(), False))
        return out


@dataclass(frozen=True)
class Prepared:
    """A text tokenized for the model: its tokens (with offsets, then EOS), the inputs ``BOS t₁ … t_k`` and the
    targets ``t₁ … t_k EOS``."""

    text: str
    tokens: tuple[Token, ...]
    inputs: tuple[int, ...]
    targets: tuple[int, ...]


def _scored(text: Prepared, logprobs: Sequence[float], windowed: bool) -> Scored:
    return Scored(text.tokens, tuple(math.exp(x) for x in logprobs), tuple(-x for x in logprobs), windowed)


_models: dict[tuple[str, str, str], CausalLM] = {}
_models_lock = threading.Lock()


def causal_lm(name: str, placement: Placement) -> CausalLM:
    """One loaded model per (folder, device, dtype) in the process; ``name`` is a folder or a hub id
    (:func:`metrics.core.models.model_folder`)."""
    if not name:
        raise ValueError(
            "perplexity: the causal model needs a local Hugging Face folder or a hub id (option causal_model)"
        )
    folder = model_folder(name).resolve()
    key = (str(folder), str(placement.device), str(placement.dtype))
    with _models_lock:
        if key not in _models:
            _models[key] = CausalLM(folder, placement)
        return _models[key]
