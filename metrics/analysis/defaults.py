"""The analyses' default settings, in a module that imports nothing: ``scorelens analyze``'s parser states them
without importing the analyses, which a run of any other command does not need."""

from __future__ import annotations

NGRAM_ALPHA = 1.0  # compare-mt's generate_ngram_report(alpha=1.0)
NGRAM_TOP = 50  # compare-mt's report_length
