"""The Teach page's lessons beyond one pair: corpus-level lessons, metrics side by side, perplexity — each a mode
of the page, laid out here so that ``pages/teach.py`` only asks which mode is on. Every lesson ends with its
metric's limitations card (:mod:`rendering.cards`), the text the docs show."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

import streamlit as st

from dashboard import teach_class
from dashboard.keys import Key
from dashboard.server_config import server_config
from dashboard.widgets import option_widget
from metrics.annotations.mqm import MqmWeights
from metrics.core.base import Metric
from metrics.core.config import Resource, config_options
from metrics.core.registry import SPECS, metric_class
from metrics.core.selection import Selection
from rendering import cards
from rendering.lessons.corpus import EXAMPLES, CorpusTopic, corpus_lesson
from rendering.lessons.mqm_scoring import EXAMPLE as MQM_EXAMPLE
from rendering.lessons.mqm_scoring import mqm_lesson
from rendering.lessons.perplexity import EXAMPLE, perplexity_lesson
from rendering.lessons.side_by_side import CONTRASTS, compare, ranking_text
from rendering.teach import Lesson, Step, controls, label
from rendering.text import escape_markdown

MAX_CHARS = 5_000  # as the pair lesson: every step of a lesson is on screen


class TeachMode(Enum):
    """The page's modes; each value is its label."""

    PAIR = "One pair, step by step"
    CORPUS = "Several sentences"
    SIDE_BY_SIDE = "Metrics side by side"
    PERPLEXITY = "Perplexity"
    MQM = "MQM from error spans"


MODE: Key[str] = Key("teach_mode")
CORPUS_TOPIC: Key[str] = Key("teach_corpus_topic")
CORPUS_HYP: Key[str] = Key("teach_corpus_hyp")
CORPUS_REF: Key[str] = Key("teach_corpus_ref")
SBS_CASE: Key[str] = Key("teach_sbs_case")
SBS_SOURCE: Key[str] = Key("teach_sbs_source")
SBS_REF: Key[str] = Key("teach_sbs_ref")
SBS_HYPS: Key[str] = Key("teach_sbs_hyps")
SBS_METRICS: Key[list[str]] = Key("teach_sbs_metrics")
PPL_TRAIN: Key[str] = Key("teach_ppl_train")
PPL_TEST: Key[str] = Key("teach_ppl_test")
PPL_K: Key[float] = Key("teach_ppl_k")
MQM_SOURCE: Key[str] = Key("teach_mqm_source")
MQM_TARGET: Key[str] = Key("teach_mqm_target")
MQM_LINES: Key[str] = Key("teach_mqm_lines")
MQM_WEIGHT: Key[float] = Key("teach_mqm_weight")  # .at(field name)

OWN = "(your own text)"
# Metrics a side-by-side comparison offers: sentence scores of one reference, no corpus statistics (CIDEr-D's
# document frequencies) and no language model (perplexity reads no reference).
SIDE_BY_SIDE = ("bleu", "chrf", "chrf++", "ter", "rouge1", "rouge2", "rougeL", "meteor", "bertscore", "comet")
DEFAULT_SIDE_BY_SIDE = ("bleu", "chrf", "ter", "rougeL", "meteor")


def show_lesson(lesson: Lesson, prefix: str, card: str | None) -> None:
    """The lesson's steps (prose, formulas, evidence beside them), its result, notes and limitations card."""
    head = st.columns([1, 3])
    head[0].metric(lesson.name, lesson.score_text)
    if lesson.summary:
        head[1].code(lesson.summary, language=None, wrap_lines=True)
    show_steps(lesson.steps, prefix)
    for note in lesson.notes:
        st.caption(escape_markdown(note))
    show_card(card)
    teach_class.handout_downloads(lesson, f"scorelens-{prefix}", card=cards.card(card) if card else None, key=prefix)


def show_steps(steps: Sequence[Step], prefix: str) -> None:
    """Each step: its prose and formulas, with its tables (tabs when several), figure and drawing beside them."""
    for i, step in enumerate(steps):
        st.subheader(step.title)
        evidence = bool(step.tables or step.figure is not None or step.html)
        left, right = st.columns([2, 3]) if evidence else (st.container(), None)
        with left:
            if step.text:
                st.markdown(step.text)
            for formula in step.formulas:
                st.latex(formula)
        if right is None:
            continue
        with right:
            tables = step.tables
            tabs = st.tabs([t.label for t in tables]) if len(tables) > 1 else [st.container()] * len(tables)
            for j, (tab, table) in enumerate(zip(tabs, tables, strict=True)):
                tab.dataframe(table.frame, hide_index=True, key=f"{prefix}_table_{i}_{j}")
            if step.figure is not None:
                st.plotly_chart(step.figure, key=f"{prefix}_figure_{i}", width="stretch")
            if step.html:
                st.html(step.html)


def show_card(name: str | None) -> None:
    """The limitations card ``name`` (the docs' text), when there is one."""
    text = cards.card(name) if name else None
    if text is not None:
        with st.expander("Limitations card (the same text as the docs' metric page)", expanded=True):
            st.markdown(text)


def _failed(error: ValueError) -> None:
    st.error(escape_markdown(str(error)))


# ---------------------------------------------------------------------------------------------------------------


def _load_corpus_example() -> None:
    example = EXAMPLES[CorpusTopic[CORPUS_TOPIC.get(CorpusTopic.BLEU_POOLING.name)]]
    CORPUS_HYP.set(example.hyp)
    CORPUS_REF.set(example.ref)


def _corpus() -> None:
    if not CORPUS_TOPIC.exists():
        CORPUS_TOPIC.set(CorpusTopic.BLEU_POOLING.name)
        _load_corpus_example()
    top = st.columns([3, 1])
    topic = CorpusTopic[
        top[0].selectbox(
            "Lesson",
            [t.name for t in CorpusTopic],
            format_func=lambda name: CorpusTopic[name].value,
            key=CORPUS_TOPIC.name,
            on_change=_load_corpus_example,
        )
        or CorpusTopic.BLEU_POOLING.name
    ]
    options: dict[str, Any] = {}
    if topic.tokenizer is not None:
        metric_id, name = topic.tokenizer
        control = next(c for c in controls(metric_id) if c.name == name)
        option = control.option
        key = f"teach_corpus_{metric_id}_{name}"
        options[name] = option_widget(top[1], option, key, control.default, option.offered(), option.unavailable())
    st.caption(
        f"One line: {topic.lines_are}. Changing the lesson loads its example; edit the lines freely. Chinese or "
        "Japanese without spaces needs its tokenizer (BLEU: zh, ja-mecab or char; ROUGE: unicode)."
    )
    cols = st.columns(2)
    hyp = cols[0].text_area("Hypothesis lines", key=CORPUS_HYP.name, height=140, max_chars=MAX_CHARS)
    ref = cols[1].text_area("Reference lines", key=CORPUS_REF.name, height=140, max_chars=MAX_CHARS)
    try:
        lesson = corpus_lesson(topic, hyp, ref, options)
    except ValueError as error:
        _failed(error)
        return
    show_lesson(lesson, "teach_corpus", topic.card)


# ---------------------------------------------------------------------------------------------------------------


def _parse_hyps(text: str) -> list[tuple[str, str]]:
    """One hypothesis a line, ``label | text`` or just the text (labelled ``hyp k``)."""
    found = []
    for k, line in enumerate(t for t in text.splitlines() if t.strip()):
        name, bar, rest = line.partition(" | ")
        found.append((name.strip(), rest.strip()) if bar else (f"hyp {k + 1}", line.strip()))
    return found


def _load_case() -> None:
    title = SBS_CASE.get(OWN)
    for case in CONTRASTS:
        if case.title == title:
            SBS_SOURCE.set(case.source)
            SBS_REF.set(case.ref)
            SBS_HYPS.set("\n".join(f"{name} | {text}" for name, text in case.hyps))


def _model_choices(metric_id: str) -> dict[str, dict[str, Any]] | None:
    """The setup of a metric that loads a model (the server's first non-empty choice), ``{}`` for one that loads
    none, or None when the server offers no model for it."""
    setup: dict[str, Any] = {}
    for option in config_options(metric_class(metric_id).Config):
        if option.info.resource is not Resource.MODEL:
            continue
        choices = [v for v in server_config().choices(SPECS[metric_id].family, option) if v]
        if not choices:
            return None
        setup[option.name] = choices[0]
    return {SPECS[metric_id].family: setup}


def _offered() -> tuple[list[str], dict[str, str]]:
    offered, skipped = [], {}
    for metric_id in SIDE_BY_SIDE:
        spec = SPECS[metric_id]
        if not spec.available():
            skipped[label(metric_id)] = "; ".join(r.reason() for r in spec.requires if not r.met())
        elif _model_choices(metric_id) is None:
            skipped[label(metric_id)] = "no model is configured on this server"
        else:
            offered.append(metric_id)
    return offered, skipped


@st.cache_resource(max_entries=16, show_spinner=False)
def _side_metric(metric_id: str) -> Metric[Any, Any]:
    return Selection((metric_id,), _model_choices(metric_id) or {}).metric(metric_id)


def _side_by_side() -> None:
    if not SBS_CASE.exists():
        SBS_CASE.set(CONTRASTS[0].title)
        _load_case()
    case_title = st.selectbox(
        "Contrast case", [c.title for c in CONTRASTS] + [OWN], key=SBS_CASE.name, on_change=_load_case
    )
    case = next((c for c in CONTRASTS if c.title == case_title), None)
    offered, skipped = _offered()
    if not SBS_METRICS.exists():
        SBS_METRICS.set([m for m in DEFAULT_SIDE_BY_SIDE if m in offered])
    chosen = st.multiselect("Metrics", offered, format_func=label, key=SBS_METRICS.name)
    if skipped:
        st.caption(
            "Not in this comparison: "
            + "; ".join(f"{escape_markdown(name)} ({escape_markdown(why)})" for name, why in skipped.items())
            + "."
        )
    neural = [label(m) for m in offered if SPECS[m].requires and m not in chosen]
    if neural:
        st.caption("Learned metrics that can run here: " + escape_markdown(", ".join(neural)) + " — add them above.")
    if any(SPECS[m].requires for m in chosen):
        st.caption("Neural metrics load their model on first use: the first comparison takes a while.")
    source = st.text_input("Source (COMET reads it)", key=SBS_SOURCE.name, max_chars=MAX_CHARS)
    ref = st.text_area("Reference", key=SBS_REF.name, height=68, max_chars=MAX_CHARS)
    hyps_text = st.text_area(
        "Hypotheses, one a line (`label | text`)", key=SBS_HYPS.name, height=110, max_chars=MAX_CHARS
    )
    hyps = _parse_hyps(hyps_text)
    untouched = case is not None and (ref, tuple(hyps)) == (case.ref, case.hyps)
    if not chosen or not hyps:
        st.info("Choose at least one metric and type at least one hypothesis.")
        return
    try:
        result = compare(
            {label(m): _side_metric(m) for m in chosen},
            ref,
            hyps,
            source=source,
            expected=case.expected if untouched and case is not None else (),
            skipped=skipped,
        )
    except ValueError as error:
        _failed(error)
        return
    if case is not None and untouched:
        st.info(f"**The point.** {escape_markdown(case.point)}")
        st.markdown("A reader's order: " + escape_markdown(" > ".join(case.expected)))
    st.subheader("Scores (↑ higher is better, ↓ lower)")
    st.dataframe(result.scores, hide_index=True, key="teach_sbs_scores")
    st.subheader("Where they disagree")
    st.markdown("\n".join(f"- {escape_markdown(d)}" for d in result.disagreements))
    st.dataframe(
        {name: [ranking_text(r)] for name, r in result.rankings.items()}, hide_index=True, key="teach_sbs_rankings"
    )
    st.subheader("What each metric counted")
    st.dataframe(result.evidence, hide_index=True, key="teach_sbs_evidence")
    for metric_id in chosen:
        name = SPECS[metric_id].family
        if cards.card(name) is not None:
            with st.expander(f"Limitations card: {label(metric_id)}", expanded=False):
                st.markdown(cards.card(name) or "")


# ---------------------------------------------------------------------------------------------------------------


def _perplexity() -> None:
    if not PPL_TRAIN.exists():
        PPL_TRAIN.set(EXAMPLE.training)
        PPL_TEST.set(EXAMPLE.test)
        PPL_K.set(EXAMPLE.k)
    cols = st.columns([2, 2, 1])
    training = cols[0].text_area(
        "Training text (one sentence a line)", key=PPL_TRAIN.name, height=120, max_chars=MAX_CHARS
    )
    test = cols[1].text_area("Text to score (one sentence a line)", key=PPL_TEST.name, height=120, max_chars=MAX_CHARS)
    k = cols[2].number_input("k (add-k)", min_value=0.001, max_value=100.0, step=0.5, key=PPL_K.name, format="%.3f")
    try:
        lesson = perplexity_lesson(training, test, float(k))
    except ValueError as error:
        _failed(error)
        return
    show_lesson(lesson, "teach_ppl", "perplexity")


def _mqm() -> None:
    if not MQM_TARGET.exists():
        MQM_SOURCE.set(MQM_EXAMPLE.source)
        MQM_TARGET.set(MQM_EXAMPLE.target)
        MQM_LINES.set(MQM_EXAMPLE.annotations)
    st.text_input("Source", key=MQM_SOURCE.name, max_chars=MAX_CHARS)
    target = st.text_input("Output (the translation the raters marked)", key=MQM_TARGET.name, max_chars=MAX_CHARS)
    annotations = st.text_area(
        "Errors, one a line: `rater | severity | category | erroneous text` (no text: an omission; "
        "`rater | none`: a rater who found no error)",
        key=MQM_LINES.name,
        height=150,
        max_chars=MAX_CHARS,
    )
    defaults = MqmWeights()
    values: dict[str, float] = {}
    with st.expander("Weights (what-if; WMT's by default)", expanded=False):
        cols = st.columns(3)
        for i, name in enumerate(("major", "minor", "critical", "neutral", "minor_punctuation", "non_translation")):
            values[name] = float(
                cols[i % 3].number_input(
                    name.replace("_", " "),
                    min_value=0.0,
                    max_value=100.0,
                    value=float(getattr(defaults, name)),
                    step=0.1,
                    key=MQM_WEIGHT.at(name).name,
                )
            )
    try:
        lesson = mqm_lesson(target, annotations, MqmWeights(**values))
    except ValueError as error:
        _failed(error)
        return
    show_lesson(lesson, "teach_mqm", "mqm")


_MODES: dict[TeachMode, Callable[[], None]] = {
    TeachMode.CORPUS: _corpus,
    TeachMode.SIDE_BY_SIDE: _side_by_side,
    TeachMode.PERPLEXITY: _perplexity,
    TeachMode.MQM: _mqm,
}


def other_mode() -> bool:
    """Draw the mode switch; when a mode other than the one-pair lesson is on, lay it out and return True (the
    page then stops), else return False."""
    name = st.radio(
        "Lesson",
        [m.name for m in TeachMode],
        format_func=lambda n: TeachMode[n].value,
        horizontal=True,
        key=MODE.name,
        label_visibility="collapsed",
    )
    mode = TeachMode[name or TeachMode.PAIR.name]
    if mode is TeachMode.PAIR:
        return False
    _MODES[mode]()
    return True
