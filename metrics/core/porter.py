"""The Porter stemmer rouge-score and nltk's METEOR use: nltk's ``PorterStemmer()`` (mode NLTK_EXTENSIONS).

The compiled port (:mod:`metrics.kernels._porter`) gives the same stems without importing nltk (about a second of
start-up) and many times faster; without the build, or with the pure path forced, nltk's own stemmer runs.
"""

from __future__ import annotations

from collections.abc import Callable

from metrics.kernels import kernel


def porter_stemmer() -> Callable[[str], str]:
    """A function from a word to its stem, as ``nltk.stem.porter.PorterStemmer().stem``."""
    compiled = kernel("porter")
    if compiled is not None:
        stem: Callable[[str], str] = compiled.stem
        return stem
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer().stem
