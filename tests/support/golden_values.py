"""The inputs of the sacrebleu values in ``tests/data/golden_values.json`` (shared/spec/golden_gen.py)."""

GOLDEN_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
GOLDEN_REFS1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
GOLDEN_REFS2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]
