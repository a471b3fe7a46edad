"""The external-score flags of ``scorelens score``.

    scorelens score … --external comet22=comet.jsonl --external-meta "comet22:provenance=COMET-22 wmt22-comet-da 2.2"
    scorelens score … --external metricx=mx.tsv --external-meta metricx:lower,one-based

``--external NAME=FILE`` adds the metric NAME whose segment scores are read from FILE (see
:mod:`metrics.families.external.scores` for the layouts); it then appears under NAME in every output. ``--external-meta
NAME:FIELDS`` declares, comma-separated: ``higher`` (the default) or ``lower`` for the better direction,
``one-based`` when the file counts segments from 1 (``zero-based`` is the default), ``fit=NAME`` — the
human-agreement fit of mt-thresholds the scores take (``comet22``, ``xcometxl``, ``metricx-23-large``; ``none`` for
no estimate; without it a NAME such as ``comet22`` or ``COMET-22`` finds its fit by itself) — and ``provenance=TEXT``
— how the scores were made, which leads the signature. ``provenance=`` comes last and takes the rest of the argument,
commas included.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from metrics.core.registry import SPECS
from metrics.reports.results import Note

if TYPE_CHECKING:
    from metrics.core.evaluation import Evaluation
    from metrics.families.external import External


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("external scores (COMET, BLEURT, MetricX, an LLM judge, human raters …)")
    group.add_argument(
        "--external",
        action="append",
        default=[],
        metavar="NAME=FILE",
        help="segment scores of metric NAME from FILE (.jsonl/.tsv/.csv: system, segment, score; or a column per system)",
    )
    group.add_argument(
        "--external-meta",
        action="append",
        default=[],
        metavar="NAME:FIELDS",
        help="for external NAME: higher|lower, one-based|zero-based, fit=NAME (mt-thresholds, or none), "
        "provenance=TEXT (last; may contain commas)",
    )


@dataclass(frozen=True)
class Declared:
    """What ``--external-meta`` declares about one external metric."""

    higher_is_better: bool = True
    one_based: bool = False
    provenance: str = ""
    fit: str = ""


def parse_meta(text: str) -> tuple[str, Declared]:
    """``"comet:lower,one-based,provenance=COMET-22, wmt22"`` → ``("comet", Declared(False, True, "COMET-22, wmt22"))``."""
    name, sep, fields = text.partition(":")
    if not sep or not name.strip():
        raise ValueError(f"--external-meta {text!r}: expected NAME:FIELDS, e.g. comet:lower,provenance=COMET-22")
    head, _, provenance = fields.partition("provenance=")
    flags = [f.strip() for f in head.split(",") if f.strip()]
    higher, one_based, fit = True, False, ""
    for flag in flags:
        if flag.startswith("fit="):
            fit = flag.removeprefix("fit=").strip()
        elif flag in ("higher", "lower"):
            higher = flag == "higher"
        elif flag in ("one-based", "zero-based"):
            one_based = flag == "one-based"
        else:
            raise ValueError(
                f"--external-meta {text!r}: unknown field {flag!r}; valid: higher, lower, one-based, zero-based, "
                "fit=NAME, provenance=TEXT"
            )
    return name.strip(), Declared(higher, one_based, provenance.strip(), fit)


def external_metrics(
    specs: Sequence[str], metas: Sequence[str], chosen: Sequence[str], systems: Sequence[str], n_segments: int
) -> dict[str, External]:
    """The external metrics the flags ask for, read for the loaded ``systems`` (``chosen``: the computed metrics'
    ids, which an external name may not repeat)."""
    files: dict[str, str] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        name = name.strip()
        if not sep or not name or not path:
            raise ValueError(f"--external {spec!r}: expected NAME=FILE, e.g. comet22=comet.jsonl")
        if name in SPECS or name in chosen:
            raise ValueError(f"--external {spec!r}: {name!r} is a ScoreLens metric id; give the scores another name")
        if name in files:
            raise ValueError(f"--external names {name!r} twice")
        files[name] = path
    declared: dict[str, Declared] = {}
    for meta in metas:
        name, values = parse_meta(meta)
        if name not in files:
            raise ValueError(f"--external-meta {meta!r}: no --external {name}=FILE was given")
        declared[name] = values
    if not files:
        return {}
    from metrics.families.external import (
        External,
        read_external,
    )  # here: hashing and parsing score files, for --external

    result = {}
    for name, path in files.items():
        d = declared.get(name, Declared())
        scores = read_external(
            path, name, systems, n_segments,
            one_based=d.one_based, higher_is_better=d.higher_is_better, provenance=d.provenance, fit=d.fit,
        )  # fmt: skip
        result[name] = External(scores)
    return result


def external_notes(evaluation: Evaluation) -> list[Note]:
    """What reading the external scores of ``evaluation`` noted about their files, as notes on the input."""
    # No metric is an External unless its module was imported (external_metrics does): a run without --external
    # does not import it for this check.
    if "metrics.families.external.metric" not in sys.modules:
        return []
    from metrics.families.external import External

    return [Note(n) for m in evaluation.metrics.values() if isinstance(m, External) for n in m.scores.notes]
