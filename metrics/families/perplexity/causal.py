"""Token surprisal under a causal language model — a local Hugging Face folder or a hub id (the neural extra).

A text's tokens ``t₁…t_k`` (the model's tokenizer, no special tokens) are scored as the model generates them: the
input is ``BOS t₁ … t_k`` and the targets ``t₁ … t_k EOS``, so every token — and the end of the text — is predicted
from everything before it, and an empty text still has one event (EOS), as an n-gram model predicts ``</s>``.
A text longer than the model's context is scored in consecutive windows of that length, each seeing only its own
window; the statistics then carry a note.

Each text is one forward pass of its own (no padding, so no batch changes a number). The model runs where its
:class:`~metrics.core.devices.Placement` says; its logits are taken to float32 before the log-softmax and the
surprisals come back to the CPU as Python floats.
"""

from __future__ import annotations

import math
import threading
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
        self.cache: BoundedCache[str, Scored] = BoundedCache(50_000)
        self.lock = threading.Lock()

    def score(self, text: str) -> Scored:
        with self.lock:
            return self.cache.get_or_make(text, lambda: self._score(text))

    def _score(self, text: str) -> Scored:
        torch = self.torch
        encoded = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        ids = list(encoded["input_ids"])
        pieces = self.tokenizer.convert_ids_to_tokens(ids)
        tokens = [
            Token(p, s, e) if e > s else Token(p, None, None)
            for p, (s, e) in zip(pieces, encoded["offset_mapping"], strict=True)
        ]
        tokens.append(Token(self.tokenizer.eos_token, None, None))
        inputs, targets = [self.bos, *ids], [*ids, self.eos]
        logprobs: list[float] = []
        device = self.placement.device
        with torch.no_grad():
            for start in range(0, len(targets), self.window):
                window = torch.tensor([inputs[start : start + self.window]], device=device)
                logits = self.model(window).logits[0].float()
                chosen = torch.log_softmax(logits, dim=-1).gather(
                    1, torch.tensor(targets[start : start + self.window], device=device)[:, None]
                )
                logprobs += chosen[:, 0].cpu().tolist()
        return Scored(
            tuple(tokens),
            tuple(math.exp(x) for x in logprobs),
            tuple(-x for x in logprobs),
            len(targets) > self.window,
        )


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
