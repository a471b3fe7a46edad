"""Loading the MQM test slices (tests/data/mqm/PROVENANCE.md) as a user's files would be loaded."""

from __future__ import annotations

import csv
from pathlib import Path

from metrics.annotations.collect import LoadedTexts, read_system_map

DATA = Path(__file__).resolve().parents[2] / "data" / "mqm"
# ../shared beside the checkout (a worktree may sit one level deeper than the main checkout)
SHARED = next(
    (p / "shared" / "data" / "wmt21-ted" for p in Path(__file__).resolve().parents if (p / "shared" / "data").is_dir()),
    Path("/nonexistent"),
)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def loaded(folder: Path, *, source: bool = True, ids: bool = True) -> LoadedTexts:
    """Every system and reference of ``systems.tsv`` under its file name, the source, ``meta.tsv``'s seg_id."""
    with (folder / "systems.tsv").open(encoding="utf-8") as f:
        files = [row["text"] for row in csv.DictReader(f, delimiter="\t")]
    with (folder / "meta.tsv").open(encoding="utf-8") as f:
        seg_ids = [row["seg_id"] for row in csv.DictReader(f, delimiter="\t")]
    return LoadedTexts(
        {Path(file).stem: lines(folder / file) for file in files},
        lines(folder / "src.txt") if source else None,
        read_system_map(folder / "systems.tsv"),
        seg_ids if ids else None,
    )
