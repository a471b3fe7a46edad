"""Human error annotations on a segment: the raters' spans (MQM, ESA) drawn on the output — and on the source where
a rater marked an omission there — with a learned metric's spans of the same output (xCOMET) on the same text, one
line under it per rater and per model, so a reader sees at a glance where they agree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from metrics.annotations.model import Annotations, Scheme
from metrics.annotations.mqm import segment_mqm
from metrics.core.spans import ErrorSpan, Side
from rendering.parts import Part, note
from rendering.spans import origins, spans_html, spans_legend


@dataclass(frozen=True)
class SegmentMarks:
    """What the loaded annotations say of one system's segment: every located span (``origin``: the rater), the
    raters, and the scores and unlocated errors in words."""

    spans: tuple[ErrorSpan, ...]
    raters: tuple[str, ...]
    summary: str

    @property
    def rated(self) -> bool:
        return bool(self.raters)


def segment_marks(sets: Mapping[str, Annotations], system: str, segment: int) -> SegmentMarks:
    """The marks of ``system``'s segment in every set of annotations that rates the system."""
    spans: list[ErrorSpan] = []
    raters: list[str] = []
    said: list[str] = []
    for name, marked in sets.items():
        if system not in marked.ratings:
            continue
        ratings = marked.ratings[system][segment]
        if not ratings:
            said.append(f"{name}: not rated")
            continue
        spans += marked.spans(system, segment)
        raters += [r.rater for r in ratings]
        words = [f"{len(ratings)} rating{'s' if len(ratings) > 1 else ''}"]
        if marked.scheme is not Scheme.ESA:  # MQM and span files are scored as MQM
            words.append(f"MQM {segment_mqm(ratings) + 0.0:g}")  # + 0.0: no error reads 0, not −0
        given = [f"{r.rater} {r.score:g}" for r in ratings if r.score is not None]
        if given:
            words.append("score " + ", ".join(given))
        unlocated = [e for r in ratings for e in r.errors if e.span is None]
        if unlocated:
            words.append(
                f"{len(unlocated)} error(s) without a place in the text: "
                + "; ".join(f"{e.severity.value} {e.category or 'uncategorized'} ({e.reason})" for e in unlocated)
            )
        said.append(f"{name}: " + ", ".join(words))
    return SegmentMarks(tuple(spans), tuple(dict.fromkeys(raters)), "; ".join(said))


def rated_text(name: str, marked: Annotations, systems: Sequence[str], n_segments: int) -> str:
    """How much of the data the annotations ``name`` rate, as the Overview states it beside their scores: what was
    kept, and per system the rated segments (its score is the mean over those; the others are left out)."""
    counts = {s: int(marked.rated(s).sum()) if s in marked.ratings else 0 for s in systems}
    if set(counts.values()) == {n_segments}:
        coverage = f"every system rated on all {n_segments} segments"
    else:
        coverage = "rated segments (the score is their mean; unrated ones are left out): " + ", ".join(
            f"{s} {c} of {n_segments}" for s, c in counts.items()
        )
    return f"{name}: {marked.summary()}; {coverage}."


def human_parts(
    output: str,
    source: str | None,
    human: Sequence[ErrorSpan],
    learned: Sequence[ErrorSpan] = (),
    *,
    raters: Sequence[str] = (),
    summary: str = "",
) -> list[Part]:
    """The parts of one output's human evidence: the source when a span lies on it, the output with every span, and
    ``summary`` (the rating's scores in words). ``raters``: who rated this output (a rater who marked no error still
    gets named); ``learned``: a metric's spans of the same output, drawn on the same lines after the raters'."""
    spans = [*human, *learned]
    lanes = list(dict.fromkeys([*raters, *origins(human), *origins(learned)]))
    parts = []
    if source is not None and any(s.side is Side.SOURCE for s in spans):
        parts.append(Part("html", spans_html(source, spans, Side.SOURCE, lanes), "Source, with omissions marked"))
    with_model = " and the metric's" if learned else ""
    parts.append(
        Part(
            "html",
            spans_html(output, spans, lanes=lanes) + spans_legend(lanes),
            f"Human error spans{with_model} on this output",
        )
    )
    if not human:
        parts.append(note("The raters marked no error in this output." if raters else "No rating of this output."))
    if summary:
        parts.append(note(summary))
    return parts
