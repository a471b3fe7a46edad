"""Build ``metrics/data/wordnet-3.0-synonyms.txt.gz``, the offline WordNet that METEOR's synonym stage reads.

    python scripts/build_wordnet_index.py [WORDNET_DICT_DIR]      # default /usr/share/wordnet

The input is Princeton WordNet 3.0 as Debian's ``wordnet-base`` package installs it (``apt-get install
wordnet-base``; ``index.*``, ``data.*`` and ``*.exc``). The output keeps exactly what nltk 3.10.4's
``wordnet.synsets(word)`` needs to list the lemma names METEOR compares (nltk ``meteor_score`` keeps the names
without ``_`` of every synset it gets back), and nothing else:

* ``@synsets``: one line per synset that has at least one lemma name without ``_``; the line is those names,
  space-separated, with their case and with adjective markers such as ``(a)`` removed, as nltk's ``Lemma.name()``
  gives them. Synsets whose names all contain ``_`` can never add a synonym, so they are left out.
* ``@lemmas`` (one index lemma per line, sorted) and ``@senses`` (the same number of lines, in the same order):
  ``noun<TAB>verb<TAB>adj<TAB>adv``, each POS field a comma-separated list of line numbers into ``@synsets``
  (WordNet's sense order). Two parallel columns load faster than one column to split. Lemmas whose every field
  would be empty are left out: for the union of lemma names, a form missing from the index and a form whose
  synsets carry no usable name add the same nothing.
* ``@exceptions``: ``pos<TAB>inflected<TAB>base base …`` from the morphological exception lists, every key kept
  (an exception entry switches off the suffix rules for that form even when its bases add nothing), later lines
  replacing earlier ones as nltk's dict does.

The licence of WordNet 3.0 is written beside the data as ``WORDNET-LICENSE.txt``. The output is deterministic
(sorted, gzip with mtime 0), so rebuilding on another machine gives the same bytes.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "metrics" / "data"
OUT_NAME = "wordnet-3.0-synonyms.txt.gz"
LICENSE_NAME = "WORDNET-LICENSE.txt"
FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}  # nltk's POS_LIST order
# nltk strips a trailing syntactic marker such as "(a)", "(p)" or "(ip)" from adjective lemma names.
MARKER = re.compile(r"(.*?)(\([^()]*\))?$")


def read_synset_names(wn: Path, suffix: str) -> dict[int, tuple[str, ...]]:
    """Offset → lemma names of every synset in ``data.<suffix>``, in file order."""
    names: dict[int, tuple[str, ...]] = {}
    with open(wn / f"data.{suffix}", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(" "):
                continue  # licence header
            columns, _, _ = line.partition("|")
            fields = columns.split()
            count = int(fields[3], 16)
            words = fields[4 : 4 + 2 * count : 2]
            names[int(fields[0])] = tuple(MARKER.match(word).group(1) for word in words)  # type: ignore[union-attr]
    return names


def read_index(wn: Path, suffix: str) -> dict[str, list[int]]:
    """Lemma → synset offsets (sense order) of ``index.<suffix>``, parsed field by field as nltk does."""
    index: dict[str, list[int]] = {}
    with open(wn / f"index.{suffix}", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma, n_synsets, n_pointers = fields[0], int(fields[2]), int(fields[3])
            start = 4 + n_pointers + 2
            index[lemma] = [int(offset) for offset in fields[start : start + n_synsets]]
    return index


def read_exceptions(wn: Path, suffix: str) -> dict[str, list[str]]:
    exceptions: dict[str, list[str]] = {}
    with open(wn / f"{suffix}.exc", encoding="utf-8") as handle:
        for line in handle:
            terms = line.split()
            exceptions[terms[0]] = terms[1:]
    return exceptions


def licence_text(wn: Path) -> str:
    """The WordNet 3.0 licence, as printed in the numbered header of ``data.noun``."""
    lines = []
    with open(wn / "data.noun", encoding="utf-8") as handle:
        for line in handle:
            if not line.startswith(" "):
                break
            lines.append(line.strip().split(" ", 1)[1].rstrip() if " " in line.strip() else "")
    return "\n".join(lines).strip() + "\n"


def build(wn: Path) -> tuple[bytes, str]:
    synset_lines: list[str] = []
    synset_ids: dict[tuple[str, int], int] = {}
    lemma_fields: dict[str, list[list[int]]] = {}
    for slot, (pos, suffix) in enumerate(FILES.items()):
        names = read_synset_names(wn, suffix)
        for lemma, offsets in read_index(wn, suffix).items():
            ids = []
            for offset in offsets:
                usable = [name for name in names[offset] if "_" not in name]
                if not usable:
                    continue
                key = (pos, offset)
                if key not in synset_ids:
                    synset_ids[key] = len(synset_lines)
                    synset_lines.append(" ".join(usable))
                ids.append(synset_ids[key])
            if ids:
                lemma_fields.setdefault(lemma, [[], [], [], []])[slot] = ids
    out = ["# WordNet 3.0 lemma names for nltk-compatible METEOR synonyms (scripts/build_wordnet_index.py)", "@synsets"]
    out.extend(synset_lines)
    lemmas = sorted(lemma_fields)
    out.append("@lemmas")
    out.extend(lemmas)
    out.append("@senses")
    out.extend("\t".join(",".join(map(str, ids)) for ids in lemma_fields[lemma]) for lemma in lemmas)
    out.append("@exceptions")
    for pos, suffix in FILES.items():
        for form, bases in sorted(read_exceptions(wn, suffix).items()):
            out.append(f"{pos}\t{form}\t{' '.join(bases)}")
    text = "\n".join(out) + "\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0), licence_text(wn)


def main(argv: list[str]) -> int:
    wn = Path(argv[1]) if len(argv) > 1 else Path("/usr/share/wordnet")
    if not (wn / "index.noun").exists():
        print(f"{wn} has no WordNet index files; install Debian's wordnet-base", file=sys.stderr)
        return 1
    data, licence = build(wn)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / OUT_NAME).write_bytes(data)
    (OUT_DIR / LICENSE_NAME).write_text(licence, encoding="utf-8")
    print(f"wrote {OUT_DIR / OUT_NAME} ({len(data):,} bytes) and {LICENSE_NAME}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
