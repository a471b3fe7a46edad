"""Tiny Hugging Face models saved to a folder in a test (seeded, random weights): real files that transformers loads,
with no download."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TEXTS = ["the cat sat on the mat .", "a dog ran in the park today .", "hello world", "he read the book ."]


def tiny_gpt2(folder: Path, positions: int = 16) -> tuple[Any, Any]:
    """A 2-layer GPT-2 of ``positions`` tokens and its byte-level BPE tokenizer (trained on :data:`TEXTS`, its
    ``<|endoftext|>`` both BOS and EOS), saved in ``folder``; returns (model, tokenizer)."""
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.train_from_iterator(TEXTS * 5, trainers.BpeTrainer(vocab_size=120, special_tokens=["<|endoftext|>", "<unk>"]))
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<unk>"
    )
    fast.save_pretrained(folder)
    eos_id = fast.eos_token_id
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=len(fast), n_positions=positions, n_embd=32, n_layer=2, n_head=2, bos_token_id=eos_id,
        eos_token_id=eos_id,
    )  # fmt: skip
    model = transformers.GPT2LMHeadModel(config).eval()
    model.save_pretrained(folder)
    return model, fast
