"""ROUGE-W, ROUGE-S and ROUGE-SU as ROUGE-1.5.5.pl computes them; options share the ``rouge`` namespace.

:mod:`~metrics.families.rouge155.config` holds their options (the shared :class:`~metrics.families.rouge155.config.Rouge155Config`
and each one's own), :mod:`~metrics.families.rouge155.base` what the three share in scoring (pooling of references,
statistics, the perl report), :mod:`~metrics.families.rouge155.skip_bigram` ROUGE-S/SU and
:mod:`~metrics.families.rouge155.weighted_lcs` ROUGE-W.
"""

from metrics.core.registry import register

register(
    "metrics.families.rouge155.weighted_lcs:RougeW",
    "rougeW",
    family="rouge",
    label="ROUGE-W-1.2 (ROUGE-1.5.5)",
    rank=35,
)
register(
    "metrics.families.rouge155.skip_bigram:RougeS", "rougeS", family="rouge", label="ROUGE-S (ROUGE-1.5.5)", rank=35
)
register(
    "metrics.families.rouge155.skip_bigram:RougeSU", "rougeSU", family="rouge", label="ROUGE-SU (ROUGE-1.5.5)", rank=35
)
