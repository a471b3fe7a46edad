"""The app layer shared by ``app.py`` and ``pages/``: datasets, session state, cached evaluation."""

from metrics.core.blas import shorten_blas_spin

shorten_blas_spin()
