"""Optional installs that more than one family needs."""

from metrics.core.config import Requirement

# BERTScore and causal-LM perplexity: torch (the CPU wheel, installed first) and transformers.
NEURAL = Requirement("torch", "pip install 'scorelens[neural]'", also=("transformers",))
