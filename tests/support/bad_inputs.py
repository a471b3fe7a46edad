"""The bad-input table: every input surface × every class of bad input, the payload of each pair and what must
come of it (read, with a note; or refused, naming the file and the line). Shared by the library's test
(tests/unit/io/test_bad_inputs.py), the app's (tests/app/test_bad_uploads.py) and the command line's; the large
payloads (a 1 MB line, 100,000 lines) are built once per test session.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dashboard import workspace
from dashboard.dataset import Dataset
from metrics.families.external.scores import parse_external
from metrics.io.inputs import check_same_counts, parse_segments
from metrics.io.metadata import parse_metadata
from metrics.stats.human import read_human_scores

N = 3  # segments of the loaded data
SYSTEMS = ("a", "b")  # its systems (external and human scores refer to them)
SIZE_LIMIT = 1000  # MAX_FILE_BYTES while an oversize file is read: the check, not 200 MB of test data
LONG = "x" * 1_000_001  # one character over a segment's limit

_SEGMENTS = ("the cat sat .", "a dog ran .", "hello world")


def _jsonl(rows: list[Any]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


def _external(rows: list[tuple[str, int]]) -> str:
    return _jsonl([{"system": s, "segment": i, "score": 0.1 * (i + 1)} for s, i in rows])


def _human(rows: list[tuple[str, int]]) -> str:
    return _jsonl([{"SYS": s, "seg_id": i, "human_score": i + 2} for s, i in rows])


_PAIRS = [(s, i) for i in range(N) for s in SYSTEMS]  # line 2 is system b's score of the first segment


def _workspace(systems: dict[str, tuple[str, ...]] | None = None, options: Any = None, human: Any = None) -> str:
    """A workspace file of N segments of SYSTEMS, or of ``systems`` as they are (a dataset would refuse bad ones)."""
    data = Dataset(title="ws", systems={s: _SEGMENTS for s in SYSTEMS}, refs=(_SEGMENTS,), ref_names=("ref",))
    document = json.loads(workspace.dumps(data, workspace.Settings()))
    if systems is not None:
        document["systems"] = [{"name": name, "segments": list(texts)} for name, texts in systems.items()]
    document["settings"]["options"] = options or {}
    document["human"] = human
    return json.dumps(document, indent=1)


@dataclass(frozen=True)
class Surface:
    name: str  # the file's name: its suffix chooses the format
    good: str  # a valid file for N segments of SYSTEMS, with LF line ends
    line2: str  # its second line, which the bad classes replace


def _surface(name: str, good: str) -> Surface:
    return Surface(name, good, good.split("\n")[1])


SURFACES: dict[str, Surface] = {
    "segments .txt": _surface("x.txt", "".join(f"{s}\n" for s in _SEGMENTS)),
    "segments .jsonl": _surface("x.jsonl", _jsonl([{"text": s} for s in _SEGMENTS])),
    "segments .tsv": _surface("x.tsv", "id\ttext\n" + "".join(f"{i}\t{s}\n" for i, s in enumerate(_SEGMENTS))),
    "metadata .tsv": _surface("m.tsv", "domain\tdoc\nnews\td1\nnews\td1\nweb\td2\n"),
    "metadata .jsonl": _surface("m.jsonl", _jsonl([{"domain": d, "doc": c} for d, c in ("n1", "n1", "w2")])),
    "external .jsonl": _surface("e.jsonl", _external(_PAIRS)),
    "external .tsv": _surface("e.tsv", "a\tb\n0.1\t0.2\n0.3\t0.4\n0.5\t0.6\n"),
    "human .jsonl": _surface("h.jsonl", _human([(s, i + 1) for s, i in _PAIRS])),
    "workspace .json": _surface("w.json", _workspace()),
}

CLASSES = (
    "mismatched counts",
    "empty",
    "whitespace-only",
    "binary",
    "invalid UTF-8",
    "UTF-16 LE + BOM",
    "UTF-16 BE + BOM",
    "CRLF",
    "lone CR",
    "NUL",
    "1 MB line",
    "100k tiny lines",
    "deep JSON",
    "NaN/inf/text scores",
    "duplicate names",
    "oversize",
)

DEEP = "[" * 2000 + "]" * 2000  # 4 KB, as in the issue: json's parser would recurse 2,000 deep
_BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01"  # the NUL is on line 3


def _replace_line2(surface: Surface, new: str) -> str:
    lines = surface.good.split("\n")
    return "\n".join([lines[0], new, *lines[2:]])


@cache
def _format_specific() -> dict[str, dict[str, str]]:
    """Per class, per surface: the bad content of the classes that depend on the format (built once)."""
    return {
        "mismatched counts": {
            "segments .txt": "".join(f"{t}\n" for t in _SEGMENTS[:2]),
            "segments .jsonl": _jsonl(list(_SEGMENTS[:2])),
            "segments .tsv": "id\ttext\n1\ta\n",
            "metadata .tsv": "domain\nnews\nweb\n",
            "metadata .jsonl": _jsonl([{"domain": "n"}] * 2),
            "external .jsonl": _external(_PAIRS[:-1]),
            "external .tsv": "a\tb\n0.1\t0.2\n0.3\t0.4\n",
            "human .jsonl": _human([("a", 1), ("a", 4)]),
            "workspace .json": _workspace({"a": _SEGMENTS, "b": _SEGMENTS[:2]}),
        },
        "1 MB line": {
            "segments .jsonl": json.dumps({"text": LONG}),
            "segments .tsv": f"0\t{LONG}",
            "metadata .jsonl": json.dumps({"domain": LONG, "doc": "d1"}),
            "external .jsonl": json.dumps({"system": "b", "segment": 0, "score": 0.1, "note": LONG}),
            "external .tsv": f"0.1\t0.2{LONG}",
            "human .jsonl": json.dumps({"SYS": "b", "seg_id": 1, "human_score": 3, "note": LONG}),
            "workspace .json": "",
        },
        "100k tiny lines": {
            "segments .txt": "a\n" * 100_000,
            "segments .jsonl": '"a"\n' * 100_000,
            "segments .tsv": "id\ttext\n" + "1\ta\n" * 100_000,
            "metadata .tsv": "domain\n" + "a\n" * 100_000,
            "metadata .jsonl": '{"d": "a"}\n' * 100_000,
            "external .jsonl": _external([("a", i) for i in range(100_000)]),
            "external .tsv": "a\tb\n" + "0.1\t0.2\n" * 100_000,
            "human .jsonl": _human([("a", i + 1) for i in range(100_000)]),
            "workspace .json": _workspace({"a": ("a",) * 100_000, "b": _SEGMENTS}),
        },
        "deep JSON": {
            "segments .txt": DEEP,
            "segments .jsonl": DEEP,
            "segments .tsv": f"0\t{DEEP}",
            "metadata .tsv": f"{DEEP}\td1",
            "metadata .jsonl": DEEP,
            "external .jsonl": DEEP,
            "external .tsv": f"{DEEP}\t0.2",
            "human .jsonl": DEEP,
            "workspace .json": "",
        },
        "NaN/inf/text scores": {
            "external .jsonl": '{"system": "b", "segment": 0, "score": NaN}',
            "external .tsv": "inf\t0.2",
            "human .jsonl": '{"SYS": "b", "seg_id": 1, "human_score": "good"}',
            "workspace .json": "",
        },
        "duplicate names": {
            "metadata .tsv": "domain\tdomain",
            "metadata .jsonl": '{"domain": "n1", "domain": "n2"}',
            "external .jsonl": '{"system": "a", "segment": 0, "score": 0.3}',
            "external .tsv": "a\ta",
            "human .jsonl": '{"SYS": "a", "seg_id": 1, "human_score": 4}',
            "workspace .json": "",
        },
    }


def _specific(key: str, kind: str) -> str | None:
    """The payload of a class whose bad content depends on the format, or None when the class does not apply."""
    s, table = SURFACES[key], _format_specific()
    if kind not in table or key not in table[kind]:
        return None
    new = table[kind][key]
    if key == "workspace .json":
        return new or _workspace_payload(kind)
    if kind in ("mismatched counts", "100k tiny lines"):
        return new  # a whole file
    if kind == "duplicate names" and key in ("metadata .tsv", "external .tsv"):
        return "\n".join([new, *s.good.split("\n")[1:]])  # a header naming a column twice
    return _replace_line2(s, new)


def _workspace_payload(kind: str) -> str:
    if kind == "1 MB line":
        return _workspace({"a": (_SEGMENTS[0], LONG, _SEGMENTS[2]), "b": _SEGMENTS})
    if kind == "deep JSON":
        return _workspace(options={"bleu": {"tokenize": "__DEEP__"}}).replace('"__DEEP__"', DEEP)
    if kind == "NaN/inf/text scores":
        return _workspace(human={"source": "h", "scores": {"a": [1, 2, 3], "b": [1, 2, "__NAN__"]}}).replace(
            '"__NAN__"', "NaN"
        )
    return _workspace({"a": _SEGMENTS, "a ": _SEGMENTS}).replace('"a "', '"a"')  # two systems named a


@cache
def payload(key: str, kind: str) -> tuple[str, bytes]:
    """The file name and bytes of class ``kind`` on surface ``key`` (built once: some are megabytes)."""
    s = SURFACES[key]
    line2_at = len(s.good.split("\n")[0]) + 1
    simple: dict[str, bytes] = {
        "empty": b"",
        "whitespace-only": b" \n\t\n \n",
        "binary": _BINARY,
        "invalid UTF-8": s.good[:line2_at].encode() + b"\xff" + s.good[line2_at:].encode(),
        "UTF-16 LE + BOM": b"\xff\xfe" + s.good.encode("utf-16-le"),
        "UTF-16 BE + BOM": b"\xfe\xff" + s.good.encode("utf-16-be"),
        "CRLF": s.good.replace("\n", "\r\n").encode(),
        "lone CR": s.good.replace("\n", "\r").encode(),
        "NUL": s.good[:line2_at].encode() + b"\x00" + s.good[line2_at:].encode(),
        "oversize": s.good.encode() * (SIZE_LIMIT // len(s.good) + 1),
    }
    if kind in simple:
        return s.name, simple[kind]
    if kind == "1 MB line" and key == "segments .txt":
        return s.name, _replace_line2(s, LONG).encode()
    if kind == "1 MB line" and key == "metadata .tsv":
        return s.name, _replace_line2(s, f"{LONG}\td1").encode()
    specific = _specific(key, kind)
    if specific is None:
        raise KeyError((key, kind))
    return s.name, specific.encode()


def limit_file_size(monkeypatch: pytest.MonkeyPatch, limit: int = SIZE_LIMIT) -> None:
    """Every reader's file-size limit set to ``limit`` (each module holds its own binding of the constant)."""
    import dashboard.workspace
    import metrics.families.external.scores
    import metrics.io.inputs
    import metrics.io.metadata

    for module in (
        metrics.io.inputs,
        metrics.io.metadata,
        metrics.families.external.scores,
        dashboard.workspace,
    ):  # metrics.stats.human, metrics.annotations read through metrics.io.inputs.read_bounded
        monkeypatch.setattr(module, "MAX_FILE_BYTES", limit)


def read(key: str, name: str, data: bytes, folder: Path) -> list[str]:
    """Read ``data`` as the library reads surface ``key``, checked against N segments of SYSTEMS; the notes."""
    kind = key.split()[0]
    if kind == "segments":
        segments = parse_segments(data, name, column="text" if name.endswith(".tsv") else None)
        check_same_counts({"references": N, name: len(segments)})
        return list(segments.notes)
    if kind == "metadata":
        return list(parse_metadata(data, name, N).notes)
    if kind == "external":
        return list(parse_external(data, name, "ext", list(SYSTEMS), N).notes)
    if kind == "human":
        path = folder / name
        path.write_bytes(data)
        read_human_scores(path, N)
        return []
    workspace.loads(data, name)
    return []


@dataclass(frozen=True)
class Outcome:
    """Read (``ok``; a note holding ``pattern`` when one is given), or refused with a message holding ``pattern``,
    naming the file and line ``line`` (None: no one line is at fault)."""

    ok: bool
    pattern: str = ""
    line: int | None = None


def _read(note: str = "") -> Outcome:
    return Outcome(True, note)


def _refused(pattern: str, line: int | None = None) -> Outcome:
    return Outcome(False, pattern, line)


_COUNT = "different numbers of segments"
_SEGMENT_FILES = ("segments .txt", "segments .jsonl", "segments .tsv")
_JSON_LINES = ("segments .jsonl", "metadata .jsonl", "external .jsonl", "human .jsonl")


def expected(key: str, kind: str) -> Outcome | None:
    """What must come of class ``kind`` on surface ``key`` (None: the class does not apply to it)."""
    fixed = {
        "binary": _refused("binary file (it contains NUL bytes)", 3),
        "invalid UTF-8": _refused("are not valid UTF-8", 2),
        "NUL": _refused("binary file (it contains NUL bytes)", 2),
        "oversize": _refused(f"more than the limit of {SIZE_LIMIT:,}"),
    }
    if kind in fixed:
        return fixed[kind]
    if kind in ("UTF-16 LE + BOM", "UTF-16 BE + BOM"):
        return _read("read as UTF-16" if key.split()[0] in ("segments", "metadata", "external") else "")
    if kind == "CRLF":
        return _read("CRLF" if key.split()[0] in ("segments", "metadata", "external") else "")
    if kind == "lone CR":
        return _read("old Mac OS line ends" if key.split()[0] in ("segments", "metadata", "external") else "")
    return _TABLE.get((key, kind), _MISSING)


_MISSING = Outcome(False, "<no outcome written for this pair>")

_TABLE: dict[tuple[str, str], Outcome | None] = {
    # mismatched counts
    **{(k, "mismatched counts"): _refused(_COUNT) for k in _SEGMENT_FILES},
    ("metadata .tsv", "mismatched counts"): _refused("has 2 rows of metadata but the data has 3 segments"),
    ("metadata .jsonl", "mismatched counts"): _refused("has 2 rows of metadata but the data has 3 segments"),
    ("external .jsonl", "mismatched counts"): _refused("system 'b' has no score for 1 segment(s): 2"),
    ("external .tsv", "mismatched counts"): _refused("has no score for 1 segment(s): 2"),
    ("human .jsonl", "mismatched counts"): _refused("segment id 4 is not a line number 1..3", 2),
    ("workspace .json", "mismatched counts"): _refused("b: has 2 segments but the first reference has 3"),
    # empty
    **{(k, "empty"): _refused("file is empty") for k in (*_SEGMENT_FILES, "metadata .tsv", "metadata .jsonl")},
    ("external .jsonl", "empty"): _refused("file is empty"),
    ("external .tsv", "empty"): _refused("file is empty"),
    ("human .jsonl", "empty"): _refused("no human judgments"),
    ("workspace .json", "empty"): _refused("not a valid JSON workspace (Expecting value)", 1),
    # whitespace-only
    ("segments .txt", "whitespace-only"): _read("3 segment(s) empty or only whitespace"),
    ("segments .jsonl", "whitespace-only"): _refused("empty line in a JSON-lines file", 1),
    ("segments .tsv", "whitespace-only"): _refused("no column 'text'", 1),
    ("metadata .tsv", "whitespace-only"): _refused("row has 2 fields but the header has 1", 2),
    ("metadata .jsonl", "whitespace-only"): _refused("not valid JSON (Expecting value", 1),
    ("external .jsonl", "whitespace-only"): _refused("file is empty"),
    ("external .tsv", "whitespace-only"): _refused("file is empty"),
    ("human .jsonl", "whitespace-only"): _refused("no human judgments"),
    ("workspace .json", "whitespace-only"): _refused("not a valid JSON workspace (Expecting value)", 4),
    # a 1 MB line
    ("segments .txt", "1 MB line"): _refused("segment has 1,000,001 characters, more than the limit", 2),
    ("segments .jsonl", "1 MB line"): _refused("segment has 1,000,001 characters, more than the limit", 2),
    ("segments .tsv", "1 MB line"): _refused("segment has 1,000,001 characters, more than the limit", 2),
    ("metadata .tsv", "1 MB line"): _read(),
    **{(k, "1 MB line"): _refused("characters, more than the limit of 1,000,000", 2) for k in _JSON_LINES[1:]},
    ("external .tsv", "1 MB line"): _refused("is not a number", 2),
    ("workspace .json", "1 MB line"): _refused("holds a string of 1,000,001 characters"),
    # 100,000 tiny lines
    **{(k, "100k tiny lines"): _refused(_COUNT) for k in _SEGMENT_FILES},
    ("metadata .tsv", "100k tiny lines"): _refused("has 100000 rows of metadata but the data has 3 segments"),
    ("metadata .jsonl", "100k tiny lines"): _refused("has 100000 rows of metadata but the data has 3 segments"),
    ("external .jsonl", "100k tiny lines"): _refused("segment 3 is beyond the 3 loaded segments", 4),
    ("external .tsv", "100k tiny lines"): _refused("segment 3 is beyond the 3 loaded segments", 5),
    ("human .jsonl", "100k tiny lines"): _refused("segment id 4 is not a line number 1..3", 4),
    ("workspace .json", "100k tiny lines"): _refused("a: has 100000 segments but the first reference has 3"),
    # deeply nested JSON: text where the file is text, refused where it is JSON
    ("segments .txt", "deep JSON"): _read(),
    ("segments .tsv", "deep JSON"): _read(),
    ("metadata .tsv", "deep JSON"): _read(),
    **{(k, "deep JSON"): _refused("JSON nested more than 64 levels deep", 2) for k in _JSON_LINES},
    ("external .tsv", "deep JSON"): _refused("is not a number", 2),
    ("workspace .json", "deep JSON"): _refused("JSON nested more than 64 levels deep", 41),
    # NaN, infinity or text as a score
    **{(k, "NaN/inf/text scores"): None for k in (*_SEGMENT_FILES, "metadata .tsv", "metadata .jsonl")},
    ("external .jsonl", "NaN/inf/text scores"): _refused("score is nan; scores must be finite numbers", 2),
    ("external .tsv", "NaN/inf/text scores"): _refused("score is inf; scores must be finite numbers", 2),
    ("human .jsonl", "NaN/inf/text scores"): _refused("'human_score' must be a finite number, not 'good'", 2),
    ("workspace .json", "NaN/inf/text scores"): _refused("the number NaN is not JSON", 45),
    # duplicate names: of segment files, only the app sees several (it numbers them apart)
    **{(k, "duplicate names"): None for k in _SEGMENT_FILES},
    ("metadata .tsv", "duplicate names"): _refused("two columns share a name in the header", 1),
    ("metadata .jsonl", "duplicate names"): _refused("the key 'domain' appears twice in one object", 2),
    ("external .jsonl", "duplicate names"): _refused("a second score for system 'a', segment 0 (first on line 1)", 2),
    ("external .tsv", "duplicate names"): _refused("the header names a column twice: a, a", 1),
    ("human .jsonl", "duplicate names"): _refused("a second judgment of system 'a', segment 1", 2),
    ("workspace .json", "duplicate names"): _refused("two systems have the same name"),
}
