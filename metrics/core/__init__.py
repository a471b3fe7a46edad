"""The contract every metric shares: base classes, configs with option metadata, the registry, tokens and n-grams."""
