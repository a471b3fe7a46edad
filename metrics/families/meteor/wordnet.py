"""Offline WordNet 3.0 synonyms exactly as nltk's METEOR sees them, from a compact index shipped with ScoreLens.

nltk's ``meteor_score`` asks ``wordnet.synsets(word)`` for every hypothesis word left after the exact and stem
stages and keeps the lemma names without ``_`` of every synset returned. Reproducing that needs nltk's *morphy*
(Miller et al., "WordNet: An online lexical database", 1990; nltk 3.10.4 ``WordNetCorpusReader._morphy``), applied
for each part of speech in nltk's order noun, verb, adjective, adverb:

1. the query is lowercased;
2. if the form is a key of that POS's exception list, the candidates are its listed base forms, otherwise the
   POS's suffix rules applied once (``-ies`` → ``-y``, ``-ing`` → ``-e`` or ``""`` …);
3. the form itself and those candidates are looked up in the index of that POS.

Lemma names keep WordNet's case (``Party``), so capitalised names never equal a lowercased word: nltk's behaviour.

The index (``metrics/data/wordnet-3.0-synonyms.txt.gz``, built from Debian's ``wordnet-base`` by
``scripts/build_wordnet_index.py``; WordNet licence in ``metrics/data/WORDNET-LICENSE.txt``) is read on first use,
never at import, and needs no ``nltk.download``.
"""

from __future__ import annotations

import gzip
import threading
from bisect import bisect_left
from functools import lru_cache
from pathlib import Path

DATA_FILE = Path(__file__).resolve().parent / "data" / "wordnet-3.0-synonyms.txt.gz"
POS_ORDER = ("n", "v", "a", "r")  # nltk's POS_LIST
# nltk 3.10.4 WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS (the adverb list is empty).
SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


def _sections(text: str, names: tuple[str, ...]) -> dict[str, str]:
    """Split the index file into its ``@name`` sections (in this order), without the trailing newline."""
    result: dict[str, str] = {}
    cursor = 0
    for name, following in zip(names, (*names[1:], None), strict=True):
        start = text.index(f"\n@{name}\n", cursor) + len(name) + 3
        end = len(text.rstrip("\n")) if following is None else text.index(f"\n@{following}\n", start)
        result[name] = text[start:end]
        cursor = end
    return result


class WordNetIndex:
    """Lemma names of WordNet 3.0 synsets, looked up with nltk's morphy; results are cached per word."""

    def __init__(self, text: str) -> None:
        sections = _sections(text, ("synsets", "lemmas", "senses", "exceptions"))
        self._synsets: list[str] = sections["synsets"].split("\n")
        lemmas = sections["lemmas"].split("\n")
        senses = sections["senses"].split("\n")
        if len(lemmas) != len(senses):
            raise RuntimeError(f"corrupt WordNet index: {len(lemmas)} lemmas but {len(senses)} sense lines")
        # The lemma column is sorted, so a binary search replaces a 110k-entry dict (whose construction would
        # dominate the load time); sense lines stay unparsed until a word needs them, and results are cached.
        self._lemmas = lemmas
        self._senses = senses
        self._exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in POS_ORDER}
        for line in sections["exceptions"].split("\n"):
            pos, form, bases = line.split("\t")
            self._exceptions[pos][form] = tuple(bases.split(" ")) if bases else ()
        self._cache: dict[str, frozenset[str]] = {}

    @classmethod
    def load(cls, path: Path = DATA_FILE) -> WordNetIndex:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise RuntimeError(
                f"the WordNet index {path} is missing ({err.strerror}); rebuild it with "
                "scripts/build_wordnet_index.py from Debian's wordnet-base"
            ) from None
        return cls(gzip.decompress(data).decode("utf-8"))

    def candidate_forms(self, word: str, pos: str) -> list[str]:
        """The forms nltk's morphy tries for ``word`` in ``pos``: the word, then exception bases or rule outputs."""
        exceptions = self._exceptions[pos]
        if word in exceptions:
            return [word, *exceptions[word]]
        return [word] + [word[: -len(old)] + new for old, new in SUBSTITUTIONS[pos] if word.endswith(old)]

    def lemma_names(self, word: str) -> frozenset[str]:
        """Names without ``_`` of every lemma of ``wordnet.synsets(word)`` (all parts of speech), as in nltk."""
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        query = word.lower()
        names: set[str] = set()
        for slot, pos in enumerate(POS_ORDER):
            for form in self.candidate_forms(query, pos):
                at = bisect_left(self._lemmas, form)
                if at == len(self._lemmas) or self._lemmas[at] != form:
                    continue
                ids = self._senses[at].split("\t")[slot]
                if ids:
                    for synset in ids.split(","):
                        names.update(self._synsets[int(synset)].split(" "))
        result = frozenset(names)
        self._cache[word] = result
        return result

    def clear_cache(self) -> None:
        """Forget memoized lookups (to time a cold start, or to free memory)."""
        self._cache.clear()

    def __len__(self) -> int:
        return len(self._lemmas)


_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _load_once() -> WordNetIndex:
    return WordNetIndex.load()


def wordnet_index() -> WordNetIndex:
    """The shared index, loaded on first call (thread-safe; about a tenth of a second)."""
    with _LOCK:
        return _load_once()
