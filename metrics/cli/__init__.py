"""``scorelens``: the command line of the metrics core."""

from metrics.core.blas import shorten_blas_spin

shorten_blas_spin()
