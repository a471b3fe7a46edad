"""Helpers the test modules share; no tests here. ``paths`` (the repository, its data), ``corpora`` (the real-data
slices), ``parity`` (closeness), ``golden_values`` and the references' own scorers (``sacre``, ``meteor``, ``cider``),
``ui`` (AppTest and HTML checks), ``serving`` (a real ``streamlit run``), ``golden_export`` (the pinned exports)."""
