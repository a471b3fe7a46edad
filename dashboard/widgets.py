"""Widgets the pages share: the widget of one metric option, drawn from its metadata (the sidebar's options and the
Teach page's what-ifs are both drawn here, so they share labels, help, bounds, steps and choice labels), the widgets
of an option that names a server resource (an upload, a select box of the server's models: never a text box), select
boxes whose choice outlives the page, and the row chosen in a table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.typing import DataframeState

from dashboard import keys
from dashboard.intake import limit_text, megabytes, upload_megabytes, upload_name
from dashboard.keys import Choice, all_among, among
from metrics.core.caveats import LanguageCaveat, Severity, Surface
from metrics.core.config import Option
from metrics.core.upload import Upload
from metrics.io.inputs import InputError, parse_segments
from rendering.text import escape_markdown

T = TypeVar("T")


def select(
    label: str,
    options: Sequence[T],
    choice: Choice[T],
    *,
    format_func: Callable[[T], str] = str,
    index: int = 0,
    help: str | None = None,
) -> T:
    """A select box of ``options`` (never empty) whose value outlives the page; starts on ``options[index]``."""
    found = st.selectbox(
        label, options, index=index, format_func=format_func, key=choice.widget(among(list(options))), help=help
    )
    return choice.keep(options[index] if found is None else found)


def select_many(
    label: str,
    options: Sequence[T],
    choice: Choice[list[T]],
    *,
    default: Sequence[T],
    format_func: Callable[[T], str] = str,
) -> list[T]:
    """A multiselect of ``options`` whose value outlives the page; ``default`` when nothing is chosen."""
    found = st.multiselect(
        label, options, default=default, format_func=format_func, key=choice.widget(all_among(list(options)))
    )
    return choice.keep(found) or list(default)


def option_widget(
    where: DeltaGenerator,
    option: Option,
    key: str,
    value: Any,
    choices: Sequence[Any] = (),
    unavailable: Sequence[str] = (),
) -> Any:
    """Draw ``option``'s widget in ``where`` starting from ``value`` (the widget's own state wins once it has one)
    and return its value: a checkbox, a text box, a select box of ``choices`` (those that can run here;
    ``unavailable`` says why the others are not offered), a number box within the option's bounds (an optional number
    may be left empty, which is ``None``), or a text box for a list of numbers (``"0.4, 0.3, 0.2, 0.1"``). An option
    that names a server resource has widgets of its own (:func:`model_widget`, :func:`file_widget`)."""
    if option.info.resource is not None:
        raise TypeError(f"option {option.name!r} names a server resource: never offer it as text")
    if option.kind == "bool":
        return where.checkbox(option.label, value=bool(value), key=key, help=option.help)
    if option.kind == "text":
        return where.text_input(option.label, value=str(value), key=key, help=option.help)
    if option.kind == "choice":
        offered = list(choices)
        selected = where.selectbox(
            option.label,
            offered,
            index=offered.index(value) if value in offered else 0,
            format_func=option.choice_label,
            key=key,
            help=option.help,
        )
        if unavailable:
            where.caption("Not offered here: " + "; ".join(escape_markdown(reason) for reason in unavailable))
        return selected
    if option.kind == "floats":
        text = where.text_input(option.label, value=value or "", key=key, help=option.help)
        return text.strip() or None  # the config parses and checks the numbers; empty is the default (None)
    number: type[int] | type[float] = int if option.kind == "int" else float
    start = None if value is None else number(value)
    if option.optional:
        # Only a number box started empty can be emptied; its first value then comes through its state.
        st.session_state.setdefault(key, start)
        start = None
    info = option.info
    numbers: dict[str, Any] = {  # all of one type, as Streamlit requires
        "min_value": None if info.low is None or info.low_open else number(info.low),
        "max_value": None if info.high is None else number(info.high),
        "value": start,
        "step": number(info.step or 1),
    }
    chosen = where.number_input(
        option.label, **numbers, format="%d" if number is int else "%g", key=key, help=option.help
    )
    return None if chosen is None else number(chosen)


def model_widget(where: DeltaGenerator, option: Option, key: str, value: Any, choices: Mapping[str, str]) -> str:
    """A select box of the models (or devices) the server offers for ``option`` (value → label: the labels are
    shown, never the values), starting from ``value`` when it is one of them; another value goes back to the first
    choice, said without repeating it."""
    offered = list(choices)
    known = isinstance(value, str) and value in choices
    if not known:
        where.warning(
            f"{escape_markdown(option.label)}: the value chosen before is not offered here; back to the default."
        )
    chosen = where.selectbox(
        option.label,
        offered,
        index=offered.index(value) if known else 0,
        format_func=lambda v: choices.get(v, "?"),
        key=key,
        help=option.help,
    )
    return str(chosen) if chosen in choices else offered[0]


def file_widget(where: DeltaGenerator, option: Option, key: str, value: Any, limit: int) -> Any:
    """An uploader for an option that names a file: the file's bytes, read in memory and checked the way the metric
    will read them (one sentence per line), as an :class:`Upload` of at most ``limit`` bytes. With no file in the
    uploader an earlier upload (``value``) stays until the user goes back to the default; anything else that is
    not an upload is the default. A file that is too large or unreadable is said, and the earlier upload kept."""
    earlier = value if isinstance(value, Upload) else option.default
    sent = where.file_uploader(
        option.label, type=["txt"], key=key, help=option.help, max_upload_size=upload_megabytes(limit)
    )
    if sent is None:
        if not isinstance(value, Upload):
            return earlier
        back = keys.FILE_OPTION_DEFAULT.at(key)
        if back.exists():  # set by the button's callback, so that a click counts however busy the server is
            back.pop()
            return option.default
        where.caption(f"Uses {escape_markdown(value.name)} ({megabytes(len(value.data))}), uploaded earlier.")
        where.button(
            f"Use {option.choice_label(option.default)} instead",
            key=f"{key}:default",
            on_click=back.set,
            args=(True,),
        )
        return value
    name, data = upload_name(sent), sent.getvalue()
    if len(data) > limit:
        where.error(
            f"{escape_markdown(name)} has {megabytes(len(data))}, more than the {limit_text(limit)} it may have."
        )
        return earlier
    upload = Upload(name, data)
    if upload != value:  # read it once, when it is new: the metric reads it the same way
        try:
            parse_segments(data, name)
        except InputError as err:
            where.error(escape_markdown(str(err)))
            return earlier
    return upload


def chosen_row(event: DeltaGenerator | DataframeState, n_rows: int) -> int | None:
    """The position of the row a user chose in a table of ``n_rows`` drawn with ``on_select``; ``None`` when none
    (or a row of an older, longer table)."""
    rows = event.selection.rows if isinstance(event, DataframeState) else []
    return rows[0] if rows and rows[0] < n_rows else None


def language_caveats(caveats: Sequence[LanguageCaveat]) -> None:
    """Each caveat in the app's terms (:mod:`metrics.core.caveats`): a warning when it matters, else a note."""
    for caveat in caveats:
        shown = escape_markdown(caveat.text(Surface.APP))
        if caveat.severity is Severity.WARNING:
            st.warning(shown, icon="⚠️")
        else:
            st.caption(f"Note: {shown}")
