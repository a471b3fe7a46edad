"""What an evidence view is made of, so pages can show it without knowing which metric produced it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

PartKind = Literal["html", "figure", "table", "note"]


@dataclass(frozen=True)
class Part:
    """One piece of a view: escaped ``html``, a plotly ``figure``, a pandas ``table``, or a plain-text ``note``.

    ``html`` payloads are built only by ``rendering`` functions that escape every piece of user text; pages may
    pass them to ``st.html``. ``note`` and ``title`` are plain text (pages show them with ``st.text``/captions
    after Markdown escaping).
    """

    kind: PartKind
    payload: Any
    title: str = ""
    detail: bool = False  # secondary (long tables): pages may fold it away


def note(text: str, *, detail: bool = False) -> Part:
    return Part("note", text, detail=detail)
