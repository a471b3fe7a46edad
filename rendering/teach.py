"""Teaching mode: a metric's score derived step by step from its own evidence object.

Every lesson is built from ``metric.explain(hyp, refs)`` — the frozen explanation computed on the same code path as
the score — so the numbers a teacher shows can never disagree with the number the metric reports. A lesson is a
plain value (:class:`Lesson`: steps with Markdown, LaTeX, tables and figures) that ``pages/teach.py`` lays out;
nothing here imports Streamlit.

Lessons are found by explanation type: a lesson module in :mod:`rendering.lessons` registers its builder with
:func:`lesson` (``@lesson.register(BLEUExplanation)``); a type without one has a one-line reason in its family's
declaration (``Family.no_lesson``), registered with :func:`no_lesson`. :mod:`rendering.lessons` imports every
lesson module and answers which metrics have a lesson.

Escaping rules: user text reaches Markdown only through :func:`rendering.text.escape_markdown`, HTML only through
:func:`rendering.text.escape_html`, plotly labels only through :func:`rendering.text.escape_plotly`, and LaTeX only
through :func:`latex_text` (formulas are otherwise built from numbers alone). Tables hold raw strings: ``st.dataframe`` never interprets them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import singledispatch
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from metrics.core.base import Metric, ReadsSource
from metrics.core.config import Option, OptionInfo, OptionKind, Resource, build_config, config_options
from metrics.core.explanation import Explanation
from metrics.core.registry import SPECS, metric_class
from metrics.core.selection import Selection


@dataclass(frozen=True, eq=False)
class Table:
    """A labelled table of a step; several tables of one step are shown as tabs."""

    label: str
    frame: pd.DataFrame


@dataclass(frozen=True, eq=False)
class Step:
    """One stage of a derivation: prose (escaped Markdown), formulas with the numbers filled in, evidence."""

    title: str
    text: str = ""
    formulas: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    figure: go.Figure | None = None
    html: str = ""


@dataclass(frozen=True, eq=False)
class Lesson:
    """A derivation of one score. ``numbers`` names the quantities of the derivation (in reading order) so that two
    lessons — before and after a what-if change — can be compared quantity by quantity."""

    name: str
    score: float
    score_text: str
    steps: tuple[Step, ...]
    numbers: Mapping[str, float]
    summary: str = ""
    mistakes: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    # What the lesson was built from: exercises are found by the explanation's type and read the config's settings.
    explanation: Explanation | None = None
    config: object | None = None


@dataclass(frozen=True)
class Context:
    """What a lesson may need beyond the pair: the loaded corpus' references (CIDEr-D's document frequencies)."""

    corpus_refs: tuple[tuple[str | None, ...], ...] = ()
    corpus_title: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)  # lesson-only what-if values (see Control.lesson_only)


@dataclass(frozen=True)
class Control:
    """A what-if control: a metric option as its config field declares it (label, help, bounds, choices), or a
    what-if the lesson declares itself (``lesson_only``: not a metric option; the lesson shows its effect beside the
    metric's own number). ``default`` is the metric's value with its registry preset (chrF++ starts at 2)."""

    option: Option
    default: Any
    lesson_only: bool = False

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def kind(self) -> OptionKind:
        return self.option.kind


@singledispatch
def lesson(
    explanation: Explanation, metric: Metric[Any, Any], hyp: str, refs: Sequence[str], context: Context
) -> Lesson:
    """The lesson deriving ``explanation`` (``metric.explain(hyp, refs)``) step by step."""
    raise LookupError(f"no lesson is registered or declared absent for {type(explanation).__name__}")


@dataclass(frozen=True)
class NoLesson:
    """The declaration that an explanation type has no lesson, with the reason the Teach page shows."""

    reason: str

    def __call__(self, explanation: Explanation, *_: object) -> Lesson:
        raise LookupError(f"{type(explanation).__name__} has no lesson: {self.reason}")


def no_lesson(explanation_type: type[Explanation], reason: str) -> None:
    """Declare that ``explanation_type`` has no lesson, and why (one line)."""
    lesson.register(explanation_type, NoLesson(reason))


LessonBuilder = Callable[..., Lesson]


def lesson_for(explanation_type: type[Explanation]) -> LessonBuilder | NoLesson | None:
    """The lesson builder or the no-lesson declaration of ``explanation_type`` (following its class hierarchy), or
    None when neither is registered."""
    found = lesson.dispatch(explanation_type)
    return None if found is lesson.dispatch(object) else found


# What-if values a reference implementation has no option for; the lesson shows them next to the real score.
_LESSON_CONTROLS: dict[str, tuple[Control, ...]] = {
    metric_id: (
        Control(
            Option(
                "beta",
                "float",
                1.0,
                OptionInfo(
                    "β for F_β (what-if)",
                    "rouge-score reports F1 only; the lesson also shows F_β = (1+β²)PR/(β²P+R) for this β.",
                    low=0.0,
                    high=10.0,
                    step=0.5,
                ),
            ),
            1.0,
            lesson_only=True,
        ),
    )
    for metric_id in ("rouge1", "rouge2", "rougeL", "rougeLsum")
}
_LESSON_CONTROLS["bertscore"] = (
    Control(
        Option(
            "baseline",
            "float",
            0.0,
            OptionInfo(
                "Baseline b (what-if)",
                "bert-score's rescale_with_baseline: (x − b)/(1 − b), b being the score of unrelated pairs; no baseline "
                "ships for a local model, so the lesson rescales with yours.",
                low=0.0,
                high=0.99,
                step=0.05,
            ),
        ),
        0.0,
        lesson_only=True,
    ),
)


def reads_source(metric_id: str) -> bool:
    """Whether the metric reads the source beside the output (the COMET family): its lesson needs a source typed
    beside the pair, and no classic (a hypothesis and references) can open it."""
    return issubclass(metric_class(metric_id), ReadsSource)


def model_options(metric_id: str) -> tuple[Option, ...]:
    """The options of a metric that name a model on the server (chosen from the server's list, never typed): a
    setup of the lesson, not a what-if."""
    preset = SPECS[metric_id].preset
    return tuple(
        o
        for o in config_options(metric_class(metric_id).Config)
        if o.info.resource is Resource.MODEL and o.name not in preset
    )


def label(metric_id: str) -> str:
    return SPECS[metric_id].label or metric_id


def what_if(metric_id: str, options: Mapping[str, Any]) -> tuple[Selection, dict[str, Any]]:
    """The what-if ``options`` of ``metric_id`` as the metric's :class:`~metrics.core.selection.Selection` (a bad
    value is a ``ValueError`` naming the option) and the lesson-only values (see :class:`Control`)."""
    lesson_names = {c.name for c in _LESSON_CONTROLS.get(metric_id, ())}
    metric_options = {k: v for k, v in options.items() if k not in lesson_names}
    chosen = Selection((metric_id,), {SPECS[metric_id].family: metric_options})
    return chosen, {k: v for k, v in options.items() if k in lesson_names}


def prepared(metric: Metric[Any, Any], corpus_refs: Sequence[Sequence[str | None]]) -> Metric[Any, Any]:
    """``metric`` prepared on ``corpus_refs`` when given (CIDEr-D's document frequencies; other metrics ignore the
    corpus)."""
    if corpus_refs:
        metric.prepare([list(stream) for stream in corpus_refs])
    return metric


def controls(metric_id: str) -> tuple[Control, ...]:
    """The what-if controls of a metric: every option of its config except work bounds (they change nothing on
    one sentence pair), free text (a model folder is a setup, not a what-if), setup choices (a neural model's
    language or precision) and what the id fixes (chrF++'s ``word_order``: that what-if is the chrF lesson's), then
    the lesson's own what-ifs."""
    preset = SPECS[metric_id].preset
    config: object = build_config(metric_class(metric_id).Config, preset)
    options = (
        Control(o, getattr(config, o.name))
        for o in config_options(type(config))
        if not o.info.work_bound and not o.info.setup and o.kind != "text" and o.name not in preset
    )
    return (*options, *_LESSON_CONTROLS.get(metric_id, ()))


def default_options(metric_id: str) -> dict[str, Any]:
    return {c.name: c.default for c in controls(metric_id)}


def changed_options(options: Mapping[str, Any], before: Mapping[str, Any]) -> list[str]:
    """``["tokenize: 13a → char", …]`` for every option whose value differs."""
    out = []
    for name in options:
        if name in before and options[name] != before[name]:
            out.append(f"{name}: {before[name]} → {options[name]}")
    return out


def compare(now: Lesson, before: Lesson) -> pd.DataFrame:
    """The quantities whose value differs between two lessons, in reading order, plus the score (always)."""
    rows = []
    names = list(now.numbers) + [k for k in before.numbers if k not in now.numbers]
    for name in names:
        a, b = before.numbers.get(name), now.numbers.get(name)
        same = a is not None and b is not None and (a == b or (math.isnan(a) and math.isnan(b)))
        if same and name != score_key(now):
            continue
        change = b - a if a is not None and b is not None else math.nan
        rows.append({"quantity": name, "before": a, "now": b, "change": change})
    frame = pd.DataFrame(rows, columns=["quantity", "before", "now", "change"])
    return frame


def score_key(lesson: Lesson) -> str:
    """The name of the final score among ``lesson.numbers`` (its last entry)."""
    return list(lesson.numbers)[-1] if lesson.numbers else ""


# ---------------------------------------------------------------------------------------------------------------
# Formatting helpers shared by the lesson modules.


def num(x: float, digits: int = 4) -> str:
    """A number as lessons print it: fixed decimals, integers without them, ±∞ and NaN spelled out."""
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e15):
        return str(int(x))
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{digits}f}"


def tex(x: float, digits: int = 4) -> str:
    """A number for LaTeX: as :func:`num`, with ``-\\infty`` and a proper minus sign."""
    if isinstance(x, float) and math.isinf(x):
        return r"\infty" if x > 0 else r"-\infty"
    return num(x, digits).replace("−", "-")


def frac(numerator: float, denominator: float) -> str:
    r"""``\frac{a}{b}``, followed by the reduced fraction when both are integers with a common factor (4/6 = 2/3)."""
    text = rf"\frac{{{tex(numerator)}}}{{{tex(denominator)}}}"
    if float(numerator).is_integer() and float(denominator).is_integer() and denominator:
        a, b = int(numerator), int(denominator)
        g = math.gcd(a, b)
        if g > 1 and a:
            text += rf" = \frac{{{a // g}}}{{{b // g}}}"
    return text


def aligned(lhs: str, *lines: str) -> str:
    r"""``lhs = line₁ = line₂ …`` stacked one ``=`` per line (KaTeX ``aligned``), so long derivations fit a column."""
    body = r" \\ ".join(("" if k else lhs) + rf" &= {line}" for k, line in enumerate(lines))
    return rf"\begin{{aligned}} {body} \end{{aligned}}"


def sum_lines(terms: Sequence[str], per_line: int = 2) -> str:
    r"""``a + b \\ &\quad + c + d``: a long sum broken into lines inside :func:`aligned`."""
    chunks = [" + ".join(terms[k : k + per_line]) for k in range(0, len(terms), per_line)] or ["0"]
    return r" \\ &\quad + ".join(chunks)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\^{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\~{}",
}


def latex_text(text: str) -> str:
    r"""User text inside a LaTeX formula, as ``\text{…}`` with every special character escaped."""
    escaped = "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)
    return rf"\text{{{escaped}}}"


def gram_text(gram: Sequence[str] | str) -> str:
    return gram if isinstance(gram, str) else " ".join(gram)
