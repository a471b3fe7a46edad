"""Token surprisal under a causal language model loaded from a local Hugging Face folder (the neural extra).

A text's tokens ``t₁…t_k`` (the model's tokenizer, no special tokens) are scored as the model generates them: the
input is ``BOS t₁ … t_k`` and the targets ``t₁ … t_k EOS``, so every token — and the end of the text — is predicted
from everything before it, and an empty text still has one event (EOS), as an n-gram model predicts ``</s>``.
A text longer than the model's context is scored in consecutive windows of that length, each seeing only its own
window; the statistics then carry a note.
"""

from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from metrics.core.cache import BoundedCache
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
    def __init__(self, path: Path) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import torch
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer

        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()
        if not (path / "config.json").is_file():
            raise ValueError(f"causal model {str(path)!r}: not a local Hugging Face model folder (no config.json)")
        self.torch = torch
        self.path = path
        self.tokenizer = AutoTokenizer.from_pretrained(str(path))
        self.model = AutoModelForCausalLM.from_pretrained(str(path))
        self.model.eval()
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
        with torch.no_grad():
            for start in range(0, len(targets), self.window):
                window = torch.tensor([inputs[start : start + self.window]])
                logits = self.model(window).logits[0]
                chosen = torch.log_softmax(logits, dim=-1).gather(
                    1, torch.tensor(targets[start : start + self.window])[:, None]
                )
                logprobs += [float(x) for x in chosen[:, 0]]
        return Scored(
            tuple(tokens),
            tuple(math.exp(x) for x in logprobs),
            tuple(-x for x in logprobs),
            len(targets) > self.window,
        )


_models: dict[str, CausalLM] = {}
_models_lock = threading.Lock()


def causal_lm(path: str) -> CausalLM:
    """One loaded model per folder in the process."""
    if not path:
        raise ValueError("perplexity: the causal model needs a local Hugging Face folder (option causal_model)")
    key = str(Path(path).expanduser().resolve())
    with _models_lock:
        if key not in _models:
            _models[key] = CausalLM(Path(key))
        return _models[key]
