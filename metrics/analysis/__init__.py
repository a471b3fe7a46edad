"""Error analysis across the corpus, on the cached per-segment statistics: scores of buckets and slices of
segments with intervals and paired tests, word accuracy by frequency, characteristic n-grams of two systems,
per-document scores, how far a difference agrees with human judgements, and where metrics disagree.

A bucket's score is the corpus score of its segments' pooled statistics, so BLEU of a bucket equals sacrebleu's
corpus BLEU on exactly those segments. No UI library is imported here (the app and ``scorelens analyze`` share it).
"""
