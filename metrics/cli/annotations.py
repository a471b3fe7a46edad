"""The human-annotation flags of ``scorelens score`` and ``scorelens analyze``.

    scorelens score ref.A.txt -i sys/*.txt -s src.txt --annotations raw/mqm_ted_ende.tsv \\
        --annotation-systems human/systems.tsv --annotation-ids meta.tsv:seg_id
    scorelens score refs.txt -i sys/*.txt --annotations esa.jsonl:esa --annotations xcomet.spans.jsonl:spans

``--annotations FILE[:SCHEME]`` reads a file of error annotations (:mod:`metrics.annotations`; SCHEME ``mqm`` — WMT's
MQM TSV —, ``esa`` — WMT24's ESA JSON Lines — or ``spans`` — ScoreLens's span JSON Lines —, else from the file) and
adds its scores as metrics: ``mqm`` for an MQM or span file (WMT's weights, or ``--mqm-weights``), ``esa`` for an
ESA file, and ``esa`` too for a span file whose ratings carry scores. With several files the ids are
``mqm-<file name>``. Spans are located in the loaded outputs, references (a reference rated as a system, under its
file name) and source. ``--annotation-systems FILE`` maps the file's system names to the loaded ones (a TSV with
``system`` and ``text`` columns, as WMT data's ``systems.tsv``); ``--annotation-ids FILE[:COLUMN]`` gives the id of
each loaded line (one per line, or a TSV column), which the file's ``seg_id``/``line_id`` name.
``--spans-out FILE`` writes what was read (every file) in the span format, e.g. to turn WMT's TSV into it.
``--annotation-skip-unloaded`` leaves out the records of systems that are not loaded (the note on the input counts
them); without it such a record is an error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from metrics.core.registry import SPECS
from metrics.reports.results import Note

if TYPE_CHECKING:
    from metrics.annotations.metric import AnnotationMetric
    from metrics.core.evaluation import Evaluation

SCHEMES = ("mqm", "esa", "spans")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("human error annotations (MQM, ESA) and model spans (xCOMET, LLM judges)")
    group.add_argument(
        "--annotations",
        action="append",
        default=[],
        metavar="FILE[:SCHEME]",
        help="error annotations (SCHEME mqm: WMT MQM TSV, esa: WMT24 ESA JSONL, spans: ScoreLens span JSONL; "
        "default from the file); adds the metrics mqm and/or esa",
    )
    group.add_argument(
        "--annotation-systems", metavar="FILE", help="TSV with columns system, text: the file's system names"
    )
    group.add_argument(
        "--annotation-ids", metavar="FILE[:COLUMN]", help="segment id of each loaded line (seg_id / line_id)"
    )
    group.add_argument(
        "--annotation-skip-unloaded",
        action="store_true",
        help="leave out (and count) the records of systems that are not loaded, instead of refusing them",
    )
    group.add_argument(
        "--spans-out",
        metavar="FILE",
        help="write the annotations read, every file's, in ScoreLens's span JSON Lines format",
    )
    group.add_argument(
        "--mqm-weights",
        metavar="SPEC",
        help="MQM weights, e.g. major=5,minor=1,critical=10,neutral=0,minor-punctuation=0.1,non-translation=25 "
        "(WMT's are the default)",
    )


def _file_and_scheme(spec: str) -> tuple[str, str | None]:
    path, sep, scheme = spec.rpartition(":")
    if sep and scheme in SCHEMES and path:
        return path, scheme
    return spec, None


def read_segment_ids(spec: str) -> list[str]:
    """``--annotation-ids``: one id per line of FILE, or the COLUMN of a TSV with a header (``meta.tsv:seg_id``)."""
    from metrics.annotations.collect import read_file
    from metrics.io.inputs import InputError, table_rows

    path, sep, column = spec.rpartition(":")
    if not sep or not path or not Path(path).exists():
        return [line.strip() for line in read_file(spec)[0].rstrip("\n").split("\n")]
    rows = table_rows(read_file(path)[0], path, "\t", newline="\n")
    if not rows or column not in rows[0]:
        raise InputError(path, f"no column {column!r} in the header ({', '.join(rows[0]) if rows else 'empty'})", 1)
    index = rows[0].index(column)
    return [row[index] for row in rows[1:] if row]


def annotation_metrics(
    args: argparse.Namespace,
    systems: Mapping[str, Sequence[str]],
    refs: Mapping[str, Sequence[str | None]],
    source: Sequence[str] | None,
    taken: Sequence[str],
) -> dict[str, AnnotationMetric]:
    """The MQM/ESA metrics of ``--annotations``, read against the loaded texts (``refs``: reference streams by
    file name, located when a file rates a reference as a system; ``taken``: metric ids already in use)."""
    if not args.annotations:
        for flag in ("annotation_systems", "annotation_ids", "annotation_skip_unloaded", "spans_out", "mqm_weights"):
            if getattr(args, flag):
                raise ValueError(f"--{flag.replace('_', '-')} needs --annotations FILE")
        return {}
    from metrics.annotations.collect import LoadedTexts, read_system_map
    from metrics.annotations.metric import AnnotationMetric, HumanScore
    from metrics.annotations.model import Scheme
    from metrics.annotations.mqm import WMT_WEIGHTS, MqmWeights
    from metrics.annotations.read import read_annotations

    weights = MqmWeights.parse(args.mqm_weights) if args.mqm_weights else WMT_WEIGHTS
    rated_refs = {name: [t or "" for t in texts] for name, texts in refs.items() if name not in systems}
    texts = LoadedTexts(
        {**systems, **rated_refs},
        source,
        read_system_map(args.annotation_systems) if args.annotation_systems else {},
        read_segment_ids(args.annotation_ids) if args.annotation_ids else None,
        skip_unloaded=args.annotation_skip_unloaded,
    )
    result: dict[str, AnnotationMetric] = {}
    read = []
    for spec in args.annotations:
        path, scheme = _file_and_scheme(spec)
        annotations = read_annotations(path, texts, scheme)
        read.append(annotations)
        kinds = [HumanScore.ESA] if annotations.scheme is Scheme.ESA else [HumanScore.MQM]
        scored = any(r.score is not None for rows in annotations.ratings.values() for s in rows for r in s)
        if annotations.scheme is Scheme.SPANS and scored:
            kinds.append(HumanScore.ESA)
        for kind in kinds:
            name = kind.value if len(args.annotations) == 1 else f"{kind.value}-{Path(path).stem}"
            if name in SPECS or name in taken or name in result:
                raise ValueError(f"--annotations {spec!r}: the metric id {name!r} is already taken")
            result[name] = AnnotationMetric(annotations, kind, weights, name)
    if args.spans_out:
        from metrics.annotations.spans_jsonl import write_spans_jsonl

        write_spans_jsonl(read, args.spans_out)
    return result


def annotation_notes(evaluation: Evaluation) -> list[Note]:
    """What was kept of each annotation file, once per file."""
    if "metrics.annotations.metric" not in sys.modules:  # no --annotations: nothing to say, nothing to import
        return []
    from metrics.annotations.metric import AnnotationMetric

    seen: dict[str, str] = {}
    for metric in evaluation.metrics.values():
        if isinstance(metric, AnnotationMetric):
            seen.setdefault(metric.annotations.source, metric.annotations.summary())
    return [Note(f"{Path(source).name}: {summary}") for source, summary in seen.items()]
