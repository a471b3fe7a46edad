"""Every click counts: a button acts in its ``on_click`` callback, never in ``if st.button(...):``.

A click reaches the server as a trigger that holds for one run. When a newer event arrives (another click, an
upload, a second session slowing the server) Streamlit stops that run at its next element and starts the next one;
a run stopped before it reached the button has dropped the click. Callbacks run before the script, from the
browser's message itself, so they never miss one."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

APP_FILES = sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "dashboard").glob("*.py")])


def _button_results_used(path: Path) -> list[str]:
    """``file:line`` of every ``….button(…)`` call whose result is used (an ``if``, a boolean, an assignment)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    statement_calls = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "button"
        and id(node) not in statement_calls
    ]


def test_no_page_acts_on_a_button_after_the_fact():
    used = [where for path in APP_FILES for where in _button_results_used(path)]
    assert used == [], f"act in on_click instead: {used}"
