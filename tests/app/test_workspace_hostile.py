"""A workspace file is data: loading one runs nothing and unpickles nothing, and a hostile one — wrong types, huge
numbers, NaN, deep nesting, huge strings, unknown keys — is refused with a message naming the file and field."""

from __future__ import annotations

import builtins
import json
import pickle
from typing import Any

import pytest

from dashboard import workspace
from metrics.io.inputs import InputError
from tests.support.ui import small_dataset


def _document() -> dict[str, Any]:
    return json.loads(workspace.dumps(small_dataset(), workspace.Settings(("bleu",), {"bleu": {"lowercase": True}})))


def _with(path: str, value: Any) -> str:
    document = _document()
    *parents, last = path.split(".")
    target = document
    for key in parents:
        target = target[key]
    target[last] = value
    return json.dumps(document)


HOSTILE = {
    "an unknown key": (
        _with("py/object", "os.system"),
        "the workspace has keys a workspace does not define: 'py/object'",
    ),
    "an unknown setting": (_with("settings.exec", "x"), "settings has keys a workspace does not define: 'exec'"),
    "a title of the wrong type": (_with("title", 5), "'title' must be a string of at most 1,000 characters"),
    "a huge title": (_with("title", "x" * 5000), "'title' must be a string of at most 1,000 characters"),
    "an object as an option": (
        _with("settings.options", {"bleu": {"tokenize": {"$ref": "x"}}}),
        "settings.options['bleu']['tokenize'] must be null, true/false, a number, a text, a list of at most 64 numbers or an uploaded file",
    ),
    "a long list as an option": (_with("settings.options", {"rouge": {"weights": [1] * 65}}), "a list of at most 64"),
    "a huge option text": (
        _with("settings.options", {"perplexity": {"corpus": "/" * 5000}}),
        "at most 1,000 characters",
    ),
    "a huge whole number": (
        _with("settings.view", {"segment": 10**40}),
        "is beyond the limit of 9,007,199,254,740,992",
    ),
    "a number too large for a float": (
        json.dumps(_document()).replace('"lowercase": true', '"lowercase": 1e999'),
        "the number 1e999 is too large for a float",
    ),
    "Infinity": (
        json.dumps(_document()).replace('"lowercase": true', '"lowercase": -Infinity'),
        "the number -Infinity is not JSON",
    ),
    "a segment of the wrong type": (
        _with("systems", [{"name": "a", "segments": [1, 2, 3, 4]}]),
        "must be a list of strings",
    ),
    "an unknown view key": (_with("settings.view", {"baseline": "alpha", "script": "x"}), "settings.view has keys"),
    "a segment number as text": (
        _with("settings.view", {"segment": "3"}),
        "settings.view.segment must be a whole number",
    ),
    "a slice of the wrong shape": (
        _with("settings.slices", [{"name": "s", "segments": "0-3"}]),
        "segments must be a list",
    ),
    "deep nesting": (
        _with("settings.options", {"bleu": {"x": "DEEP"}}).replace('"DEEP"', "[" * 100 + "]" * 100),
        "nested more than 64",
    ),
    "not UTF-8": (b'{"format": "\xff"}', "are not valid UTF-8"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_workspace_is_refused_naming_file_and_field(case, monkeypatch):
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a workspace made the loader execute or unpickle something")

    monkeypatch.setattr(pickle, "loads", forbidden)
    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    text, message = HOSTILE[case]
    with pytest.raises(InputError) as raised:
        workspace.loads(text, "evil.json")
    assert str(raised.value).startswith("evil.json") and message in str(raised.value), str(raised.value)


def test_a_saved_workspace_still_loads_with_its_options():
    data, settings = workspace.loads(
        workspace.dumps(small_dataset(), workspace.Settings(("bleu",), {"bleu": {"lowercase": True}}))
    )
    assert data.systems == small_dataset().systems and settings.options == {"bleu": {"lowercase": True}}
