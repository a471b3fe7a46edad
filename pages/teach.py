"""Teaching mode: type a hypothesis and references (or pick a classic), choose a metric, and watch the score being
derived from the metric's own evidence, with what-if controls that show what each setting changes."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import keys, teach_class
from dashboard.server_config import ENV, check_browser_options, server_config
from dashboard.sidebar import page_setup
from dashboard.teach_modes import other_mode, show_card, show_steps
from dashboard.widgets import model_widget, option_widget
from metrics.core.base import Metric
from metrics.core.registry import SPECS
from metrics.core.selection import metric_key
from rendering import cards, handout, lessons, teach
from rendering.teach_classics import Classic, by_key, classics_for
from rendering.text import escape_markdown

MAX_REFS = 8
# A lesson derives every step on screen for a sentence or a few: a derivation of longer text is unreadable, and some
# (TER's shifts, METEOR's alignment) take time that grows faster than the text. Streamlit keeps a text box to its
# max_chars on the server too (a longer value is cut there), so no text reaches a lesson longer than this.
MAX_CHARS = 5_000
OWN = "(your own text)"

data = page_setup("teach")
st.title("Teach: watch a score being computed")
st.caption(
    "Every number below is read from the metric's own evidence for your sentence pair, so the derivation and the "
    "score cannot disagree."
)

if other_mode():  # several sentences, metrics side by side, perplexity: dashboard/teach_modes.py
    st.stop()

ready, missing = lessons.lesson_status()
if not ready:
    st.error("No metric lessons are available in this installation.")
    st.stop()
teach_class.open_link(ready)  # a class's link carries an exercise set: its first item fills the boxes below


def _load(classic: Classic) -> None:
    keys.TEACH_HYP.set(classic.hyp)
    keys.TEACH_NREFS.set(len(classic.refs))
    for k, ref in enumerate(classic.refs):
        keys.TEACH_REF.at(k).set(ref)
    keys.TEACH_LOADED.set(classic.key)


def _texts() -> tuple[str, tuple[str, ...]]:
    n = int(keys.TEACH_NREFS.get(1))
    return keys.TEACH_HYP.get(""), tuple(keys.TEACH_REF.at(k).get("") for k in range(n))


def _untouched() -> bool:
    """True while the text fields still hold the classic loaded last (or nothing)."""
    hyp, refs = _texts()
    loaded = keys.TEACH_LOADED.get(None)
    if loaded is None:
        return not hyp.strip()
    classic = by_key(loaded)
    return (hyp, refs) == (classic.hyp, classic.refs)


def _metric_changed() -> None:
    classics = classics_for(keys.TEACH_METRIC.get(""))
    if _untouched() and classics:
        keys.TEACH_CLASSIC.set(classics[0].key)
        _load(classics[0])
    elif not _untouched():
        keys.TEACH_CLASSIC.set(OWN)


def _edited() -> None:
    if not _untouched():
        keys.TEACH_CLASSIC.set(OWN)


def _classic_changed() -> None:
    key = keys.TEACH_CLASSIC.get("")
    if key != OWN:
        _load(by_key(key))


if not keys.TEACH_METRIC.exists() or keys.TEACH_METRIC.get("") not in ready:
    keys.TEACH_METRIC.set(ready[0])
    _metric_changed()

top = st.columns([2, 3])
metric_id = (
    top[0].selectbox("Metric", ready, format_func=teach.label, key=keys.TEACH_METRIC.name, on_change=_metric_changed)
    or ready[0]
)
classics = classics_for(metric_id)
options_keys = [OWN, *(c.key for c in classics)]
if keys.TEACH_CLASSIC.get("") not in options_keys:
    keys.TEACH_CLASSIC.set(OWN)
top[1].selectbox(
    "Preloaded classic",
    options_keys,
    format_func=lambda k: k if k == OWN else by_key(k).title,
    key=keys.TEACH_CLASSIC.name,
    on_change=_classic_changed,
)


def _load_segment() -> None:
    """Put one segment of the loaded dataset (a system's output and its references) into the text fields."""
    index = int(keys.TEACH_DS_INDEX.get(1)) - 1
    refs = [stream[index] for stream in data.refs if stream[index] is not None][:MAX_REFS]
    keys.TEACH_HYP.set(data.systems[keys.TEACH_DS_SYSTEM.get("")][index])
    if data.source is not None:
        keys.TEACH_SRC.set(data.source[index])
    keys.TEACH_NREFS.set(max(1, len(refs)))
    for k, ref in enumerate(refs):
        keys.TEACH_REF.at(k).set(ref)
    keys.TEACH_CLASSIC.set(OWN)
    keys.TEACH_LOADED.set(None)


if data.systems and len(data):
    with st.expander("…or take a segment of the loaded dataset", expanded=False):
        cols = st.columns([3, 2, 1])
        cols[0].selectbox("System", list(data.systems), key=keys.TEACH_DS_SYSTEM.name)
        cols[1].number_input(f"Segment (1–{len(data)})", 1, len(data), key=keys.TEACH_DS_INDEX.name)
        cols[2].button("Use it", key="teach_ds_load", on_click=_load_segment)
teach_class.set_picker(ready)
if missing:
    st.caption(
        "Without a lesson: "
        + "; ".join(f"{escape_markdown(teach.label(m))} ({escape_markdown(why)})" for m, why in missing.items())
        + "."
    )

spec = SPECS[metric_id]
reads_source = teach.reads_source(metric_id)
source = (
    st.text_area(
        "Source (the text the output translates)",
        key=keys.TEACH_SRC.name,
        height=80,
        max_chars=MAX_CHARS,
        help=f"{teach.label(metric_id)} reads the source beside the output.",
    )
    if reads_source
    else None
)
hyp = st.text_area(
    "Hypothesis (system output)",
    key=keys.TEACH_HYP.name,
    height=80,
    max_chars=MAX_CHARS,
    on_change=_edited,
    help="New lines separate sentences (ROUGE-Lsum; its Sentence split what-if also splits within lines).",
)
nrefs = int(st.number_input("Number of references", 1, MAX_REFS, key=keys.TEACH_NREFS.name, on_change=_edited))
ref_cols = st.columns(min(nrefs, 4))
refs = tuple(
    ref_cols[k % len(ref_cols)].text_area(
        f"Reference {k + 1}", key=keys.TEACH_REF.at(k).name, height=80, max_chars=MAX_CHARS, on_change=_edited
    )
    for k in range(nrefs)
)
if keys.TEACH_CLASSIC.get(OWN) != OWN:
    classic = by_key(keys.TEACH_CLASSIC.get(""))
    if (hyp, refs) == (classic.hyp, classic.refs):
        st.info(
            f"Textbook numbers (default settings): {escape_markdown(classic.expect)}"
            + (f" — {escape_markdown(classic.source)}" if classic.source else "")
        )

# What-if controls: one widget per option, keyed by metric so chrF and chrF++ keep their own defaults.
controls = teach.controls(metric_id)


def _reset() -> None:
    for control in controls:
        keys.TEACH_OPTION.at(f"{metric_id}_{control.name}").pop()


# The models a lesson may load are the server's to offer (its owner lists them in SCORELENS_MODELS), never a path
# typed here; they are a setup, not a what-if, so the comparison with the defaults keeps the chosen model.
setup: dict[str, Any] = {}
for option in teach.model_options(metric_id):
    choices = server_config().choices(spec.family, option)
    if reads_source and not option.default:  # the COMET family ships no model: its empty default runs nothing
        choices = {value: name for value, name in choices.items() if value}
        if not choices:
            st.info(
                f"No model for {escape_markdown(teach.label(metric_id))} is configured on this server: its owner "
                f"lists model folders under {escape_markdown(f'{spec.family}.{option.name}')} in the file {ENV} names."
            )
            st.stop()
    if len(choices) > 1 or option.default not in choices:
        key = keys.TEACH_OPTION.at(f"{metric_id}_{option.name}").name
        start = st.session_state.get(key, next(iter(choices)))
        setup[option.name] = model_widget(st.container(), option, key, start, choices)

options: dict[str, Any] = {}
if controls:
    with st.expander("What if… (change a setting and watch the derivation update)", expanded=True):
        cols = st.columns(min(len(controls), 3))
        for i, control in enumerate(controls):
            option = control.option
            options[control.name] = option_widget(
                cols[i % len(cols)],
                option,
                keys.TEACH_OPTION.at(f"{metric_id}_{control.name}").name,
                control.default,
                option.offered(),
                option.unavailable(),
            )
        st.button("Reset to defaults", key="teach_reset", on_click=_reset)
        st.caption("These settings belong to this page; the sidebar's options drive the other pages.")

if not hyp.strip() and not any(r.strip() for r in refs):
    st.info("Type a hypothesis and at least one reference, or pick a classic.")
    st.stop()
if source is not None and not source.strip():
    st.info(f"{escape_markdown(teach.label(metric_id))} reads the source: type it above the hypothesis.")
    st.stop()


@st.cache_resource(max_entries=32, show_spinner=False)
def _metric(
    key: str, refs_hash: str, _fresh: Metric[Any, Any], _corpus: tuple[tuple[str, ...], ...]
) -> Metric[Any, Any]:
    del key, refs_hash  # the cache key only: a fresh metric of that key, prepared on that corpus
    return teach.prepared(_fresh, _corpus)


def _lesson(metric_id: str, opts: dict[str, Any]) -> teach.Lesson:
    # The what-ifs never offer an option that names a server resource; the server refuses one all the same.
    check_browser_options({SPECS[metric_id].family: opts})
    chosen, lesson_opts = teach.what_if(metric_id, opts)
    fresh = chosen.metric(metric_id)
    metric = _metric(metric_key(metric_id, fresh), data.refs_hash, fresh, data.refs)
    context = teach.Context(data.refs, data.title, lesson_opts)
    return lessons.build_lesson(metric, hyp, refs, context, source=source)


defaults = teach.default_options(metric_id)
try:
    lesson = _lesson(metric_id, {**options, **setup})
    baseline = lesson if options == defaults else _lesson(metric_id, {**defaults, **setup})
except Exception as error:  # a bad option (ValueError names the valid ones) or a metric failing on this input
    st.error(f"{teach.label(metric_id)} cannot explain this input: {escape_markdown(str(error))}")
    st.stop()

# Remember the lesson of the previous settings for this pair, to show what the last change did.
pair = (metric_id, hyp, refs, source, tuple(setup.items()))
last = keys.TEACH_LAST.get(None)
if last is not None and last[0] == pair and last[1] != options:
    keys.TEACH_PREV.set(last)
elif last is not None and last[0] != pair:
    keys.TEACH_PREV.pop()
keys.TEACH_LAST.set((pair, dict(options), lesson))
previous = keys.TEACH_PREV.get(None)


def _result() -> None:
    """The score, sacrebleu's (or the reference code's) summary line and what the last change of settings did."""
    head = st.columns([1, 3])
    head[0].metric(lesson.name, lesson.score_text)
    if lesson.summary:
        head[1].code(lesson.summary, language=None, wrap_lines=True)
    if options != defaults or previous is not None:
        st.subheader("What changed")
        choices = ["default settings"] + (["previous settings"] if previous is not None else [])
        against = st.radio("Compare with", choices, horizontal=True, key="teach_compare")
        compared = previous if against == "previous settings" else None
        before_opts, before = (defaults, baseline) if compared is None else (compared[1], compared[2])
        changes = teach.changed_options(options, before_opts)
        if changes:
            st.markdown("Settings: " + "; ".join(escape_markdown(c) for c in changes))
        else:
            st.markdown("Same settings as the defaults.")
        st.dataframe(teach.compare(lesson, before), hide_index=True, key="teach_changes")


# The result leads the derivation, except step by step (or predicting each step), where it is what the last step
# arrives at.
result_slot = st.container()
steps = lesson.steps
item = teach_class.active_item(metric_id, hyp, refs)
teach_class.item_note(item)
drill = teach_class.drill(lesson, repr((pair, sorted(options.items()))), item)
stepwise = drill is not None or (len(steps) > 1 and st.toggle("Reveal step by step", key="teach_stepwise"))
if drill is not None:
    shown = drill.shown(len(steps))
elif stepwise:
    shown = st.slider("Steps shown", 1, len(steps), 1, key=f"teach_upto_{metric_id}_{len(steps)}")
else:
    shown = len(steps)
if not stepwise:
    with result_slot:
        _result()

show_steps(steps[:shown], "teach")

if drill is not None:
    teach_class.ask(drill)
if stepwise and shown == len(steps):
    _result()
elif stepwise:
    st.caption(f"The score follows the last step ({len(steps)}).")

if lesson.mistakes and (drill is None or drill.pending is None):  # no hints while predicting
    with st.expander("Common mistakes", expanded=True):
        st.markdown("\n".join(f"- {m}" for m in lesson.mistakes))
for note in lesson.notes:
    st.caption(escape_markdown(note))
show_card(SPECS[metric_id].family)
teach_class.class_tools(
    lesson,
    metric_id,
    handout.Pair(hyp, refs, source),
    teach.changed_options(options, defaults),
    cards.card(SPECS[metric_id].family),
    ready,
)
