"""nltk's METEOR over Debian's WordNet 3.0: the reference of the METEOR parity and fuzz tests.

nltk reads WordNet 3.0 from Debian's ``wordnet-base`` (``/usr/share/wordnet``) through a small reader subclass
(Debian ships neither ``lexnames`` nor ``index.sense``, and nltk 3.10 refuses paths outside ``nltk.data.path``);
the fixture skips, saying why, when that directory is absent.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest

WORDNET_DIR = Path("/usr/share/wordnet")
_LEXNAMES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]


@pytest.fixture(scope="session")
def nltk_wordnet():  # type: ignore[no-untyped-def]
    """nltk's own WordNetCorpusReader over Debian's WordNet 3.0 files."""
    if not (WORDNET_DIR / "index.noun").exists():
        pytest.skip(f"{WORDNET_DIR} is absent: install Debian's wordnet-base to compare with nltk's WordNet")
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    pos = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
    lexnames = "".join(f"{i:02d}\t{n}\t{pos[n.split('.')[0]]}\n" for i, n in enumerate(_LEXNAMES))

    class DebianWordNet(WordNetCorpusReader):
        def open(self, fileid):  # type: ignore[no-untyped-def]
            return io.StringIO(lexnames) if fileid == "lexnames" else super().open(fileid)

        def map_wn(self, version="wordnet"):  # type: ignore[no-untyped-def]
            return None  # needs index.sense, used only for other wordnets

    if str(WORDNET_DIR) not in nltk.data.path:
        nltk.data.path.append(str(WORDNET_DIR))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        return DebianWordNet(str(WORDNET_DIR), None)


def nltk_scores(hyps: list[str], refs: list[list[str]], wordnet, **options: float) -> list[float]:  # type: ignore[no-untyped-def]
    from nltk.translate.meteor_score import meteor_score

    return [
        meteor_score([stream[i].split() for stream in refs], hyp.split(), wordnet=wordnet, **options)
        for i, hyp in enumerate(hyps)
    ]
