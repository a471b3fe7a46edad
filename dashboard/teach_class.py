"""The Teach page's class tools: "predict, then reveal" exercises on the lesson shown, exercise sets a teacher shares
as a file or a link (:mod:`dashboard.teach_sets`), and handouts (:mod:`rendering.handout`).

The page calls :func:`open_link` first (a link carries a set in its ``set`` query parameter: the set itself, never a
path, nothing fetched), :func:`set_picker` beside the text boxes, :func:`drill` before the steps (how many to show),
:func:`ask` after them, and :func:`class_tools` at the end. Buttons act through callbacks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from dashboard import keys
from dashboard.teach_sets import SetError, SetItem, TeachSet, from_link, parse, to_json, to_link
from dashboard.uploads import empty, release, uploader
from rendering import handout
from rendering.exercises import Exercise, Feedback, Verdict, check, for_lesson
from rendering.teach import Lesson
from rendering.text import escape_markdown

LINK_PARAM = "set"
SET_FILE = "teach_set_file"  # the key of the set file's uploader


@dataclass(frozen=True)
class Answer:
    """What the student typed and the verdict; ``feedback`` None: revealed without a prediction."""

    typed: str
    feedback: Feedback | None


@dataclass(frozen=True)
class Drill:
    """The exercises asked on the lesson shown and the answers given so far (in the order asked)."""

    identity: str
    exercises: tuple[Exercise, ...]
    answers: Mapping[str, Answer]
    offered: tuple[str, ...] = ()  # the keys of every exercise the lesson offers
    unknown: tuple[str, ...] = ()  # exercise keys the set names that this lesson does not offer

    @property
    def pending(self) -> Exercise | None:
        return next((e for e in self.exercises if e.key not in self.answers), None)

    def shown(self, n_steps: int) -> int:
        """How many steps to show: those before the step the next prediction is about."""
        pending = self.pending
        return n_steps if pending is None else pending.step


# ---------------------------------------------------------------------------------------------------------------
# Sets: opening one (file or link), opening its items


def _open_item(teach_set: TeachSet, k: int) -> None:
    item = teach_set.items[k]
    keys.TEACH_METRIC.set(item.metric)
    keys.TEACH_HYP.set(item.hyp)
    keys.TEACH_NREFS.set(len(item.refs))
    for j, ref in enumerate(item.refs):
        keys.TEACH_REF.at(j).set(ref)
    if item.source is not None:
        keys.TEACH_SRC.set(item.source)
    keys.TEACH_CLASSIC.pop()  # the page puts "your own text" back: these are the set's sentences
    keys.TEACH_LOADED.set(None)
    keys.TEACH_SET_ITEM.set(k)
    keys.TEACH_SET_PICK.set(k)
    keys.TEACH_DRILL.set(True)
    keys.TEACH_ANSWERS.pop()


def _opened(teach_set: TeachSet, ready: Sequence[str]) -> None:
    """Keep ``teach_set`` and open its first item with a lesson here."""
    keys.TEACH_SET.set(teach_set)
    keys.TEACH_SET_ERRORS.pop()
    first = next((k for k, item in enumerate(teach_set.items) if item.metric in ready), None)
    if first is None:
        keys.TEACH_SET_ERRORS.set(("none of its metrics has a lesson in this installation",))
    else:
        _open_item(teach_set, first)


def open_link(ready: Sequence[str]) -> None:
    """Open a set file read in the last run, or the set a link carries, once per link (a rerun or an edit of the
    texts does not reopen it). Before the page's widgets: opening a set fills their values."""
    data = keys.TEACH_SET_FILE.get(b"")
    if data:
        keys.TEACH_SET_FILE.pop()
        _load_upload(data, ready)
    value = st.query_params.get(LINK_PARAM)
    if not value or value == keys.TEACH_SET_LINK.get(""):
        return
    keys.TEACH_SET_LINK.set(value)
    try:
        _opened(from_link(value), ready)
    except SetError as error:
        keys.TEACH_SET_ERRORS.set(error.problems)


def _item_active(item: SetItem, metric_id: str, hyp: str, refs: Sequence[str]) -> bool:
    return (item.metric, item.hyp, tuple(item.refs)) == (metric_id, hyp, tuple(refs))


def active_item(metric_id: str, hyp: str, refs: Sequence[str]) -> SetItem | None:
    """The set's item whose sentences are in the text boxes (untouched), if any."""
    teach_set: TeachSet | None = keys.TEACH_SET.get(None)
    k = keys.TEACH_SET_ITEM.get(None)
    if teach_set is None or k is None or k >= len(teach_set.items):
        return None
    item = teach_set.items[k]
    return item if _item_active(item, metric_id, hyp, refs) else None


def set_picker(ready: Sequence[str]) -> None:
    """The opened set's items (pick one, open it) and why the last file or link was refused."""
    for problem in keys.TEACH_SET_ERRORS.get(()):
        st.error("Exercise set refused: " + escape_markdown(problem))
    teach_set: TeachSet | None = keys.TEACH_SET.get(None)
    if teach_set is None:
        return
    labels = [item.label(k) for k, item in enumerate(teach_set.items)]
    cols = st.columns([4, 1])
    pick = cols[0].selectbox(
        f"Exercise set: {teach_set.title or 'untitled'} ({len(labels)} items)",
        range(len(labels)),
        format_func=lambda k: labels[k],
        key=keys.TEACH_SET_PICK.name,
    )
    item = teach_set.items[pick or 0]
    cols[1].button(
        "Open item",
        key="teach_set_open",
        on_click=_open_item,
        args=(teach_set, pick or 0),
        disabled=item.metric not in ready,
        help=None if item.metric in ready else f"{item.metric} has no lesson in this installation",
    )


def item_note(item: SetItem | None) -> None:
    if item is not None and item.note:
        st.info(escape_markdown(item.note))


# ---------------------------------------------------------------------------------------------------------------
# Exercises


def drill(lesson: Lesson, identity: str, item: SetItem | None) -> Drill | None:
    """The exercise toggle, and the drill on ``lesson`` when it is on (None when off or the lesson offers none).
    ``identity`` names the lesson (metric, texts, settings): answers given to another lesson are forgotten."""
    offered = for_lesson(lesson)
    if not offered or not st.toggle(
        "Predict, then reveal (exercises)",
        key=keys.TEACH_DRILL.name,
        help="Each step waits for your prediction of its number; the check uses the numbers the lesson shows.",
    ):
        return None
    chosen = offered
    unknown: tuple[str, ...] = ()
    if item is not None and item.exercises:
        chosen = tuple(e for e in offered if e.key in item.exercises)
        unknown = tuple(k for k in item.exercises if k not in {e.key for e in offered})
    stored = keys.TEACH_ANSWERS.get(None)
    answers = stored[1] if stored is not None and stored[0] == identity else {}
    done = {k: a for k, a in answers.items() if a.feedback is None or a.feedback.verdict is not Verdict.UNREADABLE}
    return Drill(identity, chosen, done, tuple(e.key for e in offered), unknown)


def _answer(identity: str, exercise: Exercise, reveal: bool) -> None:
    stored = keys.TEACH_ANSWERS.get(None)
    answers = dict(stored[1]) if stored is not None and stored[0] == identity else {}
    typed = keys.TEACH_GUESS.at(exercise.key).get("")
    answers[exercise.key] = Answer(typed, None if reveal else check(exercise, typed))
    keys.TEACH_ANSWERS.set((identity, answers))


def _restart(identity: str) -> None:
    keys.TEACH_ANSWERS.set((identity, {}))


def _say(answer: Answer, exercise: Exercise) -> None:
    feedback = answer.feedback
    if feedback is None:
        st.info(f"{exercise.key}: revealed — {escape_markdown(exercise.shown())}.")
        return
    shown: Callable[..., object] = {
        Verdict.RIGHT: st.success,
        Verdict.MISTAKE: st.warning,
        Verdict.WRONG: st.error,
        Verdict.UNREADABLE: st.error,
    }[feedback.verdict]
    shown(f"{exercise.key} — you typed {escape_markdown(answer.typed)}. {escape_markdown(feedback.text)}")


def ask(the_drill: Drill) -> None:
    """After the steps shown: the last verdict, then the next prediction (or the tally when all are answered)."""
    if the_drill.unknown:
        offered = ", ".join(the_drill.offered)
        st.warning(
            "The set asks for exercises this lesson does not offer: "
            + escape_markdown(", ".join(the_drill.unknown))
            + f". It offers: {escape_markdown(offered)}."
        )
    stored = keys.TEACH_ANSWERS.get(None)
    raw = stored[1] if stored is not None and stored[0] == the_drill.identity else {}
    by_key = {e.key: e for e in the_drill.exercises}
    if raw:
        last_key = list(raw)[-1]
        if last_key in by_key:
            _say(raw[last_key], by_key[last_key])
    pending = the_drill.pending
    if pending is None:
        right = sum(
            1 for a in the_drill.answers.values() if a.feedback is not None and a.feedback.verdict is Verdict.RIGHT
        )
        st.success(f"All {len(the_drill.exercises)} predictions made: {right} right.")
        st.button("Start again", key="teach_drill_restart", on_click=_restart, args=(the_drill.identity,))
        return
    number = the_drill.exercises.index(pending) + 1
    with st.container(border=True):
        st.markdown(f"**Predict ({number} of {len(the_drill.exercises)})** — {pending.question}")
        st.caption(f"Answer {pending.tolerance}; a fraction such as 3/7 or a percentage such as 43% is fine.")
        st.text_input("Your prediction", key=keys.TEACH_GUESS.at(pending.key).name)
        cols = st.columns([1, 1, 4])
        cols[0].button(
            "Check",
            key="teach_drill_check",
            type="primary",
            on_click=_answer,
            args=(the_drill.identity, pending, False),
        )
        cols[1].button("Reveal", key="teach_drill_reveal", on_click=_answer, args=(the_drill.identity, pending, True))


# ---------------------------------------------------------------------------------------------------------------
# Building a set, sharing it, handouts


def _add(item: SetItem) -> None:
    draft: TeachSet = keys.TEACH_DRAFT.get(TeachSet("", ()))
    try:
        keys.TEACH_DRAFT.set(TeachSet(keys.TEACH_DRAFT_TITLE.get(""), draft.with_item(item).items))
    except SetError as error:
        keys.TEACH_SET_ERRORS.set(error.problems)


def _load_upload(data: bytes, ready: Sequence[str]) -> None:
    try:
        _opened(parse(data), ready)
    except SetError as error:
        keys.TEACH_SET_ERRORS.set(error.problems)


def _try_draft(draft: TeachSet, ready: Sequence[str]) -> None:
    _opened(TeachSet(keys.TEACH_DRAFT_TITLE.get(""), draft.items), ready)


def handout_downloads(
    lesson: Lesson,
    name: str,
    pair: handout.Pair | None = None,
    settings: Sequence[str] = (),
    card: str | None = None,
    offered: Sequence[Exercise] | None = None,
    key: str = "teach_handout",
) -> None:
    """The handout of ``lesson`` as HTML and PDF downloads (made on click), for any lesson: ``name`` names the files,
    ``key`` the widgets (one per lesson shown on a page)."""
    offered = for_lesson(lesson) if offered is None else offered
    with st.expander("Handout: this lesson as a file to print or share", expanded=False):
        with_exercises = bool(offered) and st.checkbox(
            "With the exercises as a worksheet (answers at the end)", key=f"{key}_ex"
        )
        asked = tuple(offered) if with_exercises else ()
        cols = st.columns(2)
        cols[0].download_button(
            "Download HTML",
            data=lambda: handout.handout_html(lesson, pair, card=card, exercises=asked, settings=settings),
            file_name=f"{name}.html",
            mime="text/html",
            key=f"{key}_html",
            help="One file: styles, formulas (MathML) and drawings (SVG) inline, no script, nothing loaded.",
        )
        missing = handout.pdf_missing()
        if missing:
            cols[1].caption(escape_markdown(missing))
        else:
            cols[1].download_button(
                "Download PDF",
                data=lambda: handout.handout_pdf(lesson, pair, card=card, exercises=asked, settings=settings),
                file_name=f"{name}.pdf",
                mime="application/pdf",
                key=f"{key}_pdf",
                help="A4, for printing or slides; formulas as plain text.",
            )


def class_tools(
    lesson: Lesson,
    metric_id: str,
    pair: handout.Pair,
    settings: Sequence[str],
    card: str | None,
    ready: Sequence[str],
) -> None:
    """Handout downloads, and the teacher's set: add this pair with chosen exercises, download it, share a link."""
    offered = for_lesson(lesson)
    handout_downloads(lesson, f"scorelens-{metric_id}-lesson", pair, settings, card, offered)
    with st.expander("Exercise set: prepare exercises for a class, or open one", expanded=False):
        files = uploader("Open a set file (JSON)", SET_FILE, type=["json"])
        if files:
            data = files[0].getvalue()
            release(files)
            empty(SET_FILE)  # the set lives in the session now; the box is free for the next file
            keys.TEACH_SET_FILE.set(data)  # opened at the start of the next run, before the text boxes are drawn
            st.rerun()
        st.text_input("Title of the set", key=keys.TEACH_DRAFT_TITLE.name, max_chars=200)
        labels = {e.key: f"{e.key}: {e.question.replace('**', '')}" for e in offered}
        st.multiselect(
            "Exercises on this pair (none chosen: all of them)",
            list(labels),
            format_func=lambda k: labels.get(k, k),
            key=keys.TEACH_DRAFT_PICK.name,
        )
        st.text_input("Note for the class (optional)", key=keys.TEACH_DRAFT_NOTE.name, max_chars=500)
        item = SetItem(
            metric_id,
            pair.hyp,
            pair.refs,
            tuple(k for k in keys.TEACH_DRAFT_PICK.get([]) if k in labels),
            keys.TEACH_DRAFT_NOTE.get(""),
            pair.source,
        )
        st.button("Add this pair to the set", key="teach_draft_add", on_click=_add, args=(item,))
        draft: TeachSet | None = keys.TEACH_DRAFT.get(None)
        if draft is None or not draft.items:
            return
        draft = TeachSet(keys.TEACH_DRAFT_TITLE.get(""), draft.items)
        st.caption(
            f"{len(draft.items)} item(s): " + "; ".join(escape_markdown(i.label(k)) for k, i in enumerate(draft.items))
        )
        actions = st.columns(3)
        actions[0].download_button(
            "Download the set (JSON)",
            data=to_json(draft),
            file_name="scorelens-exercise-set.json",
            mime="application/json",
            key="teach_draft_download",
        )
        actions[1].button("Open it here", key="teach_draft_try", on_click=_try_draft, args=(draft, ready))
        actions[2].button("Start a new set", key="teach_draft_clear", on_click=keys.TEACH_DRAFT.pop)
        try:
            value = to_link(draft)
        except SetError as error:
            st.warning(escape_markdown(error.problems[0]))
            return
        base = st.context.url.split("?", 1)[0] if st.context.url else ""
        st.markdown("Link for the class (it carries the set itself):")
        st.code(f"{base}?{LINK_PARAM}={value}", language=None, wrap_lines=True)
