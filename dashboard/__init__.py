"""The app layer shared by ``app.py`` and ``pages/``: datasets, session state, cached evaluation."""
