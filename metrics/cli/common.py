"""What the ``scorelens`` subcommands share: the input options sacrebleu users know (references as positional
``REFS`` or ``-r``, ``-i``, ``-m``, ``-l``, ``-tok``, ``-`` for standard input and standard input when no ``-i`` is
given), reading and scoring the files — with metrics and language options chosen from the references when not
given — and notes on stderr."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from metrics.cli import annotations as cli_annotations
from metrics.cli import external as cli_external
from metrics.cli.progress import ProgressBar
from metrics.core.base import Metric, MissingInput, missing_input
from metrics.core.evaluation import Evaluation
from metrics.core.family import Task
from metrics.core.language import Language, apply_language, detect_language, language_settings
from metrics.core.registry import SPECS
from metrics.core.selection import Selection
from metrics.evaluate import evaluate
from metrics.io.inputs import STDIN, Segments, check_same_length, read_all
from metrics.kernels import processors
from metrics.reports.results import Note, note_groups

LANGUAGES = ("auto", "none", *(lang.value for lang in Language))
REFS_HINT = "give the reference files, as REFS (scorelens score ref.txt -i sys.txt) or with -r/--refs"


def metric_list(items: Sequence[str]) -> list[str]:
    """``-m bleu chrf`` (as sacrebleu) or ``-m bleu,chrf``: the ids, checked."""
    ids = [m.strip() for item in items for m in item.split(",") if m.strip()]
    unknown = [m for m in ids if m not in SPECS]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; valid metrics: {', '.join(SPECS)}")
    if len(set(ids)) != len(ids):
        raise ValueError(f"metric listed twice in {' '.join(items)!r}")
    if not ids:
        raise ValueError("-m/--metrics names no metric")
    return ids


def language_code(text: str) -> str:
    """``auto``, ``none``, or a language code or sacrebleu's ``SRC-TRG`` pair, whose target counts: ``zh``, ``ja``
    and ``ko`` have options of their own, any other target language has none."""
    value = text.strip().lower()
    if value in ("auto", "none"):
        return value
    code = value.rsplit("-", 1)[-1]
    if not (2 <= len(code) <= 3 and code.isascii() and code.isalpha()):
        raise argparse.ArgumentTypeError(f"{text!r}: expected auto, none, a language code (zh) or a pair (en-zh)")
    return code if code in LANGUAGES else "none"


def add_input_arguments(parser: argparse.ArgumentParser, *, table: bool = False) -> None:
    """The options every scoring subcommand takes, spelled as sacrebleu spells them; ``table``: a Parquet table
    (``--table``) may stand for the files (:func:`resolve_inputs` checks that one of the two is given)."""
    parser.add_argument(
        "ref_files", nargs="*", metavar="REFS", help="reference files, as sacrebleu's positional REFS (or -r)"
    )
    parser.add_argument("-r", "--refs", nargs="+", metavar="FILE", help="reference files (one stream each)")
    parser.add_argument(
        "-i",
        "--systems",
        "--input",
        nargs="+",
        metavar="FILE",
        help=f"system output files; {STDIN} reads one from standard input, as leaving -i out does when standard "
        "input is a pipe or a file (as in sacrebleu)",
    )
    parser.add_argument(
        "-s",
        "--source",
        metavar="FILE",
        help="source segments, one per line as the other files: read by the metrics that read the source, and by "
        "analyze's src-length buckets. Without references (no REFS or -r), only metrics that read none can run",
    )
    if table:
        parser.add_argument(
            "--table",
            metavar="FILE",
            help="a Parquet table instead: a column per system, reference columns ref or ref.*",
        )
        parser.add_argument(
            "--source-column",
            metavar="COLUMN",
            help="with --table: the column of the source texts (e.g. _src, which is otherwise skipped)",
        )
    parser.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        metavar="METRIC",
        help=f"space- or comma-separated, from: {', '.join(SPECS)} (default: chosen from the references)",
    )
    parser.add_argument(
        "--task",
        choices=[task.name.lower() for task in Task],
        help="what the outputs are, for the default metrics when -m is not given (default: read from the data)",
    )
    parser.add_argument("--set", action="append", default=[], metavar="FAMILY.OPTION=VALUE", dest="options")
    parser.add_argument(
        "-tok",
        "--tokenize",
        metavar="TOK",
        help="BLEU's tokenizer, as sacrebleu's -tok (the same as --set bleu.tokenize=TOK): 13a, none, intl, char, "
        "zh, ja-mecab, ko-mecab",
    )
    parser.add_argument(
        "-l",
        "--language",
        type=language_code,
        default="auto",
        metavar="LANG",
        help="target language: auto (detect Chinese/Japanese/Korean references, the default), none, zh, ja, ko "
        "or a pair such as en-zh; sets what that language calls for (BLEU tokenizer as sacrebleu -l, TER's CJK "
        "handling) unless --set gives the option",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=processors(),
        metavar="N",
        help="worker processes (default: one per processor; the numbers are the same with any N)",
    )
    cli_external.add_arguments(parser)
    cli_annotations.add_arguments(parser)


def note(message: str) -> None:
    print(f"scorelens: note: {message}", file=sys.stderr)


@dataclass(frozen=True)
class Scored:
    """The input files' texts, their evaluation and the notes on reading them (``source`` when one was given)."""

    evaluation: Evaluation
    refs: list[list[str]]
    systems: Mapping[str, list[str]]
    notes: list[Note]
    source: list[str] | None = None


def _read(refs: Sequence[str], systems: Sequence[str], source: str | None) -> tuple[list[Segments], ...]:
    paths = [*refs, *systems, *([source] if source else [])]
    if paths.count(STDIN) > 1:
        raise ValueError(f"{STDIN} (standard input) can be read only once")
    files = read_all(paths)
    ref_files, system_files = files[: len(refs)], files[len(refs) : len(refs) + len(systems)]
    source_files = files[len(refs) + len(systems) :]
    check_same_length([*ref_files, *system_files, *source_files])
    names = [s.name for s in system_files]
    if len(set(names)) != len(names):
        raise ValueError(f"two system files share a name ({', '.join(names)}); rename one")
    return ref_files, system_files, source_files


def resolve_inputs(args: argparse.Namespace, stdin: TextIO | None = None) -> argparse.Namespace:
    """The parsed arguments as the scoring reads them, with sacrebleu's habits resolved (a new namespace; ``args``
    is left as it is): references given as positional ``REFS`` or with ``-r`` (not both) become ``refs`` (``[]``
    for none: only metrics that read no references can then run, which :func:`build_metrics` checks); without
    ``-i`` the one system is read from standard input (``stdin``, default ``sys.stdin``) unless it is a terminal,
    where the error says how to give one; ``-tok`` becomes ``--set bleu.tokenize``. Either ``--table`` or the files
    (the ``analyze`` command has no ``--table``)."""
    if args.ref_files and args.refs:
        raise ValueError(
            f"references given twice: as REFS ({' '.join(args.ref_files)}) and with -r/--refs; give them one way"
        )
    refs, systems = args.refs or args.ref_files or [], args.systems
    table = getattr(args, "table", None)
    if table is not None and (refs or systems or args.source):
        raise ValueError(
            "give either --table or the reference (REFS or -r/--refs) and system (-i) files, not both (nor "
            "--source: a table's source is its --source-column)"
        )
    if table is None and getattr(args, "source_column", None):
        raise ValueError("--source-column names a column of --table; for files, give --source FILE")
    if table is None and not systems:
        if (stdin if stdin is not None else sys.stdin).isatty():
            raise ValueError(
                "no system output given, and standard input is a terminal: give -i FILE, or pipe the output in "
                f"(cat sys.txt | scorelens score ref.txt, the same as -i {STDIN})"
            )
        systems = [STDIN]
    options = list(args.options)
    if args.tokenize is not None:
        given = [o for o in options if o.partition("=")[0].strip() == "bleu.tokenize"]
        if given:
            raise ValueError(f"-tok/--tokenize and --set {given[0]} both set BLEU's tokenizer; give one")
        options.append(f"bleu.tokenize={args.tokenize}")
    return argparse.Namespace(**{**vars(args), "refs": refs, "systems": systems, "options": options})


def build_metrics(
    args: argparse.Namespace,
    refs: Sequence[Sequence[str | None]],
    outputs: Sequence[Sequence[str]] = (),
    source: Sequence[str] | None = None,
) -> dict[str, Metric[Any, Any]]:
    """The metrics of ``-m``, else those of ``--task`` or of the task read from the references ``refs`` (reference
    streams; their first few thousand segments are what either choice reads), the systems' ``outputs`` and the
    ``source`` (:mod:`metrics.core.defaults`), with the options of the references' language unless ``-l none``;
    both choices are said on stderr. A metric that needs what was not given (references, the source) is refused
    with a message that says what to give."""
    chosen: Mapping[str, Mapping[str, Any]] = {}
    if args.metrics:
        metric_ids = metric_list(args.metrics)
    else:
        from metrics.core.defaults import choose_metrics  # here: it reads the references' sentences, -m does not

        task = Task[args.task.upper()] if args.task else None
        choice = choose_metrics(refs, source=source, outputs=outputs, task=task)
        metric_ids, chosen = list(choice.metrics), choice.options
        other = "-m chooses others" if task else "--task or -m chooses others"
        note(f"metrics chosen from the data: {', '.join(metric_ids) or 'none'} ({choice.explain()}); {other}")
    selection = Selection.from_set(metric_ids, args.options)
    if chosen:  # what the choice set so that the metrics read the references' letters, unless --set set it
        given = selection.options
        merged = {f: {**values, **given.get(f, {})} for f, values in chosen.items()}
        selection = Selection(selection.metric_ids, {**given, **merged})
    if args.language != "none":
        counts = detect_language(refs) if args.language == "auto" else None
        language = counts.language if counts is not None else Language(args.language)
        options, applied = apply_language(language_settings(language), selection.options, selection.families)
        if language is not None and (applied.choices or applied.fallbacks):
            found = f"references look {counts.describe()}" if counts is not None else f"language {language.value}"
            note(f"{found}: {applied.summary()}; -l none keeps the defaults")
        selection = Selection(selection.metric_ids, options)
    built = selection.build()
    refuse_missing_inputs(args, built.values(), references=bool(refs), source=source is not None)
    return built


def refs_hint(args: argparse.Namespace) -> str:
    """How to give references: files, or a table where the command takes one and none was given."""
    return REFS_HINT + (", or --table" if hasattr(args, "table") and args.table is None else "")


def refuse_missing_inputs(
    args: argparse.Namespace, metrics: Iterable[Metric[Any, Any]], *, references: bool, source: bool
) -> None:
    """Refuse every metric that needs what was not given, in one error that says which option gives it."""
    missing: dict[str, list[str]] = {}
    for metric in metrics:
        found: MissingInput | None = missing_input(metric, references=references, source=source)
        if found is not None:
            missing.setdefault(found.needs, []).append(found.metric)
    table = getattr(args, "table", None) is not None
    hints = {
        "references": refs_hint(args),
        "source": "give --source-column COLUMN of the table" if table else "give --source FILE (-s)",
    }
    if missing:
        raise ValueError(
            "; ".join(
                f"{', '.join(names)} need{'s' if len(names) == 1 else ''} the {needs}: {hints[needs]}"
                for needs, names in missing.items()
            )
        )


def score_texts(
    args: argparse.Namespace,
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    source: Sequence[str] | None = None,
    ref_names: Sequence[str] = (),
) -> Evaluation:
    """Every system scored with the metrics of :func:`build_metrics`, the external scores of ``--external`` and
    the human scores of ``--annotations``, under a progress bar (drawn only on a terminal), in ``--jobs`` processes
    (:mod:`metrics.parallel`). ``ref_names``: the reference streams' names, under which an annotation file may
    rate a reference as a system."""
    if args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    metrics = build_metrics(args, refs, list(systems.values()), source)
    segments = len(next(iter(systems.values())))
    externals = cli_external.external_metrics(args.external, args.external_meta, list(metrics), list(systems), segments)
    human = cli_annotations.annotation_metrics(
        args, systems, dict(zip(ref_names, refs, strict=False)), source, [*metrics, *externals]
    )
    given: dict[str, Metric] = {**externals, **human}
    if not metrics and not given:  # only without references: every task declares metrics that read them
        raise ValueError(
            f"no references, and no metric chosen reads none: {refs_hint(args)}; or choose metrics that read no "
            "references with -m (perplexity with --set perplexity.corpus=FILE or model=causal, a source-reading "
            "metric with --source) or give --external scores"
        )
    progress = ProgressBar()
    step = {"fraction": 0.0}

    def report(fraction: float, message: str) -> None:
        step["fraction"] = fraction
        progress(fraction, message)

    # No metric is a BERTScore unless its module was imported (the registry imports it on creating one): a run
    # without one does not import it for this check.
    if "metrics.families.bertscore.metric" in sys.modules:
        from metrics.families.bertscore.metric import BERTScore

        for metric_id, metric in metrics.items():
            if isinstance(metric, BERTScore):  # embedding thousands of sentences is the long part: say how far it got
                metric.progress = lambda done, total, m=metric_id: progress(
                    step["fraction"], f"{m}: {done}/{total} sentences embedded"
                )
    try:
        return evaluate(systems, refs, {**metrics, **given}, report, jobs=args.jobs, source=source)
    finally:
        progress.close()


def score_files(args: argparse.Namespace) -> Scored:
    """Read the files of :func:`add_input_arguments` (all the same length, system names unique; the source when
    ``--source`` gives one) and score them (:func:`score_texts`)."""
    ref_files, system_files, source_files = _read(args.refs, args.systems, args.source)
    streams = [list(r.texts) for r in ref_files]
    texts = {s.name: list(s.texts) for s in system_files}
    sources = list(source_files[0].texts) if source_files else None
    evaluation = score_texts(args, texts, streams, sources, [r.name for r in ref_files])
    read = [*ref_files, *system_files, *source_files]
    return Scored(
        evaluation,
        streams,
        texts,
        [Note(n) for f in read for n in f.notes]
        + caveat_notes(evaluation, streams, list(texts.values()))
        + cli_external.external_notes(evaluation)
        + cli_annotations.annotation_notes(evaluation),
        sources,
    )


def caveat_notes(
    evaluation: Evaluation, refs: Sequence[Sequence[str | None]], outputs: Sequence[Sequence[str]]
) -> list[Note]:
    """What the metrics cannot read in these texts (:mod:`metrics.core.caveats`), once per family, in the command
    line's terms."""
    from metrics.core.caveats import Severity, Surface, language_caveats, metric_options

    found = language_caveats(evaluation.metrics, refs, outputs, metric_options(evaluation.metrics))
    return [Note(c.text(Surface.CLI), warning=c.severity is Severity.WARNING) for c in found]


def print_notes(notes: Sequence[Note]) -> None:
    """Notes on the input as they are; metric warnings once per kind, with the metrics, systems and details."""
    for item in notes:
        if item.metric is None:
            print(f"scorelens: {'warning' if item.warning else 'note'}: {item.message}", file=sys.stderr)
    for group in note_groups(notes):
        print(f"scorelens: warning: {', '.join(group.metrics)} on {', '.join(group.systems)}: {group.message}",
              file=sys.stderr)  # fmt: skip
        for system, details in group.details.items():
            print(f"scorelens:   {system}: {'; '.join(details)}", file=sys.stderr)
