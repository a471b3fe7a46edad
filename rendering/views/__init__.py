"""Every family's evidence views, one module per kind of evidence (n-grams, edits, LCS, …): each registers its views
with :func:`rendering.view.evidence_view` when imported, and :mod:`rendering.evidence` imports every module here, so
a new module needs no list to join."""
