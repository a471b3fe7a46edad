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
    wide: bool = False  # needs a page's width (an alignment drawing): pages give it a full row

    @property
    def full_row(self) -> bool:
        """Whether the part needs a full row to be read: drawings marked ``wide``, and every table and figure
        (their columns and axis labels are cut off in a third of a 1400 px window)."""
        return self.wide or self.kind in ("table", "figure")


def note(text: str, *, detail: bool = False) -> Part:
    return Part("note", text, detail=detail)
