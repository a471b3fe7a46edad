"""The shape every ScoreLens metric shares.

A metric turns each segment (one hypothesis and its references) into a row of sufficient statistics with named
columns. The corpus score is a function of the column-wise *sum* of those rows (BLEU, chrF, TER, WER: micro
averages) or of their *mean* (ROUGE, METEOR, CIDEr-D, CharacTER, EED: the references average segment scores).
Bootstrap resampling and paired tests therefore only ever resample rows; nothing is re-tokenized.

References are passed as *streams*, as in sacrebleu: ``refs[k][i]`` is reference ``k`` of segment ``i``. A
``None`` entry means segment ``i`` has no ``k``-th reference. No streams at all (``refs == []``) is data without
references: a metric whose ``traits.reads_references`` is false scores it, every other raises
:class:`MissingInput`. A metric that reads the source (:class:`ReadsSource`) gets the source stream beside them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, Literal, TypeVar

import numpy as np

from metrics.core.checkpoint import beating
from metrics.core.config import build_config
from metrics.core.explanation import Explanation
from metrics.core.family import Fit
from metrics.core.limits import SegmentLimit, clip, clip_corpus
from metrics.core.traits import Traits

Aggregate = Literal["sum", "mean"]
# Called with the number of segments done so far, so a front end can show progress on long corpora (and stop the
# work by raising from it).
Progress = Callable[[int], None]
ConfigT = TypeVar("ConfigT")
ExplanationT = TypeVar("ExplanationT", bound=Explanation)


@dataclass(frozen=True)
class StatsNote:
    """A warning attached to one system's statistics. ``kind`` says what happened in words that depend neither on
    the system nor on which metric of a family found it, so front ends state it once and list the systems and
    metrics it concerns; ``detail`` says what it found in this system's data (counts, segment numbers), or ``""``."""

    kind: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.kind} ({self.detail})" if self.detail else self.kind


def segments_text(numbers: Sequence[int], limit: int = 20) -> str:
    """``3 segment(s) (4, 9, 12)``: how many, and the first ``limit`` of their 1-based numbers."""
    shown = ", ".join(map(str, numbers[:limit])) + (" …" if len(numbers) > limit else "")
    return f"{len(numbers)} segment(s) ({shown})"


@dataclass(frozen=True)
class SegmentStats:
    """Per-segment sufficient statistics of one metric on one system: ``rows[i]`` belongs to segment ``i``."""

    metric: str
    columns: tuple[str, ...]
    rows: np.ndarray
    aggregate: Aggregate
    notes: tuple[StatsNote, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.rows.ndim != 2 or self.rows.shape[1] != len(self.columns):
            raise ValueError(f"{self.metric}: rows of shape {self.rows.shape} do not fit columns {self.columns}")
        self.rows.setflags(write=False)

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def column(self, name: str) -> np.ndarray:
        return self.rows[:, self.columns.index(name)]

    def pooled(self, index: np.ndarray | None = None) -> np.ndarray:
        """Sum or mean of the rows (of ``rows[index]`` when given; ``index`` may be 2-D for many resamples)."""
        rows = self.rows if index is None else self.rows[index]
        axis = rows.ndim - 2
        return rows.sum(axis=axis) if self.aggregate == "sum" else rows.mean(axis=axis)


@dataclass(frozen=True)
class Rows:
    """What a metric's rows hook (:meth:`Metric._rows`) computed: ``matrix[i]`` is segment ``i``'s row, and
    ``notes`` are what scoring found on the way that the rows do not show (a search that hit its bound)."""

    matrix: np.ndarray
    notes: tuple[StatsNote, ...] = field(default=())


def segment_refs(refs: Sequence[Sequence[str | None]], i: int) -> list[str]:
    """The references of segment ``i`` from reference streams, skipping ``None`` entries."""
    return [stream[i] for stream in refs if stream[i] is not None]  # type: ignore[misc]


def each_segment(
    hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None = None
) -> Iterator[tuple[int, str, list[str]]]:
    """``(i, hypothesis, its references)`` of every segment, reporting each one done to ``progress``."""
    for i, hyp in enumerate(hyps):
        yield i, hyp, segment_refs(refs, i)
        if progress is not None:
            progress(i + 1)


class MissingInput(ValueError):
    """A metric cannot run on what was loaded: it needs the source (``needs="source"``) or references
    (``needs="references"``). A front end shows the metric as unavailable with this reason rather than as an error."""

    def __init__(self, metric: str, needs: str) -> None:
        super().__init__(f"{metric} needs the {needs}: load {'a source file' if needs == 'source' else 'references'}")
        self.metric = metric
        self.needs = needs

    def __reduce__(self) -> tuple[type[MissingInput], tuple[str, str]]:
        return (type(self), (self.metric, self.needs))  # raised in a worker process, re-raised in the caller


def check_corpus(
    hyps: Sequence[str], refs: Sequence[Sequence[str | None]], metric: str, *, references: bool = True
) -> None:
    """Refuse inputs that cannot be scored segment by segment; never truncate to the shortest stream. No reference
    streams at all (``refs == []``) are well-formed, and refused with :class:`MissingInput` only when ``references``
    says the caller reads them (a metric whose ``traits.reads_references``)."""
    if isinstance(hyps, str):
        raise TypeError(f"{metric}: hypotheses must be a sequence of strings, not one string")
    if refs is None or isinstance(refs, str) or any(isinstance(stream, str) for stream in refs):
        raise TypeError(f"{metric}: references must be a list of reference streams (a list of lists of strings)")
    if references and not refs:
        raise MissingInput(metric, "references")
    for k, stream in enumerate(refs):
        if len(stream) != len(hyps):
            raise ValueError(
                f"{metric}: reference stream {k + 1} has {len(stream)} segments but there are {len(hyps)} hypotheses"
            )
    if set(map(type, hyps)) <= {str} and all(set(map(type, stream)) <= {str, type(None)} for stream in refs):
        return  # the common case, checked in C; the loop below finds what is wrong
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):
            raise TypeError(f"{metric}: hypothesis {i + 1} is {type(hyp).__name__}, not str")
        for k, stream in enumerate(refs):
            if stream[i] is not None and not isinstance(stream[i], str):
                raise TypeError(f"{metric}: reference {k + 1} of segment {i + 1} is {type(stream[i]).__name__}")


def check_source(source: Sequence[str], segments: int) -> None:
    """Refuse a source stream that is not one string per segment (``segments`` of them)."""
    if isinstance(source, str) or not all(isinstance(text, str) for text in source):
        raise TypeError("the source must be a sequence of strings, one per segment")
    if len(source) != segments:
        raise ValueError(f"the source has {len(source)} segments but there are {segments} hypotheses")


class CorpusSummary(ABC):
    """What a metric needs to know about the whole reference corpus before it can score one segment (CIDEr-D's
    document frequencies). Summaries of disjoint sets of segments add up (``+``) to the summary of their union, so
    that a corpus split into partitions can be summarized partition by partition."""

    @abstractmethod
    def __add__(self, other: Any) -> CorpusSummary:
        """The summary of both sets of segments together."""


class CorpusDependent(ABC):
    """A metric whose segment rows depend on the whole reference corpus, not only on the segment's own
    references. A run that scores the corpus in partitions summarizes each partition's references
    (:meth:`summarize`), adds the summaries up and scores every partition :meth:`within <stats_within>` the total:
    the rows equal those :meth:`Metric.stats` gives on the whole corpus."""

    @abstractmethod
    def summarize(self, refs: Sequence[Sequence[str | None]]) -> CorpusSummary:
        """The summary of these reference streams (all the corpus, or the segments of one partition)."""

    @abstractmethod
    def stats_within(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], summary: CorpusSummary
    ) -> SegmentStats:
        """Rows of these segments, scored within the corpus that ``summary`` describes."""


class SystemScored(ABC):
    """A metric whose rows, or the evidence behind them, depend on which system's outputs it scores, not only on
    their text: rows that are data about named systems (:mod:`metrics.families.external`), evidence that depends on
    the batches a system's corpus was scored in (:mod:`metrics.families.bertscore`). Callers go through
    :func:`system_stats` and :func:`explain_segment`, which fall back to :meth:`Metric.stats` and
    :meth:`Metric.explain` for every other metric."""

    @abstractmethod
    def system_stats(
        self,
        system: str,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        """Statistics of the outputs ``hyps`` of the system named ``system``."""

    @abstractmethod
    def explain_segment(self, system: str, index: int, hyp: str, refs: Sequence[str]) -> Explanation:
        """The evidence behind segment ``index`` (0-based) of system ``system``."""


class ReadsSource(ABC):
    """A metric whose rows read each segment's source text beside its output (the COMET family). Callers give the
    source stream to :func:`system_stats` and :func:`explain_segment`; without one they raise :class:`MissingInput`.
    Whether it also reads the references is its ``traits.reads_references`` (CometKiwi does not: ``refs`` may then
    be empty)."""

    @abstractmethod
    def source_stats(
        self,
        hyps: Sequence[str],
        sources: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        progress: Progress | None = None,
    ) -> SegmentStats:
        """Statistics of the outputs ``hyps`` of the segments whose sources are ``sources``."""

    @abstractmethod
    def explain_source(self, hyp: str, source: str, refs: Sequence[str]) -> Explanation:
        """The evidence behind one segment's score: its output, source and references."""


class DeclaresFit(ABC):
    """A metric whose human-agreement fit belongs to the instance, not to its family's declaration
    (``Family.agreement_fits``): external scores, whose name and fit the user gives, and a learned metric, whose fit
    belongs to the released model it loaded (:mod:`metrics.families.comet.released`)."""

    @abstractmethod
    def agreement_fit(self) -> Fit | None:
        """The fit these scores take, or ``None`` for none."""

    def fit_reason(self) -> str:
        """Why there is no fit, in a sentence for a page, where the instance knows more than "none is declared"
        (a COMET checkpoint that is not a released model); ``""`` otherwise."""
        return ""


class CostEstimated(ABC):
    """A metric whose cost grows fast with segment length (TER's shift search), so that a front end can ask before
    starting; :func:`expected_seconds` is ``None`` for every other metric (fast enough not to ask)."""

    @abstractmethod
    def expected_seconds(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> float | None:
        """About how long :meth:`Metric.stats` takes on these segments; ``None``: fast enough not to ask."""


def check_segment(hyp: object, refs: object, metric: str, *, references: bool = True) -> tuple[str, list[str]]:
    """One segment's inputs as the single-sentence paths take them: ``hyp`` a string and ``refs`` a sequence of
    reference strings, refused with a ``TypeError`` naming the argument otherwise, as sacrebleu's ``sentence_score``
    refuses them. A bare string as ``refs`` is the mistake this catches first: iterated, each of its characters
    would be scored as a reference. No reference is refused only when ``references`` says the metric reads them.
    Returns the inputs with ``refs`` as a new list (the caller's is never kept)."""
    if not isinstance(hyp, str):
        raise TypeError(f"{metric}: the hypothesis (hyp) must be a string, not {type(hyp).__name__}")
    if isinstance(refs, str):
        raise TypeError(
            f"{metric}: refs must be a sequence of reference strings, not one string (its characters would each be "
            "a reference); pass [ref] for a single reference"
        )
    if not isinstance(refs, Sequence):
        raise TypeError(f"{metric}: refs must be a sequence of reference strings, not {type(refs).__name__}")
    for k, ref in enumerate(refs):
        if not isinstance(ref, str):
            raise TypeError(f"{metric}: refs[{k}] must be a string, not {type(ref).__name__}")
    if references and not refs:
        raise ValueError(f"{metric}: a segment needs at least one reference")
    return hyp, list(refs)


class Metric(ABC, Generic[ConfigT, ExplanationT]):
    """Base class: a frozen config, per-segment statistics, a corpus score from pooled rows, a signature, and the
    evidence behind a segment's score as an :class:`~metrics.core.explanation.Explanation` of ``explanation_type``.

    What a family must implement: ``id``, ``aggregate``, ``Config``, ``explanation_type`` (class attributes),
    ``name`` and ``columns``, and :meth:`_segment_row`, :meth:`score_pooled`, :meth:`signature` and
    :meth:`_explain`. What it may override: the hooks of the :meth:`stats` template — :meth:`_rows` for a batch or
    compiled-kernel path, :meth:`_corpus_notes` for warnings about the corpus —, :meth:`prepare` when a segment is
    scored within the whole reference corpus (CIDEr-D's document frequencies), and :attr:`traits` when it runs
    otherwise than in plain per-segment Python. What it may opt into: :class:`CorpusDependent` (partitions scored
    within a corpus summary), :class:`SystemScored` (rows or evidence looked up by system), :class:`CostEstimated`
    (a front end asks before a long run).

    The single-segment entry points :meth:`segment_row`, :meth:`explain` and :meth:`sentence_score` check their
    inputs here, once for every metric (:func:`check_segment`), then call the family's protected implementation;
    the corpus path checks every segment once in :func:`check_corpus` and calls the implementations directly.
    """

    id: ClassVar[str]
    aggregate: ClassVar[Aggregate]
    Config: ClassVar[type]
    explanation_type: ClassVar[type[Explanation]]
    higher_is_better: ClassVar[bool] = True

    def __init__(self, config: ConfigT | None = None, **options: Any) -> None:
        if config is not None and options:
            raise ValueError(f"{self.id}: give either a config object or options, not both")
        self.config: ConfigT = config if config is not None else build_config(self.Config, options)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Metric[Any, Any]:
        return cls(build_config(cls.Config, options))

    @property
    @abstractmethod
    def name(self) -> str:
        """Display name, e.g. ``BLEU`` or ``chrF2++``."""

    @property
    @abstractmethod
    def columns(self) -> tuple[str, ...]:
        """Names of the sufficient-statistics columns."""

    @abstractmethod
    def _segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray | Sequence[float]:
        """Sufficient statistics of one segment (inputs already checked): an array or a sequence of floats
        (:meth:`_rows` makes one array of all rows, and an array per row can cost more than counting a short
        segment)."""

    @abstractmethod
    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        """Corpus score(s) from pooled rows: ``pooled`` has shape ``(k,)`` or ``(m, k)``; returns a scalar array
        or shape ``(m,)``. Vectorized, so that thousands of bootstrap resamples cost one call."""

    @abstractmethod
    def signature(self) -> str:
        """A reproducibility signature in sacrebleu's style (``key:value|…|version:…``) of the corpus score."""

    def segment_signature(self) -> str:
        """The signature of the segment scores (:meth:`segment_scores`): the corpus score's unless a family scores
        segments under other settings (BLEU: effective order, as ``sacrebleu.sentence_bleu``)."""
        return self.signature()

    @abstractmethod
    def _explain(self, hyp: str, refs: Sequence[str]) -> ExplanationT:
        """The evidence behind one segment's score, from the same code path as :meth:`_segment_row` (inputs
        already checked)."""

    def segment_row(self, hyp: str, refs: Sequence[str]) -> np.ndarray:
        """Sufficient statistics of one segment: ``hyp`` and its references ``refs`` (a list of strings)."""
        hyp, refs = self._within_limit(*check_segment(hyp, refs, self.name, references=self.traits.reads_references))
        return np.asarray(self._segment_row(hyp, refs), dtype=np.float64)

    def explain(self, hyp: str, refs: Sequence[str]) -> ExplanationT:
        """The evidence behind one segment's score: ``hyp`` and its references ``refs`` (a list of strings); a
        text cut at :attr:`segment_limit` is named in its notes, as :meth:`stats` notes it."""
        checked_hyp, checked_refs = check_segment(hyp, refs, self.name, references=self.traits.reads_references)
        hyp, refs = self._within_limit(checked_hyp, checked_refs)
        explanation = self._explain(hyp, refs)
        limit = self.segment_limit
        if limit is None or (hyp is checked_hyp and refs == checked_refs):
            return explanation
        return replace(explanation, notes=(*explanation.notes, f"{self.name} this segment: {limit.kind}"))

    def _within_limit(self, hyp: str, refs: list[str]) -> tuple[str, list[str]]:
        """One segment's texts cut at :attr:`segment_limit` (:func:`~metrics.core.limits.clip`)."""
        limit = self.segment_limit
        if limit is None:
            return hyp, refs
        return clip(hyp, limit), [clip(ref, limit) for ref in refs]

    @property
    def segment_limit(self) -> SegmentLimit | None:
        """The most characters of one text this metric reads (:mod:`metrics.core.limits`), for a family whose work
        grows faster than the length; ``None``: it reads any length."""
        return None

    @property
    def traits(self) -> Traits:
        """How the engines may run this metric (:class:`~metrics.core.traits.Traits`); a family whose traits
        depend on its config or on the compiled kernels overrides this."""
        return Traits()

    def prepare(self, refs: Sequence[Sequence[str | None]]) -> None:
        """Bind the reference corpus (streams, as :meth:`stats` takes them) that single-segment calls —
        :meth:`explain`, :meth:`segment_row` — are scored within. Most metrics score a segment from its own
        references alone and ignore it; :meth:`stats` binds its corpus itself."""
        del refs

    def stats(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None = None
    ) -> SegmentStats:
        """Sufficient statistics of every segment; ``progress`` hears how many segments are done, again from
        inside a long segment (:func:`~metrics.core.checkpoint.checkpoint`), and may stop the work by raising. The
        template every family shares: :func:`check_corpus`, texts over :attr:`segment_limit` cut (a note names
        their segments), then the rows (:meth:`_rows`), then the notes about the corpus (:meth:`_corpus_notes`)."""
        check_corpus(hyps, refs, self.id, references=self.traits.reads_references)
        limited: tuple[StatsNote, ...] = ()
        limit = self.segment_limit
        if limit is not None:
            clipped = clip_corpus(hyps, refs, limit)
            hyps, refs = clipped.hyps, clipped.refs
            if clipped.segments:
                limited = (StatsNote(limit.kind, segments_text([i + 1 for i in clipped.segments])),)
        if progress is None:
            rows = self._rows(hyps, refs, None)
        else:
            with beating(progress) as heartbeat:  # long loops inside one segment report too (checkpoint)
                rows = self._rows(hyps, refs, heartbeat)
        notes = (*limited, *rows.notes, *self._corpus_notes(hyps, refs, rows.matrix))
        return SegmentStats(self.id, self.columns, rows.matrix, self.aggregate, notes)

    def _rows(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], progress: Progress | None) -> Rows:
        """The rows of checked inputs, segment by segment through :meth:`_segment_row`. A family overrides this
        for a batch or compiled-kernel path (whole-corpus kernels included) and reports to ``progress`` itself."""
        rows = [self._segment_row(hyp, seg_refs) for _, hyp, seg_refs in each_segment(hyps, refs, progress)]
        return Rows(np.array(rows, dtype=np.float64).reshape(len(rows), len(self.columns)))

    def _corpus_notes(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]], rows: np.ndarray
    ) -> tuple[StatsNote, ...]:
        """Warnings about this corpus from its inputs and rows (a tokenizer that deleted letters, segments whose
        search was bounded); none by default."""
        del hyps, refs, rows
        return ()

    def corpus_score(self, stats: SegmentStats) -> float:
        if len(stats) == 0:
            raise ValueError(f"{self.id}: cannot score an empty corpus")
        return float(self.score_pooled(stats.pooled()))

    def segment_scores(self, stats: SegmentStats) -> np.ndarray:
        """One score per segment: :meth:`score_pooled` of each row, the same options as the corpus score."""
        return np.asarray(self.score_pooled(stats.rows), dtype=np.float64)

    def score(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> float:
        """Convenience: the corpus score of ``hyps`` against reference streams ``refs``."""
        return self.corpus_score(self.stats(hyps, refs))

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> float:
        """The segment score of ``hyp`` against its references ``refs`` (a list of strings), as
        :meth:`segment_scores` gives it."""
        row = np.asarray(self.segment_row(hyp, refs), dtype=np.float64)[None, :]
        stats = SegmentStats(self.id, self.columns, row, self.aggregate)
        return float(self.segment_scores(stats)[0])


def missing_input(metric: Metric[Any, Any], *, references: bool, source: bool) -> MissingInput | None:
    """Why ``metric`` cannot run on data that has (or lacks) references and a source, or ``None`` when it can: what
    a front end asks before offering a metric, and what :func:`system_stats` raises. The source is named first: a
    metric that reads both (COMET-22) and is given neither needs the source whatever else is loaded."""
    if isinstance(metric, ReadsSource) and not source:
        return MissingInput(metric.name, "source")
    if metric.traits.reads_references and not references:
        return MissingInput(metric.name, "references")
    return None


def refuse_missing(metrics: Iterable[Metric[Any, Any]], *, references: bool, source: bool) -> None:
    """Raise the first metric's :class:`MissingInput` when it needs what is not loaded, before any system is scored
    (a front end that lists every unavailable metric asks :func:`missing_input` of each)."""
    for metric in metrics:
        missing = missing_input(metric, references=references, source=source)
        if missing is not None:
            raise missing


def system_stats(
    metric: Metric[Any, Any],
    system: str,
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    progress: Progress | None = None,
    *,
    source: Sequence[str] | None = None,
) -> SegmentStats:
    """Statistics of the outputs of the system named ``system``: :meth:`Metric.stats` of its text, the
    :class:`SystemScored` metric's own rows of that system, or the :class:`ReadsSource` metric's rows of the text
    with its ``source``."""
    missing = missing_input(metric, references=bool(refs), source=source is not None)
    if missing is not None:
        raise missing
    if isinstance(metric, ReadsSource) and source is not None:
        return metric.source_stats(hyps, source, refs, progress)
    if isinstance(metric, SystemScored):
        return metric.system_stats(system, hyps, refs, progress)
    return metric.stats(hyps, refs, progress)


def explain_segment(
    metric: Metric[Any, Any],
    system: str,
    index: int,
    hyp: str,
    refs: Sequence[str],
    *,
    source: str | None = None,
) -> Explanation:
    """The evidence behind segment ``index`` (0-based) of system ``system``: :meth:`Metric.explain` of its text,
    the :class:`SystemScored` metric's evidence for that system's segment, or the :class:`ReadsSource` metric's
    evidence from the text and the segment's ``source``."""
    missing = missing_input(metric, references=bool(refs), source=source is not None)
    if missing is not None:
        raise missing
    if isinstance(metric, ReadsSource) and source is not None:
        return metric.explain_source(hyp, source, refs)
    if isinstance(metric, SystemScored):
        return metric.explain_segment(system, index, hyp, refs)
    return metric.explain(hyp, refs)


def expected_seconds(
    metric: Metric[Any, Any], hyps: Sequence[str], refs: Sequence[Sequence[str | None]]
) -> float | None:
    """About how long :meth:`Metric.stats` takes on these segments, for a :class:`CostEstimated` metric; ``None``
    for every other."""
    return metric.expected_seconds(hyps, refs) if isinstance(metric, CostEstimated) else None
