"""A teacher's exercise set for the Teach page: sentence pairs, the metric of each and the exercises to ask.

A set travels as a JSON file (:func:`to_json` / :func:`parse`) or inside a link (:func:`to_link` / :func:`from_link`:
the set itself, compressed into one query parameter, size-limited — never a path on the server, nothing fetched).
:func:`parse` refuses anything else than the format below with a :class:`SetError` whose messages name the line and
the field (``line 7, items[1].refs[0]: …``)::

    {"scorelens_teach_set": 1, "title": "Clipping",
     "items": [{"metric": "bleu", "hyp": "the the the", "refs": ["the cat"], "exercises": ["m1", "p1"],
                "note": "What does clipping do?"}]}

``exercises`` names exercises by their key (``rendering.exercises``); empty asks every exercise of the lesson. Which
keys a lesson offers is known once it is built, so the page reports an unknown key there, naming the offered ones.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from json import scanner
from typing import Any

from metrics.core.registry import SPECS

FORMAT = 1
FORMAT_KEY = "scorelens_teach_set"
MAX_ITEMS = 50
MAX_REFS = 8  # the Teach page's own bounds
MAX_CHARS = 5_000
MAX_TITLE = 200
MAX_FILE_BYTES = 512 * 1024
# A link must stay usable in a browser's address bar and a server's request line (8 KiB on many proxies).
MAX_LINK_CHARS = 6_000
LINK_PREFIX = "v1."
_ITEM_FIELDS = {"metric", "hyp", "refs", "source", "exercises", "note"}
_TOP_FIELDS = {FORMAT_KEY, "title", "items"}


@dataclass(frozen=True)
class SetItem:
    metric: str
    hyp: str
    refs: tuple[str, ...]
    exercises: tuple[str, ...] = ()
    note: str = ""
    source: str | None = None

    def label(self, k: int) -> str:
        text = self.hyp if len(self.hyp) <= 40 else self.hyp[:39] + "…"
        return f"{k + 1}. {self.metric}: {text}"


@dataclass(frozen=True)
class TeachSet:
    title: str
    items: tuple[SetItem, ...]

    def with_item(self, item: SetItem) -> TeachSet:
        if len(self.items) >= MAX_ITEMS:
            raise SetError((f"a set holds at most {MAX_ITEMS} items",))
        return TeachSet(self.title, (*self.items, item))


class SetError(ValueError):
    """A set file or link that is not a valid set; ``problems`` name the line and field of each."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)


def _decode_with_lines(text: str) -> tuple[Any, dict[int, int]]:
    """The JSON value of ``text`` and the line (1-based) each of its objects starts on, keyed by ``id``. Python's own
    decoder, with its object parser wrapped to note where each object starts (the pure-Python scanner calls it)."""
    lines: dict[int, int] = {}
    decoder = json.JSONDecoder()
    parse_object = decoder.parse_object  # type: ignore[attr-defined]

    def noting(state: tuple[str, int], *args: Any) -> tuple[Any, int]:
        value, end = parse_object(state, *args)
        lines[id(value)] = text.count("\n", 0, state[1]) + 1
        return value, end

    # parse_object, scan_once and py_make_scanner are the json module's documented-in-source hooks, not in its stubs.
    decoder.parse_object = noting  # type: ignore[attr-defined]
    decoder.scan_once = scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder.decode(text), lines


def _where(lines: Mapping[int, int], obj: object, path: str) -> str:
    line = lines.get(id(obj))
    return f"line {line}, {path}" if line else path


def _string(value: object, limit: int) -> str | None:
    return value if isinstance(value, str) and len(value) <= limit else None


def parse(text: str | bytes) -> TeachSet:
    """The set in ``text`` (a set file's content), or a :class:`SetError` naming every problem found."""
    if isinstance(text, bytes):
        if len(text) > MAX_FILE_BYTES:
            raise SetError((f"the file is larger than {MAX_FILE_BYTES // 1024} KiB",))
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise SetError((f"not UTF-8 text (byte {error.start})",)) from None
    try:
        data, lines = _decode_with_lines(text)
    except json.JSONDecodeError as error:
        raise SetError((f"line {error.lineno}, column {error.colno}: not JSON ({error.msg})",)) from None
    problems: list[str] = []
    if not isinstance(data, dict):
        raise SetError(("the file holds no JSON object (a set is {…})",))
    top = _where(lines, data, "the set")
    for name in sorted(set(data) - _TOP_FIELDS):
        problems.append(f"{top}: unknown field '{name}' (a set has {', '.join(sorted(_TOP_FIELDS))})")
    if data.get(FORMAT_KEY) != FORMAT:
        problems.append(f"{top}: '{FORMAT_KEY}' must be {FORMAT} (this app's set format)")
    title = _string(data.get("title", ""), MAX_TITLE)
    if title is None:
        problems.append(f"{top}: 'title' must be text of at most {MAX_TITLE} characters")
    raw_items = data.get("items")
    items: list[SetItem] = []
    if not isinstance(raw_items, list) or not 1 <= len(raw_items) <= MAX_ITEMS:
        problems.append(f"{top}: 'items' must be a list of 1 to {MAX_ITEMS} items")
        raw_items = []
    for k, raw in enumerate(raw_items):
        item = _item(raw, f"items[{k}]", lines, problems)
        if item is not None:
            items.append(item)
    if problems:
        raise SetError(problems)
    return TeachSet(title or "", tuple(items))


def _item(raw: object, path: str, lines: Mapping[int, int], problems: list[str]) -> SetItem | None:
    if not isinstance(raw, dict):
        problems.append(f"{path}: must be an object with metric, hyp and refs")
        return None
    at = _where(lines, raw, path)
    before = len(problems)
    for name in sorted(set(raw) - _ITEM_FIELDS):
        problems.append(f"{at}.{name}: unknown field (an item has {', '.join(sorted(_ITEM_FIELDS))})")
    metric = raw.get("metric")
    if not isinstance(metric, str) or metric not in SPECS:
        problems.append(f"{at}.metric: {json.dumps(metric)[:60]} is no metric of this app (e.g. bleu, chrf, ter)")
    hyp = _string(raw.get("hyp"), MAX_CHARS)
    if hyp is None:
        problems.append(f"{at}.hyp: must be text of at most {MAX_CHARS} characters")
    refs = raw.get("refs")
    if not isinstance(refs, list) or not 1 <= len(refs) <= MAX_REFS:
        problems.append(f"{at}.refs: must be a list of 1 to {MAX_REFS} references")
        refs = []
    for j, ref in enumerate(refs):
        if _string(ref, MAX_CHARS) is None:
            problems.append(f"{at}.refs[{j}]: must be text of at most {MAX_CHARS} characters")
    source = raw.get("source")
    if source is not None and _string(source, MAX_CHARS) is None:
        problems.append(f"{at}.source: must be text of at most {MAX_CHARS} characters")
    exercises = raw.get("exercises", [])
    if not isinstance(exercises, list) or not all(isinstance(e, str) and 0 < len(e) <= 60 for e in exercises):
        problems.append(f'{at}.exercises: must be a list of exercise keys (e.g. ["m1", "bp"])')
        exercises = []
    note = _string(raw.get("note", ""), MAX_CHARS)
    if note is None:
        problems.append(f"{at}.note: must be text of at most {MAX_CHARS} characters")
    if len(problems) > before:
        return None
    return SetItem(str(metric), str(hyp), tuple(refs), tuple(exercises), note or "", source)


def to_data(teach_set: TeachSet) -> dict[str, Any]:
    items = []
    for item in teach_set.items:
        row: dict[str, Any] = {"metric": item.metric, "hyp": item.hyp, "refs": list(item.refs)}
        if item.source is not None:
            row["source"] = item.source
        row["exercises"] = list(item.exercises)
        if item.note:
            row["note"] = item.note
        items.append(row)
    return {FORMAT_KEY: FORMAT, "title": teach_set.title, "items": items}


def to_json(teach_set: TeachSet) -> str:
    """The set as a file: one field per line, so that :func:`parse`'s line numbers point somewhere readable."""
    return json.dumps(to_data(teach_set), ensure_ascii=False, indent=2) + "\n"


def to_link(teach_set: TeachSet) -> str:
    """The value of the ``set`` query parameter carrying ``teach_set``, or a :class:`SetError` when it is too long
    for a link (share the file instead)."""
    compact = json.dumps(to_data(teach_set), ensure_ascii=False, separators=(",", ":")).encode()
    value = LINK_PREFIX + base64.urlsafe_b64encode(zlib.compress(compact, 9)).decode().rstrip("=")
    if len(value) > MAX_LINK_CHARS:
        raise SetError(
            (f"the set needs {len(value)} characters in a link, more than {MAX_LINK_CHARS}: share the file instead",)
        )
    return value


def from_link(value: str) -> TeachSet:
    """The set a ``set`` query parameter carries (see :func:`to_link`)."""
    if len(value) > MAX_LINK_CHARS:
        raise SetError((f"the link's set is longer than {MAX_LINK_CHARS} characters",))
    if not value.startswith(LINK_PREFIX):
        raise SetError(("the link's set is not in this app's format (it starts with v1.)",))
    body = value[len(LINK_PREFIX) :]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_FILE_BYTES)
    except (binascii.Error, ValueError, zlib.error):
        raise SetError(("the link's set is damaged (was the link cut short?)",)) from None
    if not inflater.eof and not inflater.unconsumed_tail:
        raise SetError(("the link's set is damaged (was the link cut short?)",))
    if inflater.unconsumed_tail:
        raise SetError((f"the link's set unpacks to more than {MAX_FILE_BYTES // 1024} KiB",))
    return parse(raw)
