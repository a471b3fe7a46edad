"""Standard input as the command line sees it from an interactive shell: a terminal, nothing piped in."""

from __future__ import annotations

import io


class Terminal(io.TextIOWrapper):
    """An empty standard input that says it is a terminal (``isatty``), as when a user types the command."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(b""))

    def isatty(self) -> bool:
        return True
